// The DataTable's own sort gives TanStack's order, to the tie: random data and random sorting
// states, each sorted by sortRows and by TanStack's getSortedRowModel over the same columns.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTable, getCoreRowModel, getSortedRowModel, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { col } from './DataTable';
import { sortRows } from './table-sort';

interface R {
  n: number | undefined;
  s: string | undefined;
  price: string;
  when: Date;
  nested: { v: number };
}

const columns: ColumnDef<R, unknown>[] = [
  { id: 'n', accessorFn: (r) => r.n },
  { id: 'n_first', accessorFn: (r) => r.n, sortUndefined: 'first' },
  { id: 'n_last', accessorFn: (r) => r.n, sortUndefined: 'last' },
  { id: 'n_keep', accessorFn: (r) => r.n, sortUndefined: false },
  { id: 's', accessorFn: (r) => r.s },
  { id: 's_text', accessorFn: (r) => r.s ?? '', sortingFn: 'text' },
  { id: 's_alnum', accessorFn: (r) => r.s ?? '', sortingFn: 'alphanumeric' },
  { id: 's_inv', accessorFn: (r) => r.s ?? '', invertSorting: true },
  col<R>({ id: 'price', accessorFn: (r) => r.price, meta: { num: true } }),
  { id: 'when', accessorFn: (r) => r.when },
  { accessorKey: 'nested.v' } as ColumnDef<R, unknown>,
  { header: 'Price as header', accessorFn: (r) => r.price } as ColumnDef<R, unknown>,
  { id: 'locked', accessorFn: (r) => r.n, enableSorting: false },
  { id: 'display', header: 'Actions', cell: () => null },
];
const sortableIds = ['n', 'n_first', 'n_last', 'n_keep', 's', 's_text', 's_alnum', 's_inv', 'price', 'when', 'nested_v', 'Price as header', 'locked', 'display', 'no_such_column'];

function tanstackOrder(data: R[], sorting: SortingState): R[] {
  // TanStack warns of the unknown column in development builds; the order is what is compared
  const error = console.error;
  console.error = () => undefined;
  try {
    return tanstackRows(data, sorting);
  } finally {
    console.error = error;
  }
}

function tanstackRows(data: R[], sorting: SortingState): R[] {
  const table = createTable<R>({
    data,
    columns,
    state: { sorting, columnPinning: {}, columnVisibility: {}, rowSelection: {} },
    onStateChange: () => undefined,
    renderFallbackValue: null,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return table.getRowModel().rows.map((r) => r.original);
}

const row = fc.record<R>({
  n: fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
  s: fc.option(fc.constantFrom('a', 'B', 'a10', 'a9', 'KX-1', 'KX-12', 'z', ''), { nil: undefined }),
  price: fc.constantFrom('0.50', '5000.00', '900.00', '', '—', '0.5'),
  when: fc.integer({ min: 0, max: 5 }).map((d) => new Date(Date.UTC(2026, 0, 1 + d))),
  nested: fc.record({ v: fc.integer({ min: 0, max: 4 }) }),
});
const sorting = fc.array(fc.record({ id: fc.constantFrom(...sortableIds), desc: fc.boolean() }), { maxLength: 3 });

describe('sortRows', () => {
  it('orders rows exactly as TanStack getSortedRowModel does, ties and undefined included', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), sorting, (data, s) => {
        // TanStack ignores a second entry for the same column only through its own toggles; keep one
        const unique = s.filter((e, i) => s.findIndex((o) => o.id === e.id) === i);
        expect(sortRows(data, columns, unique)).toEqual(tanstackOrder(data, unique));
      }),
      { numRuns: 400 },
    );
  });

  it('gives back the same array when nothing sorts', () => {
    const data = [{ n: 2 }, { n: 1 }] as R[];
    expect(sortRows(data, columns, [])).toBe(data);
    expect(sortRows(data, columns, [{ id: 'locked', desc: false }])).toBe(data);
    expect(sortRows(data, columns, [{ id: 'no_such_column', desc: true }])).toBe(data);
  });

  it('sorts the rows after the first ten by "auto" as TanStack chooses it (text after ten rows of numbers)', () => {
    const data: R[] = Array.from({ length: 14 }, (_, i) => ({ n: i, s: i < 10 ? undefined : `x${14 - i}`, price: '1', when: new Date(0), nested: { v: 0 } }));
    expect(sortRows(data, columns, [{ id: 's', desc: false }])).toEqual(tanstackOrder(data, [{ id: 's', desc: false }]));
  });
});
