// Every order by its id, for the engine. The engine's own ids carry their counter (makeId: the
// low 48 bits are the n-th order), so an order is found by that number in a plain array: no hash
// of a 36-character string per create and per cancel, and no rehashing of a table that grows by
// every order ever made (these were a fifth of the engine's time). Ids in another shape (none
// today) live in a Map beside it. Iteration is in creation order, as a Map's was.

/** The counter inside one of the engine's ids (aaaaaaaa-bbbb-4bbb-8hhh-0000llllllll), or -1. */
export function idCounter(id: string): number {
  if (id.length !== 36 || id.charCodeAt(14) !== 52 || id.charCodeAt(23) !== 45 || id.charCodeAt(18) !== 45) return -1;
  let hi = 0;
  for (let i = 19; i < 23; i++) {
    const d = hexDigit(id.charCodeAt(i));
    if (d < 0) return -1;
    hi = hi * 16 + d;
  }
  let lo = 0;
  for (let i = 28; i < 36; i++) {
    const d = hexDigit(id.charCodeAt(i));
    if (d < 0) return -1;
    lo = lo * 16 + d;
  }
  return (hi & 0x3fff) * 0x1_0000_0000 + lo;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

export class OrderIndex<T extends { order_id: string }> {
  private readonly byNum: (T | undefined)[] = [];
  private readonly other = new Map<string, T>();
  private count = 0;
  /** orders deleted so far (a reader that follows the index by position learns that it must look again) */
  private removed = 0;

  get size(): number {
    return this.count + this.other.size;
  }

  /** How many deletions the index has seen: unchanged means every order seen before is still there. */
  get deletions(): number {
    return this.removed;
  }

  /** Whether every order has one of the engine's own ids (so `forEachFrom` sees them all). */
  get ownIdsOnly(): boolean {
    return this.other.size === 0;
  }

  get(id: string): T | undefined {
    const n = idCounter(id);
    if (n > 0 && n < 0x1_0000_0000) {
      const o = this.byNum[n];
      if (o !== undefined && o.order_id === id) return o;
    }
    return this.other.size ? this.other.get(id) : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, order: T): this {
    const n = idCounter(id);
    // the array grows one order at a time; a number far beyond its end (a foreign id) goes to the Map
    if (n > 0 && n <= this.byNum.length + 1_000_000) {
      const held = this.byNum[n];
      if (held === undefined || held.order_id === id) {
        if (held === undefined) this.count++;
        // fill any gap with undefined so the array stays a packed list, never a dictionary
        while (this.byNum.length < n) this.byNum.push(undefined);
        this.byNum[n] = order;
        return this;
      }
    }
    this.other.set(id, order);
    return this;
  }

  delete(id: string): boolean {
    const n = idCounter(id);
    if (n > 0 && n < this.byNum.length) {
      const o = this.byNum[n];
      if (o !== undefined && o.order_id === id) {
        this.byNum[n] = undefined;
        this.count--;
        this.removed++;
        return true;
      }
    }
    const gone = this.other.delete(id);
    if (gone) this.removed++;
    return gone;
  }

  /** Every order in creation order, as values() but in a plain loop (several times faster over a long history). */
  forEach(fn: (order: T) => void): void {
    const list = this.byNum;
    for (let i = 0; i < list.length; i++) {
      const o = list[i];
      if (o !== undefined) fn(o);
    }
    if (this.other.size) for (const o of this.other.values()) fn(o);
  }

  /**
   * The orders with an engine id made since position `from` (a value this method returned; 0 for
   * all), in creation order; returns where the next call starts. Orders with foreign ids are not
   * visited (see `ownIdsOnly`).
   */
  forEachFrom(from: number, fn: (order: T) => void): number {
    const list = this.byNum;
    for (let i = from; i < list.length; i++) {
      const o = list[i];
      if (o !== undefined) fn(o);
    }
    return list.length;
  }

  *values(): IterableIterator<T> {
    for (const o of this.byNum) if (o !== undefined) yield o;
    yield* this.other.values();
  }

  *keys(): IterableIterator<string> {
    for (const o of this.values()) yield o.order_id;
  }
}
