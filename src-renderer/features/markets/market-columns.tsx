// Market table columns shared by the lists of this feature, with live prices from the
// 'market' stream laid over the REST snapshot.
import type { Market } from '../../../src-shared/wire/markets';
import { fmtCount, fmtDateTime, fmtPrice, isoTime } from '../../lib/format';
import { marketStore } from '../../stores/market';
import { useTrading } from '../../stores/trading';
import { col, type Columns } from '../../ui/DataTable';

export type MarketRow = Market;

const live = (m: Market) => marketStore.getState().tickers[m.ticker];
export const yesBid = (m: Market) => live(m)?.yes_bid_dollars ?? m.yes_bid_dollars;
export const yesAsk = (m: Market) => live(m)?.yes_ask_dollars ?? m.yes_ask_dollars;
export const lastPrice = (m: Market) => live(m)?.price_dollars ?? m.last_price_dollars;
export const volume = (m: Market) => live(m)?.volume_fp ?? m.volume_fp;

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
    col<Market>({ id: 'bid', header: 'YES bid', size: 70, accessorFn: yesBid, cell: ({ getValue }) => fmtPrice(getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'ask', header: 'YES ask', size: 70, accessorFn: yesAsk, cell: ({ getValue }) => fmtPrice(getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'last', header: 'Last', size: 66, accessorFn: (m) => lastPrice(m) ?? '', cell: ({ getValue }) => fmtPrice((getValue() as string) || null), meta: { num: true } }),
    col<Market>({ id: 'volume', header: 'Volume', size: 78, accessorFn: volume, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'oi', header: 'Open int.', size: 76, accessorFn: (m) => m.open_interest_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
    col<Market>({ id: 'close', header: 'Closes', size: 118, accessorFn: (m) => m.close_time ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null), meta: { csv: (m) => isoTime(m.close_time) } }),
  );
  if (opts.status !== false) cols.push(col<Market>({ id: 'status', header: 'Status', size: 74, accessorFn: (m) => m.status, cell: ({ getValue }) => <span className="badge">{String(getValue())}</span> }));
  return cols;
}
