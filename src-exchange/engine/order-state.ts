// One order as the engine holds it (what a snapshot stores), in a module of its own: the order
// index, its columns and the state that owns them all name it without importing each other.
import { NIL } from './book';
import type { OrderView } from './types';

/**
 * An order as the engine holds it: its view without what follows from the rest (the NO price,
 * the outcome, the constant action and type), plus the engine's own fields.
 */
export type OrderState = Omit<OrderView, 'outcome_side' | 'action' | 'type' | 'no_price' | 'exchange_index'> & {
  /** Creation ordinal (ties in the expiry heap). */
  num: number;
  /** Queue priority while resting: lower is earlier at a level. */
  seq: number;
  /** Cash this order holds (cost at its own price plus the fee reserve), micro. */
  locked: number;
  /** Part of `locked` held for fees. */
  reserve: number;
  /** Fractions of a cent already paid for (see fees.ts). */
  taker_carry: number;
  maker_carry: number;
  /** Runtime: the order's slot while resting, NIL otherwise (not in snapshots). */
  slot: number;
};

/** What makes a new order: the rest starts at zero (no fill, cost, fee, lock or queue place) and not resting in a slot. */
export type NewOrder = Pick<
  OrderState,
  'order_id' | 'user_id' | 'client_order_id' | 'ticker' | 'event_ticker' | 'side' | 'status' | 'yes_price' | 'remaining_count' | 'initial_count' | 'created_time' | 'expiration_time' | 'time_in_force' | 'self_trade_prevention_type' | 'order_group_id' | 'subaccount' | 'post_only' | 'num'
>;

/** A new order record, every field set (the one place an OrderState is built from nothing). */
export function newOrderState(o: NewOrder): OrderState {
  return {
    order_id: o.order_id,
    user_id: o.user_id,
    client_order_id: o.client_order_id,
    ticker: o.ticker,
    event_ticker: o.event_ticker,
    side: o.side,
    status: o.status,
    yes_price: o.yes_price,
    fill_count: 0,
    remaining_count: o.remaining_count,
    initial_count: o.initial_count,
    taker_fill_cost: 0,
    maker_fill_cost: 0,
    taker_fees: 0,
    maker_fees: 0,
    created_time: o.created_time,
    last_update_time: o.created_time,
    expiration_time: o.expiration_time,
    time_in_force: o.time_in_force,
    self_trade_prevention_type: o.self_trade_prevention_type,
    order_group_id: o.order_group_id,
    subaccount: o.subaccount,
    post_only: o.post_only,
    num: o.num,
    seq: 0,
    locked: 0,
    reserve: 0,
    taker_carry: 0,
    maker_carry: 0,
    slot: NIL,
  };
}
