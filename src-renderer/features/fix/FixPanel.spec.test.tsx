// @vitest-environment jsdom
// The FIX & drop copy panel and its status-bar item: honest loading and empty states, the
// settings saved through the contract by keyboard, and a disagreement listed.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { FixView } from '../../../src-shared/ipc/fix';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { setFixView, useFix } from '../../stores/fix';
import { FixPanel } from './FixPanel';

let fake: FakeTerminal;
beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
  fake.reads.getExchangeSchedule = { schedule: { standard_hours: [], maintenance_windows: [] } };
  fake.reads.getExchangeAnnouncements = { announcements: [] };
});
afterEach(() => {
  cleanup();
  useFix.setState({ view: null });
});

const off: FixView = { profileId: 'embedded', settings: null, unavailable: null, orderEntry: null, dropCopy: null };
const session = { phase: 'up' as const, detail: 'logged on', endpoint: '127.0.0.1:9000' };

describe('the FIX panel', () => {
  it('says it is loading until main has answered, then that the drop copy is off', () => {
    render(<FixPanel />);
    expect(screen.getByText('Loading the FIX sessions…')).toBeTruthy();
    act(() => setFixView(off));
    expect(screen.getByText('The drop copy is off for this profile.')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Order entry session' }).textContent).toContain('off');
  });

  it('saves the route for the active profile from the keyboard (Space, then Enter on Save)', async () => {
    const on: FixView = { ...off, settings: { orderEntry: true, dropCopy: false }, orderEntry: session };
    fake.api.saveFixSettings.mockResolvedValue(on);
    setFixView(off);
    render(<FixPanel />);
    const box = screen.getByLabelText('Route order entry over FIX (REST when the session is down)');
    box.focus();
    fireEvent.click(box); // what Space does on a focused checkbox
    fireEvent.submit(screen.getByRole('form', { name: 'FIX settings' }));
    await waitFor(() => expect(fake.api.saveFixSettings).toHaveBeenCalledWith({ profileId: 'embedded', settings: { orderEntry: true, dropCopy: false } }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Order entry session' }).textContent).toContain('logged on'));
  });

  it('lists a disagreement with what each side says', () => {
    setFixView({
      ...off,
      settings: { orderEntry: true, dropCopy: true },
      orderEntry: session,
      dropCopy: { ...session, orders: 2, checkedAt: 1, disagreements: [{ orderId: 'o-1', ticker: 'M-1', dropCopy: 'canceled, filled 0.00', terminal: 'resting, filled 0.00', since: 1 }] },
    });
    render(withQueries(<FixPanel />));
    const row = screen.getByRole('table', { name: 'Drop-copy disagreements' }).querySelector('tr[data-order="o-1"]')!;
    expect(row.textContent).toContain('canceled, filled 0.00');
    expect(row.textContent).toContain('resting, filled 0.00');
  });
});
