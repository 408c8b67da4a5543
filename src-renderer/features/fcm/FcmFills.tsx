// FCM fills across subtraders.
import type { FcmFill } from '../../../src-shared/wire/fcm';
import { fmtCount, fmtTime, isoTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useRestRows } from '../../hooks/useRest';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { LoadMore } from '../../ui/LoadMore';

const fillColumns: Columns<FcmFill> = [
  col<FcmFill>({ id: 'time', header: 'Time', size: 78, accessorFn: (f) => f.ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null), meta: { csv: (f) => isoTime(f.ts ?? null) } }),
  col<FcmFill>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (f) => f.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<FcmFill>({ id: 'taker', header: 'Taker side', size: 70, accessorFn: (f) => f.taker_outcome_side }),
  col<FcmFill>({ id: 'price', header: 'YES price', size: 70, accessorFn: (f) => f.yes_price_dollars, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
  col<FcmFill>({ id: 'count', header: 'Count', size: 66, accessorFn: (f) => f.count_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<FcmFill>({ id: 'maker', header: 'Maker subtrader', size: 150, accessorFn: (f) => f.maker_subtrader_id ?? '' }),
  col<FcmFill>({ id: 'takerSub', header: 'Taker subtrader', size: 150, accessorFn: (f) => f.taker_subtrader_id ?? '' }),
  col<FcmFill>({ id: 'fees', header: 'Fees (m/t)', size: 100, accessorFn: (f) => `${f.maker_fee_cost ?? ''}/${f.taker_fee_cost ?? ''}` }),
];

export function FcmFills() {
  const { pages: q, rows } = useRestRows('getFcmFills', { query: {} }, 'fills', { sizeParam: null });
  return (
    <DataTable
      label="FCM fills"
      data={rows}
      columns={fillColumns}
      getRowId={(f) => f.fill_id}
      {...queryState(q)}
      loadingText="Loading FCM fills…"
      emptyText="No fills by any subtrader."
      footer={<LoadMore pages={q} label="Load older" />}
    />
  );
}
