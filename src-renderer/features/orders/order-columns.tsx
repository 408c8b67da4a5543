// The blotter's columns: one order a row, with Amend, Decrease and Cancel on a resting one.
import { useMemo } from 'react';
import { fmtCount, fmtTimeMs, isoTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import type { OrderRow } from '../../stores/normalize';
import { cancelOrders } from '../../services/trade';
import { col, type Columns } from '../../ui/DataTable';

export const sortTime = (o: OrderRow) => {
  const t = o.created;
  if (t === undefined) return 0;
  return typeof t === 'number' ? t : Date.parse(t) || 0;
};

function RowActions({ order, onAmend, onDecrease }: { order: OrderRow; onAmend: (o: OrderRow) => void; onDecrease: (o: OrderRow) => void }) {
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => onAmend(order)}>
        Amend
      </button>
      <button type="button" className="btn btn-sm" aria-label="Decrease" title="Decrease: take contracts off, keeping the place in the queue" onClick={() => onDecrease(order)}>
        −
      </button>
      <button type="button" className="btn btn-sm btn-danger" aria-label="Cancel" title="Cancel the order" onClick={() => void cancelOrders([order])}>
        ✕
      </button>
    </>
  );
}

/** onAmend and onDecrease must be stable (state setters): the columns are rebuilt only when the queue positions change. */
export function useOrderColumns(queueBy: ReadonlyMap<string, string>, onAmend: (o: OrderRow) => void, onDecrease: (o: OrderRow) => void): Columns<OrderRow> {
  return useMemo<Columns<OrderRow>>(
    () => [
      col<OrderRow>({ id: 'time', header: 'Time', size: 104, accessorFn: sortTime, cell: ({ row }) => fmtTimeMs(row.original.created ?? null), meta: { csv: (o) => isoTime(o.created ?? null), drop: 5 } }),
      col<OrderRow>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (o) => o.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<OrderRow>({
        id: 'side',
        header: 'Side',
        size: 64,
        accessorFn: (o) => o.side,
        cell: ({ row }) => (row.original.side === 'bid' ? <span className="bid-text">▲ Buy</span> : <span className="ask-text">▼ Sell</span>),
        meta: { csv: (o) => (o.side === 'bid' ? 'buy' : 'sell') },
      }),
      col<OrderRow>({ id: 'price', header: 'YES price', size: 72, accessorFn: (o) => o.price, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
      col<OrderRow>({ id: 'remaining', header: 'Resting', size: 66, accessorFn: (o) => o.remaining, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
      col<OrderRow>({ id: 'filled', header: 'Filled', size: 60, accessorFn: (o) => o.filled, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true, drop: 6 } }),
      col<OrderRow>({ id: 'queue', header: 'Queue', size: 60, accessorFn: (o) => queueBy.get(o.order_id) ?? '', cell: ({ getValue }) => (getValue() ? fmtCount(getValue() as string) : ''), meta: { num: true, drop: 4 } }),
      col<OrderRow>({ id: 'status', header: 'Status', size: 74, accessorFn: (o) => o.status, meta: { drop: 7 } }),
      col<OrderRow>({ id: 'group', header: 'Group', size: 90, accessorFn: (o) => o.order_group_id ?? '', meta: { drop: 2 } }),
      col<OrderRow>({ id: 'sub', header: 'Sub', size: 36, accessorFn: (o) => o.subaccount ?? 0, meta: { num: true, drop: 3 } }),
      col<OrderRow>({ id: 'order_id', header: 'Order id', size: 120, accessorFn: (o) => o.order_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span>, meta: { drop: 1 } }),
      col<OrderRow>({
        id: '_actions',
        header: '',
        // Amend, Decrease (−) and Cancel (✕) side by side, named in full for screen readers and
        // tooltips: the narrow buttons leave the row's numbers (Filled, Status) room in the
        // default layout; narrower than this clips Cancel off the right edge
        size: 116,
        enableSorting: false,
        cell: ({ row }) => (row.original.status === 'resting' ? <RowActions order={row.original} onAmend={onAmend} onDecrease={onDecrease} /> : null),
        meta: { csv: false },
      }),
    ],
    [queueBy, onAmend, onDecrease],
  );
}
