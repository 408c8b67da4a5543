// @vitest-environment jsdom
// The status bar's FIX item: absent while the profile uses no FIX session, the order session's
// state (REST while it is down), and the drop copy in red with a count when it disagrees.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { installFakeTerminal, stubLayout, withQueries } from '../../test/fake-terminal';
import { useConnection } from '../../stores/connection';
import { setFixView } from '../../stores/fix';
import { StatusBar } from './StatusBar';

beforeAll(() => {
  stubLayout();
  const fake = installFakeTerminal();
  fake.reads.getExchangeSchedule = { schedule: { standard_hours: [], maintenance_windows: [] } };
  fake.reads.getExchangeAnnouncements = { announcements: [] };
  useConnection.setState({ view: null, bridge: { phase: 'open', attempt: 0, retryAt: null, detail: '', reconnects: 0 } });
});
afterEach(cleanup);

const base = { profileId: 'embedded', settings: { orderEntry: true, dropCopy: true }, unavailable: null };

describe('the status bar FIX item', () => {
  it('is absent without FIX sessions', () => {
    setFixView({ ...base, settings: null, orderEntry: null, dropCopy: null });
    render(withQueries(<StatusBar />));
    expect(screen.queryByRole('status', { name: 'FIX' })).toBeNull();
  });

  it('says orders go over REST while the FIX session is down', () => {
    setFixView({ ...base, orderEntry: { phase: 'down', detail: 'ECONNREFUSED', endpoint: '127.0.0.1:1' }, dropCopy: null });
    render(withQueries(<StatusBar />));
    expect(screen.getByRole('status', { name: 'FIX' }).textContent).toContain('FIX down · REST');
  });

  it('turns red with the count when the drop copy disagrees', () => {
    const up = { phase: 'up' as const, detail: 'logged on', endpoint: '127.0.0.1:9000' };
    setFixView({ ...base, orderEntry: up, dropCopy: { ...up, orders: 3, checkedAt: 1, disagreements: [{ orderId: 'o-1', ticker: 'M', dropCopy: 'canceled, filled 0.00', terminal: 'resting, filled 0.00', since: 1 }] } });
    render(withQueries(<StatusBar />));
    const item = screen.getByRole('status', { name: 'FIX' });
    expect(item.textContent).toContain('FIX up');
    expect(item.textContent).toContain('⚠ Drop copy: 1 disagreement');
    expect(item.querySelector('.neg')?.getAttribute('title')).toContain('o-1 M: drop copy canceled, filled 0.00, terminal resting, filled 0.00');
  });
});
