// The invariant checker (checkInvariants, run after every command by the property tests) must see a
// broken book: a count left on an empty level, a level whose total is not its orders', a level out
// of time order. Each broken by hand on a real engine's book.
import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { LEVELS_PER_SIDE, NIL } from './book';
import type { State } from './engine-state';

function engineWithBids() {
  const e = new Engine();
  let t = 1_000_000;
  const at = () => (t += 1000);
  e.apply({ type: 'addMarket', nowMs: at(), ticker: 'M', eventTicker: 'E', seriesTicker: 'S' });
  e.apply({ type: 'openMarket', nowMs: at(), ticker: 'M' });
  e.apply({ type: 'deposit', nowMs: at(), userId: 'u', amountMicro: 1_000_000_000 });
  for (const price of [4000, 4000, 4100]) {
    const r = e.apply({ type: 'createOrder', nowMs: at(), userId: 'u', ticker: 'M', side: 'bid', priceTicks: price, countCenti: 100 });
    if (!r.ok) throw new Error(r.message);
  }
  const st = (e as unknown as { st: State }).st;
  return { e, book: st.bookOf(st.markets.get('M')!), slots: st.slots };
}

describe('checkInvariants sees a broken book', () => {
  it('finds nothing in a sound one', () => {
    expect(engineWithBids().e.checkInvariants()).toEqual([]);
  });

  it('a count on an empty level', () => {
    const { e, book } = engineWithBids();
    book.qty[3000] = 100;
    expect(e.checkInvariants().join('\n')).toMatch(/empty level 0\/3000 has count/);
  });

  it("a level's total that is not its orders'", () => {
    const { e, book } = engineWithBids();
    book.qty[4000] = 300;
    expect(e.checkInvariants().join('\n')).toMatch(/level 0\/4000 total 300 != 200/);
  });

  it('a level out of time order, on the other side too', () => {
    const { e, book, slots } = engineWithBids();
    // the two orders at 4000 swapped in their list
    const first = book.head[4000]!;
    const second = slots.next[first]!;
    book.head[4000] = second;
    slots.next[second] = first;
    slots.next[first] = NIL;
    book.tail[4000] = first;
    expect(e.checkInvariants().join('\n')).toMatch(/level 0\/4000 not FIFO/);
    // a count on the NO side's empty level
    const { e: e2, book: b2 } = engineWithBids();
    b2.qty[LEVELS_PER_SIDE + 10] = 1;
    expect(e2.checkInvariants().join('\n')).toMatch(/empty level 1\/10 has count/);
  });
});
