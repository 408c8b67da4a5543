// FCM, a subtrader's orders.

import type { Order } from '../../../src-shared/wire/orders';
import { fmtCount, fmtTime, isoTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useRestRows } from '../../hooks/useRest';
import { col, DataTable, type Columns } from '../../ui/DataTable';

const orderColumns: Columns<Order> = [
  col<Order>({ id: 'time', header: 'Created', size: 78, accessorFn: (o) => o.created_time ?? '', cell: ({ getValue }) => fmtTime((getValue() as string) || null), meta: { csv: (o) => isoTime(o.created_time ?? null) } }),
  col<Order>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (o) => o.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Order>({ id: 'side', header: 'Side', size: 60, accessorFn: (o) => o.book_side ?? `${o.action ?? ''} ${o.side ?? ''}` }),
  col<Order>({ id: 'price', header: 'YES price', size: 70, accessorFn: (o) => o.yes_price_dollars ?? '', cell: ({ row, getValue }) => fmtPx(row.original.ticker, (getValue() as string) || null), meta: { num: true } }),
  col<Order>({ id: 'remaining', header: 'Resting', size: 66, accessorFn: (o) => o.remaining_count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<Order>({ id: 'filled', header: 'Filled', size: 60, accessorFn: (o) => o.fill_count_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
  col<Order>({ id: 'status', header: 'Status', size: 72, accessorFn: (o) => o.status }),
  col<Order>({ id: 'id', header: 'Order id', accessorFn: (o) => o.order_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
];

export function SubtraderOrders({ id }: { id: string }) {
  const { pages: q, rows: rows } = useRestRows('getFcmOrders', { query: { subtrader_id: id } }, 'orders', { pageSize: 200 });
  return (
    <DataTable label={`FCM orders of ${id}`} data={rows} columns={orderColumns} getRowId={(o) => o.order_id} loading={q.isPending} loadingText="Loading orders…" error={q.error} onRetry={() => void q.refetch()} emptyText={`No orders for ${id}.`} />
  );
}
