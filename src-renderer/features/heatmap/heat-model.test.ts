// The heatmap's history, pure: the ring drops the oldest past its capacity, a bucket keeps the
// book as it stood at its end and aggregates its trades by price, quiet time still makes columns,
// and the newest column is the book as main last sent it.
import { describe, expect, it } from 'vitest';
import { BUCKET_MS, ColumnRing, HeatSeries, MAX_LEVELS, columnsFor, heatOf, scaleTop, sizeAt, type HeatColumn } from './heat-model';
import { followTop } from './heat-follow';
import { inferStep, priceAtY, scrolledEnd, seqAtX, slots, xOfSeq, yOfPrice, type HeatGeometry } from './heat-view';

const T0 = 1_800_000_000_000; // a bucket boundary (divisible by 250)
const book = (bids: number[], asks: number[], stale = false) => ({ yesBids: bids, yesAsks: asks, stale });

describe('ColumnRing', () => {
  const col = (t: number, bids: number[] = [t, 1]): HeatColumn => ({ t, bids, asks: [t + 1, 2], stale: t % 2 === 1, trades: t === 4 ? [4, 1, 100] : [], mine: [], fills: [] });
  it('keeps the newest `capacity` columns, oldest first, in typed arrays allocated once; resized keeps the newest', () => {
    const r = new ColumnRing(3);
    const bytes = r.bytes;
    expect(bytes).toBeGreaterThan(3 * 2 * MAX_LEVELS * 2 * 4);
    for (let t = 1; t <= 5; t++) r.push(col(t));
    expect(r.size).toBe(3);
    expect([0, 1, 2].map((i) => r.at(i)!.t)).toEqual([3, 4, 5]);
    expect([0, 1, 2, 3].map((i) => r.timeAt(i))).toEqual([3, 4, 5, undefined]);
    expect(Array.from(r.at(1)!.bids)).toEqual([4, 1]);
    expect(Array.from(r.at(1)!.asks)).toEqual([5, 2]);
    expect([r.at(0)!.stale, r.at(1)!.stale]).toEqual([true, false]);
    expect(r.at(1)!.trades).toEqual([4, 1, 100]);
    expect(r.at(3)).toBeUndefined();
    expect(r.last()!.t).toBe(5);
    expect(r.bytes).toBe(bytes);
    const two = r.resized(2);
    expect([two.at(0)!.t, two.at(1)!.t, two.size]).toEqual([4, 5, 2]);
    const four = two.resized(4);
    four.push(col(6));
    expect([0, 1, 2].map((i) => four.at(i)!.t).concat(four.size)).toEqual([4, 5, 6, 3]);
  });

  it('a side deeper than MAX_LEVELS keeps its inside levels; a slot reused holds only its new column', () => {
    const r = new ColumnRing(1);
    const deep = Array.from({ length: MAX_LEVELS + 5 }, (_, i) => [9000 - i, i + 1]).flat();
    r.push(col(1, deep));
    expect(Array.from(r.at(0)!.bids)).toEqual(deep.slice(0, MAX_LEVELS * 2));
    r.push(col(2, [100, 7]));
    expect(Array.from(r.at(0)!.bids)).toEqual([100, 7]);
  });
});

describe('HeatSeries', () => {
  it('a bucket holds the last book of its 250 ms, its trades summed by price; the newest column equals the book', () => {
    const s = new HeatSeries(columnsFor(10));
    expect(s.ring.capacity).toBe(2400);
    s.book(book([4900, 1000], [5100, 500]), T0 + 10);
    s.trade(5100, 200, T0 + 20);
    s.trade(5100, 300, T0 + 30);
    s.trade(4900, 100, T0 + 40);
    s.book(book([4900, 800, 4800, 2500], [5000, 700]), T0 + 200);
    // the next bucket: the first closes with the book as it stood at its end
    const last = book([4700, 100], [5200, 900, 5300, 10]);
    s.book(last, T0 + BUCKET_MS + 5);
    expect(s.closed).toBe(1);
    const first = s.column(0)!;
    expect(first.t).toBe(T0);
    expect(Array.from(first.bids)).toEqual([4900, 800, 4800, 2500]);
    expect(Array.from(first.asks)).toEqual([5000, 700]);
    expect(first.trades).toEqual([5100, 2, 500, 4900, 1, 100]);
    expect(s.maxTrades).toBe(2);
    // the newest column is the book main sent last
    const latest = s.latest()!;
    expect(latest.bids).toEqual(last.yesBids);
    expect(latest.asks).toEqual(last.yesAsks);
    expect(latest.trades).toEqual([]);
    expect(sizeAt(latest, 5200)).toEqual({ side: 'ask', centi: 900 });
    expect(sizeAt(latest, 4900)).toEqual({ side: null, centi: 0 });
    expect(s.maxCenti).toBe(2500);
  });

  it('quiet time still makes columns (the book carried), and the ring drops the oldest past its capacity', () => {
    const s = new HeatSeries(8);
    s.book(book([4000, 100], [6000, 100]), T0);
    s.mine([4000, 1], T0 + 1);
    s.roll(T0 + 5 * BUCKET_MS + 3);
    expect(s.closed).toBe(5);
    expect(s.length).toBe(6);
    for (let q = 0; q < 5; q++) {
      expect(s.column(q)!.t).toBe(T0 + q * BUCKET_MS);
      expect(s.time(q)).toBe(T0 + q * BUCKET_MS);
      expect(Array.from(s.column(q)!.bids)).toEqual([4000, 100]);
      expect(s.column(q)!.mine).toEqual([4000, 1]);
    }
    // an hour of silence: only what fits is kept, seqs still count every bucket
    s.book(book([4100, 50], []), T0 + 3_600_000);
    expect(s.ring.size).toBe(8);
    expect(s.lastSeq).toBe(3_600_000 / BUCKET_MS);
    expect(s.firstSeq).toBe(s.lastSeq - 8);
    expect(s.column(s.firstSeq - 1)).toBeUndefined();
    expect(s.column(s.lastSeq - 1)!.t).toBe(T0 + 3_600_000 - BUCKET_MS);
    expect([s.time(s.firstSeq - 1), s.time(s.lastSeq - 1), s.time(s.lastSeq)]).toEqual([undefined, T0 + 3_600_000 - BUCKET_MS, T0 + 3_600_000]);
    expect(s.latest()!.bids).toEqual([4100, 50]);
  });

  it('keeps at most MAX_LEVELS levels a side, from the inside out; my fills land in their bucket', () => {
    const s = new HeatSeries(4);
    const deep = Array.from({ length: MAX_LEVELS + 20 }, (_, i) => [5000 - i * 10, 100 + i]).flat();
    s.book(book(deep, []), T0);
    expect(s.latest()!.bids.length).toBe(MAX_LEVELS * 2);
    expect(Array.from(s.latest()!.bids).slice(0, 4)).toEqual([5000, 100, 4990, 101]);
    s.fill(5000, 1, 300, T0 + 10);
    s.roll(T0 + BUCKET_MS);
    expect(s.column(0)!.fills).toEqual([5000, 1, 300]);
    expect(s.latest()!.fills).toEqual([]);
  });

  it('a trade before any book is not drawn; resize keeps the newest columns', () => {
    const s = new HeatSeries(10);
    s.trade(5000, 100, T0);
    expect(s.length).toBe(0);
    s.book(book([4900, 1], [5100, 1]), T0);
    s.roll(T0 + 6 * BUCKET_MS);
    s.resize(3);
    expect(s.ring.size).toBe(3);
    expect(s.firstSeq).toBe(3);
    expect(s.column(3)!.t).toBe(T0 + 3 * BUCKET_MS);
  });
});

describe('colour scale and geometry', () => {
  it('the scale top is a power of two over the largest size; heat grows with size and tops at 1', () => {
    expect(scaleTop(0)).toBe(100);
    expect(scaleTop(1000)).toBe(1600);
    expect(heatOf(0, 1600)).toBe(0);
    expect(heatOf(400, 1600)).toBeCloseTo(0.5);
    expect(heatOf(5000, 1600)).toBe(1);
  });

  const g: HeatGeometry = { width: 256, height: 218, colPx: 2, rowPx: 10, step: 100, top: 6000 };
  it('prices and columns map to pixels and back', () => {
    expect(slots(g)).toBe(100); // (256 - 56) / 2
    expect(yOfPrice(6000, g)).toBe(0);
    expect(yOfPrice(5500, g)).toBe(50);
    expect(priceAtY(55, g)).toBe(5500);
    expect(priceAtY(0, g)).toBe(6000);
    expect(xOfSeq(500, 500, g)).toBe(198);
    expect(seqAtX(199, 500, g)).toBe(500);
    expect(seqAtX(0, 500, g)).toBe(401);
  });

  it('scrolling stays inside what is held and returns to live at the newest column', () => {
    expect(scrolledEnd(null, 10, 0, 500, 100)).toBe(490);
    expect(scrolledEnd(490, -10, 0, 500, 100)).toBeNull();
    expect(scrolledEnd(null, 10_000, 0, 500, 100)).toBe(99);
    expect(scrolledEnd(null, 10, 0, 50, 100)).toBeNull(); // less than a screen held: nothing to scroll
  });

  it('rows follow the ladder: whole cents unless the book needs finer; the window follows the inside only when it nears an edge', () => {
    expect(inferStep([4900, 1], [5100, 1])).toBe(100);
    expect(inferStep([4910, 1], [5100, 1])).toBe(10);
    expect(inferStep([4911, 1], [])).toBe(1);
    const base = { width: 256, height: 218, colPx: 2, rowPx: 10, step: 100 };
    const col = (bid: number, ask: number) => ({ t: 0, bids: [bid, 1], asks: [ask, 1], stale: false, trades: [], mine: [], fills: [] });
    const top = followTop(null, col(4900, 5100), base);
    expect(top).toBe(6000); // 20 rows, the mid 5000 in the middle
    expect(followTop(top, col(5200, 5400), base)).toBe(top); // still well inside
    expect(followTop(top, col(5700, 5900), base)).toBe(6800); // near the top: re-centred
  });
});
