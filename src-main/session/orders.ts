// The session's order actions against the exchange, with the endpoint table's own types: amend,
// decrease, cancel, batch cancel and cancel-all (the idempotent create is api/orders.ts). The
// trading service gates and audits; these only speak to the exchange and keep the stores in line.
import type { AmendOrderRequest, DecreaseOrderRequest } from '../../src-shared/wire/orders';
import type { RestingOrder } from '../risk/gate';
import { restingOrderOf } from '../risk/rows';
import type { TradingSession } from './session';

/** Where an order rests: the primary account when no subaccount is named. */
const subaccountQuery = (subaccount: number | undefined) => (subaccount !== undefined ? { query: { subaccount } } : {});

/** The order as it rests now: from the private store, or read from the exchange; null when it does not rest. */
export async function restingOrder(s: TradingSession, orderId: string): Promise<RestingOrder | null> {
  const known = s.store.orders.get(orderId);
  if (known) return restingOrderOf(known);
  const { order } = await s.client.getOrder({ params: { order_id: orderId } });
  return restingOrderOf(order);
}

export function amendOrder(s: TradingSession, orderId: string, subaccount: number | undefined, body: AmendOrderRequest) {
  return s.client.amendOrder({ params: { order_id: orderId }, ...subaccountQuery(subaccount), body });
}

export function decreaseOrder(s: TradingSession, orderId: string, subaccount: number | undefined, body: DecreaseOrderRequest) {
  return s.client.decreaseOrder({ params: { order_id: orderId }, ...subaccountQuery(subaccount), body });
}

export async function cancelOrder(s: TradingSession, orderId: string, subaccount: number | undefined): Promise<{ reduced_by: string; ts_ms: number }> {
  const r = await s.client.cancelOrder({ params: { order_id: orderId }, query: subaccount !== undefined ? { subaccount } : {} });
  return { reduced_by: r.reduced_by, ts_ms: r.ts_ms };
}

export async function batchCancel(s: TradingSession, orders: { order_id: string; subaccount?: number; market_ticker?: string }[]): Promise<{ canceled: number; of: number; answer: unknown }> {
  const r = await s.client.batchCancelOrders({ body: { orders } });
  return { canceled: r.orders.filter((x) => !x.error).length, of: orders.length, answer: r };
}

/** With a ticker: batch-cancel my resting orders there, 100 at a time; without: the exchange's cancel-all, then a reconcile. */
export async function cancelAll(s: TradingSession, ticker: string | undefined, subaccount: number | undefined): Promise<{ canceled: number }> {
  if (!ticker) {
    const before = s.store.restingOrders().length;
    await s.client.cancelAllOrders(subaccount !== undefined ? { query: { subaccount } } : undefined);
    await s.reconcile();
    return { canceled: before };
  }
  const mine = s.store.restingOrders(ticker);
  let canceled = 0;
  for (let i = 0; i < mine.length; i += 100) {
    const chunk = mine.slice(i, i + 100);
    canceled += (await batchCancel(s, chunk.map((o) => ({ order_id: String(o.order_id) })))).canceled;
  }
  return { canceled };
}
