// Price-time matching of one taker against a book. A YES bid at p crosses NO bids at
// q >= 10000 - p (and the reverse); makers trade at their own price, best level first,
// FIFO within a level. The matcher writes what happened into a reusable log (fills and
// self-trade cancels) that the caller replays into accounts and events; it allocates
// nothing per call.

import { Book, NIL, LEVELS_PER_SIDE, type BookSideIndex } from './book';
import { TICKS_PER_DOLLAR } from './units';

/** Self-trade prevention: cancel the taker at the cross, or cancel the resting maker and go on. */
export const STP_TAKER_AT_CROSS = 0;
export const STP_MAKER = 1;
export type StpMode = typeof STP_TAKER_AT_CROSS | typeof STP_MAKER;

/** Log entry kinds. */
export const LOG_FILL = 0;
export const LOG_STP_CANCEL = 1;

/** Why matching stopped before the taker's count was used up (besides running out of liquidity). */
export const STOP_NONE = 0;
export const STOP_SELF_TRADE = 1;
export const STOP_GROUP_LIMIT = 2;

export class Matcher {
  /** Log of the last match: kind, maker slot, count, maker price on its own leg. */
  kind: Uint8Array;
  slot: Int32Array;
  count: Float64Array;
  price: Int32Array;
  length = 0;
  /** Count the taker filled in the last match. */
  filled = 0;
  stop = STOP_NONE;
  /**
   * Remaining fill capacity per order group index (contracts_limit - contracts_used, 0
   * when tripped). Owned by the caller; the matcher decrements it as groups fill.
   */
  groupCap: Float64Array;
  private touchedGroup: Int32Array;
  private touchedTake: Float64Array;

  constructor(initialLog = 256) {
    this.kind = new Uint8Array(initialLog);
    this.slot = new Int32Array(initialLog);
    this.count = new Float64Array(initialLog);
    this.price = new Int32Array(initialLog);
    this.groupCap = new Float64Array(16);
    this.touchedGroup = new Int32Array(initialLog);
    this.touchedTake = new Float64Array(initialLog);
  }

  private push(kind: number, slot: number, count: number, price: number): void {
    const i = this.length;
    if (i === this.kind.length) this.growLog();
    this.kind[i] = kind;
    this.slot[i] = slot;
    this.count[i] = count;
    this.price[i] = price;
    this.length = i + 1;
  }

  private growLog(): void {
    const n = this.kind.length * 2;
    const k = new Uint8Array(n);
    k.set(this.kind);
    this.kind = k;
    const s = new Int32Array(n);
    s.set(this.slot);
    this.slot = s;
    const c = new Float64Array(n);
    c.set(this.count);
    this.count = c;
    const p = new Int32Array(n);
    p.set(this.price);
    this.price = p;
  }

  /** True when an order on `side` at `price` would trade against the book. */
  crosses(book: Book, side: BookSideIndex, price: number): boolean {
    const best = book.best((1 - side) as BookSideIndex);
    return best !== NIL && best >= TICKS_PER_DOLLAR - price;
  }

  /**
   * Match a taker against `book`. Fills and self-trade cancels go to the log; fully
   * filled and cancelled makers are removed from the book (their slots freed, so read
   * them before adding anything). Returns the count filled.
   */
  match(book: Book, side: BookSideIndex, price: number, count: number, owner: number, stp: StpMode, takerGroup: number): number {
    this.length = 0;
    this.filled = 0;
    this.stop = STOP_NONE;
    const groupCap = this.groupCap;
    let want = count;
    if (takerGroup !== NIL) {
      const cap = groupCap[takerGroup]!;
      if (cap < want) {
        want = cap;
        this.stop = STOP_GROUP_LIMIT;
      }
    }
    const makerSide = (1 - side) as BookSideIndex;
    const minPrice = TICKS_PER_DOLLAR - price;
    const s = book.slots;
    const base = makerSide * LEVELS_PER_SIDE;
    let p = book.best(makerSide);
    let filled = 0;
    outer: while (want > 0 && p !== NIL && p >= minPrice) {
      let cur = book.head[base + p]!;
      while (cur !== NIL) {
        const nxt = s.next[cur]!;
        if (s.owner[cur] === owner) {
          if (stp === STP_TAKER_AT_CROSS) {
            this.stop = STOP_SELF_TRADE;
            break outer;
          }
          this.push(LOG_STP_CANCEL, cur, s.remaining[cur]!, p);
          book.remove(cur);
          cur = nxt;
          continue;
        }
        const rem = s.remaining[cur]!;
        let fill = want < rem ? want : rem;
        const g = s.group[cur]!;
        if (g !== NIL) {
          const gc = groupCap[g]!;
          if (gc <= 0) {
            cur = nxt; // its group tripped: the caller cancels it after the match
            continue;
          }
          if (gc < fill) fill = gc;
          groupCap[g] = gc - fill;
        }
        this.push(LOG_FILL, cur, fill, p);
        filled += fill;
        want -= fill;
        if (fill === rem) book.remove(cur);
        else book.reduce(cur, fill);
        if (want === 0) break outer;
        cur = nxt;
      }
      const next = book.best(makerSide);
      p = next < p ? next : p - 1;
      while (p >= minPrice && p >= 0 && book.head[base + p] === NIL) p--;
      if (p < 0) p = NIL;
    }
    if (takerGroup !== NIL) groupCap[takerGroup] = groupCap[takerGroup]! - filled;
    this.filled = filled;
    return filled;
  }

  /**
   * Whether a fill-or-kill taker could fill `count` in full, with the same rules as
   * `match` (self-trade prevention, group limits). Changes nothing.
   */
  canFill(book: Book, side: BookSideIndex, price: number, count: number, owner: number, stp: StpMode, takerGroup: number): boolean {
    const groupCap = this.groupCap;
    if (takerGroup !== NIL && groupCap[takerGroup]! < count) return false;
    const makerSide = (1 - side) as BookSideIndex;
    const minPrice = TICKS_PER_DOLLAR - price;
    const s = book.slots;
    const base = makerSide * LEVELS_PER_SIDE;
    let want = count;
    let touched = 0;
    let ok = false;
    outer: for (let p = book.best(makerSide); p !== NIL && p >= minPrice; p--) {
      for (let cur = book.head[base + p]!; cur !== NIL; cur = s.next[cur]!) {
        if (s.owner[cur] === owner) {
          if (stp === STP_TAKER_AT_CROSS) break outer;
          continue;
        }
        let take = s.remaining[cur]!;
        if (want < take) take = want;
        const g = s.group[cur]!;
        if (g !== NIL) {
          const gc = groupCap[g]!;
          if (gc < take) take = gc;
          if (take <= 0) continue;
          groupCap[g] = gc - take;
          if (touched === this.touchedGroup.length) this.growTouched();
          this.touchedGroup[touched] = g;
          this.touchedTake[touched] = take;
          touched++;
        }
        want -= take;
        if (want === 0) {
          ok = true;
          break outer;
        }
      }
    }
    for (let i = 0; i < touched; i++) {
      const g = this.touchedGroup[i]!;
      groupCap[g] = groupCap[g]! + this.touchedTake[i]!;
    }
    return ok;
  }

  private growTouched(): void {
    const n = this.touchedGroup.length * 2;
    const g = new Int32Array(n);
    g.set(this.touchedGroup);
    this.touchedGroup = g;
    const t = new Float64Array(n);
    t.set(this.touchedTake);
    this.touchedTake = t;
  }

  /** Make room for group index `g` in the capacity table. */
  ensureGroup(g: number): void {
    if (g < this.groupCap.length) return;
    let n = this.groupCap.length;
    while (n <= g) n *= 2;
    const c = new Float64Array(n);
    c.set(this.groupCap);
    this.groupCap = c;
  }
}
