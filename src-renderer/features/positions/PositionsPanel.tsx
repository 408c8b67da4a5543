// Positions and P&L: market positions with realized and unrealized P&L (marked at the book mid,
// else the last trade), event positions, fills, settlements, the balance with its breakdown,
// and subaccounts.
import { useMemo, useState, type ReactNode } from 'react';
import { ProtectDialog } from './ProtectDialog';
import { Decimal } from '../../../src-shared/money';
import type { EventPosition } from '../../../src-shared/wire/portfolio';
import type { Settlement } from '../../../src-shared/wire/portfolio';
import { runCommand } from '../../lib/commands';
import { fmtCash, fmtCents, fmtCount, fmtPnl, fmtTime, fmtTimeMs, isoTime, signOf } from '../../lib/format';
import { ticksToDollars } from '../../../src-shared/money';
import { useRest, useRestRows } from '../../hooks/useRest';
import { useStoreTick } from '../../hooks/useLiveTick';
import { booksStore, insideOf } from '../../stores/books';
import { marketStore } from '../../stores/market';
import { usePrivate } from '../../stores/private';
import { reseed, useSeed } from '../../stores/seed';
import { useTrading } from '../../stores/trading';
import { useConnection } from '../../stores/connection';
import type { FillRow, PositionRow } from '../../stores/normalize';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { KeyValues } from '../../ui/Field';
import { ErrorState, Loading } from '../../ui/States';
import { TabbedPanel } from '../../ui/TabbedPanel';
import { markOf, pnlTotals, positionFigures, type PositionFigures } from './pnl';
import { Subaccounts } from './Subaccounts';
import { LoadMore } from '../../ui/LoadMore';
import { fmtPx } from '../../lib/ticks';

type Tab = 'positions' | 'events' | 'fills' | 'settlements' | 'balance' | 'subaccounts';
const TABS: { id: Tab; label: string }[] = [
  { id: 'positions', label: 'Positions' },
  { id: 'events', label: 'Events' },
  { id: 'fills', label: 'Fills' },
  { id: 'settlements', label: 'Settlements' },
  { id: 'balance', label: 'Balance' },
  { id: 'subaccounts', label: 'Subaccounts' },
];

type PositionLine = Omit<PositionRow, 'realized' | 'fees'> & PositionFigures;

function Pnl({ value }: { value: string | null | undefined }) {
  const s = signOf(value);
  return <span className={s === 'pos' ? 'pos' : s === 'neg' ? 'neg' : undefined}>{fmtPnl(value)}</span>;
}

const LIVE_STORES = [booksStore, marketStore];

function PositionsTable() {
  const positions = usePrivate((s) => s.positions);
  const seed = useSeed((s) => s.positions);
  // marks follow the books and tickers in the next frame (a second late showed a P&L the market no longer gave)
  const tick = useStoreTick(LIVE_STORES, 'frame');
  const select = useTrading((s) => s.selectMarket);
  const [protect, setProtect] = useState<PositionLine | null>(null);
  const [showFlat, setShowFlat] = useState(false);
  // every position the account holds or held: a flat one (closed out, or settled) keeps its
  // realized P&L and fees, which the totals count (the balance moved by them)
  const lines = useMemo<PositionLine[]>(() => {
    void tick; // a new tick means the books or the tickers moved: mark again from the live stores
    const books = booksStore.getState().byTicker;
    const tickers = marketStore.getState().tickers;
    return Object.values(positions).map((p) => ({ ...p, ...positionFigures(p, markOf(insideOf(books.get(p.ticker)), tickers[p.ticker]?.price_dollars)) }));
  }, [positions, tick]);
  const totals = pnlTotals(lines);
  const rows = useMemo(() => (showFlat ? [...lines.filter((l) => !l.flat), ...lines.filter((l) => l.flat)] : lines.filter((l) => !l.flat)), [lines, showFlat]);
  const columns = useMemo<Columns<PositionLine>>(
    () => [
      col<PositionLine>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (p) => p.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<PositionLine>({
        id: 'position',
        header: 'Position',
        size: 90,
        accessorFn: (p) => p.position,
        cell: ({ row }) => {
          const p = new Decimal(row.original.position);
          return p.isZero() ? <span className="faint">flat</span> : `${fmtCount(p.abs())} ${p.gt(0) ? 'YES' : 'NO'}`;
        },
        meta: { num: true },
      }),
      col<PositionLine>({ id: 'cost', header: 'Cost', size: 80, accessorFn: (p) => p.exposure ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true, drop: 3 } }),
      col<PositionLine>({
        id: 'mark',
        header: 'Mark (YES)',
        size: 92,
        accessorFn: (p) => (p.mark ? ticksToDollars(p.mark.ticks) : ''),
        cell: ({ row }) => (row.original.mark ? `${fmtPx(row.original.ticker, ticksToDollars(row.original.mark.ticks))} ${row.original.mark.source}` : <span className="faint">no mark</span>),
        meta: { num: true, drop: 4 },
      }),
      col<PositionLine>({ id: 'value', header: 'Value', size: 80, accessorFn: (p) => p.value ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true, drop: 6 } }),
      col<PositionLine>({ id: 'unrealized', header: 'Unrealized', size: 86, accessorFn: (p) => p.unrealized ?? '', cell: ({ row }) => <Pnl value={row.original.unrealized} />, meta: { num: true, drop: 7 } }),
      col<PositionLine>({ id: 'realized', header: 'Realized', size: 80, accessorFn: (p) => p.realized ?? '', cell: ({ row }) => <Pnl value={row.original.realized} />, meta: { num: true, drop: 5 } }),
      col<PositionLine>({ id: 'total', header: 'Net P&L', size: 84, accessorFn: (p) => p.net ?? '', cell: ({ row }) => <Pnl value={row.original.net} />, meta: { num: true } }),
      col<PositionLine>({ id: 'fees', header: 'Fees', size: 66, accessorFn: (p) => p.fees ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true, drop: 2 } }),
      col<PositionLine>({ id: 'sub', header: 'Sub', size: 36, accessorFn: (p) => p.subaccount ?? 0, meta: { num: true, drop: 1 } }),
      col<PositionLine>({
        id: '_actions',
        header: '',
        size: 170,
        enableSorting: false,
        cell: ({ row }) => (
          <>
            <button type="button" className="btn btn-sm" onClick={() => select(row.original.ticker)}>
              Select
            </button>
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                select(row.original.ticker);
                runCommand('trade.flatten', 'button');
              }}
            >
              Flatten
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setProtect(row.original)} title="Local take-profit and stop-loss, one cancelling the other">
              TP/SL
            </button>
          </>
        ),
        meta: { csv: false },
      }),
    ],
    [select],
  );
  return (
    <>
      {protect && <ProtectDialog ticker={protect.ticker} position={protect.position} {...(protect.subaccount ? { subaccount: protect.subaccount } : {})} onClose={() => setProtect(null)} />}
      <DataTable
        label="Positions"
        data={rows}
        columns={columns}
        getRowId={(p) => `${p.ticker}#${p.subaccount ?? 0}`}
        loading={seed.state === 'loading' || seed.state === 'idle'}
        loadingText="Loading positions…"
        error={seed.state === 'error' ? seed.error : undefined}
        onRetry={() => void reseed('positions')}
        emptyText={totals.flat ? `No open positions (${totals.flat} flat: their P&L is in the totals).` : 'No open positions.'}
        onActivate={(p) => select(p.ticker)}
        tools={
          <>
            <span title="Totals over every position, flat and settled ones included">
              Unrealized <Pnl value={totals.unrealized} />
            </span>
            <span>
              Realized <Pnl value={totals.realized} />
            </span>
            <span className="dim">Fees {fmtCash(totals.fees)}</span>
            <span title="Unrealized + realized − fees">
              Net <Pnl value={totals.net} />
            </span>
            {totals.unmarked > 0 && <span className="dim">{totals.unmarked} without a mark</span>}
            <button type="button" className="btn btn-sm" aria-pressed={showFlat} disabled={totals.flat === 0} onClick={() => setShowFlat((v) => !v)} title="Positions closed out or settled: their realized P&L and fees are in the totals">
              {showFlat ? '▾' : '▸'} Flat {totals.flat}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => void reseed('positions')}>
              Refresh
            </button>
          </>
        }
      />
    </>
  );
}

const eventColumns: Columns<EventPosition> = [
  col<EventPosition>({ id: 'event', header: 'Event', size: 180, accessorFn: (e) => e.event_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<EventPosition>({ id: 'exposure', header: 'Exposure', size: 90, accessorFn: (e) => e.event_exposure_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<EventPosition>({ id: 'cost', header: 'Total cost', size: 90, accessorFn: (e) => e.total_cost_dollars ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
  col<EventPosition>({ id: 'shares', header: 'Contracts', size: 80, accessorFn: (e) => e.total_cost_shares_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<EventPosition>({ id: 'realized', header: 'Realized', size: 90, accessorFn: (e) => e.realized_pnl_dollars ?? '', cell: ({ getValue }) => <Pnl value={(getValue() as string) || null} />, meta: { num: true } }),
  col<EventPosition>({ id: 'fees', header: 'Fees', size: 80, accessorFn: (e) => e.fees_paid_dollars ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
];

function EventPositions() {
  const { pages: q, rows } = useRestRows('getPositions', { query: { count_filter: 'position' } }, 'event_positions', { pageSize: 1000 });
  return (
    <DataTable
      label="Event positions"
      data={rows}
      columns={eventColumns}
      getRowId={(e) => e.event_ticker}
      {...queryState(q)}
      loadingText="Loading event positions…"
      emptyText="No event positions."
      tools={
        <button type="button" className="btn btn-sm" onClick={() => void q.refetch()}>
          Refresh
        </button>
      }
    />
  );
}

export const fillColumns: Columns<FillRow> = [
  col<FillRow>({ id: 'time', header: 'Time', size: 104, accessorFn: (f) => String(f.ts ?? ''), cell: ({ row }) => fmtTimeMs(row.original.ts ?? null), meta: { csv: (f) => isoTime(f.ts ?? null) } }),
  col<FillRow>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (f) => f.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<FillRow>({
    id: 'side',
    header: 'Side',
    size: 64,
    accessorFn: (f) => f.side ?? '',
    cell: ({ row }) => (row.original.side === 'bid' ? <span className="bid-text">▲ Buy</span> : row.original.side === 'ask' ? <span className="ask-text">▼ Sell</span> : '—'),
    meta: { csv: (f) => (f.side === 'bid' ? 'buy' : f.side === 'ask' ? 'sell' : '') },
  }),
  col<FillRow>({ id: 'price', header: 'YES price', size: 72, accessorFn: (f) => f.price, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
  col<FillRow>({ id: 'count', header: 'Count', size: 66, accessorFn: (f) => f.count, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<FillRow>({ id: 'liquidity', header: 'Liquidity', size: 70, accessorFn: (f) => (f.is_taker === undefined ? '' : f.is_taker ? 'taker' : 'maker') }),
  col<FillRow>({ id: 'fee', header: 'Fee', size: 66, accessorFn: (f) => f.fee ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
  col<FillRow>({ id: 'post', header: 'Position after', size: 90, accessorFn: (f) => f.post_position ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<FillRow>({ id: 'order', header: 'Order id', size: 120, accessorFn: (f) => f.order_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

function Fills() {
  const fills = usePrivate((s) => s.fills);
  const seed = useSeed((s) => s.fills);
  return (
    <DataTable
      label="Fills"
      data={fills}
      columns={fillColumns}
      getRowId={(f) => f.fill_id}
      loading={seed.state === 'loading' || seed.state === 'idle'}
      loadingText="Loading fills…"
      error={seed.state === 'error' ? seed.error : undefined}
      onRetry={() => void reseed('fills')}
      emptyText="No fills yet."
      tools={
        <>
          <span className="dim">The latest 500 and everything since; older ones in History.</span>
          <button type="button" className="btn btn-sm" onClick={() => void reseed('fills')}>
            Refresh
          </button>
        </>
      }
    />
  );
}

const settlementColumns: Columns<Settlement> = [
  col<Settlement>({ id: 'time', header: 'Settled', size: 118, accessorFn: (s) => s.settled_at, cell: ({ getValue }) => fmtTime(getValue() as number), meta: { csv: (s) => isoTime(s.settled_at) } }),
  col<Settlement>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (s) => s.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Settlement>({ id: 'result', header: 'Result', size: 60, accessorFn: (s) => s.market_result }),
  col<Settlement>({ id: 'yes', header: 'YES held', size: 70, accessorFn: (s) => s.yes_count_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<Settlement>({ id: 'no', header: 'NO held', size: 70, accessorFn: (s) => s.no_count_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<Settlement>({ id: 'yes_cost', header: 'YES cost', size: 76, accessorFn: (s) => s.yes_total_cost_dollars ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
  col<Settlement>({ id: 'no_cost', header: 'NO cost', size: 76, accessorFn: (s) => s.no_total_cost_dollars ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
  col<Settlement>({ id: 'revenue', header: 'Revenue', size: 80, accessorFn: (s) => s.revenue, cell: ({ getValue }) => fmtCents(getValue() as number), meta: { num: true, csv: (s) => new Decimal(s.revenue).div(100).toFixed(2) } }),
  col<Settlement>({ id: 'fee', header: 'Fee', size: 66, accessorFn: (s) => s.fee_cost ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null), meta: { num: true } }),
];

function Settlements() {
  const { pages: q, rows } = useRestRows('getSettlements', { query: {} }, 'settlements', { pageSize: 200 });
  return (
    <DataTable
      label="Settlements"
      data={rows}
      columns={settlementColumns}
      getRowId={(s) => `${s.ticker}-${s.settled_at}-${s.subaccount_number ?? 0}`}
      {...queryState(q)}
      loadingText="Loading settlements…"
      emptyText="No settlements yet."
      footer={<LoadMore pages={q} label="Load older" />}
    />
  );
}

function BalanceView() {
  const live = usePrivate((s) => s.balance);
  const q = useRest('getBalance');
  const fcm = useConnection((s) => s.view?.isFcmMember ?? false);
  const resting = useRest('getTotalRestingOrderValue', undefined, { enabled: fcm });
  if (q.isPending && !live) return <Loading text="Loading the balance…" />;
  if (q.error && !live) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const balance = live?.balance_dollars ?? q.data?.balance_dollars;
  const portfolio = live?.portfolio_value_dollars ?? (q.data ? new Decimal(q.data.portfolio_value).div(100).toFixed(2) : undefined);
  return (
    <div className="panel-body pad col">
      <KeyValues
        entries={[
          ['Cash balance', <strong key="b">{fmtCash(balance ?? null)}</strong>],
          ['Portfolio value', fmtCash(portfolio ?? null)],
          ['As of', fmtTime(live?.updated_ts ?? q.data?.updated_ts ?? null)],
          ...(fcm
            ? ([
                ['Resting order value', resting.data ? fmtCents(resting.data.total_resting_order_value) : resting.error ? 'unavailable' : '…'],
              ] as [string, string][])
            : []),
        ]}
      />
      <div className="section u-p-0">
        <h3>Balance by shard</h3>
        {(q.data?.balance_breakdown ?? []).length === 0 ? (
          <div className="dim">No breakdown (a single shard).</div>
        ) : (
          <table className="grid u-w-auto">
            <thead>
              <tr>
                <th>Shard</th>
                <th className="num">Balance</th>
              </tr>
            </thead>
            <tbody>
              {q.data?.balance_breakdown?.map((b) => (
                <tr key={b.exchange_index}>
                  <td>{b.exchange_index}</td>
                  <td className="num">{fmtCash(b.balance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {fcm && (resting.data?.resting_order_value_breakdown.length ?? 0) > 0 && (
          <>
            <h3 className="u-mt-8">Resting order value by shard</h3>
            <ul className="u-m-0-pl-16">
              {resting.data?.resting_order_value_breakdown.map((b) => (
                <li key={b.exchange_index}>
                  shard {b.exchange_index}: {fmtCash(b.balance)}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div>
        <button type="button" className="btn btn-sm" onClick={() => void q.refetch()}>
          Refresh
        </button>
      </div>
    </div>
  );
}

const VIEWS: Record<Tab, () => ReactNode> = {
  positions: () => <PositionsTable />,
  events: () => <EventPositions />,
  fills: () => <Fills />,
  settlements: () => <Settlements />,
  balance: () => <BalanceView />,
  subaccounts: () => <Subaccounts />,
};

export function PositionsPanel() {
  return <TabbedPanel label="Portfolio views" tabs={TABS.map((t) => ({ ...t, render: VIEWS[t.id] }))} />;
}
