// The order-entry domain module: `apiCreateOrder`, an engine create that also records the order
// as placed through the API, in one journal record (the usage-level upgrade asks whether recent
// orders came that way). Its state is the newest API order ids per user.
import type { CreateOrderCommand, OrderView } from '../engine/types';
import { fail, type DomainModule } from '../state/domain';

/** The upgrade rule looks at the last 100 orders; remembering the newest 100 API orders suffices. */
export const API_ORDER_WINDOW = 100;

export interface OrdersState {
  /** user id -> ids of the newest orders created through the API, oldest first, at most API_ORDER_WINDOW */
  api_orders: Record<string, string[]>;
}

export type ApiCreateOrderCommand = {
  type: 'apiCreateOrder';
  nowMs: number;
  order: Omit<CreateOrderCommand, 'type' | 'nowMs'>;
};

export interface ApiCreateOrderResult {
  ok: true;
  order: OrderView;
  duplicate: boolean;
}

export const emptyOrders = (): OrdersState => ({ api_orders: {} });

/** The ids of the newest orders this user created through the API. */
export function apiOrdersOf(state: OrdersState, userId: string): readonly string[] {
  return state.api_orders[userId] ?? [];
}

export function recordApiOrder(state: OrdersState, userId: string, orderId: string): void {
  const list = (state.api_orders[userId] ??= []);
  list.push(orderId);
  if (list.length > API_ORDER_WINDOW) list.splice(0, list.length - API_ORDER_WINDOW);
}

export const ordersModule: DomainModule<OrdersState, ApiCreateOrderCommand> = {
  name: 'orders',
  commandTypes: ['apiCreateOrder'],
  empty: emptyOrders,
  apply(state, cmd, ctx) {
    const r = ctx.engine.apply({ ...cmd.order, type: 'createOrder', nowMs: cmd.nowMs });
    for (const e of r.events) ctx.emit(e);
    if (!r.ok) {
      if (r.mutated) ctx.markMutated();
      return fail(r.code, r.message, undefined, r.details);
    }
    if (!r.duplicate) recordApiOrder(state, r.order.user_id, r.order.order_id);
    return { ok: true, order: r.order, duplicate: r.duplicate } satisfies ApiCreateOrderResult;
  },
};
