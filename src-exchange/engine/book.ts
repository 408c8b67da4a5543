// The book core: order slots in typed arrays (struct of arrays, no object per order on
// the hot path) and one binary book per market. A book keeps YES bids and NO bids; a
// level is addressed directly (side * 10001 + price) and holds an intrusive doubly
// linked FIFO of slots, so insert at the tail, cancel anywhere and level totals are O(1).

import { TICKS_PER_DOLLAR } from './units';

/** Book side of a resting order: YES bids and NO bids (a YES ask at p is a NO bid at 10000 - p). */
export const YES = 0;
export const NO = 1;
export type BookSideIndex = 0 | 1;

export const NIL = -1;
/** Number of price slots per side (prices 0..10000). */
export const LEVELS_PER_SIDE = TICKS_PER_DOLLAR + 1;

/** Growable struct-of-arrays store for resting orders; a slot index stands for an order. */
export class OrderSlots {
  capacity: number;
  /** Price on the order's own leg: YES price for a YES bid, NO price for a NO bid. */
  price: Int32Array;
  side: Uint8Array;
  remaining: Float64Array;
  prev: Int32Array;
  next: Int32Array;
  /** Owner (account index) for self-trade prevention. */
  owner: Int32Array;
  /** Order group index, NIL when the order is in no group. */
  group: Int32Array;
  /** Book the slot rests in, NIL when the slot is free. */
  book: Int32Array;
  private freeHead = NIL;
  private used = 0;
  live = 0;

  constructor(initialCapacity = 1024) {
    const cap = Math.max(16, initialCapacity | 0);
    this.capacity = cap;
    this.price = new Int32Array(cap);
    this.side = new Uint8Array(cap);
    this.remaining = new Float64Array(cap);
    this.prev = new Int32Array(cap);
    this.next = new Int32Array(cap);
    this.owner = new Int32Array(cap);
    this.group = new Int32Array(cap);
    this.book = new Int32Array(cap).fill(NIL);
  }

  alloc(bookIndex: number, side: BookSideIndex, price: number, remaining: number, owner: number, group: number): number {
    let slot = this.freeHead;
    if (slot !== NIL) {
      this.freeHead = this.next[slot]!;
    } else {
      if (this.used === this.capacity) this.grow();
      slot = this.used++;
    }
    this.price[slot] = price;
    this.side[slot] = side;
    this.remaining[slot] = remaining;
    this.prev[slot] = NIL;
    this.next[slot] = NIL;
    this.owner[slot] = owner;
    this.group[slot] = group;
    this.book[slot] = bookIndex;
    this.live++;
    return slot;
  }

  release(slot: number): void {
    this.book[slot] = NIL;
    this.remaining[slot] = 0;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
    this.live--;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    const copyI32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.price = copyI32(this.price);
    const side = new Uint8Array(cap);
    side.set(this.side);
    this.side = side;
    const remaining = new Float64Array(cap);
    remaining.set(this.remaining);
    this.remaining = remaining;
    this.prev = copyI32(this.prev);
    this.next = copyI32(this.next);
    this.owner = copyI32(this.owner);
    this.group = copyI32(this.group);
    const book = new Int32Array(cap).fill(NIL);
    book.set(this.book);
    this.book = book;
    this.capacity = cap;
  }
}

/** One binary market's book. Levels are allocated on first use. */
export class Book {
  readonly index: number;
  readonly slots: OrderSlots;
  head: Int32Array;
  tail: Int32Array;
  /** Total resting count per level (centi-contracts). */
  qty: Float64Array;
  /** Best (highest) price with resting orders per side, NIL when the side is empty. */
  bestYes = NIL;
  bestNo = NIL;
  /** Number of resting orders in the book, and per side. */
  orders = 0;
  yesOrders = 0;
  noOrders = 0;

  constructor(index: number, slots: OrderSlots) {
    this.index = index;
    this.slots = slots;
    this.head = EMPTY_I32;
    this.tail = EMPTY_I32;
    this.qty = EMPTY_F64;
  }

  private ensureLevels(): void {
    if (this.head.length !== 0) return;
    this.head = new Int32Array(2 * LEVELS_PER_SIDE).fill(NIL);
    this.tail = new Int32Array(2 * LEVELS_PER_SIDE).fill(NIL);
    this.qty = new Float64Array(2 * LEVELS_PER_SIDE);
  }

  best(side: BookSideIndex): number {
    return side === YES ? this.bestYes : this.bestNo;
  }

  /** Resting count at a level (0 when empty). */
  levelQty(side: BookSideIndex, price: number): number {
    return this.qty.length === 0 ? 0 : this.qty[side * LEVELS_PER_SIDE + price]!;
  }

  /** Append a new resting order at the tail of its level (allocates the slot). */
  add(side: BookSideIndex, price: number, remaining: number, owner: number, group: number): number {
    this.ensureLevels();
    const s = this.slots;
    const slot = s.alloc(this.index, side, price, remaining, owner, group);
    this.link(slot, side, price, remaining);
    return slot;
  }

  /** Link an allocated slot at the tail of its level. */
  link(slot: number, side: BookSideIndex, price: number, remaining: number): void {
    this.ensureLevels();
    const s = this.slots;
    const li = side * LEVELS_PER_SIDE + price;
    const t = this.tail[li]!;
    s.prev[slot] = t;
    s.next[slot] = NIL;
    if (t === NIL) this.head[li] = slot;
    else s.next[t] = slot;
    this.tail[li] = slot;
    this.qty[li] = this.qty[li]! + remaining;
    this.orders++;
    if (side === YES) {
      this.yesOrders++;
      if (price > this.bestYes) this.bestYes = price;
    } else {
      this.noOrders++;
      if (price > this.bestNo) this.bestNo = price;
    }
  }

  /** Unlink a slot from its level without freeing it (used to move an order). */
  unlink(slot: number): void {
    const s = this.slots;
    const side = s.side[slot]!;
    const price = s.price[slot]!;
    const li = side * LEVELS_PER_SIDE + price;
    const p = s.prev[slot]!;
    const n = s.next[slot]!;
    if (p === NIL) this.head[li] = n;
    else s.next[p] = n;
    if (n === NIL) this.tail[li] = p;
    else s.prev[n] = p;
    const q = this.qty[li]! - s.remaining[slot]!;
    this.qty[li] = q;
    this.orders--;
    const left = side === YES ? --this.yesOrders : --this.noOrders;
    if (this.head[li] === NIL) {
      this.qty[li] = 0;
      // an emptied best level: look for the next one down (nothing to look for on an empty side)
      if (side === YES) {
        if (price === this.bestYes) this.bestYes = left === 0 ? NIL : this.scanDown(YES, price - 1);
      } else if (price === this.bestNo) this.bestNo = left === 0 ? NIL : this.scanDown(NO, price - 1);
    }
  }

  /** Remove and free a slot; returns the count it still had. */
  remove(slot: number): number {
    const rem = this.slots.remaining[slot]!;
    this.unlink(slot);
    this.slots.release(slot);
    return rem;
  }

  /** Reduce a resting order in place (keeps queue priority); `by` must be below its remaining. */
  reduce(slot: number, by: number): void {
    const s = this.slots;
    s.remaining[slot] = s.remaining[slot]! - by;
    const li = s.side[slot]! * LEVELS_PER_SIDE + s.price[slot]!;
    this.qty[li] = this.qty[li]! - by;
  }

  private scanDown(side: BookSideIndex, from: number): number {
    const head = this.head;
    const base = side * LEVELS_PER_SIDE;
    for (let p = from; p >= 0; p--) if (head[base + p] !== NIL) return p;
    return NIL;
  }

  /** Contracts resting ahead of `slot` at its level. */
  queueAhead(slot: number): number {
    const s = this.slots;
    const li = s.side[slot]! * LEVELS_PER_SIDE + s.price[slot]!;
    let ahead = 0;
    for (let cur = this.head[li]!; cur !== NIL && cur !== slot; cur = s.next[cur]!) ahead += s.remaining[cur]!;
    return ahead;
  }

  /** First slot at a level (NIL when empty). */
  levelHead(side: BookSideIndex, price: number): number {
    return this.head.length === 0 ? NIL : this.head[side * LEVELS_PER_SIDE + price]!;
  }

  /** Levels of one side best first as [price, count] pairs; depth 0 = all. */
  levels(side: BookSideIndex, depth = 0): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    if (this.head.length === 0) return out;
    const base = side * LEVELS_PER_SIDE;
    for (let p = this.best(side); p >= 0; p--) {
      if (this.head[base + p] === NIL) continue;
      out.push([p, this.qty[base + p]!]);
      if (depth > 0 && out.length >= depth) break;
    }
    return out;
  }

  /** Slots of one side in priority order (best price first, FIFO within a level). */
  slotsInPriority(side: BookSideIndex): number[] {
    const out: number[] = [];
    if (this.head.length === 0) return out;
    const base = side * LEVELS_PER_SIDE;
    const s = this.slots;
    for (let p = this.best(side); p >= 0; p--) {
      for (let cur = this.head[base + p]!; cur !== NIL; cur = s.next[cur]!) out.push(cur);
    }
    return out;
  }

  /** True when the best YES bid and best NO bid cross (must never hold at rest). */
  isCrossed(): boolean {
    return this.bestYes !== NIL && this.bestNo !== NIL && this.bestYes + this.bestNo >= TICKS_PER_DOLLAR;
  }
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_F64 = new Float64Array(0);
