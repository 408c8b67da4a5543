// Every blotter: TanStack Table for columns, sorting and selection, TanStack Virtual for long
// lists, keyboard navigation (arrows, Home/End, Space selects, Enter opens), honest states and
// CSV export of all rows in the current sort.
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type Row,
  type RowSelectionState,
  type SortingState,
  type Table,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { exportCsv, type CsvColumn } from '../lib/csv';
import { Empty, ErrorState, Loading } from './States';
import { Decimal } from '../../src-shared/money';

declare module '@tanstack/react-table' {
  // the type parameters must match the library's declaration, used or not
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** right-aligned tabular numbers */
    num?: boolean;
    /** the CSV value; false leaves the column out of exports */
    csv?: ((row: TData) => string | number | boolean | null | undefined) | false;
  }
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

export function DataTable<T>(props: DataTableProps<T>) {
  const { data, columns, getRowId, label, selectable, onActivate, activateOnClick, onDelete, rowClassName } = props;
  const [sorting, setSorting] = useState<SortingState>(props.initialSorting ?? []);
  const [localSelection, setLocalSelection] = useState<RowSelectionState>({});
  const selection = props.selection ?? localSelection;
  const setSelection = props.onSelectionChange ?? setLocalSelection;
  const [active, setActive] = useState(-1);
  const scrollRef = useRef<HTMLDivElement>(null);

  const allColumns = useMemo<Columns<T>>(() => {
    if (!selectable) return columns;
    const select: ColumnDef<T, unknown> = {
      id: '_select',
      size: 28,
      enableSorting: false,
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label="Select all rows"
          checked={table.getIsAllRowsSelected()}
          ref={(el) => {
            if (el) el.indeterminate = table.getIsSomeRowsSelected();
          }}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input type="checkbox" aria-label="Select row" checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} onClick={(e) => e.stopPropagation()} />
      ),
      meta: { csv: false },
    };
    return [select, ...columns];
  }, [columns, selectable]);

  const table = useReactTable<T>({
    data: data as T[],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    state: { sorting, rowSelection: selection },
    onSortingChange: setSorting,
    onRowSelectionChange: (updater) => setSelection(typeof updater === 'function' ? updater(selection) : updater),
    enableRowSelection: !!selectable,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const rows = table.getRowModel().rows;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    if (active >= rows.length) setActive(rows.length - 1);
  }, [rows.length, active]);

  const doExport = () => exportCsv(label, csvColumns(table), rows.map((r) => r.original));
  const exportRef = useRef(doExport);
  exportRef.current = doExport;
  // the rows' handlers through one stable ref: a pure row need not render again for new closures
  const handlers = useRef<RowHandlers<T>>({ click: () => undefined, dblclick: () => undefined });
  handlers.current = {
    click: (id, original, e) => {
      setActive(rows.findIndex((r) => r.id === id));
      // clicks on controls inside the row (star, buttons) do their own thing
      if (activateOnClick && !(e.target as HTMLElement).closest('button, input, select, a')) onActivate?.(original);
    },
    dblclick: (original) => onActivate?.(original),
  };
  const RowView = props.pureRows ? PureBodyRow : BodyRowView;

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
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
      rows[active]!.toggleSelected();
      return;
    } else if (e.key === 'Delete' && onDelete && rows[active]) {
      e.preventDefault();
      onDelete(rows[active]!.original);
      return;
    } else if (e.key === 'Enter' && onActivate && rows[active]) {
      e.preventDefault();
      onActivate(rows[active]!.original);
      return;
    } else return;
    e.preventDefault();
    setActive(next);
    if (next >= 0) virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const selectedCount = Object.keys(selection).filter((k) => selection[k]).length;
  const colCount = table.getVisibleLeafColumns().length;

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
      {(props.tools || props.csv !== false || selectable) && (
        <div className="table-tools">
          {props.tools}
          <span className="grow" />
          {props.loading && data.length > 0 && <span className="spinner" aria-label="Refreshing" />}
          {selectable && selectedCount > 0 && <span className="dim">{selectedCount} selected</span>}
          <span className="dim">{rows.length.toLocaleString()} {rows.length === 1 ? 'row' : 'rows'}</span>
          {props.csv !== false && (
            <button type="button" className="btn btn-sm" onClick={doExport} disabled={!rows.length} title="Export all rows as CSV">
              CSV
            </button>
          )}
        </div>
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
          <table className="grid" aria-label={label} aria-rowcount={rows.length}>
            <colgroup>
              {table.getVisibleLeafColumns().map((c) => (
                <col key={c.id} style={c.columnDef.size ? { width: c.getSize() } : undefined} />
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
            <tbody>
              {padTop > 0 && (
                <tr aria-hidden="true">
                  <td colSpan={colCount} style={{ height: padTop, padding: 0, border: 0 }} />
                </tr>
              )}
              {items.map((vi) => {
                const row = rows[vi.index];
                if (!row) return null;
                const cls = [vi.index === active ? 'active-row' : '', onActivate ? 'clickable' : '', rowClassName?.(row.original) ?? ''].filter(Boolean).join(' ');
                return (
                  <RowView
                    key={row.id}
                    row={row}
                    cls={cls || undefined}
                    selected={selectable ? row.getIsSelected() : undefined}
                    original={row.original}
                    columns={allColumns}
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
          </table>
        )}
      </div>
      {props.footer}
    </div>
  );
}

/** Column helper without the generics noise at call sites. */
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
