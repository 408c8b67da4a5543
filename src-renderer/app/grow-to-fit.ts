// A panel that stacks a form over a list (Alerts) needs more height than the blotters' group has
// in a short window (1280x720: about 265 px for a form of three rows, the list and its history),
// and there it scrolled as a whole, its list out of view. Going to it grows its group to fit its
// content, taking the height from the group beside it (the chart), never more than TALL_SHARE of
// the layout. The trader can drag the sash back; the next visit grows it again.
import type { DockviewApi } from 'dockview';
import type { PanelId } from '../lib/keymap';

/** the panels whose group grows to fit them when gone to */
export const GROWS_TO_FIT: ReadonlySet<PanelId> = new Set<PanelId>(['alerts']);
/** the most of the layout's height such a group takes */
export const TALL_SHARE = 0.68;

/**
 * Grows the group of panel `id` (docked in the grid) by what its content needs beyond its height.
 * The content may reflow once it has the room (a scroll bar gone, a table's rows laid out): it is
 * measured again on the next frames, a few times at most.
 */
export function growToFit(api: DockviewApi, id: PanelId, content: HTMLElement | null, tries = 3): void {
  const panel = api.getPanel(id);
  if (!panel || !content || panel.group.api.location.type !== 'grid') return;
  const short = content.scrollHeight - content.clientHeight;
  if (short <= 0) return;
  const height = Math.min(panel.group.height + short, Math.round(api.height * TALL_SHARE));
  if (height <= panel.group.height) return;
  panel.group.api.setSize({ height });
  if (tries > 1) requestAnimationFrame(() => growToFit(api, id, content, tries - 1));
}
