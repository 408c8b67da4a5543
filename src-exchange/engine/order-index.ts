// Every order by its id, for the engine. The engine's own ids carry their counter (makeId: the
// low 48 bits are the n-th order), so an order is found by that number in a plain array: no hash
// of a 36-character string per create and per cancel, and no rehashing of a table that grows by
// every order ever made (these were a fifth of the engine's time). Ids in another shape (none
// today) live in a Map beside it. Iteration is in creation order, as a Map's was.
//
// An order lives as an object while it can change. Once finished (canceled or executed) it is
// retired, and at the end of the command it moves into columns (order-columns.ts); reading it
// then gives a new object equal to the one stored. So the engine keeps no object per finished
// order, and what the young generation must copy is the resting orders only.

import { NIL } from './book';
import { fitsColumns, OrderColumns } from './order-columns';
import { idCounter } from './ids';
import type { OrderState } from './order-state';


export class OrderIndex {
  /** by the number in the id: the live order, or the columns' row of a finished one */
  private readonly byNum: (OrderState | number | undefined)[] = [];
  private readonly other = new Map<string, OrderState>();
  private readonly done: OrderColumns;
  /** finished orders of the current command, to move into the columns at its end (the list keeps its room) */
  private readonly retiring: (OrderState | undefined)[] = [];
  private retiringCount = 0;
  /** orders restored in a form the columns would not give back exactly: they stay objects */
  private readonly whole = new Set<OrderState>();
  /** live orders under their number */
  private count = 0;
  /** orders deleted so far (a reader that follows the index by position learns that it must look again) */
  private removed = 0;

  constructor(private readonly idSeed: number) {
    this.done = new OrderColumns(idSeed);
  }

  get size(): number {
    return this.count + this.other.size + this.done.size;
  }

  /** Rows of the finished-order columns, in use or free: the peak count of finished orders kept, not every order made. */
  get columnRows(): number {
    return this.done.rows;
  }

  /** How many deletions the index has seen: unchanged means every order seen before is still there. */
  get deletions(): number {
    return this.removed;
  }

  /** Whether every order has one of the engine's own ids (so `forEachFrom` sees them all). */
  get ownIdsOnly(): boolean {
    return this.other.size === 0;
  }

  /** The order with this id: the live object, or a new object read from the columns for a finished one. */
  get(id: string): OrderState | undefined {
    const n = idCounter(id);
    if (n > 0 && n < 0x1_0000_0000) {
      const held = this.byNum[n];
      if (held !== undefined) {
        if (typeof held !== 'number') {
          if (held.order_id === id) return held;
        } else if (this.done.idOf(n) === id) return this.done.get(held, id);
      }
    }
    return this.other.size ? this.other.get(id) : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, order: OrderState): this {
    const n = idCounter(id);
    // the array grows one order at a time; a number far beyond its end (a foreign id) goes to the Map
    if (n > 0 && n <= this.byNum.length + 1_000_000) {
      const held = this.byNum[n];
      if (held === undefined) {
        // fill any gap with undefined so the array stays a packed list, never a dictionary
        while (this.byNum.length < n) this.byNum.push(undefined);
        this.byNum[n] = order;
        this.count++;
        return this;
      }
      if (typeof held !== 'number') {
        if (held.order_id === id) {
          this.byNum[n] = order;
          return this;
        }
      } else if (this.done.idOf(n) === id) {
        this.done.remove(held);
        this.byNum[n] = order;
        this.count++;
        return this;
      }
    }
    this.other.set(id, order);
    return this;
  }

  delete(id: string): boolean {
    const n = idCounter(id);
    if (n > 0 && n < this.byNum.length) {
      const held = this.byNum[n];
      if (held !== undefined && (typeof held === 'number' ? this.done.idOf(n) === id : held.order_id === id)) {
        this.byNum[n] = undefined;
        if (typeof held === 'number') this.done.remove(held);
        else {
          this.whole.delete(held);
          this.count--;
        }
        this.removed++;
        return true;
      }
    }
    const gone = this.other.get(id);
    if (gone === undefined) return false;
    this.other.delete(id);
    this.whole.delete(gone);
    this.removed++;
    return true;
  }

  /** The order reached a final status: it moves into the columns when the command ends (`settle`). */
  retire(order: OrderState): void {
    this.retiring[this.retiringCount++] = order;
  }

  /** Move the orders retired during this command into the columns; the engine calls it after each command. */
  settle(): void {
    const count = this.retiringCount;
    if (count === 0) return;
    const list = this.retiring;
    for (let i = 0; i < count; i++) {
      const o = list[i]!;
      list[i] = undefined;
      if (o.status === 'resting' || (this.whole.size > 0 && this.whole.has(o))) continue;
      // only the index's own object under an engine id (the engine numbers an order by its id:
      // num is its id's counter), not a foreign one, not one moved already
      let n = o.num;
      if (this.byNum[n] !== o) n = idCounter(o.order_id);
      if (n <= 0 || n >= this.byNum.length || this.byNum[n] !== o) continue;
      this.byNum[n] = this.done.add(o);
      this.count--;
    }
    this.retiringCount = 0;
  }

  /**
   * Check an order restored from a snapshot: one the columns would not give back exactly is kept
   * whole for good. Call it after `set`.
   */
  admit(order: OrderState): void {
    const n = idCounter(order.order_id);
    if (order.status === 'resting') {
      if (!fitsColumns({ ...order, status: 'canceled', slot: NIL }, n, this.idSeed)) this.whole.add(order);
      return;
    }
    if (n > 0 && this.byNum[n] === order && fitsColumns(order, n, this.idSeed)) this.retire(order);
    else this.whole.add(order);
  }

  /** Every order in creation order, as values() but in a plain loop (several times faster over a long history). */
  forEach(fn: (order: OrderState) => void): void {
    this.forEachFrom(0, fn);
    if (this.other.size) for (const o of this.other.values()) fn(o);
  }

  /**
   * The orders with an engine id made since position `from` (a value this method returned; 0 for
   * all), in creation order; returns where the next call starts. Orders with foreign ids are not
   * visited (see `ownIdsOnly`). Finished orders are read from the columns (a new object each).
   */
  forEachFrom(from: number, fn: (order: OrderState) => void): number {
    const list = this.byNum;
    for (let i = from; i < list.length; i++) {
      const held = list[i];
      if (held !== undefined) fn(typeof held === 'number' ? this.done.get(held, this.done.idOf(i)) : held);
    }
    return list.length;
  }

  *values(): IterableIterator<OrderState> {
    const list = this.byNum;
    for (let i = 0; i < list.length; i++) {
      const held = list[i];
      if (held !== undefined) yield typeof held === 'number' ? this.done.get(held, this.done.idOf(i)) : held;
    }
    yield* this.other.values();
  }

  *keys(): IterableIterator<string> {
    const list = this.byNum;
    for (let i = 0; i < list.length; i++) {
      const held = list[i];
      if (held !== undefined) yield typeof held === 'number' ? this.done.idOf(i) : held.order_id;
    }
    yield* this.other.keys();
  }
}
