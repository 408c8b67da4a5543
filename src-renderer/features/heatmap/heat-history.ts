// The heatmaps' history, recorded from the stores every panel reads (main's book views, the tape,
// my orders and fills), for the markets the panels show: the selected market, every link group's
// and every pinned panel's (those are the ones a heatmap can show). At most MAX_MARKETS rings are
// kept (the one shown longest ago is dropped first); each ring's length comes from Settings
// (heatmapMinutes, default 10 minutes at 250 ms buckets) and is allocated whole when its market is
// first shown (heat-model.ts, ColumnRing), so recording does not grow the heap. Replays feed the same stores, so a
// replayed recording is recorded the same way (at the time it is replayed).
import { countToCenti, dollarsToTicks } from '../../../src-shared/money';
import { booksStore } from '../../stores/books';
import { marketStore } from '../../stores/market';
import { privateStore, restingOrdersIn } from '../../stores/private';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import type { BookView } from '../../../src-shared/ipc/contract';
import { BUCKET_MS, DEFAULT_MINUTES, HeatSeries, MAX_MINUTES, MIN_MINUTES, columnsFor } from './heat-model';

export const MAX_MARKETS = 8;

const series = new Map<string, HeatSeries>();
/** when each market was last among the shown ones (for dropping the oldest) */
const lastShown = new Map<string, number>();
const seenBooks = new Map<string, BookView>();
const seenFills = new Set<string>();
let running = 0;
let stopAll: (() => void) | null = null;
let now: () => number = () => Date.now();
const listeners = new Set<() => void>();

/** Calls `fn` after the history changed (a book, a trade, my orders or fills, a bucket closed). */
export function onHeatChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
function changed(): void {
  for (const fn of listeners) fn();
}

export function heatMinutes(): number {
  const m = useSession.getState().settings.heatmapMinutes ?? DEFAULT_MINUTES;
  return Math.max(MIN_MINUTES, Math.min(MAX_MINUTES, Math.round(m)));
}

export function seriesOf(ticker: string | null | undefined): HeatSeries | undefined {
  return ticker ? series.get(ticker) : undefined;
}

/** The markets shown by some panel (a heatmap can show only these). */
function shownMarkets(): string[] {
  const { ticker, groups, pins } = useTrading.getState();
  const out = new Set<string>();
  if (ticker) out.add(ticker);
  for (const t of Object.values(groups)) if (t) out.add(t);
  for (const t of Object.values(pins)) out.add(t);
  return [...out];
}

function ensureSeries(): void {
  const t = now();
  const cap = columnsFor(heatMinutes());
  for (const m of shownMarkets()) {
    lastShown.set(m, t);
    let s = series.get(m);
    if (!s) {
      s = new HeatSeries(cap, BUCKET_MS);
      series.set(m, s);
      const book = booksStore.getState().byTicker.get(m);
      if (book) s.book(book, t);
      s.mine(mineOf(m), t);
    }
  }
  while (series.size > MAX_MARKETS) {
    const oldest = [...series.keys()].sort((a, b) => (lastShown.get(a) ?? 0) - (lastShown.get(b) ?? 0))[0]!;
    series.delete(oldest);
    seenBooks.delete(oldest);
  }
}

function mineOf(ticker: string): number[] {
  const out: number[] = [];
  for (const o of restingOrdersIn(privateStore.getState(), ticker)) {
    try {
      out.push(dollarsToTicks(o.price), o.side === 'bid' ? 1 : -1);
    } catch {
      // a price finer than the tick cannot be drawn; the blotter lists it
    }
  }
  return out;
}

function onBooks(): void {
  const t = now();
  const byTicker = booksStore.getState().byTicker;
  for (const [ticker, s] of series) {
    const view = byTicker.get(ticker);
    if (!view || seenBooks.get(ticker) === view) continue;
    seenBooks.set(ticker, view);
    s.book(view, t);
  }
  changed();
}

function onTrades(trades: readonly { ticker: string; yes_price_dollars: string; count_fp: string }[]): void {
  const t = now();
  for (const tr of trades) {
    const s = series.get(tr.ticker);
    if (!s) continue;
    try {
      s.trade(dollarsToTicks(tr.yes_price_dollars), countToCenti(tr.count_fp), t);
    } catch {
      // a malformed print is listed by the tape, not drawn
    }
  }
  changed();
}

function onPrivate(ordersChanged: boolean): void {
  const t = now();
  const { fills } = privateStore.getState();
  for (const f of fills) {
    if (seenFills.has(f.fill_id)) continue;
    seenFills.add(f.fill_id);
    const s = series.get(f.ticker);
    if (!s) continue;
    try {
      s.fill(dollarsToTicks(f.price), f.side === 'ask' ? -1 : 1, countToCenti(f.count), t);
    } catch {
      // as above
    }
  }
  if (seenFills.size > 5000) {
    seenFills.clear();
    for (const f of fills) seenFills.add(f.fill_id);
  }
  if (ordersChanged) for (const [ticker, s] of series) s.mine(mineOf(ticker), t);
  changed();
}

function tick(): void {
  const t = now();
  for (const s of series.values()) s.roll(t);
  changed();
}

/**
 * Starts recording (the app does at start; panels may too, it counts); returns the stop.
 * `clock` is for tests.
 */
export function startHeatHistory(clock?: () => number): () => void {
  running++;
  if (running === 1) {
    if (clock) now = clock;
    for (const f of privateStore.getState().fills) seenFills.add(f.fill_id);
    ensureSeries();
    const offs = [
      useTrading.subscribe((s, p) => {
        if (s.ticker !== p.ticker || s.groups !== p.groups || s.pins !== p.pins) {
          ensureSeries();
          changed();
        }
      }),
      booksStore.subscribe(onBooks),
      marketStore.subscribe((s, p) => {
        if (s.lastTrades !== p.lastTrades && s.lastTrades.length) onTrades(s.lastTrades);
      }),
      privateStore.subscribe((s, p) => {
        if (s.fills !== p.fills || s.orders !== p.orders) onPrivate(s.orders !== p.orders);
      }),
      useSession.subscribe((s, p) => {
        if (s.settings.heatmapMinutes === p.settings.heatmapMinutes) return;
        const cap = columnsFor(heatMinutes());
        for (const x of series.values()) x.resize(cap);
      }),
    ];
    // buckets close on time too, so a quiet book still moves along the time axis
    const timer = clock ? null : setInterval(tick, BUCKET_MS);
    stopAll = () => {
      for (const off of offs) off();
      if (timer) clearInterval(timer);
    };
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    running--;
    if (running === 0) {
      stopAll?.();
      stopAll = null;
      series.clear();
      lastShown.clear();
      seenBooks.clear();
      seenFills.clear();
      now = () => Date.now();
    }
  };
}

/** Tests: close buckets up to the clock now (the timer does this in the app). */
export function rollHeatHistory(): void {
  tick();
}
