// Min-heap of order expiries keyed by (expiry ms, order ordinal), so orders that expire at
// the same moment always go in creation order. Entries are not removed when an order
// leaves the book or changes its expiry; a popped entry is checked against the order.

export interface ExpiryEntry {
  atMs: number;
  num: number;
  orderId: string;
}

function less(a: ExpiryEntry, b: ExpiryEntry): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.num < b.num);
}

export class ExpiryHeap {
  private heap: ExpiryEntry[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(entry: ExpiryEntry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(h[i]!, h[parent]!)) break;
      const t = h[i]!;
      h[i] = h[parent]!;
      h[parent] = t;
      i = parent;
    }
  }

  /** Earliest entry due at or before `nowMs`, removed from the heap; undefined when none. */
  popDue(nowMs: number): ExpiryEntry | undefined {
    const h = this.heap;
    const top = h[0];
    if (top === undefined || top.atMs > nowMs) return undefined;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        const t = h[i]!;
        h[i] = h[m]!;
        h[m] = t;
        i = m;
      }
    }
    return top;
  }

  /** Whether anything is due at `nowMs` (cheap check before a sweep). */
  hasDue(nowMs: number): boolean {
    const top = this.heap[0];
    return top !== undefined && top.atMs <= nowMs;
  }

  clear(): void {
    this.heap.length = 0;
  }
}
