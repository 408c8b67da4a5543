// @vitest-environment jsdom
// The Settings dialog opens on the settings as they are now: changed since its last opening (a
// theme or text size set by key or menu), no frame of it shows the old value, and Save then
// writes what it shows.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { DEFAULT_SETTINGS } from '../../../src-shared/ipc/defaults';
import { resolveKeymap } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useOverlay } from '../../stores/ui';
import { SettingsDialog } from './SettingsDialog';

let fake: FakeTerminal;
/** the Theme field, the dialog's first (read from the DOM: a closed dialog hides it from the accessibility tree) */
const themeField = () => document.querySelector<HTMLSelectElement>('dialog select')!;

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.saveSettings.mockReset();
  fake.api.saveSettings.mockImplementation(async (patch: object) => ({ ...useSession.getState().settings, ...patch }));
  useSession.setState({ keymap: resolveKeymap(), settings: { ...DEFAULT_SETTINGS, theme: 'dark' } });
  useOverlay.setState({ open: null });
});
afterEach(cleanup);

describe('the Settings dialog', () => {
  it('opened after the theme changed while it was closed, no frame shows the old theme, and Save keeps the new one', async () => {
    render(withQueries(<SettingsDialog />));
    // opened and closed once: its form held the dark theme
    act(() => useOverlay.getState().show('settings'));
    await waitFor(() => expect(themeField().value).toBe('dark'));
    act(() => useOverlay.getState().show(null));
    // the theme changes by key while the dialog is closed
    act(() => useSession.setState({ settings: { ...useSession.getState().settings, theme: 'light' } }));
    const frames: string[] = [];
    const dialog = document.querySelector('dialog')!;
    const seen = new MutationObserver(() => {
      if (dialog.open && themeField()) frames.push(themeField().value);
    });
    seen.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    // opened the way a key opens it, outside React's test batching: each commit is seen as the page would paint it
    useOverlay.getState().show('settings');
    await waitFor(() => expect(dialog.open).toBe(true));
    await waitFor(() => expect(themeField().value).toBe('light'));
    seen.disconnect();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((v) => v !== 'light'), frames.join(', ')).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.api.saveSettings).toHaveBeenCalled());
    expect(fake.api.saveSettings.mock.calls[0]![0]).toMatchObject({ theme: 'light' });
  });
});
