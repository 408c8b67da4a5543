// The matcher on its own, at its edges: the log growing past its first size, the walk from
// level to level down to the taker's limit and not past it, order-group capacities on both
// sides (exactly at the capacity, tripped groups left resting, the taker's own group), and
// fill-or-kill's dry run, which must agree with the real match and leave the capacities as
// they were. Found by mutation testing (npm run mutation -- src-exchange/engine/matching.ts).
import { describe, expect, it } from 'vitest';
import { Book, NIL, NO, OrderSlots, YES } from './book';
import { LOG_FILL, LOG_STP_CANCEL, Matcher, STOP_GROUP_LIMIT, STOP_NONE, STOP_SELF_TRADE, STP_MAKER, STP_TAKER_AT_CROSS } from './matching';

const TAKER = 99;

function fresh(): { book: Book; m: Matcher } {
  return { book: new Book(0, new OrderSlots(8)), m: new Matcher(4) };
}

const logOf = (m: Matcher) =>
  Array.from({ length: m.length }, (_, i) => ({ kind: m.kind[i], slot: m.slot[i], count: m.count[i], price: m.price[i] }));

describe('the match log', () => {
  it('grows past its first size and keeps every entry in order', () => {
    const { book, m } = fresh();
    const makers = Array.from({ length: 40 }, (_, i) => book.add(NO, 5000, 1 + i, i, NIL));
    const total = makers.reduce((s, _, i) => s + 1 + i, 0);
    expect(m.match(book, YES, 5000, total, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(total);
    expect(m.length).toBe(40);
    expect(logOf(m)).toEqual(makers.map((slot, i) => ({ kind: LOG_FILL, slot, count: 1 + i, price: 5000 })));
    expect(book.bestNo).toBe(NIL);
    // the next match starts a new log
    book.add(NO, 5000, 5, 1, NIL);
    m.match(book, YES, 5000, 5, TAKER, STP_TAKER_AT_CROSS, NIL);
    expect(m.length).toBe(1);
  });
});

describe('the walk over levels', () => {
  it('takes the best level first, then the next ones down to the limit, and never past it', () => {
    const { book, m } = fresh();
    // YES asks at 0.40, 0.45 and 0.55 (NO bids at 6000, 5500, 4500), with empty levels between
    book.add(NO, 6000, 100, 1, NIL);
    book.add(NO, 5500, 100, 2, NIL);
    book.add(NO, 4500, 100, 3, NIL);
    // a YES bid at 0.45 reaches 0.40 and 0.45 (NO 6000 and 5500, exactly at its limit), not 0.55
    expect(m.match(book, YES, 4500, 1000, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(200);
    expect(Array.from(m.price.subarray(0, m.length))).toEqual([6000, 5500]);
    expect(m.stop).toBe(STOP_NONE);
    expect(book.levels(NO)).toEqual([[4500, 100]]);
  });

  it('stops inside a level once the taker is filled, leaving the rest of the queue', () => {
    const { book, m } = fresh();
    const a = book.add(NO, 5000, 100, 1, NIL);
    const b = book.add(NO, 5000, 100, 2, NIL);
    const c = book.add(NO, 5000, 100, 4, NIL);
    book.add(NO, 4900, 100, 3, NIL);
    expect(m.match(book, YES, 5100, 150, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(150);
    // no entry for c: nothing is logged once the taker is done, not even a fill of 0
    expect(logOf(m)).toEqual([
      { kind: LOG_FILL, slot: a, count: 100, price: 5000 },
      { kind: LOG_FILL, slot: b, count: 50, price: 5000 },
    ]);
    expect(book.slots.remaining[c]).toBe(100);
    expect(book.levels(NO)).toEqual([
      [5000, 150],
      [4900, 100],
    ]);
  });

  it('walks down to a maker at the lowest price there is', () => {
    const { book, m } = fresh();
    book.add(NO, 1, 100, 1, NIL); // a YES ask at 0.9999
    book.add(NO, 9000, 100, 2, NIL);
    expect(m.match(book, YES, 9999, 300, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(200);
    expect(Array.from(m.price.subarray(0, m.length))).toEqual([9000, 1]);
    expect(book.bestNo).toBe(NIL);
  });

  it('an empty book or one that does not cross trades nothing', () => {
    const { book, m } = fresh();
    expect(m.crosses(book, YES, 9999)).toBe(false);
    expect(m.match(book, YES, 9999, 100, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(0);
    book.add(NO, 4000, 100, 1, NIL); // a YES ask at 0.60
    expect(m.crosses(book, YES, 5999)).toBe(false);
    expect(m.crosses(book, YES, 6000)).toBe(true);
    expect(m.match(book, YES, 5999, 100, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(0);
    expect(m.length).toBe(0);
    expect(book.levels(NO)).toEqual([[4000, 100]]);
  });
});

describe('order-group capacity', () => {
  it("a taker whose group holds exactly its count is not stopped by the group: an unfilled rest may rest", () => {
    const { book, m } = fresh();
    m.ensureGroup(0);
    m.groupCap[0] = 300;
    book.add(NO, 5000, 100, 1, NIL);
    expect(m.match(book, YES, 5000, 300, TAKER, STP_TAKER_AT_CROSS, 0)).toBe(100);
    expect(m.stop).toBe(STOP_NONE);
    expect(m.groupCap[0]).toBe(200);
  });

  it('a taker whose group holds less than its count fills up to the capacity and stops', () => {
    const { book, m } = fresh();
    m.ensureGroup(0);
    m.groupCap[0] = 120;
    book.add(NO, 5000, 500, 1, NIL);
    expect(m.match(book, YES, 5000, 300, TAKER, STP_TAKER_AT_CROSS, 0)).toBe(120);
    expect(m.stop).toBe(STOP_GROUP_LIMIT);
    expect(m.groupCap[0]).toBe(0);
    expect(book.levels(NO)).toEqual([[5000, 380]]);
  });

  it('a maker fills up to its group capacity (exactly, or less); a tripped group rests untouched', () => {
    const { book, m } = fresh();
    m.ensureGroup(2);
    m.groupCap[0] = 100; // exactly the maker's size
    m.groupCap[1] = 0; // tripped
    m.groupCap[2] = 30; // less than the maker's size
    const exact = book.add(NO, 5000, 100, 1, 0);
    const tripped = book.add(NO, 5000, 100, 2, 1);
    const partial = book.add(NO, 5000, 100, 3, 2);
    expect(m.match(book, YES, 5000, 1000, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(130);
    expect(logOf(m)).toEqual([
      { kind: LOG_FILL, slot: exact, count: 100, price: 5000 },
      { kind: LOG_FILL, slot: partial, count: 30, price: 5000 },
    ]);
    expect(Array.from(m.groupCap.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(book.slots.remaining[tripped]).toBe(100);
    expect(book.slots.remaining[partial]).toBe(70);
    expect(book.levels(NO)).toEqual([[5000, 170]]);
  });

  it('makes room for group numbers past its first table', () => {
    const m = new Matcher();
    m.ensureGroup(3);
    const first = m.groupCap.length;
    m.ensureGroup(first - 1);
    expect(m.groupCap.length).toBe(first);
    m.groupCap[first - 1] = 7;
    m.ensureGroup(first);
    expect(m.groupCap.length).toBeGreaterThan(first);
    expect(m.groupCap[first - 1]).toBe(7);
    m.ensureGroup(5 * first);
    expect(m.groupCap.length).toBeGreaterThan(5 * first);
    expect(m.groupCap[first - 1]).toBe(7);
  });
});

describe("fill-or-kill's dry run", () => {
  it('agrees with the match: limit, depth, self-trade and group rules, and changes nothing', () => {
    const { book, m } = fresh();
    m.ensureGroup(1);
    m.groupCap[0] = 60;
    m.groupCap[1] = 0;
    book.add(NO, 6000, 100, 1, 0); // group 0: 60 of it can trade
    book.add(NO, 5500, 100, 2, 1); // tripped group: none
    book.add(NO, 5500, 100, 3, NIL);
    book.add(NO, 4000, 100, 4, NIL); // past a 0.45 bid's limit
    const levels = book.levels(NO);
    expect(m.canFill(book, YES, 4500, 160, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(true);
    expect(m.canFill(book, YES, 4500, 161, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(false);
    expect(m.canFill(book, YES, 6000, 260, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(true);
    expect(Array.from(m.groupCap.subarray(0, 2))).toEqual([60, 0]);
    expect(book.levels(NO)).toEqual(levels);
    // the taker's own group caps it
    m.ensureGroup(2);
    m.groupCap[2] = 50;
    expect(m.canFill(book, YES, 4500, 50, TAKER, STP_TAKER_AT_CROSS, 2)).toBe(true);
    expect(m.canFill(book, YES, 4500, 51, TAKER, STP_TAKER_AT_CROSS, 2)).toBe(false);
    expect(m.groupCap[2]).toBe(50);
    // and the real match fills what the dry run promised
    expect(m.match(book, YES, 4500, 160, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(160);
  });

  it('self-trade: taker_at_cross cannot fill through its own order, maker skips it', () => {
    const { book, m } = fresh();
    book.add(NO, 5000, 100, 1, NIL);
    book.add(NO, 5000, 100, TAKER, NIL);
    book.add(NO, 5000, 100, 2, NIL);
    expect(m.canFill(book, YES, 5000, 100, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(true);
    expect(m.canFill(book, YES, 5000, 101, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(false);
    expect(m.canFill(book, YES, 5000, 200, TAKER, STP_MAKER, NIL)).toBe(true);
    expect(m.canFill(book, YES, 5000, 201, TAKER, STP_MAKER, NIL)).toBe(false);
    // the match does what the dry run said: stops at its own order, or cancels it and goes on
    expect(m.match(book, YES, 5000, 150, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(100);
    expect(m.stop).toBe(STOP_SELF_TRADE);
    expect(m.match(book, YES, 5000, 150, TAKER, STP_MAKER, NIL)).toBe(100);
    expect(m.kind[0]).toBe(LOG_STP_CANCEL);
  });

  it('restores every group it touched, however many (its scratch list grows)', () => {
    const m = new Matcher(4);
    const book = new Book(0, new OrderSlots(8));
    const groups = 600;
    m.ensureGroup(groups);
    for (let g = 0; g < groups; g++) {
      m.groupCap[g] = 2;
      book.add(NO, 5000, 5, 1000 + g, g);
    }
    expect(m.canFill(book, YES, 5000, 2 * groups, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(true);
    expect(m.canFill(book, YES, 5000, 2 * groups + 1, TAKER, STP_TAKER_AT_CROSS, NIL)).toBe(false);
    for (let g = 0; g < groups; g++) expect(m.groupCap[g]).toBe(2);
  });
});
