// Historical archives: markets, trades, orders, fills and positions older than the live cutoff,
// walked page by page with a running count and a stop button; results export as CSV. A settled
// market can be looked up with its archived candles.
import { useMemo, useRef, useState } from 'react';
import type { Market, Trade } from '../../../src-shared/wire/markets';
import type { Order } from '../../../src-shared/wire/orders';
import type { Fill, MarketPosition } from '../../../src-shared/wire/portfolio';
import { walkPages, WalkCanceled } from '../../lib/paginate';
import { fmtCash, fmtCount, fmtDateTime, fmtInt, isoTime } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useSession } from '../../stores/session';
import { CandleChart } from '../../ui/charts';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field, KeyValues } from '../../ui/Field';
import { Empty, ErrorState, Loading, QueryView } from '../../ui/States';
import { TabbedPanel, type PanelTab } from '../../ui/TabbedPanel';
import { fmtPx } from '../../lib/ticks';

type Kind = 'markets' | 'trades' | 'orders' | 'fills' | 'positions';

const KINDS: { id: Kind; label: string; row: 'getHistoricalMarkets' | 'getHistoricalTrades' | 'getHistoricalOrders' | 'getHistoricalFills' | 'getHistoricalPositions'; items: string }[] = [
  { id: 'markets', label: 'Markets', row: 'getHistoricalMarkets', items: 'markets' },
  { id: 'trades', label: 'Trades', row: 'getHistoricalTrades', items: 'trades' },
  { id: 'orders', label: 'My orders', row: 'getHistoricalOrders', items: 'orders' },
  { id: 'fills', label: 'My fills', row: 'getHistoricalFills', items: 'fills' },
  { id: 'positions', label: 'My positions', row: 'getHistoricalPositions', items: 'market_positions' },
];

const mono = ({ getValue }: { getValue: () => unknown }) => <span className="mono">{String(getValue())}</span>;

const COLUMNS: Record<Kind, Columns<never>> = {
  markets: [
    col<Market>({ id: 'ticker', header: 'Ticker', size: 170, accessorFn: (m) => m.ticker, cell: mono }),
    col<Market>({ id: 'title', header: 'Title', accessorFn: (m) => m.title ?? '' }),
    col<Market>({ id: 'result', header: 'Result', size: 60, accessorFn: (m) => m.result ?? '' }),
    col<Market>({ id: 'last', header: 'Last', size: 66, accessorFn: (m) => m.last_price_dollars ?? '', cell: ({ row, getValue }) => fmtPx(row.original.ticker, (getValue() as string) || null), meta: { num: true } }),
    col<Market>({ id: 'volume', header: 'Volume', size: 80, accessorFn: (m) => m.volume_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<Market>({ id: 'close', header: 'Closed', size: 118, accessorFn: (m) => m.close_time ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null), meta: { csv: (m) => isoTime(m.close_time ?? null) } }),
  ] as Columns<never>,
  trades: [
    col<Trade>({ id: 'time', header: 'Time', size: 118, accessorFn: (t) => t.created_time ?? String(t.ts ?? ''), cell: ({ row }) => fmtDateTime(row.original.created_time ?? row.original.ts ?? null), meta: { csv: (t) => isoTime(t.created_time ?? t.ts ?? null) } }),
    col<Trade>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (t) => t.ticker, cell: mono }),
    col<Trade>({ id: 'price', header: 'YES price', size: 70, accessorFn: (t) => t.yes_price_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Trade>({ id: 'count', header: 'Count', size: 70, accessorFn: (t) => t.count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<Trade>({ id: 'taker', header: 'Taker', size: 60, accessorFn: (t) => t.taker_outcome_side ?? t.taker_side ?? '' }),
    col<Trade>({ id: 'block', header: 'Block', size: 50, accessorFn: (t) => (t.is_block_trade ? 'yes' : '') }),
    col<Trade>({ id: 'id', header: 'Trade id', accessorFn: (t) => t.trade_id, cell: mono }),
  ] as Columns<never>,
  orders: [
    col<Order>({ id: 'time', header: 'Created', size: 118, accessorFn: (o) => o.created_time ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null), meta: { csv: (o) => isoTime(o.created_time ?? null) } }),
    col<Order>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (o) => o.ticker, cell: mono }),
    col<Order>({ id: 'side', header: 'Side', size: 60, accessorFn: (o) => o.book_side ?? `${o.action ?? ''} ${o.side ?? ''}` }),
    col<Order>({ id: 'price', header: 'YES price', size: 70, accessorFn: (o) => o.yes_price_dollars ?? '', cell: ({ row, getValue }) => fmtPx(row.original.ticker, (getValue() as string) || null), meta: { num: true } }),
    col<Order>({ id: 'filled', header: 'Filled', size: 66, accessorFn: (o) => o.fill_count_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
    col<Order>({ id: 'status', header: 'Status', size: 76, accessorFn: (o) => o.status }),
    col<Order>({ id: 'id', header: 'Order id', accessorFn: (o) => o.order_id, cell: mono }),
  ] as Columns<never>,
  fills: [
    col<Fill>({ id: 'time', header: 'Time', size: 118, accessorFn: (f) => f.created_time ?? String(f.ts ?? ''), cell: ({ row }) => fmtDateTime(row.original.created_time ?? row.original.ts ?? null), meta: { csv: (f) => isoTime(f.created_time ?? f.ts ?? null) } }),
    col<Fill>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (f) => f.ticker, cell: mono }),
    col<Fill>({ id: 'side', header: 'Side', size: 60, accessorFn: (f) => f.book_side ?? `${f.action ?? ''} ${f.side ?? ''}` }),
    col<Fill>({ id: 'price', header: 'YES price', size: 70, accessorFn: (f) => f.yes_price_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
    col<Fill>({ id: 'count', header: 'Count', size: 66, accessorFn: (f) => f.count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<Fill>({ id: 'taker', header: 'Liquidity', size: 66, accessorFn: (f) => (f.is_taker ? 'taker' : 'maker') }),
    col<Fill>({ id: 'fee', header: 'Fee', size: 66, accessorFn: (f) => f.fee_cost ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
    col<Fill>({ id: 'order', header: 'Order id', accessorFn: (f) => f.order_id, cell: mono }),
  ] as Columns<never>,
  positions: [
    col<MarketPosition>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (p) => p.ticker, cell: mono }),
    col<MarketPosition>({ id: 'position', header: 'Position', size: 80, accessorFn: (p) => p.position_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
    col<MarketPosition>({ id: 'realized', header: 'Realized', size: 86, accessorFn: (p) => p.realized_pnl_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
    col<MarketPosition>({ id: 'traded', header: 'Traded', size: 86, accessorFn: (p) => p.total_traded_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
    col<MarketPosition>({ id: 'fees', header: 'Fees', size: 70, accessorFn: (p) => p.fees_paid_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
    col<MarketPosition>({ id: 'updated', header: 'Updated', size: 118, accessorFn: (p) => p.last_updated_ts ?? 0, cell: ({ getValue }) => fmtDateTime((getValue() as number) || null) }),
  ] as Columns<never>,
};

/** Archive rows carry their arrival index: ids may repeat across pages of a moving archive. */
type ArchiveRow = Record<string, unknown> & { __i: number };

const toTs = (local: string): number | undefined => {
  if (!local) return undefined;
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};
type KindDef = (typeof KINDS)[number];
interface WalkProgress {
  pages: number;
  items: number;
  running: boolean;
  stopped: boolean;
}

/** The archive query of a kind from the filters (blank filters left out). */
function archiveQuery(kind: Kind, ticker: string, series: string, from: string, to: string): Record<string, unknown> {
  const min_ts = toTs(from);
  const max_ts = toTs(to);
  const t = ticker.trim() || undefined;
  const query: Record<string, unknown> =
    kind === 'markets'
      ? { series_ticker: series.trim() || undefined, tickers: t, min_close_ts: min_ts, max_close_ts: max_ts }
      : kind === 'positions'
        ? { ticker: t }
        : { ticker: t, min_ts, max_ts };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  return query;
}

/** A walk over every page of an archive query: its rows as they come, its progress, its error; stoppable. */
function useArchiveWalk() {
  const [rows, setRows] = useState<ArchiveRow[]>([]);
  const [progress, setProgress] = useState<WalkProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);

  const walk = async (def: KindDef, query: Record<string, unknown>) => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setRows([]);
    setError(null);
    setProgress({ pages: 0, items: 0, running: true, stopped: false });
    const collected: ArchiveRow[] = [];
    try {
      await walkPages(def.row, { query } as never, {
        items: def.items,
        signal: ctl.signal,
        onPage: (items, p) => {
          for (const it of items as Record<string, unknown>[]) collected.push({ ...it, __i: collected.length });
          setProgress({ pages: p.pages, items: p.items, running: !p.done, stopped: false });
          // show rows as they come, but not on every page of a long walk
          if (p.pages % 5 === 1 || p.done) setRows([...collected]);
        },
      });
      setRows([...collected]);
    } catch (err) {
      setRows([...collected]);
      if (err instanceof WalkCanceled) setProgress((p) => (p ? { ...p, running: false, stopped: true } : p));
      else {
        setError(err);
        setProgress((p) => (p ? { ...p, running: false } : p));
      }
    }
  };
  const reset = () => (setRows([]), setProgress(null));
  return { rows, progress, error, walk, reset, stop: () => abort.current?.abort() };
}

function ArchiveCutoff() {
  const cutoff = useRest('getHistoricalCutoff', undefined, { staleTime: 300_000 });
  return cutoff.data ? (
    <div className="dim u-mb-4">
      Archive cutoffs: markets settled before {fmtDateTime(cutoff.data.market_settled_ts)}, trades before {fmtDateTime(cutoff.data.trades_created_ts)}, orders updated before{' '}
      {fmtDateTime(cutoff.data.orders_updated_ts)}
      {cutoff.data.market_positions_last_updated_ts ? `, positions before ${fmtDateTime(cutoff.data.market_positions_last_updated_ts)}` : ''}.
    </div>
  ) : cutoff.error ? (
    <ErrorState error={cutoff.error} onRetry={() => void cutoff.refetch()} context="Archive cutoff" />
  ) : null;
}

function WalkStatus({ progress }: { progress: WalkProgress }) {
  return (
    <span role="status" aria-live="polite" className="dim">
      {progress.running && <span className="spinner" aria-hidden="true" />}
      {fmtInt(progress.items)} rows from {progress.pages} page{progress.pages === 1 ? '' : 's'}
      {progress.running ? '…' : progress.stopped ? ', stopped' : ', done'}
    </span>
  );
}

function Archive() {
  const [kind, setKind] = useState<Kind>('trades');
  const [ticker, setTicker] = useState('');
  const [series, setSeries] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { rows, progress, error, walk, reset, stop } = useArchiveWalk();
  const def = KINDS.find((k) => k.id === kind)!;
  const run = () => walk(def, archiveQuery(kind, ticker, series, from, to));

  const columns = COLUMNS[kind] as Columns<ArchiveRow>;
  return (
    <div className="vsplit">
      <div className="section">
        <ArchiveCutoff />
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <select aria-label="What to fetch" value={kind} onChange={(e) => (setKind(e.target.value as Kind), reset())}>
            {KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
          <input placeholder={kind === 'markets' ? 'Tickers (comma list)' : 'Market ticker'} aria-label="Ticker filter" value={ticker} onChange={(e) => setTicker(e.target.value)} className="u-w-170" />
          {kind === 'markets' && <input placeholder="Series" aria-label="Series filter" value={series} onChange={(e) => setSeries(e.target.value)} className="u-w-100" />}
          {kind !== 'positions' && (
            <>
              <label className="check">
                From <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
              </label>
              <label className="check">
                To <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
              </label>
            </>
          )}
          <button type="submit" className="btn btn-primary btn-sm" disabled={progress?.running}>
            Fetch all pages
          </button>
          {progress?.running && (
            <button type="button" className="btn btn-sm btn-danger" onClick={stop}>
              Stop
            </button>
          )}
          {progress && <WalkStatus progress={progress} />}
        </form>
      </div>
      <div className="u-fx-1-minh-0-d-flex">
        <DataTable
          key={kind}
          label={`Historical ${def.label.toLowerCase()}`}
          data={rows}
          columns={columns}
          getRowId={(r) => String(r.__i)}
          loading={progress?.running && rows.length === 0}
          loadingText={`Fetching historical ${def.label.toLowerCase()}…`}
          error={error}
          onRetry={() => void run()}
          emptyText={progress ? `No historical ${def.label.toLowerCase()} match.` : 'Set the filters and fetch. Long walks can be stopped; what arrived stays and exports as CSV.'}
        />
      </div>
    </div>
  );
}

function MarketLookup() {
  const [ticker, setTicker] = useState('');
  const [submitted, setSubmitted] = useState('');
  const theme = useSession((s) => s.settings.theme);
  const market = useRest('getHistoricalMarket', submitted ? { params: { ticker: submitted } } : undefined, { enabled: !!submitted });
  const close = market.data?.market.close_time ? Math.floor(Date.parse(market.data.market.close_time) / 1000) : null;
  const candles = useRest(
    'getHistoricalMarketCandlesticks',
    submitted && close ? { params: { ticker: submitted }, query: { start_ts: Math.max(0, close - 30 * 86400), end_ts: close + 86400, period_interval: 3600 } } : undefined,
    { enabled: !!submitted && !!close },
  );
  const bars = useMemo(
    () =>
      (candles.data?.candlesticks ?? [])
        .filter((c) => c.price?.open_dollars && c.price.high_dollars && c.price.low_dollars && c.price.close_dollars)
        .map((c) => ({ time: c.end_period_ts, open: c.price!.open_dollars!, high: c.price!.high_dollars!, low: c.price!.low_dollars!, close: c.price!.close_dollars!, volume: c.volume_fp })),
    [candles.data],
  );
  return (
    <div className="vsplit">
      <form
        className="row section"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(ticker.trim());
        }}
      >
        <Field label="Archived market ticker">
          <input value={ticker} onChange={(e) => setTicker(e.target.value)} />
        </Field>
        <button type="submit" className="btn btn-sm btn-primary u-as-end" disabled={!ticker.trim()} >
          Look up
        </button>
      </form>
      {!submitted ? (
        <Empty>Look up a market that has left the live endpoints.</Empty>
      ) : (
        <QueryView query={market} loading={`Loading ${submitted}…`}>
          {(d) => (
            <div className="vsplit">
              <div className="section">
                <KeyValues
                  entries={[
                    ['Market', `${d.market.title ?? ''} (${d.market.ticker})`],
                    ['Result', d.market.result ?? '—'],
                    ['Closed', fmtDateTime(d.market.close_time ?? null)],
                    ['Last', fmtPx(d.market.ticker, d.market.last_price_dollars ?? null)],
                    ['Volume', fmtCount(d.market.volume_fp)],
                  ]}
                />
              </div>
              <div className="u-fx-1-minh-200-d-flex">
                {candles.isPending ? <Loading text="Loading archived candles…" /> : candles.error ? <ErrorState error={candles.error} onRetry={() => void candles.refetch()} /> : bars.length ? <CandleChart candles={bars} markers={[]} theme={theme} label={`${submitted} archived hourly candles`} /> : <Empty>No traded candles in the last 30 days before the close.</Empty>}
              </div>
            </div>
          )}
        </QueryView>
      )}
    </div>
  );
}

const HISTORY_TABS: readonly PanelTab<'archive' | 'market'>[] = [
  { id: 'archive', label: 'Archive', render: () => <Archive /> },
  { id: 'market', label: 'Archived market', render: () => <MarketLookup /> },
];

export function HistoryPanel() {
  return <TabbedPanel label="History views" tabs={HISTORY_TABS} />;
}

