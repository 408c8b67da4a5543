// The replayed books and the trader's orders in them: the queue model. Recorded levels drive
// the books; the trader's orders never change them (the books follow the recording). An order:
//   - crossing the replayed book takes the recorded size at the prices it crosses (taker), each
//     level's size taken once (what was taken is remembered until the recording's level shrinks
//     below it);
//   - otherwise rests behind the size recorded at its price when it arrives (`ahead`, its own
//     earlier orders there included); size recorded there later queues behind it;
//   - moves up when that size leaves: a recorded trade at its price consumes `ahead` first and
//     fills the order only with what is left of the trade; a decrease no trade explains (a
//     cancel) takes its share of `ahead` pro rata (ahead / level), since where in the queue the
//     canceled orders stood is not recorded;
//   - fills whole-trade when a recorded trade prints through its price (the taker would have met
//     it first), and as maker when recorded size arrives on the other side at a price that
//     crosses it.
import { TICKS_PER_DOLLAR } from '../engine/units';
import { K_BOOK, K_DELTA, K_LEVEL, K_SNAPSHOT, K_TRADE, type Tape } from './tape';

export interface OwnOrder {
  id: number;
  market: number;
  /** book side: 0 YES bid, 1 NO bid */
  side: number;
  price: number;
  remaining: number;
  filled: number;
  ahead: number;
  placedUs: number;
}

export interface ReplayFill {
  orderId: number;
  market: number;
  side: number;
  /** the price paid for the side bought, ticks */
  price: number;
  size: number;
  maker: boolean;
  tsUs: number;
}

const LEVELS = TICKS_PER_DOLLAR + 1;

interface MarketBook {
  /** recorded size per price, [YES, NO] */
  size: [Int32Array, Int32Array];
  /** recorded size the trader's orders took, per price */
  taken: [Int32Array, Int32Array];
  /** best price with recorded size per side, -1 when empty (kept as levels change) */
  best: [number, number];
  orders: OwnOrder[];
}

export class ReplayBooks {
  private readonly books: (MarketBook | undefined)[] = [];
  private readonly orders = new Map<number, OwnOrder>();
  private nextId = 1;
  /** next tape row */
  cursor = 0;
  nowUs = 0;
  onFill: (f: ReplayFill) => void = () => undefined;

  constructor(readonly tape: Tape) {}

  private book(m: number): MarketBook {
    let b = this.books[m];
    if (!b) {
      b = { size: [new Int32Array(LEVELS), new Int32Array(LEVELS)], taken: [new Int32Array(LEVELS), new Int32Array(LEVELS)], best: [-1, -1], orders: [] };
      this.books[m] = b;
    }
    return b;
  }

  marketId(ticker: string): number {
    const i = this.tape.markets.indexOf(ticker);
    if (i < 0) throw new Error(`${ticker} is not in this recording`);
    return i;
  }

  /** Recorded size at a price (centi-contracts). */
  level(m: number, side: number, price: number): number {
    return this.books[m]?.size[side]![price] ?? 0;
  }

  /** Best recorded bid of a side, or -1. */
  best(m: number, side: number): number {
    return this.books[m]?.best[side] ?? -1;
  }

  /** Keeps a side's best price as the level at `price` becomes `size`. */
  private moved(b: MarketBook, side: number, price: number, size: number): void {
    const best = b.best[side]!;
    if (size > 0) {
      if (price > best) b.best[side] = price;
    } else if (price === best) {
      const s = b.size[side]!;
      let p = price - 1;
      while (p > 0 && s[p] === 0) p--;
      b.best[side] = p > 0 ? p : -1;
    }
  }

  openOrders(): OwnOrder[] {
    return [...this.orders.values()];
  }

  /** Applies tape rows up to (not including) `end`. Returns rows applied. */
  run(end: number): number {
    const t = this.tape;
    const stop = Math.min(end, t.length);
    const start = this.cursor;
    for (let i = start; i < stop; i++) {
      this.nowUs = t.tsUs[i]!;
      const k = t.kind[i]!;
      const m = t.market[i]!;
      if (k === K_DELTA) this.delta(m, t.side[i]!, t.price[i]!, t.size[i]!, t.traded[i]!);
      else if (k === K_TRADE) this.trade(m, t.side[i]!, t.price[i]!, t.size[i]!);
      else if (k === K_LEVEL) this.setLevel(m, t.side[i]!, t.price[i]!, t.size[i]!);
      else if (k === K_SNAPSHOT) this.clear(m);
      else if (k === K_BOOK) this.clear(m, true);
    }
    this.cursor = stop;
    return stop - start;
  }

  /** Applies rows until the first one after `tsUs` (and not past row `maxRow`). */
  runUntil(tsUs: number, maxRow = Infinity): number {
    const t = this.tape;
    const cap = Math.min(t.length, maxRow);
    let end = this.cursor;
    while (end < cap && t.tsUs[end]! <= tsUs) end++;
    const n = this.run(end);
    if (end < cap && tsUs > this.nowUs) this.nowUs = tsUs;
    return n;
  }

  /** A snapshot: the levels (its rows follow); the recorder's own (`keepTaken`) leaves what the trader took. */
  private clear(m: number, keepTaken = false): void {
    const b = this.book(m);
    for (const side of [0, 1]) {
      b.size[side]!.fill(0);
      if (!keepTaken) b.taken[side]!.fill(0);
      b.best[side] = -1;
    }
  }

  private setLevel(m: number, side: number, price: number, size: number): void {
    const b = this.book(m);
    b.size[side]![price] = size;
    this.moved(b, side, price, size);
    for (const o of b.orders) if (o.side === side && o.price === price && o.ahead > size) o.ahead = size;
  }

  private delta(m: number, side: number, price: number, d: number, traded: number): void {
    const b = this.book(m);
    const sizes = b.size[side]!;
    const old = sizes[price]!;
    const now = old + d < 0 ? 0 : old + d;
    sizes[price] = now;
    if (now === 0 || old === 0) this.moved(b, side, price, now);
    if (b.taken[side]![price]! > now) b.taken[side]![price] = now;
    const orders = b.orders;
    if (orders.length === 0) return;
    if (d < 0) {
      const canceled = -d - traded;
      for (const o of orders) {
        if (o.side !== side || o.price !== price || o.ahead === 0) continue;
        if (canceled > 0 && old > 0) o.ahead -= Math.min(o.ahead, Math.floor((canceled * o.ahead) / old));
        if (o.ahead > now) o.ahead = now;
      }
    } else if (d > 0) {
      // new size on this side at a price that crosses a resting order of the other side meets it first
      this.crossResting(b, m, 1 - side, TICKS_PER_DOLLAR - price, d, side, price);
    }
  }

  /** Resting orders of `side` priced at or above `atLeast` fill (maker) against `qty` arriving at `fromSide`/`fromPrice`. */
  private crossResting(b: MarketBook, m: number, side: number, atLeast: number, qty: number, fromSide: number, fromPrice: number): void {
    let left = qty;
    for (const o of sortedByPriority(b.orders, side)) {
      if (left <= 0 || o.price < atLeast) break;
      const f = Math.min(left, o.remaining);
      left -= f;
      const tk = b.taken[fromSide]!;
      tk[fromPrice] = tk[fromPrice]! + f;
      this.fill(b, o, o.price, f, true);
    }
  }

  private trade(m: number, side: number, price: number, qty: number): void {
    const b = this.books[m];
    if (!b || b.orders.length === 0) return;
    let left = qty;
    for (const o of sortedByPriority(b.orders, side)) {
      if (left <= 0 || o.price < price) break;
      if (o.price > price) {
        // the trade printed through this order's price: the taker met it first
        const f = Math.min(left, o.remaining);
        left -= f;
        this.fill(b, o, o.price, f, true);
        continue;
      }
      const consumed = Math.min(o.ahead, qty);
      o.ahead -= consumed;
      const f = Math.min(qty - consumed, o.remaining, left);
      if (f > 0) {
        left -= f;
        this.fill(b, o, o.price, f, true);
      }
    }
  }

  private fill(b: MarketBook, o: OwnOrder, price: number, size: number, maker: boolean): void {
    o.remaining -= size;
    o.filled += size;
    if (o.remaining === 0) this.remove(b, o);
    this.onFill({ orderId: o.id, market: o.market, side: o.side, price, size, maker, tsUs: this.nowUs });
  }

  private remove(b: MarketBook, o: OwnOrder): void {
    const i = b.orders.indexOf(o);
    if (i >= 0) b.orders.splice(i, 1);
    this.orders.delete(o.id);
  }

  /**
   * A limit bid for `side` at `price` ticks of `size` centi-contracts: takes what the replayed
   * other side offers through its price, rests the rest. Returns the order (remaining 0: done).
   */
  place(m: number, side: number, price: number, size: number): OwnOrder {
    if (!(side === 0 || side === 1)) throw new Error('side is 0 (YES) or 1 (NO)');
    if (!Number.isInteger(price) || price <= 0 || price >= TICKS_PER_DOLLAR) throw new Error(`price ${price} is not within the book`);
    if (!Number.isInteger(size) || size <= 0) throw new Error(`size ${size} is not a positive count`);
    if (m < 0 || m >= this.tape.markets.length) throw new Error(`no market ${m} in this recording`);
    const b = this.book(m);
    const o: OwnOrder = { id: this.nextId++, market: m, side, price, remaining: size, filled: 0, ahead: 0, placedUs: this.nowUs };
    this.orders.set(o.id, o);
    b.orders.push(o);
    // cross: the other side's bids at or above 1 - price
    const other = 1 - side;
    const sizes = b.size[other]!;
    const taken = b.taken[other]!;
    for (let q = TICKS_PER_DOLLAR - 1; q >= TICKS_PER_DOLLAR - price && o.remaining > 0; q--) {
      const avail = sizes[q]! - taken[q]!;
      if (avail <= 0) continue;
      const f = Math.min(avail, o.remaining);
      taken[q] = taken[q]! + f;
      this.fill(b, o, TICKS_PER_DOLLAR - q, f, false);
    }
    if (o.remaining > 0) {
      let ahead = b.size[side]![price]!;
      for (const x of b.orders) if (x !== o && x.side === side && x.price === price) ahead += x.remaining;
      o.ahead = ahead;
    }
    return o;
  }

  cancel(id: number): OwnOrder | null {
    const o = this.orders.get(id);
    if (!o) return null;
    this.remove(this.book(o.market), o);
    return o;
  }

  cancelAll(): number {
    const ids = [...this.orders.keys()];
    for (const id of ids) this.cancel(id);
    return ids.length;
  }
}

/** A side's resting orders, best price first, then oldest first. */
function sortedByPriority(orders: OwnOrder[], side: number): OwnOrder[] {
  const out: OwnOrder[] = [];
  for (const o of orders) if (o.side === side) out.push(o);
  if (out.length > 1) out.sort((a, b) => b.price - a.price || a.id - b.id);
  return out;
}

/**
 * A replay's place and time without running its books: `run` moves the cursor and the clock as
 * ReplayBooks does but applies nothing. The exchange replay's player runs on it, since the
 * recorded books it sends are kept by level-sync.ts (which would otherwise be the second of two
 * books run over every row). Asked for a level (a test, a reader), it runs books of its own to
 * the cursor then; nothing may be placed on it.
 */
export class ReplayCursor extends ReplayBooks {
  private shadow: ReplayBooks | null = null;

  override run(end: number): number {
    const stop = Math.min(end, this.tape.length);
    const start = this.cursor;
    if (stop > start) this.nowUs = this.tape.tsUs[stop - 1]!;
    this.cursor = stop;
    return stop - start;
  }

  override level(m: number, side: number, price: number): number {
    return this.asked().level(m, side, price);
  }

  override best(m: number, side: number): number {
    return this.asked().best(m, side);
  }

  override place(): never {
    throw new Error('a replay cursor holds no books: nothing can be placed on it');
  }

  private asked(): ReplayBooks {
    if (!this.shadow || this.shadow.cursor > this.cursor) this.shadow = new ReplayBooks(this.tape);
    this.shadow.run(this.cursor);
    return this.shadow;
  }
}
