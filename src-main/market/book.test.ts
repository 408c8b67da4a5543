import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DELTA_APPLIED, DELTA_CORRUPT, DELTA_INVALID, NO, OrderBook, YES, diffAgainstRest, type BookSide } from './book';

const pairs = (a: Float64Array) => {
  const out: [number, number][] = [];
  for (let j = 0; j < a.length; j += 2) out.push([a[j]!, a[j + 1]!]);
  return out;
};

describe('OrderBook snapshot', () => {
  it('starts empty and stale', () => {
    const b = new OrderBook('T');
    expect(b.stale).toBe(true);
    expect(b.bestYesBid).toBe(-1);
    expect(b.bestYesAsk).toBe(-1);
    expect(b.top(5)).toEqual({ yesBids: new Float64Array(0), yesAsks: new Float64Array(0) });
  });

  it('a snapshot in ascending order equals the same in descending order', () => {
    const yes: [number, number][] = [
      [4800, 500],
      [4900, 1200],
      [5000, 100],
    ];
    const no: [number, number][] = [
      [4500, 300],
      [4700, 50],
    ];
    const asc = new OrderBook('T');
    const desc = new OrderBook('T');
    expect(asc.applySnapshot(yes, no)).toEqual({ ok: true });
    expect(desc.applySnapshot([...yes].reverse(), [...no].reverse())).toEqual({ ok: true });
    expect(asc.top(10)).toEqual(desc.top(10));
    expect(asc.bestYesBid).toBe(5000);
    expect(desc.bestYesBid).toBe(5000);
    expect(asc.stale).toBe(false);
    expect(pairs(asc.bids(YES))).toEqual([
      [5000, 100],
      [4900, 1200],
      [4800, 500],
    ]);
  });

  it('takes flat [tick, centi, ...] levels as well as tuples', () => {
    const a = new OrderBook('T');
    const b = new OrderBook('T');
    a.applySnapshot([[100, 1], [200, 2]], [[300, 3]]);
    b.applySnapshot(new Float64Array([200, 2, 100, 1]), [300, 3]);
    expect(a.top(5)).toEqual(b.top(5));
  });

  it('sums a price listed twice and skips zero-size levels', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[5000, 100], [5000, 250], [4000, 0]], []);
    expect(b.bidSize(YES, 5000)).toBe(350);
    expect(b.levelCount(YES)).toBe(1);
  });

  it('rejects a snapshot with a bad level, leaving the book empty and stale', () => {
    for (const bad of [[[10001, 1]], [[-1, 1]], [[5000, -5]], [[5000, 1.5]], [[50.5, 1]], [[NaN, 1]]] as [number, number][][]) {
      const b = new OrderBook('T');
      b.applySnapshot([[4000, 10]], [[3000, 10]]);
      const r = b.applySnapshot(bad, []);
      expect(r.ok).toBe(false);
      expect(b.stale).toBe(true);
      expect(b.levelCount(YES) + b.levelCount(NO)).toBe(0);
      expect(b.bestYesBid).toBe(-1);
    }
  });

  it('a new snapshot replaces the old one entirely', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[4000, 10], [4100, 10]], [[3000, 10]]);
    b.applySnapshot([[100, 1]], []);
    expect(pairs(b.bids(YES))).toEqual([[100, 1]]);
    expect(b.bestNoBid).toBe(-1);
  });
});

describe('OrderBook deltas', () => {
  const fresh = () => {
    const b = new OrderBook('T');
    b.applySnapshot([[5000, 100], [4900, 200]], [[4500, 300]]);
    return b;
  };

  it('adds, grows, shrinks and removes levels, tracking the best bid', () => {
    const b = fresh();
    expect(b.applyDelta(YES, 5100, 50)).toBe(DELTA_APPLIED);
    expect(b.bestYesBid).toBe(5100);
    expect(b.applyDelta(YES, 5000, 25)).toBe(DELTA_APPLIED);
    expect(b.bidSize(YES, 5000)).toBe(125);
    expect(b.applyDelta(YES, 5100, -50)).toBe(DELTA_APPLIED);
    expect(b.bestYesBid).toBe(5000);
    expect(b.levelCount(YES)).toBe(2);
    expect(b.applyDelta(YES, 5000, -125)).toBe(DELTA_APPLIED);
    expect(b.bestYesBid).toBe(4900);
    expect(b.applyDelta(YES, 4900, -200)).toBe(DELTA_APPLIED);
    expect(b.bestYesBid).toBe(-1);
    expect(b.levelCount(YES)).toBe(0);
  });

  it('removing a level below the best leaves the best alone', () => {
    const b = fresh();
    b.applyDelta(YES, 4900, -200);
    expect(b.bestYesBid).toBe(5000);
    expect(pairs(b.bids(YES))).toEqual([[5000, 100]]);
  });

  it('finds the next best across bitmap words and at the edges of the tick range', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[0, 1], [31, 1], [32, 1], [63, 1], [64, 1], [10000, 1]], []);
    const seen: number[] = [];
    while (b.bestYesBid >= 0) {
      seen.push(b.bestYesBid);
      b.applyDelta(YES, b.bestYesBid, -1);
    }
    expect(seen).toEqual([10000, 64, 63, 32, 31, 0]);
  });

  it('reports a level going negative as a corrupt book and leaves the level as it was', () => {
    const b = fresh();
    expect(b.applyDelta(NO, 4500, -301)).toBe(DELTA_CORRUPT);
    expect(b.bidSize(NO, 4500)).toBe(300);
    expect(b.stale).toBe(true);
    expect(b.staleReason).toContain('negative');
    expect(new OrderBook('U').applyDelta(YES, 10, -1)).toBe(DELTA_CORRUPT);
  });

  it('refuses ticks out of range and fractional sizes', () => {
    const b = fresh();
    expect(b.applyDelta(YES, 10001, 1)).toBe(DELTA_INVALID);
    expect(b.applyDelta(YES, -1, 1)).toBe(DELTA_INVALID);
    expect(b.applyDelta(YES, 50.5, 1)).toBe(DELTA_INVALID);
    expect(b.applyDelta(YES, 5000, 0.5)).toBe(DELTA_INVALID);
    expect(b.applyDelta(YES, 5000, NaN)).toBe(DELTA_INVALID);
    expect(b.bidSize(YES, 5000)).toBe(100);
  });
});

describe('derived YES asks', () => {
  it('a NO bid at p is a YES ask at 10000 - p', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[5200, 10]], [[4500, 300], [4700, 50], [4000, 7]]);
    expect(b.bestNoBid).toBe(4700);
    expect(b.bestYesAsk).toBe(5300);
    expect(b.bestNoAsk).toBe(4800);
    expect(b.yesAskSize(5300)).toBe(50);
    expect(b.yesAskSize(5500)).toBe(300);
    expect(b.yesAskSize(5400)).toBe(0);
    const top = b.top(2);
    expect(pairs(top.yesAsks)).toEqual([
      [5300, 50],
      [5500, 300],
    ]);
    expect(pairs(top.yesBids)).toEqual([[5200, 10]]);
  });

  it('is crossed when the YES bid reaches the YES ask', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[5200, 10]], [[4700, 10]]);
    expect(b.isCrossed()).toBe(false);
    b.applyDelta(YES, 5300, 1);
    expect(b.isCrossed()).toBe(true);
    b.applyDelta(YES, 5300, -1);
    b.applyDelta(NO, 4800, 1);
    expect(b.isCrossed()).toBe(true);
  });
});

describe('diffAgainstRest', () => {
  it('agrees with a REST orderbook in any level order and names each difference', () => {
    const b = new OrderBook('T');
    b.applySnapshot([[5200, 1000], [5100, 250]], [[4700, 50]]);
    expect(diffAgainstRest(b, { yes_dollars: [['0.5100', '2.50'], ['0.5200', '10.00']], no_dollars: [['0.47', '0.5']] })).toEqual([]);
    expect(diffAgainstRest(b, { yes_dollars: [['0.5200', '10.00']], no_dollars: [['0.4700', '0.60']] })).toEqual([
      'yes 5100: book 250, rest 0',
      'no 4700: book 50, rest 60',
    ]);
    expect(diffAgainstRest(new OrderBook('E'), { yes_dollars: null, no_dollars: [] })).toEqual([]);
  });
});

describe('property: the book equals a naive reference', () => {
  type Op = { side: BookSide; tick: number; delta: number };
  const nearTick = fc.oneof(fc.integer({ min: 4900, max: 5100 }), fc.integer({ min: 0, max: 10000 }), fc.constantFrom(0, 31, 32, 10000));
  const op = fc.record({ side: fc.constantFrom<BookSide>(YES, NO), tick: nearTick, delta: fc.integer({ min: -500, max: 500 }) });

  it('applying random deltas matches a Map-based book, best prices and top levels included', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.array(fc.tuple(nearTick, fc.integer({ min: 1, max: 1000 })), { maxLength: 30 }), (ops: Op[], snap) => {
        const book = new OrderBook('T');
        const ref = [new Map<number, number>(), new Map<number, number>()];
        book.applySnapshot(snap, []);
        for (const [t, c] of snap) ref[YES]!.set(t, (ref[YES]!.get(t) ?? 0) + c);
        for (const { side, tick, delta } of ops) {
          const before = ref[side]!.get(tick) ?? 0;
          // Keep the stream valid: a delta that would go negative removes the level instead.
          const d = before + delta < 0 ? -before : delta;
          expect(book.applyDelta(side, tick, d)).toBe(DELTA_APPLIED);
          if (before + d === 0) ref[side]!.delete(tick);
          else ref[side]!.set(tick, before + d);
        }
        for (const side of [YES, NO] as const) {
          const want = [...ref[side]!.entries()].sort((a, b) => b[0] - a[0]);
          expect(pairs(book.bids(side))).toEqual(want);
          expect(book.levelCount(side)).toBe(want.length);
          expect(side === YES ? book.bestYesBid : book.bestNoBid).toBe(want[0]?.[0] ?? -1);
        }
        const asks = [...ref[NO]!.entries()].map(([t, c]) => [10000 - t, c]).sort((a, b) => a[0]! - b[0]!);
        expect(pairs(book.top(5).yesAsks)).toEqual(asks.slice(0, 5));
        expect(book.stale).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
