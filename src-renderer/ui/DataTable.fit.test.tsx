// @vitest-environment jsdom
// Issue 34, "no number is ever cut": a table's name column (declared without a size) takes what
// its sized columns leave. TanStack fills every column definition with a 150 px size, and the
// table used to read that as declared: the Markets list's title stayed 150 px wide while the fit
// had counted its 110 px minimum, and YES ask ran past the panel's edge at 1280x720.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { stubLayout } from '../test/fake-terminal';
import { col, DataTable, type Columns } from './DataTable';

interface Row {
  id: string;
  name: string;
  px: string;
}

const columns: Columns<Row> = [
  col<Row>({ id: 'id', header: 'Id', size: 120, accessorFn: (r) => r.id }),
  col<Row>({ id: 'name', header: 'Name', accessorFn: (r) => r.name, meta: { minWidth: 110 } }),
  col<Row>({ id: 'px', header: 'Price', size: 70, accessorFn: (r) => r.px, meta: { num: true } }),
];

afterEach(cleanup);

describe('DataTable column widths', () => {
  it('gives the sized columns their size and leaves the name column without one, at least its minimum wide', () => {
    const { container } = render(<DataTable data={[{ id: 'A-1', name: 'A market', px: '0.39' }]} columns={columns} getRowId={(r) => r.id} label="Rows" emptyText="none" csv={false} />);
    const widths = [...container.querySelectorAll('colgroup col')].map((c) => (c as HTMLElement).style.width);
    expect(widths).toEqual(['120px', '', '70px']);
    expect(container.querySelector<HTMLTableElement>('table.grid')!.style.minWidth).toBe('300px');
  });
});

describe('DataTable rows when a column gives way or comes back', () => {
  it('a pure row (one that renders again only when it changes) shows the columns shown, not those of its first render', async () => {
    // the table's box in view is 300 px wide, 800 tall (jsdom lays nothing out): Id 120 + Name
    // 110 + Price 70 = 300 fit, a Volume column (ranked to go first) does not
    stubLayout();
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 300 });
    Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 300 });
    HTMLElement.prototype.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, bottom: 800, right: 300, width: 300, height: 800, toJSON: () => ({}) }) as DOMRect;
    {
      const cols: Columns<Row> = [...columns, col<Row>({ id: 'vol', header: 'Volume', size: 70, accessorFn: () => '12', meta: { num: true, drop: 1 } })];
      const data = [
        { id: 'A-1', name: 'A', px: '0.39' },
        { id: 'B-2', name: 'B', px: '0.41' },
      ];
      const { container, findByRole } = render(<DataTable data={data} columns={cols} getRowId={(r) => r.id} label="Rows" emptyText="none" csv={false} pureRows />);
      const cellsPerRow = () => [...container.querySelectorAll('tbody tr[data-row-id]')].map((tr) => tr.querySelectorAll('td').length);
      const more = await findByRole('button', { name: '+1 col' });
      expect(cellsPerRow()).toEqual([3, 3]);
      fireEvent.click(more);
      expect(container.querySelectorAll('colgroup col')).toHaveLength(4);
      expect(cellsPerRow()).toEqual([4, 4]);
      fireEvent.click(await findByRole('button', { name: 'Fit columns' }));
      expect(cellsPerRow()).toEqual([3, 3]);
    }
  });
});
