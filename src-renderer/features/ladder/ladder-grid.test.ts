// A ladder on a market's price grid: a tapered market (tenths of a cent below 0.10 and above
// 0.90, cents between) with Rows 0.001 lists only prices the market takes, in either view, and
// its scrolls, centring and join/improve land on them.
import { describe, expect, it } from 'vitest';
import type { BookView } from '../../../src-shared/ipc/contract';
import { rangesOf, isOnTick } from '../../../src-shared/price-ranges';
import { buildLadder, clampTop, improvePrice, shiftRows, snapRow, tickGridOf, topForCenter } from './ladder-model';

const tapered = rangesOf('tapered_deci_cent');
const yes = tickGridOf(tapered, 'yes');
const no = tickGridOf(tapered, 'no');
const book = (yesBids: number[], yesAsks: number[]): BookView => ({ ticker: 'T', stale: false, yesBids, yesAsks, version: 1 });
const dollars = (t: number) => (t / 10_000).toFixed(4);

describe('a tapered market with Rows 0.001', () => {
  it('lists 0.001 rows in the tail and cents above 0.10: never 0.101 to 0.124', () => {
    const m = buildLadder(book([980, 500], [1200, 300]), [], { view: 'yes', step: 10, top: 1240, rows: 8, grid: yes });
    expect(m.rows.map((r) => r.price)).toEqual([1200, 1100, 1000, 990, 980, 970, 960, 950]);
    expect(m.rows.find((r) => r.price === 1200)?.ask).toBe(300);
    expect(m.rows.find((r) => r.price === 980)?.bid).toBe(500);
    for (const r of m.rows) expect(isOnTick(dollars(r.price), tapered)).toBe(true);
    // without the grid (as before) the rows were every 0.001, 0.124 down to 0.117
    expect(buildLadder(book([], []), [], { view: 'yes', step: 10, top: 1240, rows: 8 }).rows.map((r) => r.price)[0]).toBe(1240);
  });

  it('every row of every window is a price the market takes, in the YES and the NO view', () => {
    for (const [view, grid] of [['yes', yes], ['no', no]] as const) {
      for (let top = 200; top < 9_990; top += 37) {
        const m = buildLadder(book([], []), [], { view, step: 10, top: clampTop(top, 10, 30, grid), rows: 30, grid });
        for (const r of m.rows) expect(isOnTick(dollars(view === 'yes' ? r.price : 10_000 - r.price), tapered), `${view} ${r.price}`).toBe(true);
      }
    }
  });

  it('scrolls, centres and improves on the grid', () => {
    expect(shiftRows(990, 1, 10, yes)).toBe(1000);
    expect(shiftRows(1000, 1, 10, yes)).toBe(1100);
    expect(shiftRows(1100, -2, 10, yes)).toBe(990);
    expect(snapRow(1155, 10, 'bid', yes)).toBe(1100);
    expect(snapRow(1155, 10, 'ask', yes)).toBe(1200);
    const top = topForCenter(1000, 10, 9, yes);
    const rows = buildLadder(book([], []), [], { view: 'yes', step: 10, top, rows: 9, grid: yes }).rows.map((r) => r.price);
    expect(rows[4]).toBe(1000);
    // improving a bid of 0.099 by two rows under an offer at 0.12: 0.10, then 0.11 (never 0.101)
    expect(improvePrice(990, 1200, 'bid', 2, 10, yes)).toBe(1100);
    expect(improvePrice(990, 1200, 'ask', 1, 10, yes)).toBe(1100);
  });
});
