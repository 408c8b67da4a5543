// The matching core on its own: one book, orders named by small integers, no accounts,
// fees or events. It is what the engine's hot path costs underneath, measured by
// bench/engine.bench.ts, and a reference the engine's book behaviour is tested against.

import { Book, NIL, OrderSlots, type BookSideIndex } from './book';
import { LOG_FILL, Matcher, STP_TAKER_AT_CROSS, type StpMode } from './matching';

export class MatchingCore {
  readonly book: Book;
  readonly matcher = new Matcher();
  private slots: OrderSlots;
  /** Order id -> slot (NIL when not resting) and slot -> order id. */
  private idToSlot: Int32Array;
  private slotToId: Int32Array;
  /** Contracts traded so far (centi). */
  volume = 0;

  constructor(maxOrderId = 1 << 16) {
    this.slots = new OrderSlots(1024);
    this.book = new Book(0, this.slots);
    this.idToSlot = new Int32Array(maxOrderId).fill(NIL);
    this.slotToId = new Int32Array(1024).fill(NIL);
  }

  private growIds(id: number): void {
    let n = this.idToSlot.length;
    while (n <= id) n *= 2;
    const a = new Int32Array(n).fill(NIL);
    a.set(this.idToSlot);
    this.idToSlot = a;
  }

  private settleLog(): void {
    const m = this.matcher;
    const s = this.slots;
    for (let i = 0; i < m.length; i++) {
      const slot = m.slot[i]!;
      if (m.kind[i] === LOG_FILL) this.volume += m.count[i]!;
      // a maker the match used up or cancelled no longer owns its slot
      if (s.book[slot] === NIL) {
        const id = this.slotToId[slot]!;
        if (id !== NIL && this.idToSlot[id] === slot) this.idToSlot[id] = NIL;
        this.slotToId[slot] = NIL;
      }
    }
    m.length = 0;
  }

  /**
   * Enter order `id` on `side` at `price` (own-leg ticks) for `count` centi. Trades what
   * crosses, then rests the rest when `rest` is true. Orders of one `owner` never trade
   * with each other (default: each order is its own owner). Returns the count filled.
   */
  add(id: number, side: BookSideIndex, price: number, count: number, rest = true, owner = id, stp: StpMode = STP_TAKER_AT_CROSS): number {
    if (id >= this.idToSlot.length) this.growIds(id);
    const filled = this.matcher.match(this.book, side, price, count, owner, stp, NIL);
    const stop = this.matcher.stop;
    if (this.matcher.length !== 0) this.settleLog();
    const left = count - filled;
    if (rest && left > 0 && stop === 0) {
      const slot = this.book.add(side, price, left, owner, NIL);
      if (slot >= this.slotToId.length) {
        const a = new Int32Array(this.slots.capacity).fill(NIL);
        a.set(this.slotToId);
        this.slotToId = a;
      }
      this.slotToId[slot] = id;
      this.idToSlot[id] = slot;
    }
    return filled;
  }

  /** Cancel a resting order; returns the count it had (0 when it was not resting). */
  cancel(id: number): number {
    const slot = id < this.idToSlot.length ? this.idToSlot[id]! : NIL;
    if (slot === NIL) return 0;
    this.idToSlot[id] = NIL;
    this.slotToId[slot] = NIL;
    return this.book.remove(slot);
  }

  /**
   * Amend a resting order to `price` and `count` remaining: a price change or a larger
   * count re-enters at the back of the queue (and may trade); a smaller count keeps
   * its place. Returns false when the order is not resting.
   */
  amend(id: number, price: number, count: number): boolean {
    const slot = id < this.idToSlot.length ? this.idToSlot[id]! : NIL;
    if (slot === NIL) return false;
    const s = this.slots;
    const rem = s.remaining[slot]!;
    if (price === s.price[slot] && count <= rem) {
      if (count < rem) this.book.reduce(slot, rem - count);
      return true;
    }
    const side = s.side[slot]! as BookSideIndex;
    const owner = s.owner[slot]!;
    this.cancel(id);
    this.add(id, side, price, count, true, owner);
    return true;
  }

  /** Slot of a resting order, NIL when it is not resting. */
  slotOf(id: number): number {
    return id < this.idToSlot.length ? this.idToSlot[id]! : NIL;
  }

  /** Remaining count of a resting order (0 when not resting). */
  remaining(id: number): number {
    const slot = id < this.idToSlot.length ? this.idToSlot[id]! : NIL;
    return slot === NIL ? 0 : this.slots.remaining[slot]!;
  }
}
