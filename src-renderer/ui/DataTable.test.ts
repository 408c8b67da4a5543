// Numeric columns sort by value: "5000.00" after "900.00" (as text it came first), blanks and
// text before numbers, and a column that brings its own sort keeps it.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { col, compareNumericCells } from './DataTable';
import { columnsToHide } from './column-fit';

describe('compareNumericCells', () => {
  it('orders decimal strings by value, not as text', () => {
    const sorted = ['5000.00', '900.00', '120.00', '-3.50', '0.0001'].sort(compareNumericCells);
    expect(sorted).toEqual(['-3.50', '0.0001', '120.00', '900.00', '5000.00']);
  });
  it('orders numbers and Decimals alike', () => {
    expect(compareNumericCells(12, '9.99')).toBeGreaterThan(0);
    expect(compareNumericCells(new Decimal('0.45'), '0.450')).toBe(0);
  });
  it('puts blanks and text before numbers, and orders them as text', () => {
    expect(['1.00', '', '—', '0.50'].sort(compareNumericCells)).toEqual(['', '—', '0.50', '1.00']);
    expect(compareNumericCells(null, undefined)).toBe(0);
  });
});

describe('col', () => {
  it('gives a numeric column the numeric sort, and leaves others and explicit sorts alone', () => {
    expect(col<{ v: string }>({ id: 'n', accessorFn: (r) => r.v, meta: { num: true } }).sortingFn).toBeTypeOf('function');
    expect(col<{ v: string }>({ id: 't', accessorFn: (r) => r.v }).sortingFn).toBeUndefined();
    expect(col<{ v: string }>({ id: 'x', accessorFn: (r) => r.v, meta: { num: true }, sortingFn: 'text' }).sortingFn).toBe('text');
  });
});

describe('columnsToHide (issue 34: columns give way before a number is cut)', () => {
  const cols = [
    { id: 'ticker', size: 170 },
    { id: 'title', minWidth: 110, drop: 6 },
    { id: 'bid', size: 70 },
    { id: 'ask', size: 70 },
    { id: 'volume', size: 78, drop: 4 },
    { id: 'oi', size: 76, drop: 2 },
    { id: 'status', size: 74, drop: 1 },
  ];
  it('hides nothing when every column fits', () => {
    expect(columnsToHide(cols, 648)).toEqual([]);
  });
  it('hides the lowest-ranked columns first, only as many as it takes', () => {
    expect(columnsToHide(cols, 600)).toEqual(['status']);
    expect(columnsToHide(cols, 500)).toEqual(['status', 'oi']);
    expect(columnsToHide(cols, 420)).toEqual(['status', 'oi', 'volume']);
  });
  it('keeps the columns without a rank, even when they alone are too wide', () => {
    expect(columnsToHide(cols, 100)).toEqual(['status', 'oi', 'volume', 'title']);
  });
});
