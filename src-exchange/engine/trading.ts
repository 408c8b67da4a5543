// Order entry and cancellation. Every check runs before the first change, so a rejected
// command leaves the state as it was.

import { NIL } from './book';
import { checkTick } from './price-levels';
import { isId, isTimestamp, reject, type Reject } from './errors';
import { available, isSubaccountNumber } from './ledger';
import { STOP_NONE, STP_MAKER, STP_TAKER_AT_CROSS, type StpMode } from './matching';
import {
  answerView,
  applyMatch,
  cancelResting,
  finishOrder,
  groupBlocked,
  holdLock,
  lockFor,
  processTrips,
  pushOrderEvent,
  restOrder,
  type Owner,
} from './orders';
import { orderView, type GroupState, type MarketState, type State } from './engine-state';
import { newOrderState, type OrderState } from './order-state';
import {
  STP_TYPES,
  TIMES_IN_FORCE,
  type Accepted,
  type CancelAllOrdersCommand,
  type CancelOrderCommand,
  type CommandOutputs,
  type CreateOrderCommand,
  type EngineEvent,
  type SelfTradePreventionType,
} from './types';
import { isOrderCount, isOrderPrice, MAX_COUNT_CENTI, TICKS_PER_DOLLAR } from './units';

/** Most resting orders one cancel-all takes. */
export const CANCEL_ALL_LIMIT = 10_000;
const CLIENT_ID_MAX = 128;

const TIFS: ReadonlySet<string> = new Set(TIMES_IN_FORCE);
const STPS: ReadonlySet<string> = new Set(STP_TYPES);

export function stpMode(t: SelfTradePreventionType): StpMode {
  return t === 'maker' ? STP_MAKER : STP_TAKER_AT_CROSS;
}

/** Checks shared by create and amend: the market is open. */
export function marketOpen(st: State, ticker: unknown): MarketState | Reject {
  if (!isId(ticker)) return reject('invalid_parameters', 'ticker is required');
  const market = st.markets.get(ticker);
  if (!market) return reject('not_found', `market ${ticker} not found`);
  if (market.status !== 'open') return reject('invalid_order', `market ${ticker} is ${market.status}`, 'market_not_open');
  return market;
}

/** Checks shared by an order and a print: who, which side, a price and a count in range. */
export function checkOrderTerms(cmd: { userId: unknown; side: unknown; priceTicks: unknown; countCenti: unknown }): Reject | undefined {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  if (cmd.side !== 'bid' && cmd.side !== 'ask') return reject('invalid_parameters', "side must be 'bid' or 'ask'");
  if (!isOrderPrice(cmd.priceTicks)) return reject('invalid_parameters', 'price must be between 0.0001 and 0.9999 in steps of 0.0001');
  if (!isOrderCount(cmd.countCenti)) return reject('invalid_parameters', `count must be a positive multiple of 0.01 contracts, at most ${MAX_COUNT_CENTI / 100}`);
  return undefined;
}

/** Validate an expiration time (seconds) against now. */
export function checkExpiration(v: unknown, nowMs: number): Reject | undefined {
  if (!isTimestamp(v) || v === 0) return reject('invalid_parameters', 'expiration_time must be a positive integer (Unix seconds)');
  if (v * 1000 <= nowMs) return reject('invalid_order', 'expiration_time is in the past', 'expiration_in_past');
  return undefined;
}

/** The create command's options (time in force, self-trade prevention, subaccount, client id, post only, expiration, group id), each checked alone and against the time in force. */
function checkOrderOptions(cmd: CreateOrderCommand): Reject | undefined {
  const tif = cmd.timeInForce ?? 'good_till_canceled';
  if (!TIFS.has(tif)) return reject('invalid_parameters', `unknown time_in_force ${String(tif)}`);
  const stp = cmd.selfTradePreventionType ?? 'taker_at_cross';
  if (!STPS.has(stp)) return reject('invalid_parameters', `unknown self_trade_prevention_type ${String(stp)}`);
  if (!isSubaccountNumber(cmd.subaccount ?? 0)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (cmd.clientOrderId !== undefined && !isId(cmd.clientOrderId, CLIENT_ID_MAX)) {
    return reject('invalid_parameters', `client_order_id must be 1-${CLIENT_ID_MAX} characters`);
  }
  const postOnly = cmd.postOnly ?? false;
  if (typeof postOnly !== 'boolean') return reject('invalid_parameters', 'post_only must be a boolean');
  if (postOnly && tif !== 'good_till_canceled') return reject('invalid_parameters', 'post_only needs good_till_canceled');
  const expiration = cmd.expirationTime ?? null;
  if (expiration !== null && tif !== 'good_till_canceled') return reject('invalid_parameters', 'expiration_time needs good_till_canceled');
  if (cmd.orderGroupId !== undefined && !isId(cmd.orderGroupId)) return reject('invalid_parameters', 'order_group_id must be a string');
  return undefined;
}

/** The order group an order names must be the trader's, in the same subaccount, and not at its limit. */
function checkOrderGroup(group: GroupState | undefined, groupId: string, userId: string, subN: number): Reject | undefined {
  if (!group || group.deleted || group.user_id !== userId || group.subaccount !== subN) {
    return reject('not_found', `order group ${groupId} not found`);
  }
  if (group.tripped || group.contracts_used >= group.contracts_limit) {
    return reject('invalid_order', 'order group has reached its contracts limit', 'order_group_tripped');
  }
  return undefined;
}

// The hot handlers (create, cancel, amend, decrease) answer with the whole result, `ok`, `events`
// and `mutated` included, in the order Engine.run would add them: adding three fields to a
// two-field answer on every command gave the object a second store and cost a twentieth of the
// engine's time.
export function createOrder(st: State, cmd: CreateOrderCommand, ev: EngineEvent[]): Reject | Accepted<CommandOutputs['createOrder']> {
  const now = cmd.nowMs;
  const terms = checkOrderTerms(cmd) ?? checkOrderOptions(cmd);
  if (terms) return terms;
  const tif = cmd.timeInForce ?? 'good_till_canceled';
  const stp = cmd.selfTradePreventionType ?? 'taker_at_cross';
  const subN = cmd.subaccount ?? 0;
  const postOnly = cmd.postOnly ?? false;
  const expiration = cmd.expirationTime ?? null;

  const account = st.accounts.get(cmd.userId);
  if (account && cmd.clientOrderId !== undefined) {
    const existing = account.clientOrders.get(cmd.clientOrderId);
    if (existing !== undefined) return { order: orderView(st.orders.get(existing)!), duplicate: true, ok: true, events: ev, mutated: false };
  }
  const market = marketOpen(st, cmd.ticker);
  if ('ok' in market) return market;
  const offTick = checkTick(market.price_level_structure, cmd.priceTicks);
  if (offTick) return offTick;
  if (expiration !== null) {
    const bad = checkExpiration(expiration, now);
    if (bad) return bad;
  }
  const sub = account?.subs[subN];
  if (!account || !sub) {
    if (subN !== 0) return reject('not_found', `subaccount ${subN} not found`);
    return reject('insufficient_balance', 'insufficient balance');
  }
  const group = cmd.orderGroupId === undefined ? undefined : st.groups.get(cmd.orderGroupId);
  if (cmd.orderGroupId !== undefined) {
    const refused = checkOrderGroup(group, cmd.orderGroupId, cmd.userId, subN);
    if (refused) return refused;
  }
  const own = cmd.side === 'bid' ? cmd.priceTicks : TICKS_PER_DOLLAR - cmd.priceTicks;
  const sideIdx = cmd.side === 'bid' ? 0 : 1;
  const book = st.bookOf(market);
  if (postOnly && st.matcher.crosses(book, sideIdx, own)) return reject('invalid_order', 'post only order would cross', 'post only cross');
  const need = lockFor(market, own, cmd.countCenti);
  if (!Number.isSafeInteger(need.total)) return reject('invalid_parameters', 'order value exceeds the largest supported amount');
  if (available(sub) < need.total) return reject('insufficient_balance', 'insufficient balance');
  const mode = stpMode(stp);
  const gIdx = group ? group.index : NIL;
  const fillable = tif !== 'fill_or_kill' || st.matcher.canFill(book, sideIdx, own, cmd.countCenti, account.index, mode, gIdx);

  // ---- accepted: mutate from here on
  const order = newOrderState({
    order_id: st.nextOrderId(),
    user_id: cmd.userId,
    client_order_id: cmd.clientOrderId ?? '',
    ticker: market.ticker,
    event_ticker: market.event_ticker,
    side: cmd.side,
    status: 'resting',
    yes_price: cmd.priceTicks,
    remaining_count: cmd.countCenti,
    initial_count: cmd.countCenti,
    created_time: now,
    expiration_time: expiration,
    time_in_force: tif,
    self_trade_prevention_type: stp,
    order_group_id: group ? group.order_group_id : null,
    subaccount: subN,
    post_only: postOnly,
    num: st.counters.order,
  });
  st.orders.set(order.order_id, order);
  account.orders.push(order.order_id);
  if (cmd.clientOrderId !== undefined) account.clientOrders.set(cmd.clientOrderId, order.order_id);
  const o: Owner = { market, account, sub };
  holdLock(st, o, order, need.cost, need.reserve, now);
  if (!fillable) {
    finishOrder(st, o, order, 'canceled', false, ev, now);
    return { order: answerView(ev, order), duplicate: false, ok: true, events: ev, mutated: true };
  }
  enterBook(st, o, order, tif === 'good_till_canceled', ev, now);
  return { order: answerView(ev, order), duplicate: false, ok: true, events: ev, mutated: true };
}

/**
 * Match an order (holding its lock, off the book) as a taker, then rest what is left
 * when `rest` allows and nothing stopped it, else cancel the rest.
 */
export function enterBook(st: State, o: Owner, order: OrderState, rest: boolean, ev: EngineEvent[], now: number): void {
  const group = order.order_group_id === null ? undefined : st.groups.get(order.order_group_id);
  const own = order.side === 'bid' ? order.yes_price : TICKS_PER_DOLLAR - order.yes_price;
  const m = st.matcher;
  m.match(st.bookOf(o.market), order.side === 'bid' ? 0 : 1, own, order.remaining_count, o.account.index, stpMode(order.self_trade_prevention_type), group ? group.index : NIL);
  const stop = m.stop;
  applyMatch(st, o, order, ev, now);
  if (order.remaining_count === 0) finishOrder(st, o, order, 'executed', false, ev, now);
  else if (rest && stop === STOP_NONE && !groupBlocked(st, order)) {
    order.last_update_time = now;
    restOrder(st, o, order, ev, now);
    pushOrderEvent(ev, order);
  } else finishOrder(st, o, order, 'canceled', false, ev, now);
  processTrips(st, ev, now);
}

/** The caller's order, or a not_found rejection (unknown, someone else's, other subaccount). */
export function ownOrder(st: State, userId: unknown, orderId: unknown, subaccount: unknown): OrderState | Reject {
  if (!isId(userId)) return reject('invalid_parameters', 'user id is required');
  if (!isId(orderId)) return reject('invalid_parameters', 'order id is required');
  if (subaccount !== undefined && !isSubaccountNumber(subaccount)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  const order = st.orders.get(orderId);
  if (!order || order.user_id !== userId || (subaccount !== undefined && order.subaccount !== subaccount)) {
    return reject('not_found', `order ${orderId} not found`);
  }
  return order;
}

export function cancelOrder(st: State, cmd: CancelOrderCommand, ev: EngineEvent[]): Reject | Accepted<CommandOutputs['cancelOrder']> {
  const order = ownOrder(st, cmd.userId, cmd.orderId, cmd.subaccount);
  if ('ok' in order) return order;
  if (order.status !== 'resting') return reject('not_found', `order ${cmd.orderId} is ${order.status}`);
  const reducedBy = cancelResting(st, order, ev, cmd.nowMs);
  return { order: answerView(ev, order), reducedBy, ok: true, events: ev, mutated: true };
}

export function cancelAllOrders(st: State, cmd: CancelAllOrdersCommand, ev: EngineEvent[]): Reject | CommandOutputs['cancelAllOrders'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  if (cmd.subaccount !== undefined && !isSubaccountNumber(cmd.subaccount)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (cmd.ticker !== undefined && !isId(cmd.ticker)) return reject('invalid_parameters', 'ticker must be a string');
  const account = st.accounts.get(cmd.userId);
  if (!account) return { canceled: [] };
  const mine: OrderState[] = [];
  const slots = st.slotOrders;
  for (let i = 0; i < slots.length; i++) {
    const o = slots[i];
    if (!o || o.user_id !== cmd.userId) continue;
    if (cmd.subaccount !== undefined && o.subaccount !== cmd.subaccount) continue;
    if (cmd.ticker !== undefined && o.ticker !== cmd.ticker) continue;
    mine.push(o);
  }
  mine.sort((a, b) => a.num - b.num);
  const canceled: string[] = [];
  for (const o of mine) {
    if (canceled.length >= CANCEL_ALL_LIMIT) break;
    cancelResting(st, o, ev, cmd.nowMs);
    canceled.push(o.order_id);
  }
  return { canceled };
}
