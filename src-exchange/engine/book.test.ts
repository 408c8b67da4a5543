import { describe, expect, it } from 'vitest';
import { Book, NIL, NO, OrderSlots, YES } from './book';
import { MatchingCore } from './matching-core';
import { LOG_FILL, LOG_STP_CANCEL, Matcher, STOP_SELF_TRADE, STP_MAKER, STP_TAKER_AT_CROSS } from './matching';

describe('book', () => {
  it('keeps FIFO per level, level totals and the best price pointer', () => {
    const slots = new OrderSlots(16);
    const book = new Book(0, slots);
    const a = book.add(YES, 4000, 100, 1, NIL);
    const b = book.add(YES, 4000, 200, 2, NIL);
    const c = book.add(YES, 4500, 50, 3, NIL);
    expect(book.bestYes).toBe(4500);
    expect(book.levels(YES)).toEqual([
      [4500, 50],
      [4000, 300],
    ]);
    expect(book.queueAhead(b)).toBe(100);
    expect(book.queueAhead(a)).toBe(0);
    book.remove(c);
    expect(book.bestYes).toBe(4000);
    book.remove(a);
    expect(book.queueAhead(b)).toBe(0);
    expect(book.levels(YES)).toEqual([[4000, 200]]);
    book.remove(b);
    expect(book.bestYes).toBe(NIL);
    expect(book.levels(YES)).toEqual([]);
  });

  it('reuses freed slots and grows past its initial capacity', () => {
    const slots = new OrderSlots(16);
    const book = new Book(0, slots);
    const made: number[] = [];
    for (let i = 0; i < 100; i++) made.push(book.add(NO, 1 + (i % 50), 10, i, NIL));
    expect(slots.capacity).toBeGreaterThanOrEqual(100);
    for (const s of made) book.remove(s);
    expect(slots.live).toBe(0);
    expect(book.bestNo).toBe(NIL);
    const again = book.add(NO, 10, 10, 0, NIL);
    expect(made).toContain(again);
  });

  it('depth limits the number of levels, best first', () => {
    const book = new Book(0, new OrderSlots());
    for (let p = 1; p <= 10; p++) book.add(NO, p * 100, p, 0, NIL);
    expect(book.levels(NO, 3)).toEqual([
      [1000, 10],
      [900, 9],
      [800, 8],
    ]);
  });
});

describe('matcher', () => {
  it('crosses a YES bid against NO bids when the prices sum to at least 1 dollar', () => {
    const book = new Book(0, new OrderSlots());
    const m = new Matcher();
    book.add(NO, 6000, 100, 1, NIL); // a YES ask at 0.40
    book.add(NO, 5000, 100, 2, NIL); // a YES ask at 0.50
    expect(m.crosses(book, YES, 3999)).toBe(false);
    expect(m.crosses(book, YES, 4000)).toBe(true);
    const filled = m.match(book, YES, 4500, 150, 9, STP_TAKER_AT_CROSS, NIL);
    expect(filled).toBe(100); // only the 0.40 ask crosses a 0.45 bid
    expect(m.length).toBe(1);
    expect(m.price[0]).toBe(6000);
    expect(book.levels(NO)).toEqual([[5000, 100]]);
  });

  it('fills best price first and FIFO within a level', () => {
    const book = new Book(0, new OrderSlots());
    const m = new Matcher();
    const first = book.add(YES, 5000, 100, 1, NIL);
    const second = book.add(YES, 5000, 100, 2, NIL);
    const better = book.add(YES, 5100, 100, 3, NIL);
    m.match(book, NO, 5000, 250, 9, STP_TAKER_AT_CROSS, NIL);
    expect(Array.from(m.slot.subarray(0, m.length))).toEqual([better, first, second]);
    expect(Array.from(m.count.subarray(0, m.length))).toEqual([100, 100, 50]);
    expect(book.levels(YES)).toEqual([[5000, 50]]);
  });

  it('taker_at_cross stops at the own resting order; maker cancels it and goes on', () => {
    const book = new Book(0, new OrderSlots());
    const m = new Matcher();
    book.add(NO, 5000, 100, 2, NIL);
    const own = book.add(NO, 5000, 100, 7, NIL);
    book.add(NO, 5000, 100, 3, NIL);
    m.match(book, YES, 5000, 300, 7, STP_TAKER_AT_CROSS, NIL);
    expect(m.filled).toBe(100);
    expect(m.stop).toBe(STOP_SELF_TRADE);
    expect(book.levels(NO)).toEqual([[5000, 200]]);
    m.match(book, YES, 5000, 300, 7, STP_MAKER, NIL);
    expect(m.filled).toBe(100);
    expect(m.kind[0]).toBe(LOG_STP_CANCEL);
    expect(m.slot[0]).toBe(own);
    expect(m.kind[1]).toBe(LOG_FILL);
    expect(book.bestNo).toBe(NIL);
  });

  it('caps fills by order group capacity and skips tripped groups', () => {
    const book = new Book(0, new OrderSlots());
    const m = new Matcher();
    m.ensureGroup(1);
    m.groupCap[0] = 50;
    m.groupCap[1] = 0;
    book.add(NO, 5000, 100, 2, 0);
    book.add(NO, 5000, 100, 3, 1);
    book.add(NO, 5000, 100, 4, NIL);
    expect(m.canFill(book, YES, 5000, 150, 9, STP_TAKER_AT_CROSS, NIL)).toBe(true);
    expect(m.canFill(book, YES, 5000, 151, 9, STP_TAKER_AT_CROSS, NIL)).toBe(false);
    expect(m.groupCap[0]).toBe(50); // canFill restores capacities
    m.match(book, YES, 5000, 1000, 9, STP_TAKER_AT_CROSS, NIL);
    expect(m.filled).toBe(150);
    expect(m.groupCap[0]).toBe(0);
  });
});

describe('MatchingCore', () => {
  it('adds, cancels, amends and trades by integer order id', () => {
    const core = new MatchingCore(8);
    core.add(1, YES, 5000, 100);
    core.add(2, YES, 5000, 100);
    expect(core.cancel(1)).toBe(100);
    expect(core.cancel(1)).toBe(0);
    core.add(3, YES, 5000, 100);
    // a pure decrease keeps priority: 2 stays ahead of 3
    core.amend(2, 5000, 40);
    expect(core.book.queueAhead(core.slotOf(3))).toBe(40);
    // a price change re-queues: 2 moves behind 3 at 5000
    core.amend(2, 4999, 40);
    core.amend(2, 5000, 40);
    expect(core.book.queueAhead(core.slotOf(2))).toBe(100);
    expect(core.add(10, NO, 5000, 120, false)).toBe(120);
    expect(core.remaining(3)).toBe(0);
    expect(core.remaining(2)).toBe(20);
    expect(core.volume).toBe(120);
    expect(core.add(11, NO, 5000, 100)).toBe(20);
    expect(core.book.levels(NO)).toEqual([[5000, 80]]);
    expect(core.add(5000, YES, 1, 1)).toBe(0); // ids grow the table
  });
});
