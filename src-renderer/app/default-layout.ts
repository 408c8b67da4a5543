// The layout a new profile starts with (and "reset layout" returns to): markets on the left,
// ladder and ticket in the middle, chart on the right, blotters below.
import type { DockviewApi } from 'dockview';
import { PANEL_TITLES, type PanelId } from '../lib/keymap';

export function buildDefaultLayout(api: DockviewApi, withFcm: boolean): void {
  const add = (id: PanelId, position?: Parameters<DockviewApi['addPanel']>[0]['position'], size?: { initialWidth?: number; initialHeight?: number }) =>
    api.addPanel({ id, component: id, title: PANEL_TITLES[id], ...(position ? { position } : {}), ...(size ?? {}) });
  add('markets', undefined, { initialWidth: 560 });
  add('ladder', { referencePanel: 'markets', direction: 'right' }, { initialWidth: 330 });
  add('chart', { referencePanel: 'ladder', direction: 'right' });
  // the depth heatmap, a tab beside the chart (the chart stays in front)
  api.addPanel({ id: 'heatmap', component: 'heatmap', title: PANEL_TITLES.heatmap, inactive: true, position: { referencePanel: 'chart', direction: 'within' } });
  add('ticket', { referencePanel: 'ladder', direction: 'below' }, { initialHeight: 330 });
  add('orders', { referencePanel: 'chart', direction: 'below' }, { initialHeight: 300 });
  const below: PanelId[] = ['positions', 'rfq', 'history', 'livedata', 'account'];
  if (withFcm) below.push('fcm');
  for (const id of below) add(id, { referencePanel: 'orders', direction: 'within' });
  // The grid splits space evenly whatever the hints; give the blotters column the room its
  // tables need (the ladder needs little), scaled to the window.
  const width = api.width || 1600;
  // wide enough for the list's columns through Last at 1600 px
  api.getPanel('markets')?.group.api.setSize({ width: Math.round(width * 0.36) });
  api.getPanel('ladder')?.group.api.setSize({ width: Math.round(width * 0.23) });
  api.getPanel('orders')?.api.setActive();
  api.getPanel('markets')?.api.setActive();
}
