// The charts' reads over a window that ends with the current period: a day of 1m candles, 30
// days of 1h, a year of 1d. The window is read when the query runs, not put in its key: one cache
// entry per market, period and read, fetched again as the period turns. Keyed by the window (it
// moved every minute on the 1m chart), every minute's day of candles (1,441 of them, four
// objects each) stayed in the query cache for the five minutes after it was left: the page's
// heap grew by about a megabyte over five minutes of a 1m chart.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EndpointId } from '../../../src-shared/endpoints';
import { restCall, restKey, type RestArgs } from '../../lib/rest';
import { bucketEnd } from './candles';

export type Period = 60 | 3600 | 86400;

export const PERIODS: { id: Period; label: string; span: number }[] = [
  { id: 60, label: '1m', span: 24 * 3600 },
  { id: 3600, label: '1h', span: 30 * 86400 },
  { id: 86400, label: '1d', span: 365 * 86400 },
];

/** The window ending with the period that holds `nowS` (seconds). */
export function windowAt(period: Period, nowS: number): { start_ts: number; end_ts: number } {
  const end = bucketEnd(nowS, period);
  return { start_ts: end - PERIODS.find((p) => p.id === period)!.span, end_ts: end };
}

/** How often a chart reads its window again: each period, and at least a minute apart. */
export const windowRefetchMs = (period: Period) => Math.max(60_000, period * 1000);

/** An endpoint's arguments without the window, which the query adds when it runs. */
export type WithoutWindow<A> = A extends { query: infer Q } ? Omit<A, 'query'> & { query: Omit<Q, 'start_ts' | 'end_ts'> } : A;

/**
 * `id` with `args` (without the window) and the window now, as its query; keyed by `args` alone.
 * `keep`: while another market or period loads, the chart shows the one before.
 */
export function useWindowRead<K extends EndpointId>(id: K, period: Period, args: WithoutWindow<RestArgs<K>> | undefined, opts: { enabled: boolean; keep?: boolean }) {
  return useQuery({
    queryKey: [...restKey(id, args as RestArgs<K> | undefined), 'window'],
    queryFn: () => {
      const a = (args ?? {}) as { query?: Record<string, unknown> };
      return restCall(id, { ...a, query: { ...a.query, ...windowAt(period, Math.floor(Date.now() / 1000)) } } as RestArgs<K>);
    },
    enabled: opts.enabled && args !== undefined,
    refetchInterval: windowRefetchMs(period),
    ...(opts.keep ? { placeholderData: keepPreviousData } : {}),
  });
}
