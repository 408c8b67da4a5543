// Market table columns shared by the lists of this feature, with live prices from the
// 'market' stream laid over the REST snapshot.
import { useMemo, useRef } from 'react';
import type { Market } from '../../../src-shared/wire/markets';
import { useLiveTick } from '../../hooks/useLiveTick';
import { fmtCount, fmtDateTime, isoTime } from '../../lib/format';
import { marketStore } from '../../stores/market';
import { useTrading } from '../../stores/trading';
import { col, type Columns } from '../../ui/DataTable';
import { fmtPx } from '../../lib/ticks';

export type MarketRow = Market;

const live = (m: Market) => marketStore.getState().tickers[m.ticker];
export const yesBid = (m: Market) => live(m)?.yes_bid_dollars ?? m.yes_bid_dollars;
export const yesAsk = (m: Market) => live(m)?.yes_ask_dollars ?? m.yes_ask_dollars;

/**
 * Lists of markets take the streamed prices in the next frame: a list that waited a quarter of a
 * second showed prices the exchange no longer had (the display-truth harness, e2e/truth).
 */
const LIVE_LIST = 'frame';

function withLive(m: Market): Market {
  const t = live(m);
  if (!t) return m;
  const next = {
    ...m,
    yes_bid_dollars: t.yes_bid_dollars ?? m.yes_bid_dollars,
    yes_ask_dollars: t.yes_ask_dollars ?? m.yes_ask_dollars,
    last_price_dollars: t.price_dollars ?? m.last_price_dollars,
    volume_fp: t.volume_fp ?? m.volume_fp,
    open_interest_fp: t.open_interest_fp ?? m.open_interest_fp,
  };
  const same =
    next.yes_bid_dollars === m.yes_bid_dollars &&
    next.yes_ask_dollars === m.yes_ask_dollars &&
    next.last_price_dollars === m.last_price_dollars &&
    next.volume_fp === m.volume_fp &&
    next.open_interest_fp === m.open_interest_fp;
  return same ? m : next;
}

/**
 * The markets with the streamed prices laid over them, as NEW row objects whenever a price moved:
 * a table caches each cell's value per row object, so reading live prices at render time over
 * the same objects froze the list at the prices it was loaded with.
 */
export function useLiveMarkets(markets: readonly Market[]): Market[] {
  const tick = useLiveTick(LIVE_LIST);
  const last = useRef<Market[]>([]);
  return useMemo(() => {
    void tick; // a new tick means the market stream moved: read the live prices again
    const next = markets.map(withLive);
    // nothing listed moved (the stream moved other markets): the same rows, nothing to re-render
    const prev = last.current;
    if (prev.length === next.length && next.every((m, i) => m === prev[i])) return prev;
    last.current = next;
    return next;
  }, [markets, tick]);
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
    col<Market>({ id: 'ticker', header: 'Ticker', size: 170, accessorFn: (m) => m.ticker, cell: ({ row }) => <span className="mono">{row.original.ticker}</span> }),
    col<Market>({ id: 'title', header: 'Market', accessorFn: (m) => m.title ?? m.yes_sub_title ?? '', cell: ({ getValue }) => <span title={String(getValue())}>{String(getValue())}</span> }),
    col<Market>({ id: 'bid', header: 'YES bid', size: 70, accessorFn: (m) => m.yes_bid_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'ask', header: 'YES ask', size: 70, accessorFn: (m) => m.yes_ask_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'last', header: 'Last', size: 66, accessorFn: (m) => m.last_price_dollars ?? '', cell: ({ row, getValue }) => fmtPx(row.original.ticker, (getValue() as string) || null), meta: { num: true } }),
    col<Market>({ id: 'volume', header: 'Volume', size: 78, accessorFn: (m) => m.volume_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'oi', header: 'Open int.', size: 76, accessorFn: (m) => m.open_interest_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
    col<Market>({ id: 'close', header: 'Closes', size: 118, accessorFn: (m) => m.close_time ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null), meta: { csv: (m) => isoTime(m.close_time) } }),
  );
  if (opts.status !== false) cols.push(col<Market>({ id: 'status', header: 'Status', size: 74, accessorFn: (m) => m.status, cell: ({ getValue }) => <span className="badge">{String(getValue())}</span> }));
  return cols;
}
