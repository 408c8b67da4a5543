// @vitest-environment jsdom
// The status bar shows what a trader feels: the ping with its recent history, the order ack
// round trip, the clock correction when there is one, and the kill switch at all times.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { ConnectionView } from '../../../src-shared/ipc/contract';
import { DEFAULT_RISK_LIMITS } from '../../../src-shared/ipc/risk';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { useConnection } from '../../stores/connection';
import { setRiskView } from '../../stores/risk';
import { StatusBar } from './StatusBar';

let fake: FakeTerminal;
beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
  fake.reads.getExchangeSchedule = { schedule: { standard_hours: [], maintenance_windows: [] } };
  fake.reads.getExchangeAnnouncements = { announcements: [] };
});
afterEach(cleanup);

const view = (extra: Partial<ConnectionView>): ConnectionView => ({
  phase: 'live',
  detail: '',
  latencyMs: 12,
  reconnects: 0,
  limits: null,
  exchange: null,
  userId: 'u',
  isFcmMember: false,
  clockOffsetMs: null,
  ...extra,
});

describe('the status bar', () => {
  it('shows the ping, its history as a sparkline, and the order ack round trip', () => {
    useConnection.setState({ view: view({ latencyHistory: [10, 14, 12, 30, 12], orderAck: { lastMs: 31, p50Ms: 24, count: 7 } }), bridge: { phase: 'open', attempt: 0, retryAt: null, detail: '', reconnects: 0 } });
    render(withQueries(<StatusBar />));
    const bar = screen.getByRole('contentinfo', { name: 'Status' });
    expect(bar.textContent).toContain('ping 12 ms');
    expect(bar.textContent).toContain('ack 31 ms (p50 24)');
    expect(screen.getByRole('img', { name: 'Ping history, last 5 round trips' })).toBeTruthy();
  });

  it('draws its rate-limit meters without resizing a box: the fill is scaled, the figure sits in a fixed cell', () => {
    useConnection.setState({ view: view({ limits: { read: { available: 5, capacity: 20 }, write: { available: 20, capacity: 20 } } }), bridge: { phase: 'open', attempt: 0, retryAt: null, detail: '', reconnects: 0 } });
    render(withQueries(<StatusBar />));
    const read = screen.getByRole('meter', { name: 'Read rate-limit headroom' });
    expect(read.getAttribute('aria-valuenow')).toBe('25');
    const fill = read.firstElementChild as HTMLElement;
    expect(fill.style.width).toBe('');
    expect(fill.style.transform).toBe('scaleX(0.25)');
    expect(read.nextElementSibling?.className).toContain('num-cell');
    expect(read.nextElementSibling?.textContent).toBe('25%');
    expect(screen.getByRole('meter', { name: 'Write rate-limit headroom' }).getAttribute('aria-valuenow')).toBe('100');
  });

  it('shows the clock correction only when it is applied, and why signing stopped', () => {
    useConnection.setState({ view: view({ clockOffsetMs: 400 }) });
    const { unmount } = render(withQueries(<StatusBar />));
    expect(screen.queryByText(/clock/)).toBeNull();
    unmount();
    useConnection.setState({ view: view({ clockOffsetMs: 2500 }) });
    const r2 = render(withQueries(<StatusBar />));
    expect(screen.getByText(/clock \+2\.5 s/)).toBeTruthy();
    r2.unmount();
    useConnection.setState({ view: view({ clockOffsetMs: 61000, clockProblem: 'the exchange clock is 61 s off' }) });
    render(withQueries(<StatusBar />));
    expect(screen.getByRole('alert').textContent).toMatch(/not signing/);
  });

  it('shows the kill switch state at all times', () => {
    useConnection.setState({ view: view({}) });
    setRiskView({ profileId: 'p', limits: DEFAULT_RISK_LIMITS, killSwitch: { engaged: true, since: 1, detail: 'canceled 3' }, dailyPnl: '0.00' });
    render(withQueries(<StatusBar />));
    expect(screen.getByText('KILL SWITCH ON')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Release…' })).toBeTruthy();
  });
});
