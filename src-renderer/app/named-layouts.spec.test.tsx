// @vitest-environment jsdom
// Named layouts and the text size (issue 34 item 8: "no font-size setting, no named layouts, reset
// layout without a question"), through the real dock layout, key dispatcher, command palette and
// dialogs, over a stand-in for main that keeps the named layouts as main does (by name, per profile):
// - Layouts (Alt+Shift+M) says "No saved layouts yet" when there are none;
// - "Save layout as…" from the palette (typed + Enter: not a trading entry) saves the arrangement
//   under a name; a new panel, then Switch to it: the panels are back as saved;
// - a bad name is said as it is typed and never sent; main's refusal is shown as main said it;
// - Delete asks first, Keep focused; Keep keeps it; Delete removes it, and the empty state is back;
// - Reset layout asks, and Escape (the dialog's cancel) keeps the panels;
// - Settings → Text size saves fontPx and scales the page's text and the ladder's row height;
//   Alt+Shift+= / Alt+Shift+- step it.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearFakeCalls, installDockTestbed, loadedApp, withQueries, type FakeTerminal } from '../test/fake-terminal';
import type { Settings } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';
import { resolveKeymap } from '../lib/keymap';
import { useCommand } from '../lib/commands';
import { useSession } from '../stores/session';
import { useOverlay } from '../stores/ui';
import { useTrading } from '../stores/trading';
import { useNamedLayouts } from '../stores/named-layouts';
import { useGlobalHotkeys } from '../features/keyboard/useGlobalHotkeys';
import { CommandPalette } from '../features/keyboard/CommandPalette';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { useFontSize } from '../features/settings/font-size';
import { ConfirmHost } from '../ui/confirm';
import { DockLayout } from './Layout';
import { key } from '../test/keys';

let fake: FakeTerminal;
/** what "main" keeps: profile -> name -> layout */
let kept: Map<string, Map<string, { savedAt: number; layout: unknown }>>;
const view = (profileId: string) => ({ layouts: [...(kept.get(profileId) ?? new Map()).entries()].map(([name, l]) => ({ name, savedAt: l.savedAt })) });

function Keys() {
  useGlobalHotkeys();
  useFontSize();
  const show = useOverlay((s) => s.show);
  const open = useOverlay((s) => s.open);
  useCommand('app.palette', () => show(open === 'palette' ? null : 'palette'));
  useCommand('app.settings', () => show('settings'));
  return null;
}
const Stage = () => withQueries(<><Keys /><ConfirmHost /><CommandPalette /><SettingsDialog /><DockLayout /></>);

const ladders = () => [...document.querySelectorAll<HTMLElement>('[data-panel="ladder"]')];
const layoutsDialog = () => screen.getByRole('dialog', { name: /^Layouts/ });
const openLayouts = async () => {
  act(() => document.body.focus());
  key({ key: 'M', code: 'KeyM', altKey: true, shiftKey: true });
  return screen.findByRole('dialog', { name: /^Layouts/ });
};
const typeName = (text: string) => act(() => {
      fireEvent.change(within(layoutsDialog()).getByRole('textbox', { name: 'Layout name' }), { target: { value: text } });
    });

// a loaded machine renders the dock slowly: the waits wait on conditions for up to 15 s
// (src-renderer/test/setup-waits.ts), never on a clock
vi.setConfig({ testTimeout: 120_000 });

beforeAll(() => {
  fake = installDockTestbed();
});
beforeEach(() => {
  clearFakeCalls(fake);
  kept = new Map();
  fake.api.getLayout.mockResolvedValue(null);
  fake.api.listNamedLayouts.mockImplementation(async (profileId: string) => view(profileId));
  fake.api.saveNamedLayout.mockImplementation(async ({ profileId, name, layout }: { profileId: string; name: string; layout: unknown }) => {
    if (name.trim() === 'taken by main') throw Object.assign(new Error('a profile keeps at most 20 named layouts; delete one first (nothing saved)'), { kind: 'state' });
    const m = kept.get(profileId) ?? new Map();
    m.set(name.trim(), { savedAt: Date.now(), layout: JSON.parse(JSON.stringify(layout)) as unknown });
    kept.set(profileId, m);
    return view(profileId);
  });
  fake.api.getNamedLayout.mockImplementation(async ({ profileId, name }: { profileId: string; name: string }) => kept.get(profileId)?.get(name)?.layout);
  fake.api.deleteNamedLayout.mockImplementation(async ({ profileId, name }: { profileId: string; name: string }) => {
    kept.get(profileId)?.delete(name);
    return view(profileId);
  });
  fake.api.saveSettings.mockResolvedValue(undefined);
  useSession.setState({ keymap: resolveKeymap(), settings: DEFAULT_SETTINGS, app: loadedApp('p1') });
  useTrading.setState({ ticker: null, groups: { red: null, green: null, blue: null, yellow: null } });
  useNamedLayouts.setState({ profileId: null, layouts: null, loadError: null, current: null });
  useOverlay.setState({ open: null });
});
afterEach(cleanup);

describe('named layouts', () => {
  it('Layouts says so when none is saved; the palette\'s "Save layout as…" saves one; Switch brings its panels back', async () => {
    render(<Stage />);
    await waitFor(() => expect(ladders()).toHaveLength(1));
    const dialog = await openLayouts();
    expect(await within(dialog).findByText(/No saved layouts yet/)).toBeTruthy();
    act(() => within(dialog).getByRole('button', { name: 'Close' }).click());

    // the palette: typed + Enter runs the (non-trading) entry the palette picked
    act(() => document.body.focus());
    key({ key: 'k', code: 'KeyK', ctrlKey: true } as never);
    const search = await screen.findByRole('combobox', { name: 'Search actions' }).catch(() => screen.getByLabelText('Search actions'));
    act(() => {
      fireEvent.change(search, { target: { value: 'save layout as' } });
    });
    await waitFor(() => expect(document.querySelector('[cmdk-item][data-selected="true"]')?.textContent).toMatch(/Save layout as/));
    act(() => {
      fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', bubbles: true });
    });
    await screen.findByRole('dialog', { name: /^Layouts/ });
    await waitFor(() => expect(document.activeElement).toBe(within(layoutsDialog()).getByRole('textbox', { name: 'Layout name' })));
    typeName('scalp');
    act(() => {
      fireEvent.submit(document.activeElement!.closest('form')!);
    });
    await waitFor(() => expect(fake.api.saveNamedLayout).toHaveBeenCalledTimes(1));
    const sent = fake.api.saveNamedLayout.mock.calls[0]![0] as { profileId: string; name: string; layout: { version: number; dock: { panels: Record<string, unknown> } } };
    expect(sent.profileId).toBe('p1');
    expect(sent.name).toBe('scalp');
    expect(sent.layout.version).toBe(1);
    expect(Object.keys(sent.layout.dock.panels)).toContain('ladder');
    await within(layoutsDialog()).findByRole('button', { name: 'Switch to layout scalp' });
    act(() => within(layoutsDialog()).getByRole('button', { name: 'Close' }).click());

    // the layout changes (a second ladder), then back to "scalp": one ladder again
    act(() => document.body.focus());
    key({ key: 'L', code: 'KeyL', altKey: true, shiftKey: true });
    await waitFor(() => expect(ladders()).toHaveLength(2));
    const again = await openLayouts();
    act(() => within(again).getByRole('button', { name: 'Switch to layout scalp' }).click());
    await waitFor(() => expect(ladders()).toHaveLength(1));
    expect(fake.api.getNamedLayout).toHaveBeenCalledWith({ profileId: 'p1', name: 'scalp' });
  });

  it('a bad name is said as it is typed and never sent; main\'s refusal is shown as main said it', async () => {
    render(<Stage />);
    await waitFor(() => expect(ladders()).toHaveLength(1));
    const dialog = await openLayouts();
    const save = () => within(dialog).getByRole('button', { name: /^(Save|Replace)$/ }) as HTMLButtonElement;
    for (const [text, why] of [
      ['scalp\tfast', /control characters/],
      ['x'.repeat(65), /at most 64 characters/],
      ['   ', null],
    ] as const) {
      typeName(text);
      expect(save().disabled, JSON.stringify(text)).toBe(true);
      if (why) expect(within(dialog).getByRole('alert').textContent).toMatch(why);
      act(() => {
      fireEvent.submit(save().closest('form')!);
    });
    }
    expect(fake.api.saveNamedLayout).not.toHaveBeenCalled();
    typeName('taken by main');
    act(() => save().click());
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toMatch(/at most 20 named layouts/));
    expect(kept.size).toBe(0);
  });

  it('Delete asks first with Keep focused; Keep keeps it, Delete removes it and the empty state is back', async () => {
    kept.set('p1', new Map([['news', { savedAt: 1, layout: { version: 1 } }]]));
    render(<Stage />);
    await waitFor(() => expect(ladders()).toHaveLength(1));
    const dialog = await openLayouts();
    act(() => within(dialog).getByRole('button', { name: 'Delete layout news' }).click());
    const keep = within(dialog).getByRole('button', { name: 'Keep' });
    expect(document.activeElement).toBe(keep);
    act(() => keep.click());
    expect(fake.api.deleteNamedLayout).not.toHaveBeenCalled();
    act(() => within(dialog).getByRole('button', { name: 'Delete layout news' }).click());
    act(() => within(dialog).getByRole('button', { name: 'Delete' }).click());
    await within(dialog).findByText(/No saved layouts yet/);
    expect(fake.api.deleteNamedLayout).toHaveBeenCalledWith({ profileId: 'p1', name: 'news' });
  });
});

describe('reset layout asks', () => {
  it('Alt+Shift+R asks; Escape (the dialog\'s cancel) keeps every panel, and nothing is reset', async () => {
    render(<Stage />);
    await waitFor(() => expect(ladders()).toHaveLength(1));
    act(() => document.body.focus());
    key({ key: 'L', code: 'KeyL', altKey: true, shiftKey: true });
    await waitFor(() => expect(ladders()).toHaveLength(2));
    act(() => document.body.focus());
    key({ key: 'R', code: 'KeyR', altKey: true, shiftKey: true });
    const question = await screen.findByRole('dialog', { name: /^Reset the layout\?/ });
    // what a browser does on Escape in a modal dialog: a cancel event on it
    act(() => {
      fireEvent.keyDown(question, { key: 'Escape', code: 'Escape', bubbles: true });
      question.dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Reset the layout\?/ })).toBeNull());
    expect(ladders()).toHaveLength(2);
  });
});

describe('text size', () => {
  const root = document.documentElement;
  it('Settings → Text size saves fontPx and scales the text and the ladder rows; Alt+Shift+= / - step it', async () => {
    render(<Stage />);
    await waitFor(() => expect(root.style.getPropertyValue('--fs')).toBe('1'));
    expect(root.style.getPropertyValue('--ladder-row')).toBe('18px');
    act(() => useOverlay.getState().show('settings'));
    const dialog = await screen.findByRole('dialog', { name: /^Settings/ });
    act(() => {
      fireEvent.change(within(dialog).getByRole('combobox', { name: /Text size/ }), { target: { value: '14' } });
    });
    act(() => within(dialog).getByRole('button', { name: 'Save' }).click());
    await waitFor(() => expect(fake.api.saveSettings).toHaveBeenCalledTimes(1));
    expect((fake.api.saveSettings.mock.calls[0]![0] as Settings).fontPx).toBe(14);
    await waitFor(() => expect(root.style.getPropertyValue('--ladder-row')).toBe('21px'));
    expect(Number(root.style.getPropertyValue('--fs'))).toBeCloseTo(14 / 12, 6);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Settings/ })).toBeNull());

    act(() => document.body.focus());
    key({ key: '+', code: 'Equal', altKey: true, shiftKey: true });
    await waitFor(() => expect(root.dataset.fontPx).toBe('16'));
    expect(root.style.getPropertyValue('--ladder-row')).toBe('24px');
    expect((fake.api.saveSettings.mock.calls.at(-1)![0] as Settings).fontPx).toBe(16);
    key({ key: '_', code: 'Minus', altKey: true, shiftKey: true });
    key({ key: '_', code: 'Minus', altKey: true, shiftKey: true });
    await waitFor(() => expect(root.dataset.fontPx).toBe('13'));
  });
});
