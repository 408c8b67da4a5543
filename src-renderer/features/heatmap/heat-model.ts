// The depth heatmap's history, pure (no DOM): one ring of time buckets per market. Each bucket
// (a column of the heatmap) holds the YES book as it stood at the bucket's end (the last view
// main pushed in it), the trades printed in it, my resting orders at its end and my fills in it.
// The bucket in progress is the "open" column: it is the book as it stands now. Integer ticks and
// centi-contracts only, as main sends them.
//
// The closed columns' books (what fills the memory: MAX_LEVELS levels a side, every bucket) live
// in typed arrays allocated whole when the ring is made, so a ring filling for its ten minutes
// does not grow the heap. Trades and fills are kept per column only where there were some, and my
// resting orders are shared between columns until they change.
import { BOOK_DEPTH, type BookView } from '../../../src-shared/ipc/book-stream';

export const BUCKET_MS = 250;
export const DEFAULT_MINUTES = 10;
export const MIN_MINUTES = 1;
export const MAX_MINUTES = 60;
/** levels kept per side per column, from the inside out: as many as main's book views carry */
export const MAX_LEVELS = BOOK_DEPTH;
/** numbers a side takes in a column: [priceTicks, centi] a level */
const SIDE = MAX_LEVELS * 2;

export interface HeatColumn {
  /** the bucket's start, ms (the time the views arrived here) */
  t: number;
  /** YES bids / asks as main sends them: [priceTicks, centi, ...], best first, at most MAX_LEVELS a side */
  bids: ArrayLike<number>;
  asks: ArrayLike<number>;
  stale: boolean;
  /** trades printed in the bucket, by price: [priceTicks, trades, centi, ...] */
  trades: readonly number[];
  /** my resting orders at the bucket's end: [priceTicks, side (1 bid, -1 ask), ...] */
  mine: readonly number[];
  /** my fills in the bucket: [priceTicks, side (1 bought YES, -1 sold YES), centi, ...] */
  fills: readonly number[];
}

/** The column in progress: plain arrays, the book's as main sent them. */
interface OpenColumn extends HeatColumn {
  bids: readonly number[];
  asks: readonly number[];
  trades: number[];
  fills: number[];
}

const NONE: readonly number[] = Object.freeze([]);

/**
 * Closed columns, oldest first, their books in one typed array allocated with the ring (slot k's
 * bids at k * 2 * SIDE, its asks SIDE after). Pushing past capacity drops the oldest.
 */
export class ColumnRing {
  private head = 0;
  private n = 0;
  private readonly t: Float64Array;
  private readonly flags: Uint8Array;
  private readonly bidLen: Uint8Array;
  private readonly askLen: Uint8Array;
  private readonly book: Int32Array;
  private readonly trades: (readonly number[])[];
  private readonly mine: (readonly number[])[];
  private readonly fills: (readonly number[])[];

  constructor(readonly capacity: number) {
    this.t = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.bidLen = new Uint8Array(capacity);
    this.askLen = new Uint8Array(capacity);
    this.book = new Int32Array(capacity * 2 * SIDE);
    this.trades = new Array<readonly number[]>(capacity).fill(NONE);
    this.mine = new Array<readonly number[]>(capacity).fill(NONE);
    this.fills = new Array<readonly number[]>(capacity).fill(NONE);
  }
  get size(): number {
    return this.n;
  }
  /** bytes held by the typed arrays (allocated once, with the ring) */
  get bytes(): number {
    return this.t.byteLength + this.flags.byteLength + this.bidLen.byteLength + this.askLen.byteLength + this.book.byteLength;
  }
  push(c: HeatColumn): void {
    const k = (this.head + this.n) % this.capacity;
    if (this.n < this.capacity) this.n++;
    else this.head = (this.head + 1) % this.capacity;
    this.t[k] = c.t;
    this.flags[k] = c.stale ? 1 : 0;
    const o = k * 2 * SIDE;
    this.bidLen[k] = copySide(this.book, o, c.bids);
    this.askLen[k] = copySide(this.book, o + SIDE, c.asks);
    // (copies: an array grown by push holds room for more than it has)
    this.trades[k] = c.trades.length ? c.trades.slice() : NONE;
    this.mine[k] = c.mine.length ? c.mine : NONE;
    this.fills[k] = c.fills.length ? c.fills.slice() : NONE;
  }
  /** column i (0 the oldest): a view over the ring's arrays, valid until the slot is reused */
  at(i: number): HeatColumn | undefined {
    if (i < 0 || i >= this.n) return undefined;
    const k = (this.head + i) % this.capacity;
    const o = k * 2 * SIDE;
    return {
      t: this.t[k]!,
      bids: this.book.subarray(o, o + this.bidLen[k]!),
      asks: this.book.subarray(o + SIDE, o + SIDE + this.askLen[k]!),
      stale: this.flags[k] === 1,
      trades: this.trades[k]!,
      mine: this.mine[k]!,
      fills: this.fills[k]!,
    };
  }
  last(): HeatColumn | undefined {
    return this.at(this.n - 1);
  }
  /** column i's start time alone (no view built: the time axis reads every column in view a frame) */
  timeAt(i: number): number | undefined {
    return i >= 0 && i < this.n ? this.t[(this.head + i) % this.capacity] : undefined;
  }
  /** a ring of another capacity holding the newest columns that fit */
  resized(capacity: number): ColumnRing {
    const next = new ColumnRing(capacity);
    const keep = Math.min(this.n, capacity);
    for (let i = this.n - keep; i < this.n; i++) next.push(this.at(i)!);
    return next;
  }
}

/** Copies a side's levels (at most MAX_LEVELS) into the ring's book at `o`; returns how many numbers. */
function copySide(dst: Int32Array, o: number, flat: ArrayLike<number>): number {
  const n = Math.min(flat.length, SIDE);
  for (let i = 0; i < n; i++) dst[o + i] = flat[i]!;
  return n;
}

export const columnsFor = (minutes: number, bucketMs = BUCKET_MS): number => Math.max(2, Math.round((minutes * 60_000) / bucketMs));

const trim = (flat: readonly number[]): readonly number[] => (flat.length > SIDE ? flat.slice(0, SIDE) : flat);

/** One market's history: closed columns in a ring, plus the open one (the book as it stands). */
export class HeatSeries {
  ring: ColumnRing;
  open: OpenColumn | null = null;
  /** how many columns were ever closed: column `seq` s is ring index s - (closed - ring.size) */
  closed = 0;
  /** the largest level size seen (centi), for the colour scale */
  maxCenti = 0;
  /** the largest number of trades at one price in one bucket */
  maxTrades = 0;
  /** bumps on every change, so a painter can tell whether to draw */
  version = 0;

  constructor(capacity: number, readonly bucketMs = BUCKET_MS) {
    this.ring = new ColumnRing(capacity);
  }

  private bucketStart(now: number): number {
    return Math.floor(now / this.bucketMs) * this.bucketMs;
  }

  /**
   * Closes every bucket that ended by `now`. A bucket without a new view keeps the book as it
   * stood (the time axis has no holes); a gap longer than the ring only keeps what fits.
   */
  roll(now: number): void {
    const open = this.open;
    if (!open) return;
    const start = this.bucketStart(now);
    if (start <= open.t) return;
    const gap = (start - open.t) / this.bucketMs;
    this.ring.push(open);
    this.closed++;
    const carried = Math.min(gap - 1, this.ring.capacity);
    const quiet: HeatColumn = { ...open, trades: NONE, fills: NONE };
    for (let i = carried; i >= 1; i--) {
      quiet.t = start - i * this.bucketMs;
      this.ring.push(quiet);
    }
    this.closed += gap - 1;
    this.open = { t: start, bids: open.bids, asks: open.asks, stale: open.stale, trades: [], mine: open.mine, fills: [] };
    this.version++;
  }
  /** main pushed a view of this market's book */
  book(view: Pick<BookView, 'yesBids' | 'yesAsks' | 'stale'>, now: number): void {
    this.roll(now);
    const bids = trim(view.yesBids);
    const asks = trim(view.yesAsks);
    if (!this.open) this.open = { t: this.bucketStart(now), bids, asks, stale: view.stale, trades: [], mine: [], fills: [] };
    else {
      this.open.bids = bids;
      this.open.asks = asks;
      this.open.stale = view.stale;
    }
    for (let i = 1; i < bids.length; i += 2) if (bids[i]! > this.maxCenti) this.maxCenti = bids[i]!;
    for (let i = 1; i < asks.length; i += 2) if (asks[i]! > this.maxCenti) this.maxCenti = asks[i]!;
    this.version++;
  }

  /** a trade printed at a YES price */
  trade(priceTicks: number, centi: number, now: number): void {
    this.roll(now);
    const col = this.open;
    if (!col) return; // no book yet: nothing to draw it against
    const tr = col.trades;
    let i = 0;
    while (i < tr.length && tr[i] !== priceTicks) i += 3;
    if (i < tr.length) {
      tr[i + 1]! += 1;
      tr[i + 2]! += centi;
    } else tr.push(priceTicks, 1, centi);
    if (tr[i + 1]! > this.maxTrades) this.maxTrades = tr[i + 1]!;
    this.version++;
  }

  /** my resting orders in this market as they stand: [priceTicks, side, ...] */
  mine(flat: readonly number[], now: number): void {
    this.roll(now);
    if (!this.open || sameNumbers(this.open.mine, flat)) return;
    this.open.mine = flat;
    this.version++;
  }

  /** one of my fills: side 1 bought YES, -1 sold YES */
  fill(priceTicks: number, side: 1 | -1, centi: number, now: number): void {
    this.roll(now);
    if (!this.open) return;
    this.open.fills.push(priceTicks, side, centi);
    this.version++;
  }

  /** columns held, the open one included */
  get length(): number {
    return this.ring.size + (this.open ? 1 : 0);
  }
  /** the seq of the oldest column held */
  get firstSeq(): number {
    return this.closed - this.ring.size;
  }
  /** the seq of the newest column (the open one when there is one) */
  get lastSeq(): number {
    return this.open ? this.closed : this.closed - 1;
  }
  /** a column by seq (undefined when dropped or not yet there) */
  column(seq: number): HeatColumn | undefined {
    if (seq === this.closed) return this.open ?? undefined;
    return this.ring.at(seq - this.firstSeq);
  }
  /** a column's start time by seq, without building its view */
  time(seq: number): number | undefined {
    if (seq === this.closed) return this.open?.t;
    return this.ring.timeAt(seq - this.firstSeq);
  }
  latest(): HeatColumn | undefined {
    return this.open ?? this.ring.last();
  }
  resize(capacity: number): void {
    if (capacity === this.ring.capacity) return;
    this.ring = this.ring.resized(capacity);
    this.version++;
  }
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The size (centi) resting at a YES price in a column, and on which side. */
export function sizeAt(col: HeatColumn, priceTicks: number): { side: 'bid' | 'ask' | null; centi: number } {
  for (let i = 0; i < col.bids.length; i += 2) if (col.bids[i] === priceTicks) return { side: 'bid', centi: col.bids[i + 1]! };
  for (let i = 0; i < col.asks.length; i += 2) if (col.asks[i] === priceTicks) return { side: 'ask', centi: col.asks[i + 1]! };
  return { side: null, centi: 0 };
}

/** The colour scale's top: the next power of two over the largest size seen (so it rarely changes). */
export function scaleTop(maxCenti: number): number {
  let s = 100;
  while (s < maxCenti) s *= 2;
  return s;
}

/** 0..1 heat of a size against the scale's top (square root: small levels stay visible beside big ones). */
export function heatOf(centi: number, top: number): number {
  if (centi <= 0 || top <= 0) return 0;
  return Math.min(1, Math.sqrt(centi / top));
}
