// Order lifecycle shared by every command: resting an order, taking it off the book,
// replaying a match log into orders, accounts, the tape and events, tripping order
// groups, and expiry.

import { NIL, NO, YES, type BookSideIndex } from './book';
import { chargeFee, feeReserveMicro, makerK, TAKER_K } from './fees';
import { adjustResting, applyBuy, lock, unlock } from './ledger';
import { LOG_STP_CANCEL } from './matching';
import {
  groupView,
  orderView,
  outcomeOf,
  ownPrice,
  syncGroupCapacity,
  type AccountState,
  type GroupState,
  type MarketState,
  type State,
  type SubaccountState,
} from './engine-state';
import type { OrderState } from './order-state';
import type { TradeLog } from './trade-log';
import type { EngineEvent, FillView, OrderStatus, OrderView, TradeView } from './types';
import { MICRO_PER_CENT, TICKS_PER_DOLLAR } from './units';

export function sideIndex(order: OrderState): BookSideIndex {
  return order.side === 'bid' ? YES : NO;
}

/** Cash an order of `count` at `own` price (own leg) holds: cost plus fee reserve. */
export function lockFor(market: MarketState, own: number, count: number): { cost: number; reserve: number; total: number } {
  const cost = own * count;
  const reserve = feeReserveMicro(market.fee_multiplier, count, own);
  return { cost, reserve, total: cost + reserve };
}

export interface Owner {
  market: MarketState;
  account: AccountState;
  sub: SubaccountState;
}

/** Market, account and subaccount of an existing order. */
export function ownerOf(st: State, order: OrderState): Owner {
  const market = st.markets.get(order.ticker)!;
  const account = st.accounts.get(order.user_id)!;
  const sub = account.subs[order.subaccount]!;
  return { market, account, sub };
}

function bookEvent(order: OrderState, delta: number, nowMs: number): EngineEvent {
  return {
    type: 'book',
    ticker: order.ticker,
    side: outcomeOf(order.side),
    price: ownPrice(order),
    delta,
    order_id: order.order_id,
    user_id: order.user_id,
    client_order_id: order.client_order_id,
    ts: nowMs,
  };
}

export function pushOrderEvent(ev: EngineEvent[], order: OrderState): void {
  ev.push({ type: 'order', order: orderView(order) });
}

/**
 * The order's view for a command's answer: the view its last order event of this command carries
 * (the engine pushes an order's event after its last change, so that view is the order as it is
 * now; engine.property.test.ts holds every answer equal to the order's state), else a new one.
 * One view less per create, cancel and amend.
 */
export function answerView(ev: readonly EngineEvent[], order: OrderState): OrderView {
  for (let i = ev.length - 1; i >= 0; i--) {
    const e = ev[i]!;
    if (e.type === 'order' && e.order.order_id === order.order_id) return e.order;
  }
  return orderView(order);
}

/** Put an order (with its lock already held) at the tail of its level. */
export function restOrder(st: State, o: Owner, order: OrderState, ev: EngineEvent[], nowMs: number): void {
  const group = order.order_group_id === null ? undefined : st.groups.get(order.order_group_id);
  const slot = st.bookOf(o.market).add(sideIndex(order), ownPrice(order), order.remaining_count, o.account.index, group ? group.index : NIL);
  st.slotOrders[slot] = order;
  order.slot = slot;
  order.seq = ++st.counters.seq;
  order.status = 'resting';
  if (group) group.orders.add(order.order_id);
  adjustResting(o.market, o.sub, 1, nowMs);
  if (order.expiration_time !== null) st.expiry.push({ atMs: order.expiration_time * 1000, num: order.num, orderId: order.order_id });
  ev.push(bookEvent(order, order.remaining_count, nowMs));
}

/** Release an order that is off the book (or never rested) into a final status; `quiet`: no order event (a print's quiet account, print.ts). */
export function finishOrder(st: State, o: Owner, order: OrderState, status: OrderStatus, wasResting: boolean, ev: EngineEvent[], nowMs: number, quiet = false): void {
  unlock(st, o.account, o.sub, order.locked, nowMs);
  order.locked = 0;
  order.reserve = 0;
  if (status === 'canceled') order.remaining_count = 0;
  order.status = status;
  order.last_update_time = nowMs;
  order.seq = 0;
  order.slot = NIL;
  st.orders.retire(order);
  if (wasResting) {
    if (order.order_group_id !== null) st.groups.get(order.order_group_id)?.orders.delete(order.order_id);
    adjustResting(o.market, o.sub, -1, nowMs);
  }
  if (!quiet) pushOrderEvent(ev, order);
}

/** Take a resting order off the book without finishing it (amend re-entry). */
export function unrest(st: State, o: Owner, order: OrderState, ev: EngineEvent[], nowMs: number): void {
  const slot = order.slot;
  st.bookOf(o.market).remove(slot);
  st.slotOrders[slot] = undefined;
  order.slot = NIL;
  order.seq = 0;
  if (order.order_group_id !== null) st.groups.get(order.order_group_id)?.orders.delete(order.order_id);
  adjustResting(o.market, o.sub, -1, nowMs);
  ev.push(bookEvent(order, -order.remaining_count, nowMs));
}

/** Cancel a resting order; returns the count it had left. */
export function cancelResting(st: State, order: OrderState, ev: EngineEvent[], nowMs: number): number {
  const o = ownerOf(st, order);
  const rem = order.remaining_count;
  const slot = order.slot;
  st.bookOf(o.market).remove(slot);
  st.slotOrders[slot] = undefined;
  ev.push(bookEvent(order, -rem, nowMs));
  finishOrder(st, o, order, 'canceled', true, ev, nowMs);
  return rem;
}

/** Reduce a resting order in place (keeps its queue position); `by` is below its remaining count. */
export function reduceResting(st: State, o: Owner, order: OrderState, by: number, ev: EngineEvent[], nowMs: number): void {
  st.bookOf(o.market).reduce(order.slot, by);
  order.remaining_count -= by;
  const own = ownPrice(order);
  const reserve = Math.min(order.reserve, feeReserveMicro(o.market.fee_multiplier, order.remaining_count, own));
  const next = own * order.remaining_count + reserve;
  unlock(st, o.account, o.sub, order.locked - next, nowMs);
  order.locked = next;
  order.reserve = reserve;
  order.last_update_time = nowMs;
  ev.push(bookEvent(order, -by, nowMs));
}

function noteGroupFill(st: State, groupId: string | null, count: number): void {
  if (groupId === null) return;
  const g = st.groups.get(groupId);
  if (!g) return;
  g.contracts_used += count;
  if (g.contracts_used >= g.contracts_limit && !g.tripped) st.pendingTrips.push(g);
}

/** Release what one fill used of an order's lock: cost at its own price and the fee paid. */
function releaseForFill(st: State, o: Owner, order: OrderState, own: number, count: number, feeMicro: number, nowMs: number): void {
  const fromReserve = feeMicro < order.reserve ? feeMicro : order.reserve;
  const amount = own * count + fromReserve;
  order.reserve -= fromReserve;
  order.locked -= amount;
  unlock(st, o.account, o.sub, amount, nowMs);
}

function fillView(st: State, order: OrderState, tradeId: string, yesPrice: number, count: number, isTaker: boolean, fee: number, post: number, nowMs: number): FillView {
  return {
    fill_id: st.nextFillId(),
    trade_id: tradeId,
    order_id: order.order_id,
    client_order_id: order.client_order_id,
    user_id: order.user_id,
    subaccount: order.subaccount,
    ticker: order.ticker,
    side: outcomeOf(order.side),
    book_side: order.side,
    action: 'buy',
    yes_price: yesPrice,
    no_price: TICKS_PER_DOLLAR - yesPrice,
    count,
    is_taker: isTaker,
    fee,
    ts: nowMs,
    post_position: post,
    exchange_index: 0,
  };
}

/**
 * Replay the matcher's log for `taker` (already holding its lock, not on the book):
 * fills move cash, positions, fees and the tape; self-trade cancels finish makers.
 * A print (print.ts) passes `quietTaker` (a taker that holds no lock and keeps no fill record)
 * and `quietMaker`, an account index whose resting orders keep no fill record and send no order
 * event; the fill numbers they would have used are taken all the same.
 */
export function applyMatch(st: State, t: Owner, taker: OrderState, ev: EngineEvent[], nowMs: number, quietMaker = NIL, quietTaker = false): void {
  const m = st.matcher;
  const market = t.market;
  const takerBuysYes = taker.side === 'bid';
  const takerOwn = ownPrice(taker);
  const mult = market.fee_multiplier;
  const mk = makerK(market.fee_type);
  const tape = st.tapeOf(market.ticker);
  for (let i = 0; i < m.length; i++) {
    const slot = m.slot[i]!;
    const maker = st.slotOrders[slot]!;
    const count = m.count[i]!;
    const makerPrice = m.price[i]!;
    const mo = ownerOf(st, maker);
    if (m.kind[i] === LOG_STP_CANCEL) {
      st.slotOrders[slot] = undefined;
      ev.push(bookEvent(maker, -count, nowMs));
      finishOrder(st, mo, maker, 'canceled', true, ev, nowMs);
      continue;
    }
    const makerDone = count === maker.remaining_count;
    if (makerDone) st.slotOrders[slot] = undefined;
    ev.push(bookEvent(maker, -count, nowMs));
    const yesPrice = maker.side === 'bid' ? makerPrice : TICKS_PER_DOLLAR - makerPrice;
    const takerPaid = TICKS_PER_DOLLAR - makerPrice;

    const tf = chargeFee(TAKER_K, mult, count, yesPrice, taker.taker_carry);
    const takerFee = tf.cents * MICRO_PER_CENT;
    taker.taker_carry = tf.carry;
    const mf = chargeFee(mk, mult, count, yesPrice, maker.maker_carry);
    const makerFee = mf.cents * MICRO_PER_CENT;
    maker.maker_carry = mf.carry;

    taker.fill_count += count;
    taker.remaining_count -= count;
    taker.taker_fill_cost += takerPaid * count;
    taker.taker_fees += takerFee;
    taker.last_update_time = nowMs;
    if (!quietTaker) releaseForFill(st, t, taker, takerOwn, count, takerFee, nowMs);

    maker.fill_count += count;
    maker.remaining_count -= count;
    maker.maker_fill_cost += makerPrice * count;
    maker.maker_fees += makerFee;
    maker.last_update_time = nowMs;
    releaseForFill(st, mo, maker, makerPrice, count, makerFee, nowMs);

    const takerPost = applyBuy(st, market, t.account, t.sub, takerBuysYes, takerPaid, count, takerFee, nowMs);
    const makerPost = applyBuy(st, market, mo.account, mo.sub, !takerBuysYes, makerPrice, count, makerFee, nowMs);
    st.totals.fees += takerFee + makerFee;
    market.volume += count;
    market.last_price = yesPrice;

    const trade = recordTrade(st, tape, market.ticker, taker, yesPrice, count, ev, nowMs);
    const makerQuiet = mo.account.index === quietMaker;
    recordFills(st, t, mo, taker, maker, trade.trade_id, yesPrice, count, takerFee, makerFee, takerPost, makerPost, quietTaker, makerQuiet, ev, nowMs);

    noteGroupFill(st, maker.order_group_id, count);
    noteGroupFill(st, taker.order_group_id, count);
    if (makerDone) finishOrder(st, mo, maker, 'executed', true, ev, nowMs, makerQuiet);
    else if (!makerQuiet) pushOrderEvent(ev, maker);
  }
  m.length = 0;
}

/** The match's trade, on the market's tape and in the events. */
function recordTrade(st: State, tape: TradeLog, ticker: string, taker: OrderState, yesPrice: number, count: number, ev: EngineEvent[], nowMs: number): TradeView {
  const trade: TradeView = {
    trade_id: st.nextTradeId(),
    ticker,
    taker_side: outcomeOf(taker.side),
    taker_book_side: taker.side,
    yes_price: yesPrice,
    no_price: TICKS_PER_DOLLAR - yesPrice,
    count,
    created_time: nowMs,
    is_block_trade: false,
  };
  tape.add(st.counters.trade, trade);
  ev.push({ type: 'trade', trade });
  return trade;
}

/**
 * The match's fills, in the accounts' fill logs and the events: both sides' on the order path;
 * in a print, only a loud side's, under the number it has on the order path.
 */
function recordFills(
  st: State,
  t: Owner,
  mo: Owner,
  taker: OrderState,
  maker: OrderState,
  tradeId: string,
  yesPrice: number,
  count: number,
  takerFee: number,
  makerFee: number,
  takerPost: number,
  makerPost: number,
  quietTaker: boolean,
  makerQuiet: boolean,
  ev: EngineEvent[],
  nowMs: number,
): void {
  if (!makerQuiet && !quietTaker) {
    const makerFill = fillView(st, maker, tradeId, yesPrice, count, false, makerFee, makerPost, nowMs);
    const takerFill = fillView(st, taker, tradeId, yesPrice, count, true, takerFee, takerPost, nowMs);
    // fillView made the taker's fill last: the fill counter is its, the maker's is one before
    const fillCounter = st.counters.fill;
    mo.account.fills.add(fillCounter - 1, st.counters.trade, makerFill);
    t.account.fills.add(fillCounter, st.counters.trade, takerFill);
    ev.push({ type: 'fill', fill: makerFill }, { type: 'fill', fill: takerFill });
    return;
  }
  if (makerQuiet) st.counters.fill++;
  else {
    const makerFill = fillView(st, maker, tradeId, yesPrice, count, false, makerFee, makerPost, nowMs);
    mo.account.fills.add(st.counters.fill, st.counters.trade, makerFill);
    ev.push({ type: 'fill', fill: makerFill });
  }
  if (quietTaker) st.counters.fill++;
  else {
    const takerFill = fillView(st, taker, tradeId, yesPrice, count, true, takerFee, takerPost, nowMs);
    t.account.fills.add(st.counters.fill, st.counters.trade, takerFill);
    ev.push({ type: 'fill', fill: takerFill });
  }
}

/** Whether an order's group has reached its limit (or was triggered). */
export function groupBlocked(st: State, order: OrderState): boolean {
  if (order.order_group_id === null) return false;
  const g = st.groups.get(order.order_group_id);
  return !g || g.deleted || g.tripped || g.contracts_used >= g.contracts_limit;
}

/** Cancel every resting order of a group; returns their ids. */
export function cancelGroupOrders(st: State, g: GroupState, ev: EngineEvent[], nowMs: number): string[] {
  const ids = [...g.orders];
  for (const id of ids) {
    const order = st.orders.get(id);
    if (order && order.status === 'resting') cancelResting(st, order, ev, nowMs);
  }
  g.orders.clear();
  return ids;
}

/** Trip a group: no more fills or orders until reset; its resting orders are cancelled. */
export function tripGroup(st: State, g: GroupState, ev: EngineEvent[], nowMs: number): string[] {
  g.tripped = true;
  syncGroupCapacity(st, g);
  const canceled = cancelGroupOrders(st, g, ev, nowMs);
  ev.push({ type: 'orderGroup', event: 'triggered', group: groupView(g), ts: nowMs });
  return canceled;
}

/** Trip the groups that reached their limit during this command. */
export function processTrips(st: State, ev: EngineEvent[], nowMs: number): void {
  const list = st.pendingTrips;
  if (list.length === 0) return;
  for (let i = 0; i < list.length; i++) {
    const g = list[i]!;
    if (!g.tripped && !g.deleted) tripGroup(st, g, ev, nowMs);
  }
  list.length = 0;
}

/** Cancel resting orders whose expiration time is at or before `nowMs`. */
export function sweepExpired(st: State, nowMs: number, ev: EngineEvent[]): string[] {
  const expired: string[] = [];
  if (!st.expiry.hasDue(nowMs)) return expired;
  for (let e = st.expiry.popDue(nowMs); e; e = st.expiry.popDue(nowMs)) {
    const order = st.orders.get(e.orderId);
    if (!order || order.status !== 'resting' || order.expiration_time === null || order.expiration_time * 1000 !== e.atMs) continue;
    cancelResting(st, order, ev, nowMs);
    expired.push(order.order_id);
  }
  return expired;
}

/** Take the lock for a new or re-entered order. */
export function holdLock(st: State, o: Owner, order: OrderState, cost: number, reserve: number, nowMs: number): void {
  order.locked = cost + reserve;
  order.reserve = reserve;
  lock(st, o.account, o.sub, cost + reserve, nowMs);
}
