// Every blotter: TanStack Table for columns, sorting state and selection, TanStack Virtual for
// long lists, keyboard navigation (arrows, Home/End, Space selects, Enter opens), honest states
// and CSV export of all rows in the current sort. The data is sorted here (table-sort.ts, in
// TanStack's order) and TanStack makes row objects only for the rows in view: its rows cost
// about 4 KB each and were all made again at every change of the data (the tape's 500 at
// every trade), which was most of the page's heap growth under a busy feed.
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type Row,
  type RowSelectionState,
  type SortingState,
  type VisibilityState,
  type Table,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { exportCsv, type CsvColumn } from '../lib/csv';
import { fmtInt } from '../lib/format';
import { Empty, ErrorState, Loading } from './States';
import { Decimal } from '../../src-shared/money';
import { sortRows } from './table-sort';
import { columnsToHide, leastWidth, useAvailableWidth, type FitColumn } from './column-fit';

declare module '@tanstack/react-table' {
  // the type parameters must match the library's declaration, used or not
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** right-aligned tabular numbers */
    num?: boolean;
    /** the CSV value; false leaves the column out of exports */
    csv?: ((row: TData) => string | number | boolean | null | undefined) | false;
    /**
     * The column gives way when the table is narrower than its columns (issue 34: a panel drops
     * its lowest-priority columns, and says so, before it cuts a number): 1 goes first.
     * Without it the column always stays.
     */
    drop?: number;
    /** a column without a fixed size (a name) needs at least this much (px; 90 unless told) */
    minWidth?: number;
  }
  // the type parameters must match the library's declaration, used or not
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData extends RowData> {
    /** "select all" over every row of the data, not only the rows TanStack holds (those in view) */
    allRows?: AllRowsSelection;
  }
}

/** The header checkbox's view of the whole data's selection. */
interface AllRowsSelection {
  all: boolean;
  some: boolean;
  toggle: () => void;
}

export type Columns<T> = ColumnDef<T, unknown>[];

const ROW_HEIGHT = 23;

let focusedExport: (() => void) | null = null;
/** The app's "export CSV" command: exports the table that last had focus. */
export function exportFocusedTable(): boolean {
  if (!focusedExport) return false;
  focusedExport();
  return true;
}

function csvColumns<T>(table: Table<T>): CsvColumn<T>[] {
  return table
    .getAllLeafColumns()
    .filter((c) => c.columnDef.meta?.csv !== false && c.id !== '_select' && c.id !== '_actions')
    .map((c) => {
      const meta = c.columnDef.meta;
      const header = typeof c.columnDef.header === 'string' ? c.columnDef.header : c.id;
      const accessor = (c.columnDef as { accessorFn?: (row: T, i: number) => unknown }).accessorFn;
      return {
        header,
        value: (row: T) => {
          if (meta?.csv) return meta.csv(row);
          const v = accessor ? accessor(row, 0) : (row as Record<string, unknown>)[c.id];
          return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
        },
      };
    });
}

export interface DataTableProps<T> {
  data: readonly T[];
  columns: Columns<T>;
  getRowId: (row: T) => string;
  /** names the table for screen readers and the CSV file */
  label: string;
  loading?: boolean;
  loadingText?: string;
  error?: unknown;
  onRetry?: () => void;
  emptyText: ReactNode;
  selectable?: boolean;
  selection?: RowSelectionState;
  onSelectionChange?: (s: RowSelectionState) => void;
  onActivate?: (row: T) => void;
  /** a single click opens the row too (lists whose rows are choices, like markets) */
  activateOnClick?: boolean;
  /** Delete on the active row (cancel, remove) */
  onDelete?: (row: T) => void;
  tools?: ReactNode;
  footer?: ReactNode;
  initialSorting?: SortingState;
  rowClassName?: (row: T) => string | undefined;
  csv?: boolean;
  /**
   * The cells show only their row object and the columns (no store read at render time): a row
   * whose object, class and selection did not change is not rendered again (lists that update
   * many times a second, like the tape and the Markets list).
   */
  pureRows?: boolean;
}

interface RowHandlers<T> {
  click: (id: string, row: T, e: MouseEvent<HTMLTableRowElement>) => void;
  dblclick: (row: T) => void;
}

interface BodyRowProps<T> {
  row: Row<T>;
  cls: string | undefined;
  selected: boolean | undefined;
  /** the row's object and the columns: what a pure row's cells show */
  original: T;
  columns: unknown;
  handlers: { current: RowHandlers<T> };
}

function BodyRowView<T>({ row, cls, selected, handlers }: BodyRowProps<T>) {
  return (
    <tr
      data-row-id={row.id}
      aria-selected={selected}
      className={cls}
      onClick={(e) => handlers.current.click(row.id, row.original, e)}
      onMouseDown={(e) => {
        // a double click opens the row; it should not also select its text
        if (e.detail > 1) e.preventDefault();
      }}
      onDoubleClick={() => handlers.current.dblclick(row.original)}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} data-col={cell.column.id} className={cell.column.columnDef.meta?.num ? 'num' : cell.column.id === '_actions' ? 'actions' : undefined}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </tr>
  );
}

/** A pure row renders again only when its object, class, selection or columns change. */
const PureBodyRow = memo(
  BodyRowView,
  (a, b) => a.original === b.original && a.cls === b.cls && a.selected === b.selected && a.columns === b.columns && a.handlers === b.handlers,
) as typeof BodyRowView;

/** The columns with, for a selectable table, the checkbox column first. */
function useTableColumns<T>(columns: Columns<T>, selectable: boolean | undefined): Columns<T> {
  return useMemo<Columns<T>>(() => {
    if (!selectable) return columns;
    const select: ColumnDef<T, unknown> = {
      id: '_select',
      size: 28,
      enableSorting: false,
      header: ({ table }) => {
        const all = table.options.meta?.allRows;
        return (
          <input
            type="checkbox"
            aria-label="Select all rows"
            checked={all?.all ?? false}
            ref={(el) => {
              if (el) el.indeterminate = all?.some ?? false;
            }}
            onChange={() => all?.toggle()}
          />
        );
      },
      cell: ({ row }) => (
        <input type="checkbox" aria-label="Select row" checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} onClick={(e) => e.stopPropagation()} />
      ),
      meta: { csv: false },
    };
    return [select, ...columns];
  }, [columns, selectable]);
}

function asFitColumns<T>(cols: Columns<T>): FitColumn[] {
  return cols.map((c) => ({ id: c.id ?? '', size: c.size, minWidth: c.meta?.minWidth, drop: c.meta?.drop }));
}

interface ColumnFit {
  /** the columns that give way at this width (shown all the same when showAll) */
  hiddenCols: string[];
  hiddenNames: string[];
  columnVisibility: VisibilityState;
  showAll: boolean;
  setShowAll: (f: (v: boolean) => boolean) => void;
}

/** Which columns give way so that the rest fit the table's width in view (issue 34). */
function useColumnFit<T>(allColumns: Columns<T>, scrollRef: { current: HTMLElement | null }): ColumnFit {
  const avail = useAvailableWidth(scrollRef);
  /** every column shown (the trader asked: the table scrolls sideways) */
  const [showAll, setShowAll] = useState(false);
  const hiddenCols = useMemo(() => {
    if (avail === null) return [];
    return columnsToHide(asFitColumns(allColumns), avail);
  }, [allColumns, avail]);
  const columnVisibility = useMemo<VisibilityState>(() => (showAll ? {} : Object.fromEntries(hiddenCols.map((id) => [id, false]))), [hiddenCols, showAll]);
  const hiddenNames = hiddenCols.map((id) => {
    const def = allColumns.find((c) => c.id === id);
    return typeof def?.header === 'string' && def.header ? def.header : id;
  });
  return { hiddenCols, hiddenNames, columnVisibility, showAll, setShowAll };
}

interface RowKeysArgs<T> {
  /** every row, in the current sort */
  rows: readonly T[];
  toggleRow: (row: T) => void;
  active: number;
  setActive: (i: number) => void;
  scrollRef: { current: HTMLElement | null };
  scrollToIndex: (i: number) => void;
  selectable: boolean | undefined;
  onDelete: ((row: T) => void) | undefined;
  onActivate: ((row: T) => void) | undefined;
}

/** The list's keys: arrows, Home/End, PageUp/Down move the cursor; Space, Delete, Enter act on its row. */
function rowKeyHandler<T>({ rows, toggleRow, active, setActive, scrollRef, scrollToIndex, selectable, onDelete, onActivate }: RowKeysArgs<T>) {
  return (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== scrollRef.current) return;
    let next = active;
    if (e.key === 'ArrowDown') next = Math.min(rows.length - 1, active + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, active - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'PageDown') next = Math.min(rows.length - 1, active + 15);
    else if (e.key === 'PageUp') next = Math.max(0, active - 15);
    else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // the list moves by rows: Left / Right scrolled the table sideways (the browser's default)
      // and hid its first columns (Ticker and Market in the Markets list)
      e.preventDefault();
      return;
    }
    else if (e.key === ' ' && selectable && rows[active]) {
      e.preventDefault();
      toggleRow(rows[active]!);
      return;
    } else if (e.key === 'Delete' && onDelete && rows[active]) {
      e.preventDefault();
      onDelete(rows[active]!);
      return;
    } else if (e.key === 'Enter' && onActivate && rows[active]) {
      e.preventDefault();
      onActivate(rows[active]!);
      return;
    } else return;
    e.preventDefault();
    setActive(next);
    if (next >= 0) scrollToIndex(next);
  };
}

interface TableToolsProps {
  tools: ReactNode;
  fit: ColumnFit;
  loading: boolean;
  selectedCount: number;
  rowCount: number;
  csv: boolean;
  onExport: () => void;
}

/** The bar above the table: the panel's tools, "+N cols", the row count and CSV. */
function TableTools({ tools, fit, loading, selectedCount, rowCount, csv, onExport }: TableToolsProps) {
  const { hiddenCols, hiddenNames, showAll, setShowAll } = fit;
  return (
    <div className="table-tools">
      {tools}
      <span className="grow" />
      {hiddenCols.length > 0 && (
        <button
          type="button"
          className="btn btn-sm btn-ghost more-cols"
          aria-pressed={showAll}
          onClick={() => setShowAll((v) => !v)}
          title={
            showAll
              ? `Fit the width again: ${hiddenNames.join(', ')} give way`
              : `${hiddenNames.join(', ')} ${hiddenNames.length === 1 ? 'gives' : 'give'} way at this width: click to show every column (the table scrolls sideways), or widen the panel`
          }
        >
          {showAll ? 'Fit columns' : `+${hiddenCols.length} ${hiddenCols.length === 1 ? 'col' : 'cols'}`}
        </button>
      )}
      {loading && <span className="spinner" aria-label="Refreshing" />}
      {selectedCount > 0 && <span className="dim">{fmtInt(selectedCount)} selected</span>}
      <span className="dim">{fmtInt(rowCount)} {rowCount === 1 ? 'row' : 'rows'}</span>
      {csv && (
        <button type="button" className="btn btn-sm" onClick={onExport} disabled={!rowCount} title="Export all rows as CSV">
          CSV
        </button>
      )}
    </div>
  );
}

/**
 * The column widths and the sticky header row (a sortable column's title is a button). A column
 * without a declared size (a name) takes what the sized ones leave: `columnDef.size` is never
 * empty (TanStack fills in 150), so it is read from the columns as declared; at 150 the Markets
 * list's title stayed wider than the fit had counted and pushed YES ask past the panel's edge.
 */
function GridHead<T>({ table, allColumns }: { table: Table<T>; allColumns: Columns<T> }) {
  return (
    <>
      <colgroup>
        {table.getVisibleLeafColumns().map((c) => (
          <col key={c.id} style={allColumns.find((d) => d.id === c.id)?.size ? { width: c.getSize() } : undefined} />
        ))}
      </colgroup>
      <thead>
        {table.getHeaderGroups().map((hg) => (
          <tr key={hg.id}>
            {hg.headers.map((h) => {
              const sort = h.column.getIsSorted();
              const content = h.isPlaceholder ? null : flexRender(h.column.columnDef.header, h.getContext());
              return (
                <th
                  key={h.id}
                  className={h.column.columnDef.meta?.num ? 'num' : h.column.id === '_actions' ? 'actions' : undefined}
                  aria-sort={sort === 'asc' ? 'ascending' : sort === 'desc' ? 'descending' : undefined}
                >
                  {h.column.getCanSort() ? (
                    <button type="button" onClick={h.column.getToggleSortingHandler()} tabIndex={-1}>
                      {content}
                      {sort === 'asc' ? ' ▲' : sort === 'desc' ? ' ▼' : ''}
                    </button>
                  ) : (
                    content
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
    </>
  );
}

interface GridBodyProps<T> {
  /** TanStack's rows for the data in view: `rows[i]` is the virtual item of index `first + i` */
  rows: Row<T>[];
  first: number;
  items: VirtualItem[];
  totalSize: number;
  colCount: number;
  active: number;
  clickable: boolean;
  rowClassName: ((row: T) => string | undefined) | undefined;
  selectable: boolean | undefined;
  /** the columns shown: a pure row renders again when a column gives way or comes back */
  visibleColumns: unknown;
  handlers: { current: RowHandlers<T> };
  pureRows: boolean | undefined;
}

/** The rows in view, between two spacer rows that stand for the ones scrolled away. */
function GridBody<T>({ rows, first, items, totalSize, colCount, active, clickable, rowClassName, selectable, visibleColumns, handlers, pureRows }: GridBodyProps<T>) {
  const RowView = pureRows ? PureBodyRow : BodyRowView;
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? totalSize - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    <tbody>
      {padTop > 0 && (
        <tr aria-hidden="true">
          <td colSpan={colCount} style={{ height: padTop, padding: 0, border: 0 }} />
        </tr>
      )}
      {items.map((vi) => {
        const row = rows[vi.index - first];
        if (!row) return null;
        const cls = [vi.index === active ? 'active-row' : '', clickable ? 'clickable' : '', rowClassName?.(row.original) ?? ''].filter(Boolean).join(' ');
        return (
          <RowView
            key={row.id}
            row={row}
            cls={cls || undefined}
            selected={selectable ? row.getIsSelected() : undefined}
            original={row.original}
            columns={visibleColumns}
            handlers={handlers}
          />
        );
      })}
      {padBottom > 0 && (
        <tr aria-hidden="true">
          <td colSpan={colCount} style={{ height: padBottom, padding: 0, border: 0 }} />
        </tr>
      )}
    </tbody>
  );
}

/** The whole data's selection as the header checkbox sees it (TanStack's getIsAllRowsSelected and getIsSomeRowsSelected, 8.21). */
function allRowsSelection<T>(sorted: readonly T[], getRowId: (row: T) => string, selection: RowSelectionState, setSelection: (s: RowSelectionState) => void): AllRowsSelection {
  const count = Object.keys(selection).length;
  const all = sorted.length > 0 && count > 0 && sorted.every((r) => selection[getRowId(r)]);
  return {
    all,
    some: count > 0 && count < sorted.length,
    toggle: () => {
      const next = { ...selection };
      for (const r of sorted) {
        if (all) delete next[getRowId(r)];
        else next[getRowId(r)] = true;
      }
      setSelection(next);
    },
  };
}

/**
 * The table's model: its columns fitted, sorting, selection, the sorted data, its virtualizer,
 * and TanStack's rows for the data in view (`rows[i]` is `sorted[first + i]`).
 */
function useGrid<T>(props: DataTableProps<T>, scrollRef: { current: HTMLDivElement | null }) {
  const [sorting, setSorting] = useState<SortingState>(props.initialSorting ?? []);
  const [localSelection, setLocalSelection] = useState<RowSelectionState>({});
  const selection = props.selection ?? localSelection;
  const setSelection = props.onSelectionChange ?? setLocalSelection;
  const allColumns = useTableColumns(props.columns, props.selectable);
  const fit = useColumnFit(allColumns, scrollRef);
  const { getRowId, data } = props;
  const sorted = useMemo(() => sortRows(data, allColumns, sorting), [data, allColumns, sorting]);
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const end = items.length ? items[items.length - 1]!.index + 1 : 0;
  const inView = useMemo(() => sorted.slice(first, end), [sorted, first, end]);
  const table = useReactTable<T>({
    data: inView as T[],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    state: { sorting, rowSelection: selection, columnVisibility: fit.columnVisibility },
    onSortingChange: setSorting,
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => setSelection(typeof updater === 'function' ? updater(selection) : updater),
    enableRowSelection: !!props.selectable,
    // sorted above, over the whole data
    manualSorting: true,
    getCoreRowModel: getCoreRowModel(),
    // only a selectable table has the header checkbox
    meta: props.selectable ? { allRows: allRowsSelection(sorted, getRowId, selection, setSelection) } : {},
  });
  const rows = table.getRowModel().rows;
  const toggleRow = (row: T) => {
    const id = getRowId(row);
    const next = { ...selection };
    if (next[id]) delete next[id];
    else next[id] = true;
    setSelection(next);
  };
  const selectedCount = Object.keys(selection).filter((k) => selection[k]).length;
  return { allColumns, fit, table, sorted, rows, first, items, virtualizer, selectedCount, toggleRow };
}

/** The row cursor (kept within the rows) and the rows' click handlers, through one stable ref. */
function useRowCursor<T>(sorted: readonly T[], getRowId: (row: T) => string, onActivate: ((row: T) => void) | undefined, activateOnClick: boolean | undefined) {
  const [active, setActive] = useState(-1);
  useEffect(() => {
    if (active >= sorted.length) setActive(sorted.length - 1);
  }, [sorted.length, active]);
  // the rows' handlers through one stable ref: a pure row need not render again for new closures
  const handlers = useRef<RowHandlers<T>>({ click: () => undefined, dblclick: () => undefined });
  handlers.current = {
    click: (id, original, e) => {
      setActive(sorted.findIndex((r) => getRowId(r) === id));
      // clicks on controls inside the row (star, buttons) do their own thing
      if (activateOnClick && !(e.target as HTMLElement).closest('button, input, select, a')) onActivate?.(original);
    },
    dblclick: (original) => onActivate?.(original),
  };
  return { active, setActive, handlers };
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { data, label, selectable, onActivate, onDelete } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { allColumns, fit, table, sorted, rows, first, items, virtualizer, selectedCount, toggleRow } = useGrid(props, scrollRef);
  const { active, setActive, handlers } = useRowCursor(sorted, props.getRowId, onActivate, props.activateOnClick);

  const doExport = () => exportCsv(label, csvColumns(table), sorted);
  const exportRef = useRef(doExport);
  exportRef.current = doExport;
  const onKey = rowKeyHandler({ rows: sorted, toggleRow, active, setActive, scrollRef, scrollToIndex: (i) => virtualizer.scrollToIndex(i, { align: 'auto' }), selectable, onDelete, onActivate });

  let body: ReactNode = null;
  if (props.loading && !data.length) body = <Loading text={props.loadingText ?? `Loading ${label.toLowerCase()}…`} />;
  else if (props.error && !data.length) body = <ErrorState error={props.error} {...(props.onRetry ? { onRetry: props.onRetry } : {})} />;
  else if (!data.length) body = <Empty>{props.emptyText}</Empty>;

  return (
    <div
      className="table-wrap"
      onFocus={() => {
        // the latest rows at the time of the export, not of the focus
        focusedExport = () => exportRef.current();
      }}
    >
      {(props.tools || props.csv !== false || selectable || fit.hiddenCols.length > 0) && (
        <TableTools tools={props.tools} fit={fit} loading={!!props.loading && data.length > 0} selectedCount={selectable ? selectedCount : 0} rowCount={sorted.length} csv={props.csv !== false} onExport={doExport} />
      )}
      {props.error && data.length > 0 ? <ErrorState error={props.error} {...(props.onRetry ? { onRetry: props.onRetry } : {})} /> : null}
      {/* One scroll element whether or not there are rows: a new one (the first order after none)
          made the virtualizer measure it at once, a forced layout of the whole page inside the
          commit that paints that order (4-5 ms of the keypress-to-ack path, traced). */}
      <div
        className="table-scroll"
        ref={scrollRef}
        {...(body
          ? {}
          : { tabIndex: 0, role: 'region', 'aria-label': `${label}: arrows move${selectable ? ', Space selects' : ''}${onActivate ? ', Enter opens' : ''}${onDelete ? ', Delete removes' : ''}`, onKeyDown: onKey })}
      >
        {body ?? (
          // a name column keeps its minimum: when the columns that stay are wider than the panel,
          // the table scrolls rather than squeeze it to nothing
          <table className="grid" aria-label={label} aria-rowcount={sorted.length} style={{ minWidth: leastWidth(asFitColumns(allColumns.filter((c) => table.getColumn(c.id ?? '')?.getIsVisible() !== false))) }}>
            <GridHead table={table} allColumns={allColumns} />
            <GridBody
              rows={rows}
              first={first}
              items={items}
              totalSize={virtualizer.getTotalSize()}
              colCount={table.getVisibleLeafColumns().length}
              active={active}
              clickable={!!onActivate}
              rowClassName={props.rowClassName}
              selectable={selectable}
              visibleColumns={table.getVisibleLeafColumns()}
              handlers={handlers}
              pureRows={props.pureRows}
            />
          </table>
        )}
      </div>
      {props.footer}
    </div>
  );
}

/** A cell value as a decimal, when it is one ("120.00", 5, a Decimal); null for text and blanks. */
function decimalOf(v: unknown): Decimal | null {
  if (Decimal.isDecimal(v)) return new Decimal(v as Decimal);
  if (typeof v === 'number' && Number.isFinite(v)) return new Decimal(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return new Decimal(v.trim());
  return null;
}

/** Orders numeric cells by value ("900.00" before "5000.00"); blanks and text come first, by text. */
export function compareNumericCells(a: unknown, b: unknown): number {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (x && y) return x.comparedTo(y);
  if (x) return 1;
  if (y) return -1;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

/** A column; a numeric one (meta.num) sorts by value, not as text, unless it says otherwise. */
export function col<T>(def: ColumnDef<T, unknown>): ColumnDef<T, unknown> {
  if (def.meta?.num && def.sortingFn === undefined) return { ...def, sortingFn: (ra, rb, id) => compareNumericCells(ra.getValue(id), rb.getValue(id)) };
  return def;
}

/** A TanStack query's loading, error and retry, as DataTable (and QueryView) props. */
export function queryState(q: { isPending: boolean; error: unknown; refetch: () => unknown }): { loading: boolean; error: unknown; onRetry: () => void } {
  return { loading: q.isPending, error: q.error, onRetry: () => void q.refetch() };
}
