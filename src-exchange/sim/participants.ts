// Simulated participants: ordinary exchange accounts (created once, found again by name after
// a restart) that trade through the node like any other command source, never the REST API.
// Market makers keep several levels on each side around a drifting fair value per market and
// move them (amend = cancel/replace) as the value moves; takers now and then cross the spread
// with immediate-or-cancel orders. Prices are whole cents; the fair value walks in ticks.
import { randomUUID } from 'node:crypto';
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { MarketView, OrderView } from '../engine/types';
import { users, type Services } from '../core/services';
import { hashText, type Rng } from './random';

const CENT = 100;
const MIN_QUOTE = 100;
const MAX_QUOTE = 9_900;
const DOLLAR_TICKS = 10_000;

export interface ParticipantOptions {
  /** market makers (accounts `sim-maker-<n>`) */
  makers: number;
  /** takers (accounts `sim-taker-<n>`) */
  takers: number;
  /** makers quoting any one market */
  makersPerMarket: number;
  /** price levels per side per maker */
  levels: number;
  /** cash each participant starts with, and the top-up when it runs low (micro-dollars) */
  cashMicro: number;
  /** standard deviation of one fair-value step (ticks) */
  stepTicks: number;
  /** chance that a step is a jump (news) of 5-15 cents */
  jumpChance: number;
}

export const DEFAULT_PARTICIPANTS: ParticipantOptions = {
  makers: 3,
  takers: 2,
  makersPerMarket: 2,
  levels: 3,
  cashMicro: 1_000_000 * 1_000_000,
  stepTicks: 60,
  jumpChance: 0.02,
};

export type Submit = (cmd: CoreCommand) => Promise<CoreOutcome>;

export interface SimAccount {
  name: string;
  userId: string;
  role: 'maker' | 'taker';
  /** a maker's distance from the fair value to its best quote (ticks, at least a cent) */
  halfSpread: number;
  /** order size range (centi-contracts) */
  minCenti: number;
  maxCenti: number;
}

export const participantName = (role: 'maker' | 'taker', n: number) => `sim-${role}-${n}`;

/**
 * Finds the participants by name in the users state, creating (createUser + deposit) those
 * missing. Their ids live in exchange state only: no API key, nothing in credentials.json.
 */
export async function ensureAccounts(svc: Services, opts: ParticipantOptions): Promise<SimAccount[]> {
  const plan: { name: string; role: 'maker' | 'taker'; n: number }[] = [];
  for (let n = 1; n <= opts.makers; n++) plan.push({ name: participantName('maker', n), role: 'maker', n });
  for (let n = 1; n <= opts.takers; n++) plan.push({ name: participantName('taker', n), role: 'taker', n });
  const byName = new Map<string, string>();
  for (const u of Object.values(users(svc).users)) if (!byName.has(u.name)) byName.set(u.name, u.user_id);
  const out: SimAccount[] = [];
  for (const p of plan) {
    let userId = byName.get(p.name);
    if (!userId) {
      userId = randomUUID();
      const created = await svc.node.submit({ type: 'createUser', nowMs: svc.node.now(), user_id: userId, name: p.name, is_fcm_member: false });
      if (!created.ok) throw new Error(`sim: cannot create ${p.name}: ${JSON.stringify(created.result)}`);
      await svc.node.submit({ type: 'deposit', nowMs: svc.node.now(), userId, amountMicro: opts.cashMicro });
    }
    out.push({
      name: p.name,
      userId,
      role: p.role,
      // makers differ in width and size so books have texture
      halfSpread: CENT * (1 + ((p.n - 1) % 3)),
      minCenti: p.role === 'maker' ? 500 * p.n : 100,
      maxCenti: p.role === 'maker' ? 2_500 * p.n : 2_000,
    });
  }
  return out;
}

/** Cash an order of `countCenti` at `priceTicks` (YES leg) needs, with room for the fee reserve. */
export function orderNeedMicro(side: 'bid' | 'ask', priceTicks: number, countCenti: number): number {
  const own = side === 'bid' ? priceTicks : DOLLAR_TICKS - priceTicks;
  const cost = own * countCenti;
  return cost + Math.ceil(cost / 10) + 10_000;
}

interface Slot {
  orderId: string;
  price: number;
}

/** One maker's levels in one market: index 0 is the best (closest to the fair value). */
interface MakerQuotes {
  bids: (Slot | null)[];
  asks: (Slot | null)[];
}

const clampFair = (v: number) => Math.max(1, Math.min(9_999, Math.round(v)));

export class Participants {
  readonly makers: SimAccount[];
  readonly takers: SimAccount[];
  private readonly fair = new Map<string, number>();
  private readonly quotes = new Map<string, MakerQuotes>();

  constructor(
    private readonly svc: Services,
    readonly accounts: readonly SimAccount[],
    private readonly opts: ParticipantOptions,
    private readonly rng: Rng,
  ) {
    this.makers = accounts.filter((a) => a.role === 'maker');
    this.takers = accounts.filter((a) => a.role === 'taker');
  }

  private get engine() {
    return this.svc.node.core.engine;
  }

  /** The fair value of a market (ticks): from memory, else its book's mid, last price or 50c. */
  fairOf(m: MarketView): number {
    let f = this.fair.get(m.ticker);
    if (f === undefined) {
      const hasBid = m.yes_bid > 0;
      const hasAsk = m.no_bid > 0;
      if (hasBid && hasAsk) f = Math.round((m.yes_bid + m.yes_ask) / 2);
      else if (m.last_price > 0) f = m.last_price;
      else if (hasBid) f = m.yes_bid + CENT;
      else if (hasAsk) f = m.yes_ask - CENT;
      else f = 5_000 + this.rng.int(-20, 20) * CENT;
      f = clampFair(f);
      this.fair.set(m.ticker, f);
    }
    return f;
  }

  /** Known fair value without initialising one. */
  knownFair(ticker: string): number | undefined {
    return this.fair.get(ticker);
  }

  /** Drops what the participants remember about a market that left trading. */
  forget(ticker: string): void {
    this.fair.delete(ticker);
    for (const m of this.makers) this.quotes.delete(`${m.userId}|${ticker}`);
  }

  /** The makers' resting orders in one market are cancelled (it is no longer quoted). */
  withdraw(ticker: string, submit: Submit): Promise<CoreOutcome>[] {
    return this.makersOf(ticker).map((m) => submit({ type: 'cancelAllOrders', nowMs: this.svc.node.now(), userId: m.userId, ticker }));
  }

  /** Makers start without resting orders (their memory of slots is gone after a restart). */
  cancelLeftovers(submit: Submit): Promise<CoreOutcome>[] {
    const out: Promise<CoreOutcome>[] = [];
    for (const m of this.makers) {
      const balance = this.engine.getBalance(m.userId);
      if (balance && balance.locked > 0) out.push(submit({ type: 'cancelAllOrders', nowMs: this.svc.node.now(), userId: m.userId }));
    }
    return out;
  }

  /** Deposits more cash for a participant whose available cash fell below a quarter of its start. */
  topUps(submit: Submit): Promise<CoreOutcome>[] {
    const out: Promise<CoreOutcome>[] = [];
    for (const a of this.accounts) {
      const b = this.engine.getBalance(a.userId);
      if (!b || b.available < this.opts.cashMicro / 4) {
        out.push(submit({ type: 'deposit', nowMs: this.svc.node.now(), userId: a.userId, amountMicro: this.opts.cashMicro }));
      }
    }
    return out;
  }

  /** Makers assigned to a market: a stable choice by ticker. */
  makersOf(ticker: string): SimAccount[] {
    if (this.makers.length === 0) return [];
    const k = Math.min(this.opts.makersPerMarket, this.makers.length);
    const start = hashText(ticker) % this.makers.length;
    return Array.from({ length: k }, (_, i) => this.makers[(start + i) % this.makers.length]!);
  }

  /** Moves the market's fair value one step: a small random walk, now and then a jump. */
  step(m: MarketView): { before: number; after: number } {
    const before = this.fairOf(m);
    const jump = this.rng.chance(this.opts.jumpChance);
    const delta = jump ? (this.rng.chance(0.5) ? 1 : -1) * this.rng.int(5, 15) * CENT : this.rng.gauss() * this.opts.stepTicks;
    // a faint pull to the middle keeps most books two-sided over a long run
    const after = clampFair(before + delta + (5_000 - before) * 0.002);
    this.fair.set(m.ticker, after);
    return { before, after };
  }

  /**
   * Every maker of the market moves its levels to the current fair value. Away-moving sides
   * go first (up: asks before bids), so a maker never crosses its own stale quotes.
   */
  requote(m: MarketView, rising: boolean, submit: Submit): Promise<unknown>[] {
    const fair = this.fairOf(m);
    const out: Promise<unknown>[] = [];
    for (const maker of this.makersOf(m.ticker)) {
      const key = `${maker.userId}|${m.ticker}`;
      let q = this.quotes.get(key);
      if (!q) {
        q = { bids: Array<Slot | null>(this.opts.levels).fill(null), asks: Array<Slot | null>(this.opts.levels).fill(null) };
        this.quotes.set(key, q);
      }
      const bestBid = Math.floor((fair - maker.halfSpread) / CENT) * CENT;
      const bestAsk = Math.ceil((fair + maker.halfSpread) / CENT) * CENT;
      const sides: ('bid' | 'ask')[] = rising ? ['ask', 'bid'] : ['bid', 'ask'];
      for (const side of sides) {
        const slots = side === 'bid' ? q.bids : q.asks;
        for (let k = 0; k < slots.length; k++) {
          const target = side === 'bid' ? bestBid - k * CENT : bestAsk + k * CENT;
          const p = this.moveSlot(maker, m.ticker, side, slots, k, target >= MIN_QUOTE && target <= MAX_QUOTE ? target : null, submit);
          if (p) out.push(p);
        }
      }
    }
    return out;
  }

  private resting(slot: Slot | null): OrderView | undefined {
    if (!slot) return undefined;
    const o = this.engine.getOrder(slot.orderId);
    return o && o.status === 'resting' ? o : undefined;
  }

  private moveSlot(maker: SimAccount, ticker: string, side: 'bid' | 'ask', slots: (Slot | null)[], k: number, target: number | null, submit: Submit): Promise<unknown> | undefined {
    const now = this.svc.node.now();
    const current = this.resting(slots[k] ?? null);
    if (target === null) {
      slots[k] = null;
      if (!current) return undefined;
      return submit({ type: 'cancelOrder', nowMs: now, userId: maker.userId, orderId: current.order_id });
    }
    if (current && current.yes_price === target) return undefined;
    const size = CENT * Math.round(this.rng.int(maker.minCenti, maker.maxCenti) / CENT);
    const available = this.engine.getBalance(maker.userId)?.available ?? 0;
    const held = current ? orderNeedMicro(side, current.yes_price, current.remaining_count) : 0;
    if (orderNeedMicro(side, target, size) > available + held) return undefined;
    const previous = current?.order_id;
    const assign = (o: CoreOutcome) => {
      const order = (o.result as { order?: OrderView }).order;
      if (o.ok && order && order.status === 'resting') slots[k] = { orderId: order.order_id, price: target };
      else {
        // refused (balance, market state) or filled at once: keep the old order if it still rests
        const old = previous === undefined ? undefined : this.engine.getOrder(previous);
        slots[k] = old && old.status === 'resting' ? { orderId: old.order_id, price: old.yes_price } : null;
      }
      return o;
    };
    if (current) {
      return submit({
        type: 'amendOrder',
        nowMs: now,
        userId: maker.userId,
        orderId: current.order_id,
        ticker,
        side,
        priceTicks: target,
        countCenti: current.fill_count + size,
      }).then(assign);
    }
    return submit({ type: 'createOrder', nowMs: now, userId: maker.userId, ticker, side, priceTicks: target, countCenti: size, timeInForce: 'good_till_canceled' }).then(assign);
  }

  /**
   * A taker crosses the spread with an immediate-or-cancel order, leaning towards the fair
   * value (buys YES when the fair value is above the mid). Nothing when a side is empty.
   */
  take(m: MarketView, submit: Submit): Promise<unknown> | undefined {
    if (this.takers.length === 0) return undefined;
    const book = this.engine.getBook(m.ticker, 1);
    const bid = book?.yes[0];
    const noBid = book?.no[0];
    if (!bid || !noBid) return undefined;
    const ask = DOLLAR_TICKS - noBid[0];
    const fair = this.fairOf(m);
    const mid = (bid[0] + ask) / 2;
    const buy = this.rng.chance(fair > mid ? 0.7 : fair < mid ? 0.3 : 0.5);
    const taker = this.rng.pick(this.takers);
    const [price, depth] = buy ? [ask, noBid[1]] : [bid[0], bid[1]];
    const size = Math.max(CENT, Math.min(depth, CENT * Math.round(this.rng.int(taker.minCenti, taker.maxCenti) / CENT)));
    const side = buy ? 'bid' : 'ask';
    const available = this.engine.getBalance(taker.userId)?.available ?? 0;
    if (orderNeedMicro(side, price, size) > available) return undefined;
    return submit({
      type: 'createOrder',
      nowMs: this.svc.node.now(),
      userId: taker.userId,
      ticker: m.ticker,
      side,
      priceTicks: price,
      countCenti: size,
      timeInForce: 'immediate_or_cancel',
    });
  }
}
