// @vitest-environment jsdom
// F1 opens the keyboard help, as in most programs (issue 34: "F1 does nothing"): pressed on the
// page, through the real dispatcher and key map, it opens the help overlay; pressed again it
// closes it. "?" still opens it too.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { resolveKeymap } from '../../lib/keymap';
import { useCommand } from '../../lib/commands';
import { useSession } from '../../stores/session';
import { useOverlay } from '../../stores/ui';
import { stubLayout } from '../../test/fake-terminal';
import { HelpOverlay } from './HelpOverlay';
import { useGlobalHotkeys } from './useGlobalHotkeys';
import { key } from '../../test/keys';

function Stage() {
  useGlobalHotkeys();
  // what the app registers for "?" (App.tsx's useAppCommands)
  const show = useOverlay((s) => s.show);
  const open = useOverlay((s) => s.open);
  useCommand('app.help', () => show(open === 'help' ? null : 'help'));
  return (
    <div data-panel="markets">
      <div role="region" aria-label="Markets" tabIndex={0} />
      <HelpOverlay />
    </div>
  );
}

const helpOpen = () => screen.queryByRole('dialog', { name: /^Keyboard/ })?.hasAttribute('open') ?? false;

beforeAll(stubLayout);
beforeEach(() => {
  useSession.setState({ keymap: resolveKeymap() });
  useOverlay.setState({ open: null });
});
afterEach(cleanup);

describe('F1', () => {
  it('opens the keyboard help from a panel, and closes it again', async () => {
    render(<Stage />);
    act(() => screen.getByRole('region', { name: 'Markets' }).focus());
    expect(helpOpen()).toBe(false);
    key({ key: 'F1', code: 'F1' });
    await waitFor(() => expect(helpOpen()).toBe(true));
    expect(screen.getByRole('dialog', { name: /^Keyboard/ }).textContent).toContain('F1');
    act(() => useOverlay.getState().show(null));
    await waitFor(() => expect(helpOpen()).toBe(false));
    // "?" still opens it
    act(() => screen.getByRole('region', { name: 'Markets' }).focus());
    key({ key: '?', code: 'Slash', shiftKey: true });
    await waitFor(() => expect(helpOpen()).toBe(true));
  });
});
