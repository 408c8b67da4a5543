// The session's order actions against the exchange, the one orders module of main: create (one
// or a batch, idempotent by client_order_id through api/orders.ts), amend, decrease, cancel,
// batch cancel and cancel-all, with the endpoint table's own types. The trading service gates
// and audits; these only speak to the exchange and keep the stores in line. The kill switch's
// sweep of every subaccount is here too.
import type { AmendOrderRequest, DecreaseOrderRequest } from '../../src-shared/wire/orders';
import type { RestingOrder } from '../risk/gate';
import { restingOrderOf } from '../risk/rows';
import type { CallOptions } from '../api/client';
import { endpointRow } from '../../src-shared/endpoints';
import { plural } from '../../src-shared/text';
import { placeOrder as createOrder, placeOrderBatch, type BatchEntry, type CreateOrderBody } from '../api/orders';
import type { SendGuard, TradingSession } from './session';
import type { AnsweredOrder } from './private-sync';
import { ackTrace } from './ack-trace';
import { ApiError } from '../api/errors';
import type { BatchCancelResult, CancelBatchReport, CancelFailure } from '../../src-shared/ipc/batch-cancel';

/** Places one order (idempotent by its client_order_id); the answer's order goes straight into the store. */
export async function placeOrder(s: TradingSession, draft: CreateOrderBody, clientOrderId?: string, send?: SendGuard) {
  return (await place(s, draft, clientOrderId, send)).ack;
}

/** As placeOrder, with the order as answered (null when neither the answer nor a read gave it). */
export async function place(s: TradingSession, draft: CreateOrderBody, clientOrderId?: string, send?: SendGuard, mayExist?: boolean): Promise<AnsweredOrder> {
  const t0 = performance.now();
  // mayExist: an earlier route (FIX) may have placed it already: look it up by client order id first
  const placed = await createOrder(s.client, draft, { inflight: s.inflight, ...(clientOrderId ? { clientOrderId } : {}), ...(send ? { send } : {}), ...(mayExist ? { mayExist } : {}) });
  ackTrace.mark('answered');
  return s.answered(placed, t0);
}

/**
 * Several orders through the exchange's batch create, as many per request as the write bucket
 * holds; each slot as placeOrder would answer it, or its error.
 */
export async function placeBatch(s: TradingSession, entries: readonly BatchEntry[], send?: SendGuard): Promise<({ ok: true; answered: AnsweredOrder } | { ok: false; error: unknown })[]> {
  const t0 = performance.now();
  const row = endpointRow('batchCreateOrders');
  const perItem = s.limiter.costOf(row, { body: { orders: [{}] } });
  const perBatch = Math.max(1, Math.min(20, Math.floor(s.limiter.capacity('write') / Math.max(1, perItem))));
  const slots = await placeOrderBatch(s.client, entries, { inflight: s.inflight, perBatch, ...(send ? { send } : {}) });
  return Promise.all(slots.map(async (x) => (x.ok ? { ok: true as const, answered: await s.answered(x.placed, t0) } : x)));
}

/** Where an order rests: the primary account when no subaccount is named. */
const subaccountQuery = (subaccount: number | undefined) => (subaccount !== undefined ? { query: { subaccount } } : {});

/** The order as it rests now: from the private store, or read from the exchange; null when it does not rest. */
export async function restingOrder(s: TradingSession, orderId: string): Promise<RestingOrder | null> {
  const known = s.store.orders.get(orderId);
  if (known) return restingOrderOf(known);
  const { order } = await s.client.getOrder({ params: { order_id: orderId } });
  return restingOrderOf(order);
}

/** Amends; the amended order goes into the store before this answers (from the answer, else read back). */
export async function amendOrder(s: TradingSession, orderId: string, subaccount: number | undefined, body: AmendOrderRequest, send?: Pick<CallOptions, 'beforeSend' | 'queueSignal'>) {
  const r = await s.client.amendOrder({ params: { order_id: orderId }, ...subaccountQuery(subaccount), body }, send);
  const order = (r.order as Record<string, unknown> | undefined) ?? (await s.client.getOrder({ params: { order_id: orderId } }).then((x) => x.order as Record<string, unknown>, () => undefined));
  if (order) s.store.putOrderUnlessNewer(order);
  return r;
}

export function decreaseOrder(s: TradingSession, orderId: string, subaccount: number | undefined, body: DecreaseOrderRequest) {
  return s.client.decreaseOrder({ params: { order_id: orderId }, ...subaccountQuery(subaccount), body });
}

export async function cancelOrder(s: TradingSession, orderId: string, subaccount: number | undefined, opts?: CallOptions): Promise<{ reduced_by: string; ts_ms: number }> {
  const r = await s.client.cancelOrder({ params: { order_id: orderId }, query: subaccount !== undefined ? { subaccount } : {} }, opts);
  return { reduced_by: r.reduced_by, ts_ms: r.ts_ms };
}

type CancelEntry = { order_id: string; subaccount?: number; market_ticker?: string };

/**
 * Cancels several orders in batches the write bucket can take (cancelsPerBatch), all queued at
 * once on the limiter; a batch refused with a 429 is sent again (it canceled nothing) up to
 * twice. Each batch reports how many it canceled and which failed and why.
 */
export async function batchCancel(s: TradingSession, orders: CancelEntry[]): Promise<BatchCancelResult> {
  const per = cancelsPerBatch(s);
  const chunks: CancelEntry[][] = [];
  for (let i = 0; i < orders.length; i += per) chunks.push(orders.slice(i, i + per));
  const batches = await Promise.all(chunks.map((chunk) => cancelBatch(s, chunk)));
  const failed = batches.flatMap((b) => b.failed);
  return { of: orders.length, canceled: batches.reduce((n, b) => n + b.canceled, 0), batches, failed };
}

async function cancelBatch(s: TradingSession, chunk: CancelEntry[]): Promise<CancelBatchReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await s.client.batchCancelOrders({ body: { orders: chunk } });
      const failed: CancelFailure[] = [];
      for (const o of chunk) {
        const entry = r.orders.find((x) => x.order_id === o.order_id);
        if (!entry) failed.push({ order_id: o.order_id, code: 'no_answer', message: 'the exchange did not answer for this order' });
        else if (entry.error) failed.push({ order_id: o.order_id, code: entry.error.code ?? 'error', message: entry.error.message ?? 'refused' });
      }
      return { of: chunk.length, canceled: chunk.length - failed.length, failed };
    } catch (err) {
      // a 429 refused the batch whole: nothing in it was canceled, so it may go again (the limiter waits for the tokens)
      if (err instanceof ApiError && err.status === 429 && attempt < 3) continue;
      const code = err instanceof ApiError ? err.code : 'failed';
      const message = err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
      return { of: chunk.length, canceled: 0, failed: chunk.map((o) => ({ order_id: o.order_id, code, message })) };
    }
  }
}

/** How many cancels one batch may carry: what the write bucket holds at the row's per-item cost, at most 100. */
export function cancelsPerBatch(s: TradingSession): number {
  const perItem = s.limiter.costOf(endpointRow('batchCancelOrders'), { body: { orders: [{}] } });
  return Math.max(1, Math.min(100, Math.floor(s.limiter.capacity('write') / Math.max(1, perItem))));
}

/**
 * With a ticker: batch-cancel my resting orders there, in batches that fit the write bucket (one
 * of 80 orders costs 160 tokens where the bucket holds 100, and the exchange refuses it whole);
 * without: the exchange's cancel-all, then a reconcile.
 */
export async function cancelAll(s: TradingSession, ticker: string | undefined, subaccount: number | undefined): Promise<{ canceled: number }> {
  if (!ticker) {
    const before = s.store.restingOrders().length;
    await s.client.cancelAllOrders(subaccount !== undefined ? { query: { subaccount } } : undefined);
    await s.reconcile();
    return { canceled: before };
  }
  const mine = s.store.restingOrders(ticker);
  if (mine.length === 0) return { canceled: 0 };
  return { canceled: (await batchCancel(s, mine.map((o) => ({ order_id: String(o.order_id) })))).canceled };
}

/**
 * The kill switch's sweep: cancels every resting order in every subaccount (the exchange's
 * cancel-all per subaccount, each ahead of any queued request) and answers; then, behind it, trips
 * every order group and reconciles, and `later` says what is left.
 */
export async function cancelEverything(s: TradingSession): Promise<{ detail: string; later: Promise<string> }> {
  const c = s.client;
  const first = { priority: true } as const;
  const before = s.store.restingOrders().length;
  const failures: string[] = [];
  const cancelIn = (sub: number) => c.cancelAllOrders({ query: { subaccount: sub } }, first).catch((e: unknown) => void failures.push(`subaccount ${sub}: ${(e as Error).message}`));
  // the primary account at once; the others as soon as they are known
  const primary = cancelIn(0);
  const subs = await c.getSubaccountBalances(undefined, first).then(
    (r) => [...new Set([0, ...r.subaccount_balances.map((b) => b.subaccount_number)])],
    () => [0],
  );
  await Promise.all([primary, ...subs.filter((x) => x !== 0).map(cancelIn)]);
  const detail = `canceled ${plural(before, 'resting order')} in ${plural(subs.length, 'subaccount')}${failures.length ? `; failed: ${failures.join(', ')}` : ''}`;
  const later = (async () => {
    const groups = await c.getOrderGroups().then(
      (r) => r.order_groups,
      () => [],
    );
    await Promise.all(groups.map((g) => c.triggerOrderGroup({ params: { id: g.order_group_id }, body: {} }, first).catch(() => undefined)));
    await s.reconcile().catch(() => undefined);
    const left = s.store.restingOrders().length;
    return `${detail}, ${groups.length} order group(s) triggered${left ? `; ${left} still resting` : ''}`;
  })();
  return { detail, later };
}
