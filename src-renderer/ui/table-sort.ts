// The blotters' sort, outside TanStack's row model. TanStack Table 8.21 gives every row object
// about 47 closures of its own and rebuilds all of them (and, sorted, a copy of each) whenever
// the data changes: about 4 KB a row kept, and the tape's 500 rows rebuilt at every trade. The
// DataTable therefore sorts the data itself, here, and lets TanStack make rows only for the
// ones in view. The order is TanStack's own, to the tie (table-sort.test.ts checks it against
// getSortedRowModel): the same sorting functions, "auto" chosen as TanStack chooses it,
// undefined values placed by sortUndefined, desc and invertSorting, then the data's order.
import { sortingFns, type ColumnDef, type Row, type SortingFn, type SortingState } from '@tanstack/react-table';

type Accessor<T> = (row: T, index: number) => unknown;

interface SortColumn<T> {
  id: string;
  accessor: Accessor<T>;
  def: ColumnDef<T, unknown>;
}

/** The leaf columns TanStack would make of these definitions: their ids and accessors. */
function leafColumns<T>(defs: readonly ColumnDef<T, unknown>[], out: SortColumn<T>[] = []): SortColumn<T>[] {
  for (const def of defs) {
    const d = def as ColumnDef<T, unknown> & { accessorFn?: Accessor<T>; accessorKey?: string; columns?: ColumnDef<T, unknown>[] };
    if (d.columns?.length) {
      leafColumns(d.columns, out);
      continue;
    }
    const key = d.accessorKey;
    // TanStack's id: the def's id, else its accessor key ('.' as '_'), else a string header
    const id = d.id ?? (key ? key.replace('.', '_') : undefined) ?? (typeof d.header === 'string' ? d.header : undefined);
    let accessor: Accessor<T> | undefined = d.accessorFn;
    if (!accessor && key) {
      accessor = key.includes('.')
        ? (row) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | null | undefined)?.[k], row)
        : (row) => (row as Record<string, unknown>)[key];
    }
    // a column without an accessor (checkboxes, actions) cannot sort, as in TanStack
    if (id !== undefined && accessor) out.push({ id, accessor, def });
  }
  return out;
}

/** A row as the sorting functions see it: its object, its index in the data and its values. */
class SortRow<T> {
  constructor(
    readonly original: T,
    readonly index: number,
    private readonly values: Map<string, unknown[]>,
    private readonly columns: Map<string, SortColumn<T>>,
  ) {}
  getValue(id: string): unknown {
    const col = this.values.get(id);
    if (col) return col[this.index];
    return this.columns.get(id)?.accessor(this.original, this.index);
  }
}

const reSplitAlphaNumeric = /([0-9]+)/gm;

/** TanStack's "auto": from the values of the rows after its first ten (getAutoSortingFn, 8.21). */
function autoSortingFn<T>(values: readonly unknown[]): SortingFn<T> {
  let isString = false;
  for (const value of values.slice(10)) {
    if (Object.prototype.toString.call(value) === '[object Date]') return sortingFns.datetime as SortingFn<T>;
    if (typeof value === 'string') {
      isString = true;
      if (value.split(reSplitAlphaNumeric).length > 1) return sortingFns.alphanumeric as SortingFn<T>;
    }
  }
  return (isString ? sortingFns.text : sortingFns.basic) as SortingFn<T>;
}

/**
 * The data in the order TanStack's sorted row model gives for these columns and this sorting
 * (the same array when nothing sorts). Entries for columns that do not exist or cannot sort are
 * left out, as TanStack leaves them out.
 */
export function sortRows<T>(data: readonly T[], defs: readonly ColumnDef<T, unknown>[], sorting: SortingState): readonly T[] {
  if (!data.length || !sorting.length) return data;
  const byId = new Map(leafColumns(defs).map((c) => [c.id, c]));
  const active = sorting.filter((s) => {
    const c = byId.get(s.id);
    return c !== undefined && c.def.enableSorting !== false;
  });
  if (!active.length) return data;
  const values = new Map<string, unknown[]>();
  for (const s of active) {
    const c = byId.get(s.id)!;
    if (!values.has(c.id)) values.set(c.id, data.map((row, i) => c.accessor(row, i)));
  }
  const keys = active.map((s) => {
    const c = byId.get(s.id)!;
    const fn = c.def.sortingFn;
    const sortingFn: SortingFn<T> =
      typeof fn === 'function'
        ? fn
        : fn === undefined || fn === 'auto'
          ? autoSortingFn<T>(values.get(c.id)!)
          : (sortingFns[fn as keyof typeof sortingFns] as SortingFn<T>);
    return { id: c.id, desc: s.desc ?? false, invert: c.def.invertSorting ?? false, sortUndefined: c.def.sortUndefined ?? 1, sortingFn };
  });
  const rows = data.map((row, i) => new SortRow(row, i, values, byId));
  rows.sort((a, b) => {
    const ra = a as unknown as Row<T>;
    const rb = b as unknown as Row<T>;
    for (const k of keys) {
      let sortInt = 0;
      if (k.sortUndefined) {
        const aUndefined = a.getValue(k.id) === undefined;
        const bUndefined = b.getValue(k.id) === undefined;
        if (aUndefined || bUndefined) {
          if (k.sortUndefined === 'first') return aUndefined ? -1 : 1;
          if (k.sortUndefined === 'last') return aUndefined ? 1 : -1;
          sortInt = aUndefined && bUndefined ? 0 : aUndefined ? k.sortUndefined : -k.sortUndefined;
        }
      }
      if (sortInt === 0) sortInt = k.sortingFn(ra, rb, k.id);
      if (sortInt !== 0) {
        if (k.desc) sortInt *= -1;
        if (k.invert) sortInt *= -1;
        return sortInt;
      }
    }
    return a.index - b.index;
  });
  return rows.map((r) => r.original);
}
