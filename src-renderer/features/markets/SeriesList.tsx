// Series: the families markets belong to, with their fee terms. Opening one filters Markets.
import { useState } from 'react';
import type { Series } from '../../../src-shared/wire/events';
import { useRest } from '../../hooks/useRest';
import { useDebounced } from '../../hooks/useDebounced';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';

const columns: Columns<Series> = [
  col<Series>({ id: 'ticker', header: 'Series', size: 130, accessorFn: (s) => s.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Series>({ id: 'title', header: 'Title', accessorFn: (s) => s.title }),
  col<Series>({ id: 'category', header: 'Category', size: 110, accessorFn: (s) => s.category }),
  col<Series>({ id: 'frequency', header: 'Frequency', size: 90, accessorFn: (s) => s.frequency ?? '' }),
  col<Series>({ id: 'fee_type', header: 'Fee type', size: 150, accessorFn: (s) => s.fee_type ?? '' }),
  col<Series>({ id: 'fee_multiplier', header: 'Fee mult.', size: 70, accessorFn: (s) => s.fee_multiplier, meta: { num: true } }),
];

export function SeriesList({ onOpen }: { onOpen: (s: Series) => void }) {
  const [category, setCategory] = useState('');
  const c = useDebounced(category.trim());
  const q = useRest('getSeriesList', { query: c ? { category: c } : {} });
  return (
    <DataTable
      label="Series"
      data={q.data?.series ?? []}
      columns={columns}
      getRowId={(s) => s.ticker}
      {...queryState(q)}
      loadingText="Loading series…"
      emptyText={c ? `No series in category ${c}.` : 'No series.'}
      onActivate={onOpen}
      tools={<input placeholder="Category" aria-label="Filter series by category" value={category} onChange={(e) => setCategory(e.target.value)} className="u-w-130" />}
    />
  );
}
