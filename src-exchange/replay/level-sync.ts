// How a replay step reaches the engine (exchange-replay.ts drives the steps and journals what this
// sends): recorded rows [from, to) become the replay account's order changes and recorded prints
// (engine/print.ts), with the queue model of queue.ts carried by the engine (README: the replay
// section). Rows at a level where the trader's orders rest are queued in memory (level-queue.ts)
// and sent before something meets the level; rows that can meet the trader's orders go row by row;
// every other level's changes are netted to the step's end.
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { Engine } from '../engine/engine';
import type { OrderView } from '../engine/types';
import { readSegs, setReplaySize, type Seg } from './level-queue';
import { ReplayBooks } from './queue';
import { firstRows, K_BOOK, K_DELTA, K_LEVEL, K_SNAPSHOT, K_TRADE, nearestBooks, type Tape } from './tape';

const TICKS = 10_000;
const KEY_SIDE = TICKS + 1;

/** What the sync needs of the replay that drives it. */
export interface SyncHost {
  engine(): Engine;
  /** applies a command at once (journaled with the step) */
  submit(cmd: Omit<CoreCommand, 'nowMs'>): CoreOutcome;
  readonly makerId: string;
  readonly takerId: string;
  /** market index -> exchange ticker, null when the exchange does not have it open */
  readonly live: readonly (string | null)[];
  /** the trader's resting orders (every account but the replay's) in the replayed markets */
  readonly traderResting: ReadonlyMap<string, TraderOrder>;
  /** per market: how many of them rest there */
  readonly restingCount: Int32Array;
  /** the recorded time (µs) of the row being sent: the commands it becomes are stamped with it (0: the wall clock) */
  clockUs: number;
}

interface Held {
  /** book side (0 YES bids, 1 NO bids) and price of the level (its key is side * KEY_SIDE + price) */
  side: number;
  price: number;
  /** the replay's resting orders at this level, oldest first */
  orders: { id: string; left: number }[];
  /** what they hold as last seen */
  held: number;
  /** recorded size the trader's orders took here */
  taken: number;
  /** decreases a trade explains whose trade has not been sent yet (minus trades sent first) */
  pend: number;
}

/** A trader's resting order as the replay needs it: where it rests. */
export interface TraderOrder {
  m: number;
  /** book side 0 YES bids, 1 NO bids */
  side: number;
  /** ticks on that side's leg */
  price: number;
}

export class LevelSync {
  /** the recorded books as the exchange has been sent them, row by row (the player's run a step ahead) */
  private rec: ReplayBooks;
  private readonly levels: Map<number, Held>[];
  /** per market, for this step: the trader's levels (side * KEY_SIDE + price), applied row by row */
  private readonly ownKeys: Set<number>[];
  /** per market and side, for this step: levels at or above this price cross a trader's order (applied row by row) */
  private readonly crossFloor: Int32Array;
  /** per market: levels whose recorded changes wait for the step's end (or a trade at or below them) */
  private readonly dirty: Set<number>[];
  /** per market, by key: 1 while the key is in `dirty` (a row costs no hash lookup when its level is already waiting) */
  private readonly dirtyAt: Uint8Array[];
  /** per market, by key: the level's Held (the same objects as `levels`, whose Map keeps their order) */
  private readonly levelAt: (Held | undefined)[][];
  /** per market: the trader's levels changed this step, as queues in memory (sent to the engine by `materialize`) */
  private readonly queues: Map<number, Seg[]>[];
  /** each market's first row (for a seek back from the nearest snapshots), made at the first seek back */
  private firstRow: Int32Array | null = null;

  constructor(
    private readonly tape: Tape,
    private readonly host: SyncHost,
  ) {
    this.rec = new ReplayBooks(tape);
    this.levels = tape.markets.map(() => new Map());
    this.ownKeys = tape.markets.map(() => new Set());
    this.crossFloor = new Int32Array(tape.markets.length * 2);
    this.dirty = tape.markets.map(() => new Set());
    this.dirtyAt = tape.markets.map(() => new Uint8Array(2 * KEY_SIDE));
    this.levelAt = tape.markets.map(() => new Array<Held | undefined>(2 * KEY_SIDE).fill(undefined));
    this.queues = tape.markets.map(() => new Map());
  }

  /** A market the exchange (now) has open gets the recorded book as it stands. */
  setMarket(m: number): void {
    for (let side = 0; side < 2; side++) for (let p = 1; p < TICKS; p++) if (this.rec.level(m, side, p) > 0) this.reconcile(m, side, p);
  }

  /** After a seek back to row `cursor`: the trader's resting orders in these markets are canceled (the host forgets them), and every level is set to the recording. */
  rebuild(cursor: number): void {
    const e = this.host.engine();
    this.rec = new ReplayBooks(this.tape);
    // from the nearest snapshots (every market's book is set again there), not from the first row
    this.rec.cursor = nearestBooks(this.tape, cursor, (this.firstRow ??= firstRows(this.tape)));
    this.rec.run(cursor);
    for (let m = 0; m < this.tape.markets.length; m++) {
      const ticker = this.host.live[m];
      if (!ticker) continue;
      for (const o of e.listOrders({ ticker, status: 'resting' })) {
        if (o.user_id !== this.host.makerId) this.host.submit({ type: 'cancelOrder', userId: o.user_id, orderId: o.order_id, subaccount: o.subaccount });
      }
      for (const h of this.levels[m]!.values()) {
        h.taken = 0;
        h.pend = 0;
      }
      for (const [key] of this.levels[m]!) this.reconcile(m, Math.floor(key / KEY_SIDE), key % KEY_SIDE);
      this.setMarket(m);
    }
  }

  /**
   * Sends the rows [from, to) to the exchange. Rows the trader's resting orders can meet (their
   * own levels, and levels of the other side that cross them) are applied row by row, as are
   * recorded trades; any other level's changes are netted: applied when the step ends, or before
   * a trade on its side at or below its price (so a trade meets the book as recorded). What the
   * trader took and trades still to come are kept row by row, so a netted level ends where the
   * row-by-row one would: the books and the trader's fills do not depend on the step's size
   * (replay.int.test.ts replays one row per step and 65,536 and compares them).
   */
  apply(from: number, to: number): void {
    this.syncTaken();
    this.relevance();
    if (to <= from) return;
    const t = this.tape;
    for (let i = from; i < to; i++) {
      this.rec.run(i + 1);
      const m = t.market[i]!;
      if (this.host.live[m] === null) continue;
      // what this row becomes happens at its recorded time (a number stored: nothing allocated per row)
      this.host.clockUs = t.tsUs[i]!;
      const k = t.kind[i]!;
      if (k === K_SNAPSHOT || k === K_BOOK) {
        // a snapshot resets the market: every level the replay holds is set again (its rows follow);
        // the recorder's own snapshot of the book keeps what the trader took and trades still to come
        for (const [key, h] of this.levels[m]!) {
          if (k === K_SNAPSHOT) {
            h.taken = 0;
            h.pend = 0;
          }
          this.markDirty(m, key);
        }
        continue;
      }
      const side = t.side[i]!;
      const price = t.price[i]!;
      const key = side * KEY_SIDE + price;
      if (k === K_TRADE) {
        this.level(m, key).pend -= t.size[i]!;
        this.settle(m, side, price, t.size[i]!);
        this.sendTrade(m, side, price, t.size[i]!);
        continue;
      }
      if (k !== K_DELTA && k !== K_LEVEL) continue;
      const recorded = this.rec.level(m, side, price);
      const traded = k === K_DELTA ? t.traded[i]! : 0;
      let h = this.levelAt[m]![key];
      if (traded > 0) (h ??= this.level(m, key)).pend += traded;
      if (h) {
        // as reconcile would here: nothing taken beyond the level. A level gone empty keeps the
        // trades still to come (this exchange sends the maker's delta before the trade: the print
        // that empties a level finds its size); only a surplus of trades over decreases is dropped
        if (recorded === 0 && h.pend < 0) h.pend = 0;
        if (h.taken > recorded) h.taken = recorded;
      }
      // relevant(), its two cases apart
      const resting = this.host.restingCount[m]! > 0;
      if (resting && this.ownKeys[m]!.has(key)) this.queueRow(m, side, price);
      else if (resting && price >= this.crossFloor[m * 2 + side]!) {
        // size arriving here may meet the trader's orders of the other side: those levels as recorded first
        this.settle(m, 1 - side, TICKS - price);
        this.reconcile(m, side, price);
      } else this.markDirty(m, key);
    }
    for (let m = 0; m < this.dirty.length; m++) {
      for (const key of [...this.queues[m]!.keys()]) this.materialize(m, key);
      const d = this.dirty[m]!;
      if (d.size === 0) continue;
      const at = this.dirtyAt[m]!;
      for (const key of d) {
        at[key] = 0;
        this.reconcile(m, Math.floor(key / KEY_SIDE), key % KEY_SIDE);
      }
      d.clear();
    }
  }

  /**
   * A row at a level where the trader's orders rest: the level's queue changes in memory as
   * reconcile would change the engine's (new size behind everyone; a decrease taken from the
   * replay's size ahead of the trader's orders and behind them pro rata, newest first), and the
   * engine is sent the result when something is to meet the level (a trade at or through it,
   * size crossing it) or the step ends: a few commands for many rows.
   */
  private queueRow(m: number, side: number, price: number): void {
    const key = side * KEY_SIDE + price;
    let segs = this.queues[m]!.get(key);
    if (!segs) {
      const read = this.readQueue(m, side, price);
      if (!read.some((s) => !s.replay)) {
        // the trader's orders here are gone: nothing to queue behind
        this.markDirty(m, key);
        return;
      }
      this.queues[m]!.set(key, (segs = read));
    }
    const h = this.level(m, key);
    setReplaySize(segs, Math.max(0, this.rec.level(m, side, price) - h.taken + Math.max(0, h.pend)));
  }

  /** The engine's queue at a level as runs of the replay's orders and others'. */
  private readQueue(m: number, side: number, price: number): Seg[] {
    return readSegs(this.host.engine().levelQueue(this.host.live[m]!, side as 0 | 1, price), this.host.makerId);
  }

  /** Sends a level's queue in memory to the engine: each run of the replay's orders cut (newest first) or grown at the back. */
  private materialize(m: number, key: number): void {
    const segs = this.queues[m]!.get(key);
    if (!segs) return;
    this.queues[m]!.delete(key);
    const side = Math.floor(key / KEY_SIDE);
    const price = key % KEY_SIDE;
    const h = this.level(m, key);
    const kept: Held['orders'] = [];
    for (const s of segs) {
      if (!s.replay) continue;
      let held = 0;
      for (const o of s.orders) held += o.left;
      if (s.size > held) {
        const id = this.place(m, side, price, s.size - held);
        if (id) s.orders.push({ id, left: s.size - held });
      } else {
        this.cutNewest(s.orders, held - s.size);
      }
      for (const o of s.orders) if (o.left > 0) kept.push(o);
    }
    h.orders = kept;
    h.held = this.actual(h);
  }

  /**
   * Brings a side's netted levels at or above `price` to the recording: a trade there is next, or
   * size crossing them. For a trade of `trade` at `price` the level at its price is left netted
   * when the replay already holds the trade's size there (no one else rests there: the print is
   * the same; the level is set at the step's end).
   */
  private settle(m: number, side: number, price: number, trade = 0): void {
    const qs = this.queues[m]!;
    if (qs.size > 0) for (const key of [...qs.keys()]) if (Math.floor(key / KEY_SIDE) === side && key % KEY_SIDE >= price) this.materialize(m, key);
    const d = this.dirty[m]!;
    if (d.size === 0) return;
    for (const key of d) {
      if (Math.floor(key / KEY_SIDE) !== side || key % KEY_SIDE < price) continue;
      if (trade > 0 && key % KEY_SIDE === price && this.actual(this.level(m, key)) >= trade) continue;
      d.delete(key);
      this.dirtyAt[m]![key] = 0;
      this.reconcile(m, side, key % KEY_SIDE);
    }
  }

  /** Whether rows at this level go one by one this step (the trader's orders can meet them). */
  private relevant(m: number, side: number, price: number): boolean {
    return this.host.restingCount[m]! > 0 && (this.ownKeys[m]!.has(side * KEY_SIDE + price) || price >= this.crossFloor[m * 2 + side]!);
  }

  /**
   * Where the trader's resting orders are, for this step: their levels and the prices that cross
   * them. A level that went row by row and no longer does is set to the recording first (as the
   * next step's netting would have left it had it been netted all along).
   */
  private relevance(): void {
    const was: [number, number][] = [];
    for (let m = 0; m < this.ownKeys.length; m++) {
      if (this.host.restingCount[m]! > 0 || this.ownKeys[m]!.size > 0 || this.crossFloor[m * 2]! <= TICKS || this.crossFloor[m * 2 + 1]! <= TICKS) {
        for (const key of this.levels[m]!.keys()) if (this.relevant(m, Math.floor(key / KEY_SIDE), key % KEY_SIDE)) was.push([m, key]);
      }
      this.ownKeys[m]!.clear();
      this.crossFloor[m * 2] = TICKS + 1;
      this.crossFloor[m * 2 + 1] = TICKS + 1;
    }
    for (const o of this.host.traderResting.values()) {
      this.ownKeys[o.m]!.add(o.side * KEY_SIDE + o.price);
      // a bid of the other side at TICKS - price or above meets this order
      const at = o.m * 2 + (1 - o.side);
      this.crossFloor[at] = Math.min(this.crossFloor[at]!, TICKS - o.price);
    }
    for (const [m, key] of was) if (!this.relevant(m, Math.floor(key / KEY_SIDE), key % KEY_SIDE)) this.reconcile(m, Math.floor(key / KEY_SIDE), key % KEY_SIDE);
  }

  private level(m: number, key: number): Held {
    let h = this.levelAt[m]![key];
    if (!h) {
      h = { side: Math.floor(key / KEY_SIDE), price: key % KEY_SIDE, orders: [], held: 0, taken: 0, pend: 0 };
      this.levels[m]!.set(key, h);
      this.levelAt[m]![key] = h;
    }
    return h;
  }

  /** A level whose recorded changes wait for the step's end (or a trade at or below it). */
  private markDirty(m: number, key: number): void {
    const at = this.dirtyAt[m]!;
    if (at[key] === 1) return;
    at[key] = 1;
    this.dirty[m]!.add(key);
  }

  /** What the engine holds of the replay's orders at a level now (each one's `left` follows; orders gone are dropped, in place: this runs after every print). */
  private actual(h: Held): number {
    const e = this.host.engine();
    const orders = h.orders;
    let sum = 0;
    let kept = 0;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i]!;
      const left = e.restingRemaining(o.id);
      if (left <= 0) continue;
      o.left = left;
      orders[kept++] = o;
      sum += left;
    }
    // (setting an array's length is a runtime call: only when an order went)
    if (kept !== orders.length) orders.length = kept;
    return sum;
  }

  /** Size the replay's orders lost between steps was taken by the trader's orders (nothing else trades then). */
  private syncTaken(): void {
    for (let m = 0; m < this.levels.length; m++) {
      for (const h of this.levels[m]!.values()) {
        if (h.held === 0) continue;
        const now = this.actual(h);
        if (now < h.held) h.taken += h.held - now;
        h.held = now;
      }
    }
  }

  /** Sets the replay's size at a level to what the recording holds there, less what the trader took, plus trades still to come. */
  private reconcile(m: number, side: number, price: number): void {
    const h = this.level(m, side * KEY_SIDE + price);
    const recorded = this.rec.level(m, side, price);
    if (h.taken > recorded) h.taken = recorded;
    // a level gone empty still holds the size of trades to come (apply() says why)
    if (recorded === 0 && h.pend < 0) h.pend = 0;
    const target = Math.max(0, recorded - h.taken + Math.max(0, h.pend));
    const now = this.actual(h);
    if (target === now) return;
    const others = this.host.engine().levelQty(this.host.live[m]!, side as 0 | 1, price) - now;
    if (others === 0) {
      // nobody else at this level: queue order does not matter, the fewest commands do
      if (target < now) this.cutNewest(h.orders, now - target);
      else if (h.orders.length < 4) this.push(h, m, side, price, target - now);
      else {
        for (const o of h.orders) this.host.submit({ type: 'cancelOrder', userId: this.host.makerId, orderId: o.id });
        h.orders = [];
        this.push(h, m, side, price, target);
      }
    } else if (target > now) {
      // new size queues behind whoever is there
      this.push(h, m, side, price, target - now);
    } else {
      this.reduce(h, now - target, now);
    }
    h.held = this.actual(h);
  }

  /** Takes `by` off the replay's `orders`, newest first (each one's `left` follows). */
  private cutNewest(orders: Held['orders'], by: number): void {
    for (let i = orders.length - 1; i >= 0 && by > 0; i--) {
      const o = orders[i]!;
      const c = Math.min(o.left, by);
      by -= c;
      if (c >= o.left) this.host.submit({ type: 'cancelOrder', userId: this.host.makerId, orderId: o.id });
      else this.host.submit({ type: 'decreaseOrder', userId: this.host.makerId, orderId: o.id, reduceBy: c });
      o.left -= c;
    }
  }

  private push(h: Held, m: number, side: number, price: number, size: number): void {
    const id = this.place(m, side, price, size);
    if (id) h.orders.push({ id, left: size });
  }

  /**
   * Takes `by` off the replay's orders at a level: the part ahead of the trader's orders and the
   * part behind in proportion to their size (a cancel's place in the queue is not recorded),
   * newest first within each part.
   */
  private reduce(h: Held, by: number, total: number): void {
    const e = this.host.engine();
    const behind: boolean[] = [];
    let mine = 0;
    let ahead = 0;
    for (const o of h.orders) {
      const isBehind = (e.queuePosition(o.id) ?? 0) > mine;
      behind.push(isBehind);
      if (!isBehind) ahead += o.left;
      mine += o.left;
    }
    let cutAhead = Math.min(ahead, Math.floor((by * ahead) / total));
    let cutBehind = Math.min(total - ahead, by - cutAhead);
    cutAhead = by - cutBehind;
    for (let i = h.orders.length - 1; i >= 0; i--) {
      const o = h.orders[i]!;
      const c = Math.min(o.left, behind[i] ? cutBehind : cutAhead);
      if (c <= 0) continue;
      if (behind[i]) cutBehind -= c;
      else cutAhead -= c;
      if (c >= o.left) this.host.submit({ type: 'cancelOrder', userId: this.host.makerId, orderId: o.id });
      else this.host.submit({ type: 'decreaseOrder', userId: this.host.makerId, orderId: o.id, reduceBy: c });
    }
  }

  /** A resting replay order for `side` (0 YES bid, 1 NO bid) at `price` on that side's leg. */
  private place(m: number, side: number, price: number, size: number): string | null {
    const r = this.host.submit({
      type: 'createOrder',
      userId: this.host.makerId,
      ticker: this.host.live[m]!,
      side: side === 0 ? 'bid' : 'ask',
      priceTicks: side === 0 ? price : TICKS - price,
      countCenti: size,
      timeInForce: 'good_till_canceled',
    });
    const o = r.ok ? (r.result.order as OrderView) : undefined;
    // recorded size arriving through the trader's resting order met it: the trader took that much
    if (o && o.fill_count > 0) this.level(m, side * KEY_SIDE + price).taken += o.fill_count;
    return o && o.status === 'resting' ? o.order_id : null;
  }

  /** A recorded trade: the replay's taker hits `side`'s bids at `price` for the recorded size. */
  private sendTrade(m: number, side: number, price: number, size: number): void {
    // a print: the queue taken as by an immediate-or-cancel order of the replay's taker, without its records (engine/print.ts)
    this.host.submit({
      type: 'printTrade',
      userId: this.host.takerId,
      ticker: this.host.live[m]!,
      side: side === 0 ? 'ask' : 'bid',
      priceTicks: side === 0 ? price : TICKS - price,
      countCenti: size,
      quietUserId: this.host.makerId,
    });
    // what the trade took from the replay's own orders is the recording's, not the trader's
    for (const h of this.levels[m]!.values()) {
      if (h.held === 0 || h.side !== side || h.price < price) continue;
      h.held = this.actual(h);
      // a netted level the trade left short of the recording is set again with the others
      if (!this.relevant(m, side, h.price)) this.markDirty(m, side * KEY_SIDE + h.price);
    }
  }
}
