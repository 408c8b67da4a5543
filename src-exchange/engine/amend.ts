// Amend and decrease of resting orders. An amend that changes the price or raises the
// count leaves the queue and re-enters (it may trade on the way in); a pure decrease
// keeps the order's place in the queue.

import { isId, isTimestamp, reject, type Reject } from './errors';
import { feeReserveMicro } from './fees';
import { available, unlock } from './ledger';
import { answerView, cancelResting, holdLock, lockFor, ownerOf, pushOrderEvent, reduceResting, unrest } from './orders';
import { orderView, ownPrice, type State } from './engine-state';
import { checkExpiration, enterBook, marketOpen, ownOrder } from './trading';
import type { Accepted, AmendOrderCommand, CommandOutputs, DecreaseOrderCommand, EngineEvent } from './types';
import { isOrderCount, isOrderPrice, TICKS_PER_DOLLAR } from './units';
import { checkTick } from './price-levels';

export function amendOrder(st: State, cmd: AmendOrderCommand, ev: EngineEvent[]): Reject | Accepted<CommandOutputs['amendOrder']> {
  const now = cmd.nowMs;
  const order = ownOrder(st, cmd.userId, cmd.orderId, cmd.subaccount);
  if ('ok' in order) return order;
  if (order.status !== 'resting') return reject('not_found', `order ${cmd.orderId} is ${order.status}`);
  if (cmd.ticker !== order.ticker) return reject('invalid_parameters', 'ticker does not match the order');
  if (cmd.side !== order.side) return reject('invalid_parameters', 'side does not match the order');
  if (!isOrderPrice(cmd.priceTicks)) return reject('invalid_parameters', 'price must be between 0.0001 and 0.9999 in steps of 0.0001');
  if (!isOrderCount(cmd.countCenti)) return reject('invalid_parameters', 'count must be a positive multiple of 0.01 contracts');
  if (cmd.countCenti <= order.fill_count) return reject('invalid_parameters', 'count must be above the filled count');
  let expiration = order.expiration_time;
  if (cmd.expirationTime !== undefined) {
    if (cmd.expirationTime === null || cmd.expirationTime === 0) expiration = null;
    else {
      const bad = checkExpiration(cmd.expirationTime, now);
      if (bad) return bad;
      expiration = cmd.expirationTime;
    }
  }
  const account = st.accounts.get(order.user_id)!;
  const newClientId = cmd.updatedClientOrderId;
  if (newClientId !== undefined) {
    if (!isId(newClientId, 128)) return reject('invalid_parameters', 'updated_client_order_id must be 1-128 characters');
    const holder = account.clientOrders.get(newClientId);
    if (holder !== undefined && holder !== order.order_id) return reject('invalid_order', 'client_order_id already used', 'order_already_exists');
  }
  const market = marketOpen(st, order.ticker);
  if ('ok' in market) return market;
  const offTick = checkTick(market.price_level_structure, cmd.priceTicks);
  if (offTick) return offTick;
  const o = ownerOf(st, order);
  const newRem = cmd.countCenti - order.fill_count;
  const reenter = cmd.priceTicks !== order.yes_price || newRem > order.remaining_count;
  const own = order.side === 'bid' ? cmd.priceTicks : TICKS_PER_DOLLAR - cmd.priceTicks;
  let cost: number;
  let reserve: number;
  if (reenter) {
    const need = lockFor(market, own, newRem);
    cost = need.cost;
    reserve = need.reserve;
  } else {
    cost = own * newRem;
    reserve = Math.min(order.reserve, feeReserveMicro(market.fee_multiplier, newRem, own));
  }
  if (!Number.isSafeInteger(cost + reserve)) return reject('invalid_parameters', 'order value exceeds the largest supported amount');
  if (cost + reserve - order.locked > available(o.sub)) return reject('insufficient_balance', 'insufficient balance');

  // ---- accepted
  const oldOrder = orderView(order);
  if (newClientId !== undefined) {
    account.clientOrders.set(newClientId, order.order_id);
    order.client_order_id = newClientId;
  }
  const expiryChanged = expiration !== order.expiration_time;
  order.expiration_time = expiration;
  order.initial_count = cmd.countCenti;
  order.last_update_time = now;
  if (!reenter) {
    if (newRem < order.remaining_count) reduceResting(st, o, order, order.remaining_count - newRem, ev, now);
    if (expiryChanged && expiration !== null) st.expiry.push({ atMs: expiration * 1000, num: order.num, orderId: order.order_id });
    pushOrderEvent(ev, order);
    return { oldOrder, order: answerView(ev, order), ok: true, events: ev, mutated: true };
  }
  unrest(st, o, order, ev, now);
  unlock(st, o.account, o.sub, order.locked, now);
  order.yes_price = cmd.priceTicks;
  order.remaining_count = newRem;
  holdLock(st, o, order, cost, reserve, now);
  enterBook(st, o, order, true, ev, now);
  return { oldOrder, order: answerView(ev, order), ok: true, events: ev, mutated: true };
}

export function decreaseOrder(st: State, cmd: DecreaseOrderCommand, ev: EngineEvent[]): Reject | Accepted<CommandOutputs['decreaseOrder']> {
  const order = ownOrder(st, cmd.userId, cmd.orderId, cmd.subaccount);
  if ('ok' in order) return order;
  const hasBy = cmd.reduceBy !== undefined && cmd.reduceBy !== null;
  const hasTo = cmd.reduceTo !== undefined && cmd.reduceTo !== null;
  if (hasBy === hasTo) return reject('invalid_parameters', 'exactly one of reduce_by and reduce_to is required');
  if (hasBy && !isOrderCount(cmd.reduceBy)) return reject('invalid_parameters', 'reduce_by must be a positive count');
  if (hasTo && !isTimestamp(cmd.reduceTo)) return reject('invalid_parameters', 'reduce_to must be a non-negative count');
  if (order.status !== 'resting') return reject('not_found', `order ${cmd.orderId} is ${order.status}`);
  const rem = order.remaining_count;
  let newRem: number;
  if (hasBy) newRem = Math.max(0, rem - cmd.reduceBy!);
  else {
    if (cmd.reduceTo! > rem) return reject('invalid_parameters', 'reduce_to is above the remaining count');
    newRem = cmd.reduceTo!;
  }
  const reducedBy = rem - newRem;
  if (newRem === 0) {
    cancelResting(st, order, ev, cmd.nowMs);
    return { order: answerView(ev, order), reducedBy, ok: true, events: ev, mutated: true };
  }
  if (reducedBy > 0) {
    reduceResting(st, ownerOf(st, order), order, reducedBy, ev, cmd.nowMs);
    pushOrderEvent(ev, order);
  }
  return { order: answerView(ev, order), reducedBy, ok: true, events: ev, mutated: true };
}

/** Re-reserve fees of a resting order after a fee change; false when the account cannot fund it. */
export function refreshReserve(st: State, orderId: string, now: number): boolean {
  const order = st.orders.get(orderId)!;
  const o = ownerOf(st, order);
  const own = ownPrice(order);
  const reserve = feeReserveMicro(o.market.fee_multiplier, order.remaining_count, own);
  const delta = reserve - order.reserve;
  if (delta > available(o.sub)) return false;
  order.reserve = reserve;
  order.locked += delta;
  if (delta > 0) holdDelta(st, o, delta, now);
  else if (delta < 0) unlock(st, o.account, o.sub, -delta, now);
  return true;
}

function holdDelta(st: State, o: ReturnType<typeof ownerOf>, delta: number, now: number): void {
  o.sub.locked += delta;
  o.sub.updated_ms = now;
  st.touchSub(o.account, o.sub);
}
