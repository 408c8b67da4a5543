// Time and sales: the selected market's trades, live from the trade channel on top of the REST
// history read on open. Aggressor coloured (a YES taker buys, a NO taker sells YES), block trades
// marked, my own fills highlighted, a minimum size, a pause while the pointer is over the list,
// virtualised to any length, CSV.
import { useMemo, useRef, useState } from 'react';
import type { TradeView } from '../../../src-shared/ipc/contract';
import { Decimal } from '../../../src-shared/money';
import { fmtCount, fmtTimeMs, isoTime, printsDate } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { parseUserDecimal } from '../../lib/order-check';
import { useRest } from '../../hooks/useRest';
import { useMarket, useTapeShown } from '../../stores/market';
import { usePrivate } from '../../stores/private';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Empty } from '../../ui/States';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';

export interface TapeRow {
  id: string;
  ts: number;
  price: string;
  count: string;
  /** the aggressor: a YES taker bought, a NO taker sold YES */
  aggressor: 'buy' | 'sell' | null;
  block: boolean;
  mine: boolean;
  /** printed in the same millisecond as another trade shown here */
  same?: boolean;
}

const tsMs = (ts: number | string | undefined): number => (typeof ts === 'number' ? (ts < 1e12 ? ts * 1000 : ts) : typeof ts === 'string' ? Date.parse(ts) || 0 : 0);
const aggressorOf = (side: string | undefined): TapeRow['aggressor'] => (side === 'yes' || side === 'bid' ? 'buy' : side === 'no' || side === 'ask' ? 'sell' : null);

/** The tape's columns; prices at the market's own decimals; the time column wide enough for a date when a row has one. */
const tapeColumns = (ticker: string | null, dated: boolean): Columns<TapeRow> => [
  col<TapeRow>({
    id: 'time',
    header: 'Time',
    // "11/28/2026, 11:57:10.621" with its same-millisecond mark: cut at 104 px (text-fit at 1280x720),
    // and at 188 px with 16 px text (the table's widths are declared at 12 px)
    size: dated ? 236 : 104,
    accessorFn: (r) => r.ts,
    cell: ({ row, getValue }) => (
      <>
        {fmtTimeMs(getValue() as number)}
        {row.original.same && (
          <span className="faint" title="Printed in the same millisecond as another trade here (one aggressor, several resting orders)">
            {' '}≡
          </span>
        )}
      </>
    ),
    meta: { csv: (r) => isoTime(r.ts) },
  }),
  col<TapeRow>({
    id: 'price',
    header: 'YES price',
    size: 74,
    accessorFn: (r) => r.price,
    cell: ({ row }) => <span className={row.original.aggressor === 'buy' ? 'bid-text' : row.original.aggressor === 'sell' ? 'ask-text' : ''}>{fmtPx(ticker, row.original.price)}</span>,
    meta: { num: true },
  }),
  col<TapeRow>({ id: 'size', header: 'Size', size: 70, accessorFn: (r) => r.count, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<TapeRow>({ id: 'side', header: 'Taker', size: 56, accessorFn: (r) => r.aggressor ?? '', cell: ({ getValue }) => (getValue() === 'buy' ? '▲ buy' : getValue() === 'sell' ? '▼ sell' : '') }),
  col<TapeRow>({
    id: 'flags',
    header: '',
    size: 84,
    enableSorting: false,
    accessorFn: (r) => `${r.block ? 'block ' : ''}${r.mine ? 'mine' : ''}`.trim(),
    cell: ({ row }) => (
      <>
        {row.original.block && <span className="badge">block</span>}
        {row.original.mine && <span className="badge badge-mine">mine</span>}
      </>
    ),
  }),
];

/** The times printed more than once (several trades in one millisecond: one aggressor through several orders). */
export function sameMomentOf(rows: readonly { ts: number }[]): Set<number> {
  const seen = new Set<number>();
  const twice = new Set<number>();
  for (const r of rows) (seen.has(r.ts) ? twice : seen).add(r.ts);
  return twice;
}

/** Live trades first, then the history not already among them, newest first. */
export function mergeTape(live: readonly TradeView[], history: readonly { trade_id: string; yes_price_dollars: string; count_fp: string; taker_side?: string; is_block_trade?: boolean; ts?: number; created_time?: string }[], myTrades: ReadonlySet<string>): TapeRow[] {
  const seen = new Set<string>();
  const out: TapeRow[] = [];
  for (const t of live) {
    if (seen.has(t.trade_id)) continue;
    seen.add(t.trade_id);
    out.push({ id: t.trade_id, ts: t.ts_ms ?? tsMs(t.ts), price: t.yes_price_dollars, count: t.count_fp, aggressor: aggressorOf(t.taker_side), block: !!t.is_block_trade, mine: myTrades.has(t.trade_id) });
  }
  for (const t of history) {
    if (seen.has(t.trade_id)) continue;
    seen.add(t.trade_id);
    // created_time carries the exchange's millisecond; ts only the second
    out.push({ id: t.trade_id, ts: tsMs(t.created_time ?? t.ts), price: t.yes_price_dollars, count: t.count_fp, aggressor: aggressorOf(t.taker_side), block: !!t.is_block_trade, mine: myTrades.has(t.trade_id) });
  }
  return out.sort((a, b) => b.ts - a.ts);
}

/**
 * The rows as shown, with their same-moment mark, reusing the row object of a trade already shown
 * when nothing in it changed: the table renders again only the rows that are new.
 */
export function stableTapeRows(rows: readonly TapeRow[], cache: Map<string, TapeRow>): TapeRow[] {
  const sameMoment = sameMomentOf(rows);
  const next = new Map<string, TapeRow>();
  const out = rows.map((r) => {
    const same = sameMoment.has(r.ts);
    const old = cache.get(r.id);
    const row = old && old.ts === r.ts && old.price === r.price && old.count === r.count && old.aggressor === r.aggressor && old.block === r.block && old.mine === r.mine && !!old.same === same ? old : { ...r, same };
    next.set(r.id, row);
    return row;
  });
  cache.clear();
  for (const [k, v] of next) cache.set(k, v);
  return out;
}

export function TapePanel() {
  const ticker = usePanelTicker();
  useAwaitFirstMarket(ticker); // a new panel in a link colour is fed by the next pick in Markets
  useTapeShown(ticker);
  const live = useMarket((s) => (ticker ? s.trades[ticker] : undefined));
  const fills = usePrivate((s) => s.fills);
  const history = useRest('getTrades', ticker ? { query: { ticker, limit: 200 } } : undefined, { enabled: !!ticker, staleTime: 10_000 });
  const [minText, setMinText] = useState('');
  const [paused, setPaused] = useState(false);
  const frozen = useRef<TapeRow[]>([]);

  const myTrades = useMemo(() => new Set(fills.filter((f) => f.ticker === ticker && f.trade_id).map((f) => f.trade_id!)), [fills, ticker]);
  const min = parseUserDecimal(minText);
  const rowCache = useRef(new Map<string, TapeRow>());
  const merged = useMemo(() => stableTapeRows(mergeTape(live ?? [], history.data?.trades ?? [], myTrades), rowCache.current), [live, history.data, myTrades]);
  const dated = useMemo(() => {
    const now = new Date();
    return merged.some((r) => printsDate(r.ts, now));
  }, [merged]);
  const columns = useMemo(() => tapeColumns(ticker, dated), [ticker, dated]);
  // a pause holds the trades as they were; the size filter still applies at once
  if (!paused) frozen.current = merged;
  const source = paused ? frozen.current : merged;
  const shown = min && min.gt(0) ? source.filter((r) => new Decimal(r.count).gte(min)) : source;

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets; its trades stream here.</Empty>
      </div>
    );
  }
  return (
    <div className="panel" onPointerEnter={() => setPaused(true)} onPointerLeave={() => setPaused(false)}>
      <DataTable
        label={`Time and sales for ${ticker}`}
        data={shown}
        columns={columns}
        getRowId={(r) => r.id}
        loading={history.isPending}
        loadingText="Loading recent trades…"
        error={history.error}
        onRetry={() => void history.refetch()}
        emptyText={minText ? 'No trades of that size yet.' : 'No trades in this market yet.'}
        rowClassName={(r) => (r.mine ? 'own-fill' : undefined)}
        tools={
          <>
            <input className="u-w-90" placeholder="Min size" aria-label="Minimum trade size" inputMode="decimal" value={minText} onChange={(e) => setMinText(e.target.value)} />
            {minText && !min && <span className="neg">not a number</span>}
            {paused && (
              <span className="badge" role="status" title="Paused while the pointer is over the tape; it catches up when you move away">
                paused
              </span>
            )}
          </>
        }
        csv
      />
    </div>
  );
}
