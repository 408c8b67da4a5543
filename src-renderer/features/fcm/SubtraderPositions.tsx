// FCM, a subtrader's positions.

import type { MarketPosition } from '../../../src-shared/wire/portfolio';
import { fmtCash, fmtCount } from '../../lib/format';
import { useRestRows } from '../../hooks/useRest';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';

const positionColumns: Columns<MarketPosition> = [
  col<MarketPosition>({ id: 'ticker', header: 'Market', size: 170, accessorFn: (p) => p.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<MarketPosition>({ id: 'position', header: 'Position', size: 80, accessorFn: (p) => p.position_fp, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'exposure', header: 'Exposure', size: 86, accessorFn: (p) => p.market_exposure_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'realized', header: 'Realized', size: 86, accessorFn: (p) => p.realized_pnl_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
  col<MarketPosition>({ id: 'fees', header: 'Fees', size: 70, accessorFn: (p) => p.fees_paid_dollars, cell: ({ getValue }) => fmtCash(getValue() as string), meta: { num: true } }),
];

export function SubtraderPositions({ id }: { id: string }) {
  const { pages: q, rows: rows } = useRestRows('getFcmPositions', { query: { subtrader_id: id } }, 'market_positions', { pageSize: 500 });
  return (
    <DataTable
      label={`FCM positions of ${id}`}
      data={rows}
      columns={positionColumns}
      getRowId={(p) => `${p.ticker}-${p.exchange_index}`}
      {...queryState(q)}
      loadingText="Loading positions…"
      emptyText={`No positions for ${id}.`}
    />
  );
}
