// @vitest-environment jsdom
// A chart's window moves on each period; its reads are one cache entry per market and period,
// not one per minute (each minute's day of 1m candles stayed cached for five minutes after).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { installFakeTerminal, type FakeTerminal } from '../../test/fake-terminal';
import { createQueryClient } from '../../lib/query';
import { useWindowRead, windowAt } from './window-read';

let fake: FakeTerminal;
beforeAll(() => {
  fake = installFakeTerminal();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const args = { params: { series_ticker: 'KXS', ticker: 'KXS-1' }, query: { period_interval: 60 as const } };

describe('useWindowRead', () => {
  it('reads the window ending with the current minute, again as each minute turns, into one cache entry', async () => {
    vi.useFakeTimers({ now: new Date('2026-12-01T12:00:30Z'), shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    fake.reads.getMarketCandlesticks = (input: { query: { end_ts: number } }) => ({ ticker: 'KXS-1', candlesticks: [{ end_period_ts: input.query.end_ts }] });
    fake.api.request.mockClear();
    const qc = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useWindowRead('getMarketCandlesticks', 60, args, { enabled: true }), { wrapper });
    await vi.waitFor(() => expect(result.current.data).toBeDefined());
    const t0 = Math.floor(Date.parse('2026-12-01T12:00:30Z') / 1000);
    const ends = () => fake.api.request.mock.calls.map((c) => (c[0] as { query: { end_ts: number; start_ts: number } }).query);
    expect(ends()).toEqual([{ period_interval: 60, ...windowAt(60, t0) }]);
    expect(windowAt(60, t0)).toEqual({ start_ts: t0 + 30 - 86_400, end_ts: t0 + 30 });
    for (let m = 1; m <= 3; m++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
    }
    await waitFor(() => expect(ends()).toHaveLength(4));
    expect(ends().map((q) => q.end_ts)).toEqual([t0 + 30, t0 + 90, t0 + 150, t0 + 210]);
    expect(ends().every((q) => q.end_ts - q.start_ts === 86_400)).toBe(true);
    // the last window's candles, in the one entry this market and period have
    expect(result.current.data!.candlesticks[0]!.end_period_ts).toBe(t0 + 210);
    expect(qc.getQueryCache().findAll({ queryKey: ['rest', 'getMarketCandlesticks'] })).toHaveLength(1);
  });

  it('reads nothing without its arguments or when not enabled', async () => {
    fake.api.request.mockClear();
    const qc = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    renderHook(() => useWindowRead('getEventCandlesticks', 3600, undefined, { enabled: true }), { wrapper });
    renderHook(() => useWindowRead('getMarketCandlesticks', 60, args, { enabled: false }), { wrapper });
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.api.request).not.toHaveBeenCalled();
  });
});
