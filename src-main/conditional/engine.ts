// Local conditional orders: the trigger logic, pure. Main's service feeds it quotes and fills and
// carries out what it returns (send an order through the risk gate, cancel one at the exchange);
// nothing here does I/O, so every rule is tested alone: a gap through the trigger fires, a price
// exactly at it fires, a trailing stop follows the best price, a bracket follows its entry's
// partial fills, a cancel that races a trigger still cancels what was sent, and an order restored
// after a restart whose trigger was reached meanwhile never fires without the trader.
import { Decimal } from '../../src-shared/money';
import { formatPriceAtTick } from '../../src-shared/price-ranges';
import type { LocalOrder } from './local-record';
import type { LocalOrderSpec, LocalOrderView, LocalState, PriceSource } from '../../src-shared/ipc/tools';

/** A price in a message: at least cents, and every digit it has ("0.49", "0.095", never "0.4900"). */
const px = (p: Decimal | null | undefined): string => (p ? formatPriceAtTick(p, undefined) : '—');

export interface Quote {
  last: Decimal | null;
  bid: Decimal | null;
  ask: Decimal | null;
}

export type { LocalOrder };

/** What the service must do for the engine. */
export type LocalAction =
  | { type: 'send'; id: string; ticker: string; side: 'bid' | 'ask'; price: Decimal; count: Decimal; subaccount: number | undefined; kind: LocalOrder['kind'] }
  | { type: 'cancel_order'; orderId: string; ticker: string; subaccount: number | undefined; why: string };

const ZERO = new Decimal(0);
const ONE = new Decimal(1);
const ACTIVE: readonly LocalState[] = ['armed', 'waiting_entry'];

export class LocalRuleError extends Error {
  override name = 'LocalRuleError';
}

/** Which way a local order's trigger fires: at or below the trigger (`down`) or at or above it (`up`). */
export function fireDirection(o: Pick<LocalOrder, 'kind' | 'side'>): 'down' | 'up' {
  const sell = o.side === 'ask';
  if (o.kind === 'take_profit') return sell ? 'up' : 'down';
  return sell ? 'down' : 'up';
}

export function valueOf(q: Quote, source: PriceSource): Decimal | null {
  return source === 'last' ? q.last : source === 'bid' ? q.bid : q.ask;
}

function reached(o: LocalOrder, v: Decimal): boolean {
  if (!o.trigger) return false;
  return fireDirection(o) === 'down' ? v.lte(o.trigger) : v.gte(o.trigger);
}

/** Onto the tick's grid and inside (0, 1): the price a triggered order is sent at. */
export function clampPrice(p: Decimal, tick: Decimal, side: 'bid' | 'ask'): Decimal {
  // a buy rounds down and a sell up: never further through the market than asked
  const onGrid = side === 'bid' ? p.div(tick).floor().mul(tick) : p.div(tick).ceil().mul(tick);
  const max = ONE.minus(tick);
  if (onGrid.lt(tick)) return tick;
  if (onGrid.gt(max)) return max;
  return onGrid;
}

/** The limit price of a triggered order: the set price, or N ticks through the opposite best (the trigger without one). */
export function sendPrice(o: Pick<LocalOrder, 'limit' | 'side' | 'tick' | 'trigger'>, q: Quote): Decimal {
  if (o.limit.kind === 'price') return new Decimal(o.limit.price);
  const through = o.tick.mul(o.limit.ticks);
  const base = (o.side === 'ask' ? q.bid : q.ask) ?? o.trigger ?? (o.side === 'ask' ? o.tick : ONE.minus(o.tick));
  return clampPrice(o.side === 'ask' ? base.minus(through) : base.plus(through), o.tick, o.side);
}

/** Local orders that can still fire, at most: a page that creates them in a loop is refused, not obeyed. */
export const MAX_LIVE_LOCAL = 500;
/** Finished local orders (canceled, failed, disarmed, filled) kept for the Local tab: the newest this many. */
export const MAX_DONE_LOCAL = 200;

export class LocalOrderEngine {
  readonly orders = new Map<string, LocalOrder>();
  /** set when any order changed state or trigger since the last takeChanged() */
  private changed = false;

  constructor(
    private readonly newId: () => string,
    private readonly now: () => number = Date.now,
    private readonly maxLive = MAX_LIVE_LOCAL,
  ) {}

  /** Refuses when `n` more local orders would pass the cap (checked before a bracket's entry is sent). */
  roomFor(n: number): void {
    let live = 0;
    for (const o of this.orders.values()) if (o.state === 'armed' || o.state === 'waiting_entry' || o.state === 'held' || o.state === 'kill_held' || o.state === 'missed' || o.state === 'triggered') live++;
    if (live + n > this.maxLive) throw new LocalRuleError(`at most ${this.maxLive} local orders can wait at once (${live} do); cancel some first`);
  }

  takeChanged(): boolean {
    const c = this.changed;
    this.changed = false;
    return c;
  }

  private touch(o: LocalOrder, state: LocalState, detail: string): void {
    this.changed = true;
    o.state = state;
    o.detail = detail;
    o.updatedAt = this.now();
  }

  private base(spec: Omit<LocalOrderSpec, 'kind'> & { kind: LocalOrder['kind'] }, tick: Decimal, ocoGroup: string | null): LocalOrder {
    const now = this.now();
    return {
      id: this.newId(),
      kind: spec.kind,
      ticker: spec.ticker,
      side: spec.side,
      count: new Decimal(spec.count),
      source: spec.source,
      trigger: null,
      trailTicks: null,
      best: null,
      limit: spec.limit,
      tick,
      state: 'armed',
      ocoGroup,
      entryOrderId: null,
      sentOrderIds: [],
      filled: ZERO,
      subaccount: spec.subaccount,
      verify: false,
      cancelAfterSend: false,
      confirmed: false,
      detail: 'armed',
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * New local orders (one, or an OCO group in one market). Refused when a trigger is already
   * reached by the current quote: that is a marketable order, and the ticket sends those.
   */
  add(specs: LocalOrderSpec[], oco: boolean, tick: Decimal, q: Quote): LocalOrder[] {
    this.roomFor(specs.length);
    const group = oco && specs.length > 1 ? `oco-${this.newId()}` : null;
    const made: LocalOrder[] = [];
    for (const spec of specs) {
      const o = this.base(spec, tick, group);
      if (spec.kind === 'trailing_stop') {
        o.trailTicks = spec.trailTicks;
        const v = valueOf(q, spec.source);
        if (!v) throw new LocalRuleError(`a trailing stop starts from the current ${spec.source} price, and ${spec.ticker} has none now`);
        o.best = v;
        o.trigger = trailTrigger(o);
      } else {
        o.trigger = new Decimal(spec.trigger);
        if (!o.trigger.div(tick).isInteger()) throw new LocalRuleError(`trigger ${spec.trigger} is not on ${spec.ticker}'s price step ${tick.toString()}`);
      }
      const v = valueOf(q, spec.source);
      if (v && spec.kind !== 'trailing_stop' && reached(o, v)) {
        throw new LocalRuleError(`the trigger ${px(o.trigger)} is already reached (${spec.source} ${px(v)}): a local order waits for a price the market has not reached; send a limit order instead`);
      }
      o.detail = `armed: ${armedText(o)}`;
      made.push(o);
    }
    for (const o of made) this.orders.set(o.id, o);
    return made;
  }

  /**
   * A bracket for an entry order that was just placed: a target (a resting order at the
   * exchange, placed as the entry fills) and a local stop, one cancelling the other.
   */
  addBracket(b: { ticker: string; side: 'bid' | 'ask'; price: Decimal; entryOrderId: string; targetTicks: number; stopTicks: number; stopThroughTicks: number; stopSource: PriceSource; tick: Decimal; subaccount: number | undefined }): { target: LocalOrder; stop: LocalOrder } {
    const exit = b.side === 'bid' ? 'ask' : 'bid';
    const sign = b.side === 'bid' ? 1 : -1;
    const targetPrice = b.price.plus(b.tick.mul(b.targetTicks * sign));
    const stopPrice = b.price.minus(b.tick.mul(b.stopTicks * sign));
    if (targetPrice.lte(0) || targetPrice.gte(1)) throw new LocalRuleError(`the target ${px(targetPrice)} is outside (0, 1): use fewer target ticks`);
    if (stopPrice.lte(0) || stopPrice.gte(1)) throw new LocalRuleError(`the stop ${px(stopPrice)} is outside (0, 1): use fewer stop ticks`);
    this.roomFor(2);
    const group = `bracket-${this.newId()}`;
    const common = { ticker: b.ticker, side: exit, count: '1', source: b.stopSource, subaccount: b.subaccount } as const;
    const target = this.base({ ...common, kind: 'bracket_target', limit: { kind: 'price', price: targetPrice.toFixed(4) } }, b.tick, group);
    const stop = this.base({ ...common, kind: 'stop', limit: { kind: 'through', ticks: b.stopThroughTicks } }, b.tick, group);
    target.trigger = targetPrice;
    stop.trigger = stopPrice;
    for (const o of [target, stop]) {
      o.count = ZERO;
      o.entryOrderId = b.entryOrderId;
      this.touch(o, 'waiting_entry', `waiting for entry ${b.entryOrderId} to fill`);
      this.orders.set(o.id, o);
    }
    return { target, stop };
  }

  private siblings(o: LocalOrder): LocalOrder[] {
    if (!o.ocoGroup) return [];
    return [...this.orders.values()].filter((x) => x.ocoGroup === o.ocoGroup && x.id !== o.id);
  }

  /** Ends the others of an OCO group; returns the exchange cancels that takes. */
  private cancelSiblings(o: LocalOrder, why: string): LocalAction[] {
    const out: LocalAction[] = [];
    for (const s of this.siblings(o)) {
      if (s.state === 'canceled' || s.state === 'filled' || s.state === 'failed') continue;
      if (s.kind === 'bracket_target') {
        for (const id of s.sentOrderIds) out.push({ type: 'cancel_order', orderId: id, ticker: s.ticker, subaccount: s.subaccount, why });
      } else if (s.state === 'triggered' || s.state === 'sent') continue; // already on its way: both fired in the same quote // already on its way: both fired in the same quote
      this.touch(s, 'canceled', why);
    }
    return out;
  }

  /**
   * A fresh quote of one market. Only call it with live data (a stale book never triggers).
   * Returns the orders to send; their local orders are `triggered` (and journaled by the caller)
   * before anything is sent.
   */
  observe(ticker: string, q: Quote): LocalAction[] {
    const out: LocalAction[] = [];
    for (const o of this.orders.values()) {
      if (o.ticker !== ticker || o.state !== 'armed' || o.kind === 'bracket_target' || o.count.lte(0)) continue;
      const v = valueOf(q, o.source);
      if (!v) continue;
      if (o.trailTicks !== null && o.best) {
        const better = o.side === 'ask' ? v.gt(o.best) : v.lt(o.best);
        if (better) {
          o.best = v;
          o.trigger = trailTrigger(o);
          // the detail follows the trigger (it read the first trigger for the order's life)
          o.detail = `armed: ${armedText(o)}`;
          o.updatedAt = this.now();
          this.changed = true;
        }
      }
      if (!reached(o, v)) {
        o.verify = false;
        continue;
      }
      if (o.verify) {
        o.verify = false;
        this.touch(o, 'missed', `its trigger ${px(o.trigger)} was reached while the terminal was not running (${o.source} now ${px(v)}): not sent; fire it or cancel it`);
        continue;
      }
      out.push(...this.fire(o, q, `${o.source} ${px(v)} reached the trigger ${px(o.trigger)}`));
    }
    return out;
  }

  private fire(o: LocalOrder, q: Quote, why: string): LocalAction[] {
    const price = sendPrice(o, q);
    this.touch(o, 'triggered', `${why}: sending ${o.side === 'bid' ? 'buy' : 'sell'} ${o.count.toString()} at ${px(price)}`);
    const out: LocalAction[] = [{ type: 'send', id: o.id, ticker: o.ticker, side: o.side, price, count: o.count, subaccount: o.subaccount, kind: o.kind }];
    out.push(...this.cancelSiblings(o, `OCO: ${o.kind.replace('_', ' ')} ${o.id} fired`));
    if (o.entryOrderId && o.kind === 'stop') {
      out.push({ type: 'cancel_order', orderId: o.entryOrderId, ticker: o.ticker, subaccount: o.subaccount, why: `the bracket's stop fired: the rest of its entry is canceled` });
    }
    return out;
  }

  /** The trader's consent for a missed trigger: send it now at the current quote. */
  fireMissed(id: string, q: Quote): LocalAction[] {
    const o = this.need(id);
    if (o.state !== 'missed') throw new LocalRuleError(`local order ${id} is ${o.state}, not missed`);
    return this.fire(o, q, 'fired by the trader after a missed trigger');
  }

  sent(id: string, orderId: string): LocalAction[] {
    const o = this.orders.get(id);
    if (!o) return [];
    if (o.kind === 'bracket_target') {
      o.sentOrderIds.push(orderId);
      this.touch(o, 'sent', `target resting: ${o.count.toString()} at ${px(o.trigger)}`);
      return [];
    }
    o.sentOrderIds.push(orderId);
    this.touch(o, 'sent', `sent as order ${orderId}`);
    if (o.cancelAfterSend) {
      o.cancelAfterSend = false;
      this.touch(o, 'canceled', `canceled by the trader while its order was on its way: order ${orderId} is being canceled`);
      return [{ type: 'cancel_order', orderId, ticker: o.ticker, subaccount: o.subaccount, why: 'canceled by the trader while it was being sent' }];
    }
    return [];
  }

  failed(id: string, message: string): void {
    const o = this.orders.get(id);
    if (!o) return;
    this.touch(o, o.kind === 'bracket_target' && o.sentOrderIds.length ? 'sent' : 'failed', `not sent: ${message}`);
  }

  /** The trader cancels a local order. One whose order is on its way is canceled as soon as it is sent. */
  cancel(id: string): LocalAction[] {
    const o = this.need(id);
    if (o.state === 'triggered') {
      o.cancelAfterSend = true;
      o.detail = 'cancel asked while its order is being sent: it will be canceled once sent';
      return [];
    }
    if (o.state === 'canceled' || o.state === 'filled') return [];
    const out: LocalAction[] =
      o.kind === 'bracket_target' && o.state === 'sent' ? o.sentOrderIds.map((orderId) => ({ type: 'cancel_order' as const, orderId, ticker: o.ticker, subaccount: o.subaccount, why: 'bracket target canceled by the trader' })) : [];
    this.touch(o, 'canceled', 'canceled by the trader');
    return out;
  }

  /** Drag to a new trigger; refused when the new trigger is already reached. */
  move(id: string, trigger: Decimal, q: Quote): void {
    const o = this.need(id);
    if (!ACTIVE.includes(o.state) && o.state !== 'held' && o.state !== 'kill_held' && o.state !== 'missed') throw new LocalRuleError(`local order ${id} is ${o.state}: it cannot move`);
    if (o.kind === 'bracket_target') throw new LocalRuleError('a bracket target rests at the exchange: move it as an order');
    if (!trigger.div(o.tick).isInteger()) throw new LocalRuleError(`trigger ${trigger.toString()} is not on the price step ${o.tick.toString()}`);
    const v = valueOf(q, o.source);
    const probe = { ...o, trigger };
    if (v && o.state !== 'waiting_entry' && reached(probe, v)) throw new LocalRuleError(`the trigger ${px(trigger)} is already reached (${o.source} ${px(v)})`);
    o.trigger = trigger;
    if (o.trailTicks !== null) o.best = fireDirection(o) === 'down' ? trigger.plus(o.tick.mul(o.trailTicks)) : trigger.minus(o.tick.mul(o.trailTicks));
    if (o.state === 'missed') this.touch(o, 'armed', `moved to ${px(trigger)} and armed`);
    else this.touch(o, o.state, `moved to ${px(trigger)}`);
  }

  /**
   * One of my fills. An entry's fill grows its bracket (returns the target order to place); a
   * target's fill shrinks the stop, and a target filled in full cancels it.
   */
  onFill(orderId: string, count: Decimal): { targets: { id: string; count: Decimal; price: Decimal }[] } {
    const targets: { id: string; count: Decimal; price: Decimal }[] = [];
    for (const o of this.orders.values()) {
      if (o.entryOrderId === orderId && (o.state === 'waiting_entry' || o.state === 'armed' || o.state === 'sent' || o.state === 'held' || o.state === 'kill_held')) {
        o.count = o.count.plus(count);
        if (o.state === 'kill_held') {
          o.detail = `${KILL_HELD}; its entry filled ${o.count.toString()} meanwhile`;
          o.updatedAt = this.now();
          this.changed = true;
        } else if (o.kind === 'bracket_target') {
          targets.push({ id: o.id, count, price: o.trigger! });
          o.updatedAt = this.now();
        } else if (o.state === 'waiting_entry') this.touch(o, 'armed', `armed for ${o.count.toString()}: fires when ${o.source} ${fireDirection(o) === 'down' ? 'falls to' : 'rises to'} ${px(o.trigger)}`);
        else o.detail = `armed for ${o.count.toString()}`;
      }
    }
    for (const t of this.orders.values()) {
      if (t.kind !== 'bracket_target' || !t.sentOrderIds.includes(orderId)) continue;
      t.filled = t.filled.plus(count);
      const left = t.count.minus(t.filled);
      for (const s of this.siblings(t)) {
        if (s.state !== 'armed' && s.state !== 'waiting_entry') continue;
        s.count = Decimal.max(ZERO, s.count.minus(count));
        if (s.count.lte(0) && left.lte(0)) this.touch(s, 'canceled', `OCO: the target filled in full (${t.filled.toString()})`);
        else s.detail = `armed for ${s.count.toString()} (target filled ${t.filled.toString()})`;
      }
      if (left.lte(0)) this.touch(t, 'filled', `target filled: ${t.filled.toString()}`);
      else t.detail = `target filled ${t.filled.toString()} of ${t.count.toString()}`;
    }
    return { targets };
  }

  /** One of my orders ended without filling in full (canceled): a bracket waiting on it as entry stops waiting. */
  onOrderDone(orderId: string, status: string): void {
    for (const o of this.orders.values()) {
      if (o.entryOrderId !== orderId || o.state !== 'waiting_entry') continue;
      if (o.count.gt(0)) continue;
      this.touch(o, 'canceled', `its entry ${orderId} ended (${status}) without a fill`);
    }
  }

  /** After a restart: what was armed waits for the trader; what was on its way cannot be known here. */
  restore(list: LocalOrder[]): void {
    for (const o of list) {
      if (o.state === 'armed' || o.state === 'waiting_entry') {
        o.detail = `restored (${o.state}): keep armed or disarm`;
        o.verify = o.state === 'armed';
        o.state = 'held';
      } else if (o.state === 'triggered') {
        o.state = 'failed';
        o.detail = 'the terminal stopped while this order was being sent: check the Orders panel before sending again';
      }
      this.orders.set(o.id, o);
    }
  }

  get awaitingChoice(): boolean {
    for (const o of this.orders.values()) if (o.state === 'held') return true;
    return false;
  }

  /** The trader's choice after a restart. */
  resume(keep: boolean): void {
    for (const o of this.orders.values()) {
      if (o.state !== 'held') continue;
      if (!keep) this.touch(o, 'disarmed', 'disarmed after the restart');
      else this.touch(o, o.count.gt(0) || !o.entryOrderId ? 'armed' : 'waiting_entry', o.verify ? 'armed again: a trigger reached while the terminal was down will ask before sending' : 'armed again');
    }
  }

  /** Arm a disarmed or failed local order again (checked against the quote like a new one). */
  arm(id: string, q: Quote): void {
    const o = this.need(id);
    if (!['disarmed', 'failed', 'missed'].includes(o.state)) throw new LocalRuleError(`local order ${id} is ${o.state}: only a disarmed, failed or missed one can be armed again`);
    const v = valueOf(q, o.source);
    if (v && reached(o, v)) throw new LocalRuleError(`its trigger ${px(o.trigger)} is already reached (${o.source} ${px(v)}): move it first`);
    o.verify = false;
    this.touch(o, 'armed', 'armed again by the trader');
  }

  /**
   * The kill switch engaged: every local order that could fire by itself (armed, waiting for its
   * entry, or restored and waiting for the trader) is held and never fires until the trader
   * decides at the release. Returns how many it held, by kind (again: 0, nothing changes).
   */
  holdForKill(): Partial<Record<LocalOrder['kind'], number>> {
    const held: Partial<Record<LocalOrder['kind'], number>> = {};
    for (const o of this.orders.values()) {
      if (o.state !== 'armed' && o.state !== 'waiting_entry' && o.state !== 'held') continue;
      o.heldFrom = o.state;
      o.verify = false;
      this.touch(o, 'kill_held', KILL_HELD);
      held[o.kind] = (held[o.kind] ?? 0) + 1;
    }
    return held;
  }

  /** Local orders the kill switch holds now, by kind. */
  killHeld(): Partial<Record<LocalOrder['kind'], number>> {
    const held: Partial<Record<LocalOrder['kind'], number>> = {};
    for (const o of this.orders.values()) if (o.state === 'kill_held') held[o.kind] = (held[o.kind] ?? 0) + 1;
    return held;
  }

  /**
   * The kill switch was released: the held orders of the kinds in `rearm` watch again (one whose
   * trigger was passed while it was held turns `missed` on the next quote and asks before
   * sending); every other held one is disarmed (it can be armed again from its row).
   */
  releaseKillHeld(rearm: ReadonlySet<LocalOrder['kind']>): { rearmed: number; disarmed: number } {
    let rearmed = 0;
    let disarmed = 0;
    for (const o of this.orders.values()) {
      if (o.state !== 'kill_held') continue;
      const from = o.heldFrom ?? 'armed';
      o.heldFrom = undefined;
      if (!rearm.has(o.kind)) {
        disarmed++;
        this.touch(o, 'disarmed', 'disarmed at the kill switch release: arm it again from its row');
        continue;
      }
      rearmed++;
      if (from === 'waiting_entry' && o.count.lte(0)) this.touch(o, 'waiting_entry', `armed again at the kill switch release: waiting for entry ${o.entryOrderId ?? ''} to fill`);
      else if (o.kind === 'bracket_target') this.touch(o, 'disarmed', 'its entry filled while the kill switch was engaged: the target was not placed; place it from the ticket');
      else {
        o.verify = true; // a trigger passed while it was held asks before sending
        this.touch(o, 'armed', `armed again at the kill switch release: ${armedText(o)}`);
      }
    }
    return { rearmed, disarmed };
  }

  need(id: string): LocalOrder {
    const o = this.orders.get(id);
    if (!o) throw new LocalRuleError(`no local order ${id}`);
    return o;
  }

  /** Markets any live local order watches (their books must stream). */
  markets(): string[] {
    const s = new Set<string>();
    for (const o of this.orders.values()) if (['armed', 'waiting_entry', 'held', 'kill_held', 'missed', 'triggered', 'sent'].includes(o.state)) s.add(o.ticker);
    return [...s];
  }

  /**
   * Finished orders older than a day leave the list, and past MAX_DONE_LOCAL the ones finished
   * longest ago (the list is saved and pushed whole on every change, so it must not grow by every
   * order of the session). Orders that can still fire are never dropped.
   */
  prune(now: number): void {
    const done: LocalOrder[] = [];
    for (const [id, o] of this.orders) {
      if (!['canceled', 'failed', 'disarmed', 'filled'].includes(o.state)) continue;
      if (now - o.updatedAt > 86_400_000) this.orders.delete(id);
      else done.push(o);
    }
    if (done.length <= MAX_DONE_LOCAL) return;
    done.sort((a, b) => a.updatedAt - b.updatedAt);
    for (const o of done.slice(0, done.length - MAX_DONE_LOCAL)) this.orders.delete(o.id);
  }
}

const KILL_HELD = 'held by the kill switch: it does not fire while the kill switch is engaged; its release re-arms it or leaves it disarmed';

/** The trigger's price at the order's tick ("0.49" on a cent market, "0.495" on a tenth-cent one). */
export function pxAt(tick: Decimal, p: Decimal | null): string {
  if (!p) return '—';
  return p.toFixed(Math.max(2, tick.decimalPlaces()));
}

/** What an armed order waits for, from its current trigger (a trailing stop's too, with the best price it follows). */
function armedText(o: LocalOrder): string {
  const move = fireDirection(o) === 'down' ? 'falls to' : 'rises to';
  const trail = o.trailTicks !== null && o.best ? ` (trails ${o.trailTicks} tick${o.trailTicks === 1 ? '' : 's'} behind the best ${o.source}, ${pxAt(o.tick, o.best)})` : '';
  return `fires when ${o.source} ${move} ${pxAt(o.tick, o.trigger)}${trail}`;
}

function trailTrigger(o: LocalOrder): Decimal {
  const d = o.tick.mul(o.trailTicks ?? 0);
  return o.side === 'ask' ? o.best!.minus(d) : o.best!.plus(d);
}

export function viewOf(o: LocalOrder): LocalOrderView {
  return {
    id: o.id,
    kind: o.kind,
    ticker: o.ticker,
    side: o.side,
    count: o.count.toString(),
    source: o.source,
    trigger: o.trigger ? o.trigger.toFixed(4) : null,
    trailTicks: o.trailTicks,
    limit: o.limit,
    tick: o.tick.toString(),
    state: o.state,
    ocoGroup: o.ocoGroup,
    entryOrderId: o.entryOrderId,
    sentOrderId: o.sentOrderIds[o.sentOrderIds.length - 1] ?? null,
    detail: o.detail,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}
