// Market table columns shared by the lists of this feature, with live prices from the
// 'market' stream laid over the REST snapshot.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Market } from '../../../src-shared/wire/markets';
import { fmtCount, fmtDateTime, isoTime } from '../../lib/format';
import { marketStore } from '../../stores/market';
import { useTrading } from '../../stores/trading';
import { col, type Columns } from '../../ui/DataTable';
import { fmtPx } from '../../lib/ticks';

export type MarketRow = Market;

const live = (m: Market) => marketStore.getState().tickers[m.ticker];
export const yesBid = (m: Market) => live(m)?.yes_bid_dollars ?? m.yes_bid_dollars;
export const yesAsk = (m: Market) => live(m)?.yes_ask_dollars ?? m.yes_ask_dollars;

/** The live fields a list shows over a market's REST snapshot. */
function liveOf(m: Market) {
  const t = live(m);
  return {
    yes_bid_dollars: t?.yes_bid_dollars ?? m.yes_bid_dollars,
    yes_ask_dollars: t?.yes_ask_dollars ?? m.yes_ask_dollars,
    last_price_dollars: t?.price_dollars ?? m.last_price_dollars,
    volume_fp: t?.volume_fp ?? m.volume_fp,
    open_interest_fp: t?.open_interest_fp ?? m.open_interest_fp,
  };
}

/** Does `row` show what the stream now says of `m`? */
function showsLive(row: Market, m: Market): boolean {
  const l = liveOf(m);
  return (
    row.yes_bid_dollars === l.yes_bid_dollars &&
    row.yes_ask_dollars === l.yes_ask_dollars &&
    row.last_price_dollars === l.last_price_dollars &&
    row.volume_fp === l.volume_fp &&
    row.open_interest_fp === l.open_interest_fp
  );
}

function withLive(m: Market): Market {
  return showsLive(m, m) ? m : { ...m, ...liveOf(m) };
}

interface Shown {
  rows: Market[];
  /** each listed snapshot's row as shown */
  bySnapshot: Map<Market, Market>;
}

/**
 * The markets with the streamed prices laid over them. Lists take the streamed prices in the
 * next frame (a list that waited a quarter of a second showed prices the exchange no longer had:
 * the display-truth harness, e2e/truth). A market whose prices moved gets a NEW row object (a
 * table caches each cell's value per row object, so reading live prices at render time over the
 * same objects froze the list); a market that did not move keeps its row object, so its row does
 * not render again. The list itself renders again only when one of ITS markets moved: the stream's
 * other markets, and its trades, cost it a comparison per listed market and frame, not a render.
 */
export function useLiveMarkets(markets: readonly Market[]): Market[] {
  const [moved, setMoved] = useState(0);
  const shown = useRef<Shown | null>(null);
  const listed = useRef(markets);
  listed.current = markets;
  const rows = useMemo(() => {
    void moved; // a listed market moved: lay the live prices over the snapshots again
    const prev = shown.current;
    const bySnapshot = new Map<Market, Market>();
    let same = prev !== null && prev.rows.length === markets.length;
    const next = markets.map((m, i) => {
      const old = prev?.bySnapshot.get(m);
      const row = old && showsLive(old, m) ? old : withLive(m);
      bySnapshot.set(m, row);
      if (same && prev!.rows[i] !== row) same = false;
      return row;
    });
    if (same) return prev!.rows;
    shown.current = { rows: next, bySnapshot };
    return next;
  }, [markets, moved]);
  useEffect(() => {
    let frame: number | null = null;
    const check = () => {
      frame = null;
      const s = shown.current;
      if (!s) return;
      if (listed.current.some((m) => { const row = s.bySnapshot.get(m); return !row || !showsLive(row, m); })) setMoved((n) => n + 1);
    };
    const off = marketStore.subscribe(() => {
      if (frame === null) frame = requestAnimationFrame(check);
    });
    return () => {
      off();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, []);
  return rows;
}

function WatchToggle({ ticker }: { ticker: string }) {
  const on = useTrading((s) => s.watchlist.includes(ticker));
  const toggle = useTrading((s) => s.toggleWatch);
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      aria-pressed={on}
      aria-label={on ? `Remove ${ticker} from the watchlist` : `Add ${ticker} to the watchlist`}
      title={on ? 'In the watchlist' : 'Add to the watchlist'}
      onClick={(e) => {
        e.stopPropagation();
        toggle(ticker);
      }}
      tabIndex={-1}
    >
      {on ? '★' : '☆'}
    </button>
  );
}

export function marketColumns(opts: { watch?: boolean; status?: boolean } = {}): Columns<Market> {
  const cols: Columns<Market> = [];
  if (opts.watch !== false) cols.push(col<Market>({ id: '_watch', header: '', size: 28, enableSorting: false, cell: ({ row }) => <WatchToggle ticker={row.original.ticker} />, meta: { csv: false } }));
  cols.push(
    col<Market>({ id: 'ticker', header: 'Ticker', size: 170, accessorFn: (m) => m.ticker, cell: ({ row }) => <span className="mono" title={row.original.ticker}>{row.original.ticker}</span> }),
    col<Market>({ id: 'title', header: 'Market', accessorFn: (m) => m.title ?? m.yes_sub_title ?? '', cell: ({ getValue }) => <span title={String(getValue())}>{String(getValue())}</span>, meta: { minWidth: 110, drop: 6 } }),
    col<Market>({ id: 'bid', header: 'YES bid', size: 70, accessorFn: (m) => m.yes_bid_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'ask', header: 'YES ask', size: 70, accessorFn: (m) => m.yes_ask_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'last', header: 'Last', size: 66, accessorFn: (m) => m.last_price_dollars ?? '', cell: ({ row, getValue }) => fmtPx(row.original.ticker, (getValue() as string) || null), meta: { num: true, drop: 5 } }),
    col<Market>({ id: 'volume', header: 'Volume', size: 78, accessorFn: (m) => m.volume_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true, drop: 4 } }),
    col<Market>({ id: 'oi', header: 'Open int.', size: 76, accessorFn: (m) => m.open_interest_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true, drop: 2 } }),
    col<Market>({ id: 'close', header: 'Closes', size: 118, accessorFn: (m) => m.close_time ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null), meta: { csv: (m) => isoTime(m.close_time), drop: 3 } }),
  );
  if (opts.status !== false) cols.push(col<Market>({ id: 'status', header: 'Status', size: 74, accessorFn: (m) => m.status, cell: ({ getValue }) => <span className="badge">{String(getValue())}</span>, meta: { drop: 1 } }));
  return cols;
}
