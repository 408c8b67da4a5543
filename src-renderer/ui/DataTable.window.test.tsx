// @vitest-environment jsdom
// The DataTable sorts the whole data itself and gives TanStack only the rows in view (TanStack's
// row objects cost about 4 KB each and were all made again at every change of the data). What
// acts on rows must still act on all of them: the sort, "select all", the keys, the CSV, the count.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, within } from '@testing-library/react';
import { useState } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { stubLayout } from '../test/fake-terminal';
import { col, DataTable, exportFocusedTable, type Columns } from './DataTable';

interface Row {
  id: string;
  px: string;
}

const N = 2_000;
// prices 0.0001 .. 0.2000, shuffled by a fixed stride so that the data's order is not the sort's
const data: Row[] = Array.from({ length: N }, (_, i) => {
  const k = (i * 7919) % N;
  return { id: `R-${String(k).padStart(4, '0')}`, px: ((k + 1) / 10_000).toFixed(4) };
});
const columns: Columns<Row> = [
  col<Row>({ id: 'id', header: 'Id', size: 120, accessorFn: (r) => r.id }),
  col<Row>({ id: 'px', header: 'Price', size: 80, accessorFn: (r) => r.px, meta: { num: true } }),
];

function Selectable({ onSel }: { onSel: (s: RowSelectionState) => void }) {
  const [sel, setSel] = useState<RowSelectionState>({});
  return (
    <DataTable
      data={data}
      columns={columns}
      getRowId={(r) => r.id}
      label="Rows"
      emptyText="none"
      selectable
      selection={sel}
      onSelectionChange={(s) => {
        setSel(s);
        onSel(s);
      }}
    />
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const shownIds = (c: HTMLElement) => [...c.querySelectorAll('tbody tr[data-row-id]')].map((tr) => tr.getAttribute('data-row-id'));

describe('DataTable over 2,000 rows', () => {
  it('renders only the rows in view, counts all of them, and sorts all of them (the first rows shown are the whole data\'s lowest, then highest)', () => {
    stubLayout();
    const { container, getByRole } = render(<DataTable data={data} columns={columns} getRowId={(r) => r.id} label="Rows" emptyText="none" />);
    expect(shownIds(container).length).toBeGreaterThan(10);
    expect(shownIds(container).length).toBeLessThan(100);
    expect(container.querySelector('table.grid')!.getAttribute('aria-rowcount')).toBe(String(N));
    expect(container.textContent).toContain('2,000 rows');
    // prices are decimal strings: the first click sorts them up (by value), the second down
    fireEvent.click(within(getByRole('columnheader', { name: /Price/ })).getByRole('button'));
    expect(shownIds(container).slice(0, 3)).toEqual(['R-0000', 'R-0001', 'R-0002']);
    fireEvent.click(within(getByRole('columnheader', { name: /Price/ })).getByRole('button'));
    expect(shownIds(container).slice(0, 3)).toEqual(['R-1999', 'R-1998', 'R-1997']);
    fireEvent.click(within(getByRole('columnheader', { name: /Id/ })).getByRole('button'));
    expect(shownIds(container).slice(0, 2)).toEqual(['R-0000', 'R-0001']);
  });

  it('"select all" selects every row, not only those in view, and clears them all again', () => {
    stubLayout();
    const onSel = vi.fn();
    const { getByLabelText, container } = render(<Selectable onSel={onSel} />);
    fireEvent.click(getByLabelText('Select all rows'));
    expect(Object.keys(onSel.mock.lastCall![0] as RowSelectionState)).toHaveLength(N);
    expect(container.textContent).toContain('2,000 selected');
    expect((getByLabelText('Select all rows') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(getByLabelText('Select all rows'));
    expect(onSel.mock.lastCall![0]).toEqual({});
  });

  it('a row\'s own checkbox and Space on the cursor\'s row (End: the last row, out of the first view) select that row', () => {
    stubLayout();
    const onSel = vi.fn();
    const { getAllByLabelText, getByRole, getByLabelText } = render(<Selectable onSel={onSel} />);
    fireEvent.click(getAllByLabelText('Select row')[1]!);
    expect(onSel.mock.lastCall![0]).toEqual({ [data[1]!.id]: true });
    expect((getByLabelText('Select all rows') as HTMLInputElement).indeterminate).toBe(true);
    const region = getByRole('region');
    fireEvent.keyDown(region, { key: 'End' });
    fireEvent.keyDown(region, { key: ' ' });
    expect(onSel.mock.lastCall![0]).toEqual({ [data[1]!.id]: true, [data[N - 1]!.id]: true });
    fireEvent.keyDown(region, { key: ' ' });
    expect(onSel.mock.lastCall![0]).toEqual({ [data[1]!.id]: true });
  });

  it('Enter opens the cursor\'s row after PageDown past the first view, and the CSV has every row in the sort', async () => {
    stubLayout();
    const opened = vi.fn();
    const { getByRole, getByText } = render(<DataTable data={data} columns={columns} getRowId={(r) => r.id} label="Rows" emptyText="none" onActivate={opened} initialSorting={[{ id: 'px', desc: false }]} />);
    const region = getByRole('region');
    fireEvent.keyDown(region, { key: 'Home' });
    for (let i = 0; i < 5; i++) fireEvent.keyDown(region, { key: 'PageDown' });
    fireEvent.keyDown(region, { key: 'Enter' });
    // Home is row 0, five pages of 15 rows later row 75 of the sort (prices ascending)
    expect(opened).toHaveBeenCalledWith({ id: 'R-0075', px: '0.0076' });
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:csv';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    fireEvent.focus(region);
    fireEvent.click(getByText('CSV'));
    expect(exportFocusedTable()).toBe(true);
    const lines = (await blob!.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(N + 1);
    expect(lines[1]).toContain('R-0000');
    expect(lines[N]).toContain('R-1999');
  });
});
