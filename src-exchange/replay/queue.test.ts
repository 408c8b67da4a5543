// The queue model, one rule per test: an order joins behind the size recorded at its price and
// fills only once that size has traded or been canceled ahead of it.
import { describe, expect, it } from 'vitest';
import { decodeTape, centiOf, ticksOf, type TapeRows } from './tape';
import { ReplayBooks, type ReplayFill } from './queue';

type Row = [kind: string, side: string | null, price: string | null, size: string | null];

function tape(rows: Row[], market = 'M'): TapeRows {
  return {
    ts: rows.map((_, i) => (i + 1) * 1000),
    kind: rows.map((r) => r[0]),
    market: rows.map(() => market),
    side: rows.map((r) => r[1]),
    price: rows.map((r) => r[2]),
    size: rows.map((r) => r[3]),
  };
}

/** A YES book with 10 contracts bid at 0.50 and 5 at 0.49; NO bid 4 at 0.45 (so YES asks 0.55). */
const BOOK: Row[] = [
  ['snapshot', null, null, null],
  ['level', 'yes', '0.5000', '10.00'],
  ['level', 'yes', '0.4900', '5.00'],
  ['level', 'no', '0.4500', '4.00'],
];

function setup(more: Row[]) {
  const books = new ReplayBooks(decodeTape(tape([...BOOK, ...more])));
  const fills: ReplayFill[] = [];
  books.onFill = (f) => fills.push(f);
  books.run(BOOK.length);
  return { books, fills };
}

describe('decoding', () => {
  it('reads prices to ticks and sizes to centi-contracts exactly', () => {
    expect(ticksOf('0.5300')).toBe(5300);
    expect(ticksOf('0.53')).toBe(5300);
    expect(ticksOf('1.0000')).toBe(10000);
    expect(ticksOf('0.00001')).toBe(-1);
    expect(ticksOf('2')).toBe(-1);
    expect(centiOf('-12.5')).toBe(-1250);
    expect(centiOf('3.00')).toBe(300);
    expect(centiOf('0.001')).toBeNaN();
  });

  it('pairs a trade with the book decrease it caused, before or after it', () => {
    const t = decodeTape(tape([...BOOK, ['delta', 'yes', '0.5000', '-3.00'], ['trade', 'no', '0.5000', '2.00'], ['trade', 'no', '0.5000', '1.00'], ['delta', 'yes', '0.5000', '-4.00']]));
    // the taker bought NO at 0.50, so it hit YES bids at 0.50
    expect([t.side[5], t.price[5]]).toEqual([0, 5000]);
    expect(t.traded[4]).toBe(300); // both trades explain the first decrease
    expect(t.traded[7]).toBe(0); // the second is a cancel
  });
});

describe('the queue model', () => {
  it('an order joins behind the recorded size at its price and a trade must clear it first', () => {
    const { books, fills } = setup([['trade', 'no', '0.5000', '6.00'], ['delta', 'yes', '0.5000', '-6.00'], ['trade', 'no', '0.5000', '6.00'], ['delta', 'yes', '0.5000', '-4.00']]);
    const o = books.place(0, 0, 5000, 300);
    expect(o.ahead).toBe(1000);
    books.run(BOOK.length + 2);
    expect(fills).toEqual([]);
    expect(o.ahead).toBe(400);
    books.run(BOOK.length + 4);
    // 6 traded: 4 were ahead, the order takes 2 of its 3
    expect(fills).toEqual([{ orderId: o.id, market: 0, side: 0, price: 5000, size: 200, maker: true, tsUs: 7000 }]);
    expect(o.remaining).toBe(100);
  });

  it('size recorded at its price after it arrives queues behind it', () => {
    const { books, fills } = setup([['delta', 'yes', '0.5000', '20.00'], ['trade', 'no', '0.5000', '11.00'], ['delta', 'yes', '0.5000', '-11.00']]);
    const o = books.place(0, 0, 5000, 300);
    books.run(99);
    // 10 ahead, then 1 of the 11 traded reaches it; the 20 added later are behind
    expect(fills.map((f) => f.size)).toEqual([100]);
    expect(o.ahead).toBe(0);
  });

  it('cancels take their share of the size ahead (pro rata), never filling the order', () => {
    const { books, fills } = setup([['delta', 'yes', '0.5000', '-5.00']]);
    books.run(BOOK.length); // nothing yet
    const o = books.place(0, 0, 5000, 300);
    books.run(99);
    // level 10 -> 5 by cancels; the order had 10 ahead of it, 10/10 of the cancels were ahead
    expect(o.ahead).toBe(500);
    expect(fills).toEqual([]);
  });

  it('pro rata: with its own earlier order ahead, a cancel takes only the recorded share', () => {
    const { books } = setup([['delta', 'yes', '0.5000', '-10.00']]);
    const a = books.place(0, 0, 5000, 1000);
    const b = books.place(0, 0, 5000, 100);
    expect(b.ahead).toBe(2000); // 10 recorded + its own 10
    books.run(99);
    // the level empties: nothing recorded is ahead of the first, and the second cannot have more ahead than the level
    expect(a.ahead).toBe(0);
    expect(b.ahead).toBe(0);
  });

  it('a trade printing through its price fills it first', () => {
    const { books, fills } = setup([['trade', 'no', '0.4900', '2.00'], ['delta', 'yes', '0.4900', '-2.00']]);
    // the 0.50 level is ahead of 0.49 in the recording only because the order is not in it: a bid at 0.51 is better than both
    const o = books.place(0, 0, 5100, 500);
    books.run(99);
    expect(fills).toEqual([{ orderId: o.id, market: 0, side: 0, price: 5100, size: 200, maker: true, tsUs: 5000 }]);
  });

  it('a crossing order takes the recorded size at the prices it crosses, once', () => {
    const { books, fills } = setup([]);
    // YES asks are NO bids: 4 at 0.45 = YES ask 0.55
    const o = books.place(0, 0, 5600, 600);
    expect(fills).toEqual([{ orderId: o.id, market: 0, side: 0, price: 5500, size: 400, maker: false, tsUs: 4000 }]);
    expect(o.remaining).toBe(200);
    expect(o.ahead).toBe(0); // nothing recorded at 0.56
    const again = books.place(0, 0, 5600, 100);
    // the recorded 4 were taken already: it rests
    expect(again.filled).toBe(0);
    expect(books.level(0, 1, 4500)).toBe(400); // the book still follows the recording
  });

  it('recorded size arriving on the other side at a crossing price fills a resting order as maker', () => {
    const { books, fills } = setup([['delta', 'no', '0.4900', '3.00']]);
    const o = books.place(0, 0, 5200, 500);
    books.run(99);
    // a NO bid at 0.49 = a YES sell at 0.51, below the order's 0.52
    expect(fills).toEqual([{ orderId: o.id, market: 0, side: 0, price: 5200, size: 300, maker: true, tsUs: 5000 }]);
  });

  it('a snapshot resets the book; cancel removes the order; bad orders are refused', () => {
    const { books } = setup([['snapshot', null, null, null], ['level', 'yes', '0.5000', '2.00']]);
    const o = books.place(0, 0, 5000, 100);
    books.run(99);
    expect(books.level(0, 0, 4900)).toBe(0);
    expect(o.ahead).toBe(200);
    expect(books.cancel(o.id)?.id).toBe(o.id);
    expect(books.openOrders()).toEqual([]);
    expect(() => books.place(0, 0, 0, 100)).toThrow(/price/);
    expect(() => books.place(0, 0, 5000, 0)).toThrow(/size/);
    expect(() => books.place(3, 0, 5000, 100)).toThrow(/market/);
    expect(() => books.marketId('X')).toThrow(/not in this recording/);
  });
});
