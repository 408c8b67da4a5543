// One order as the engine holds it (what a snapshot stores), in a module of its own: the order
// index, its columns and the state that owns them all name it without importing each other.
import type { BookSide, OrderStatus, SelfTradePreventionType, TimeInForce } from './types';

export interface OrderState {
  order_id: string;
  user_id: string;
  client_order_id: string;
  ticker: string;
  event_ticker: string;
  side: BookSide;
  status: OrderStatus;
  yes_price: number;
  fill_count: number;
  remaining_count: number;
  initial_count: number;
  taker_fill_cost: number;
  maker_fill_cost: number;
  taker_fees: number;
  maker_fees: number;
  created_time: number;
  last_update_time: number;
  expiration_time: number | null;
  time_in_force: TimeInForce;
  self_trade_prevention_type: SelfTradePreventionType;
  order_group_id: string | null;
  subaccount: number;
  post_only: boolean;
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
}
