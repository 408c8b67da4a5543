// Order entry (V2, YES leg), cancel, amend, decrease, order reads and queue positions.
// Order groups live in order-groups.ts and join this family.
// Routing per the spec: create and batch entries carry subaccount/exchange_index in the body;
// cancel in the query; amend and decrease take subaccount in the query, exchange_index in the body.
// Order reads leave out what /historical/orders serves (finished before the cutoff: 404 by id).
import type { z } from 'zod';
import type { ApiCreateOrderResult } from '../core/orders-module';
import type { OrderView } from '../engine/types';
import { centiToCount } from '../engine/units';
import type { HandlerCtx } from '../http/app';
import { ExchangeError, invalidParameters, notFound } from '../core/errors';
import type {
  AmendOrderRequest,
  BatchCancelOrdersRequest,
  BatchCreateOrdersRequest,
  CreateOrderRequest,
  DecreaseOrderRequest,
} from '../../src-shared/wire/orders';
import type { CancelOrderQuery, GetOrdersQuery } from '../../src-shared/endpoints/orders';
import { orderGroupHandlers } from './order-groups';
import { countCenti, engineOf, inSecondsWindow, isLiveOrder, liveCutoffs, ownOrder, priceTicks, requireShard, shardMatches, subaccountFilter } from './engine-access';
import { dollarsText, presentOrder } from './present';
import { caller, pageAfterKey, subaccountOf, type HandlerFamily, type HandlerMap } from './support';
import { idCounter } from '../engine/ids';
import { run, type Services } from '../core/services';

type CreateBody = z.output<typeof CreateOrderRequest>;

/** round(n / d) for non-negative safe integers, exactly. */
function divRound(n: number, d: number): number {
  return Number((2n * BigInt(n) + BigInt(d)) / (2n * BigInt(d)));
}

/** The create answer: the SDK's V2 summary (spec names included) plus the order itself. */
function createAnswer(o: OrderView, tsMs: number) {
  const fill = centiToCount(o.fill_count);
  const remaining = centiToCount(o.remaining_count);
  const out: Record<string, unknown> = {
    order_id: o.order_id,
    client_order_id: o.client_order_id,
    fill_count: fill,
    remaining_count: remaining,
    fill_count_fp: fill,
    remaining_count_fp: remaining,
    status: o.status,
    ts_ms: tsMs,
    order: presentOrder(o),
  };
  if (o.fill_count > 0) {
    // average on the YES leg: an ask buys NO, so its YES price is 1 - its own price
    const ownMicro = divRound((o.taker_fill_cost + o.maker_fill_cost) * 100, o.fill_count);
    out.average_fill_price = dollarsText(o.side === 'bid' ? ownMicro : 1_000_000 - ownMicro);
    out.average_fee_paid = dollarsText(divRound((o.taker_fees + o.maker_fees) * 100, o.fill_count));
  }
  return out;
}

/** Submits one create; the engine answers a reused client_order_id with the original order. */
async function place(svc: Services, ctx: HandlerCtx, body: CreateBody): Promise<Record<string, unknown>> {
  const c = caller(ctx);
  requireShard(body.exchange_index);
  const subaccount = subaccountOf(ctx, body.subaccount, 0);
  const nowMs = svc.node.now();
  const r = await run<ApiCreateOrderResult>(svc, {
    type: 'apiCreateOrder',
    nowMs,
    order: {
      userId: c.userId,
      ticker: body.ticker,
      side: body.side,
      priceTicks: priceTicks(body.price),
      countCenti: countCenti(body.count),
      timeInForce: body.time_in_force,
      selfTradePreventionType: body.self_trade_prevention_type,
      clientOrderId: body.client_order_id,
      subaccount,
      orderGroupId: body.order_group_id,
      expirationTime: body.expiration_time,
      postOnly: body.post_only,
    },
  });
  return createAnswer(r.order, nowMs);
}

function errorEntry(err: unknown): { code: string; message: string; details?: string } {
  if (err instanceof ExchangeError) return err.toBody().error;
  throw err;
}

/** The routed order of a cancel/decrease: -1 auto-routes by `market_ticker`, which must match. */
function routedOrder(svc: Services, ctx: HandlerCtx, orderId: string, subaccount: number | undefined, index: number | undefined, marketTicker: string | undefined): OrderView {
  requireShard(index);
  const sub = subaccountFilter(ctx, subaccount);
  const o = ownOrder(svc, ctx, orderId, sub);
  if (marketTicker !== undefined && marketTicker !== o.ticker) throw notFound(`order ${orderId} in market ${marketTicker}`);
  return o;
}

async function cancelOne(svc: Services, ctx: HandlerCtx, orderId: string, subaccount: number | undefined, index: number | undefined, marketTicker: string | undefined) {
  const o = routedOrder(svc, ctx, orderId, subaccount, index, marketTicker);
  const nowMs = svc.node.now();
  const r = await run<{ order: OrderView; reducedBy: number }>(svc, { type: 'cancelOrder', nowMs, userId: o.user_id, orderId, subaccount: o.subaccount });
  const reduced = centiToCount(r.reducedBy);
  return { order_id: orderId, client_order_id: r.order.client_order_id, reduced_by: reduced, reduced_by_fp: reduced, ts_ms: nowMs, order: presentOrder(r.order) };
}

/** The trading routes: order groups, order entry (create, cancel), changes (amend, decrease), order reads. */
export const tradingHandlers: HandlerFamily = (svc) => ({
  ...orderGroupHandlers(svc),
  ...orderEntryHandlers(svc),
  ...orderChangeHandlers(svc),
  ...orderReadHandlers(svc),
});

function orderEntryHandlers(svc: Services): HandlerMap {
  return {
    createOrder: (ctx) => place(svc, ctx, ctx.body as CreateBody),

    batchCreateOrders: async (ctx) => {
      const { orders } = ctx.body as z.output<typeof BatchCreateOrdersRequest>;
      // Started together: each create is applied in order at once, and they share the journal flush.
      const settled = await Promise.allSettled(orders.map(async (o) => place(svc, ctx, o)));
      return {
        orders: settled.map((s) => {
          if (s.status === 'fulfilled') return { ...s.value, error: null };
          return {
            order_id: null,
            client_order_id: null,
            fill_count: null,
            remaining_count: null,
            average_fill_price: null,
            average_fee_paid: null,
            ts_ms: null,
            error: errorEntry(s.reason),
          };
        }),
      };
    },

    cancelOrder: (ctx) => {
      const q = ctx.query as z.output<typeof CancelOrderQuery>;
      return cancelOne(svc, ctx, ctx.params.order_id!, q.subaccount, q.exchange_index, q.market_ticker);
    },

    cancelAllOrders: async (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { subaccount?: number };
      const subaccount = subaccountFilter(ctx, q.subaccount);
      await run(svc, { type: 'cancelAllOrders', nowMs: svc.node.now(), userId: c.userId, subaccount });
    },

    batchCancelOrders: async (ctx) => {
      const { orders } = ctx.body as z.output<typeof BatchCancelOrdersRequest>;
      const settled = await Promise.allSettled(orders.map(async (e) => cancelOne(svc, ctx, e.order_id, e.subaccount, e.exchange_index, e.market_ticker)));
      return {
        orders: settled.map((s, i) =>
          s.status === 'fulfilled'
            ? { ...s.value, error: null }
            : { order_id: orders[i]!.order_id, client_order_id: null, reduced_by: '0.00', reduced_by_fp: '0.00', ts_ms: null, error: errorEntry(s.reason) },
        ),
      };
    },
  };
}

function orderChangeHandlers(svc: Services): HandlerMap {
  return {
    amendOrder: async (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { subaccount?: number };
      const b = ctx.body as z.output<typeof AmendOrderRequest>;
      requireShard(b.exchange_index);
      const current = ownOrder(svc, ctx, ctx.params.order_id!, subaccountFilter(ctx, q.subaccount));
      if (b.client_order_id !== undefined && b.client_order_id !== current.client_order_id) {
        throw invalidParameters('client_order_id does not match the order (use updated_client_order_id to change it)');
      }
      const nowMs = svc.node.now();
      const r = await run<{ oldOrder: OrderView; order: OrderView }>(svc, {
        type: 'amendOrder',
        nowMs,
        userId: c.userId,
        orderId: current.order_id,
        subaccount: current.subaccount,
        ticker: b.ticker,
        side: b.side,
        priceTicks: priceTicks(b.price),
        countCenti: countCenti(b.count),
        expirationTime: b.expiration_time,
        updatedClientOrderId: b.updated_client_order_id,
      });
      const flat = createAnswer(r.order, nowMs);
      delete flat.order;
      return { ...flat, old_order: presentOrder(r.oldOrder), order: presentOrder(r.order) };
    },

    decreaseOrder: async (ctx) => {
      const q = ctx.query as { subaccount?: number };
      const b = ctx.body as z.output<typeof DecreaseOrderRequest>;
      const o = routedOrder(svc, ctx, ctx.params.order_id!, q.subaccount, b.exchange_index, b.market_ticker);
      const nowMs = svc.node.now();
      const r = await run<{ order: OrderView; reducedBy: number }>(svc, {
        type: 'decreaseOrder',
        nowMs,
        userId: o.user_id,
        orderId: o.order_id,
        subaccount: o.subaccount,
        reduceBy: b.reduce_by === undefined ? undefined : countCenti(b.reduce_by, 'reduce_by'),
        reduceTo: b.reduce_to === undefined ? undefined : countCenti(b.reduce_to, 'reduce_to'),
      });
      const remaining = centiToCount(r.order.remaining_count);
      const reduced = centiToCount(r.reducedBy);
      return {
        order_id: r.order.order_id,
        client_order_id: r.order.client_order_id,
        remaining_count: remaining,
        remaining_count_fp: remaining,
        reduced_by: reduced,
        reduced_by_fp: reduced,
        ts_ms: nowMs,
        order: presentOrder(r.order),
      };
    },
  };
}

function orderReadHandlers(svc: Services): HandlerMap {
  return {
    getOrder: (ctx) => {
      const o = ownOrder(svc, ctx, ctx.params.order_id!, subaccountFilter(ctx, undefined));
      if (!isLiveOrder(o, liveCutoffs(ctx))) throw notFound(`order ${o.order_id} (finished before the historical cutoff: GET /historical/orders)`);
      return { order: presentOrder(o) };
    },

    getOrders: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetOrdersQuery>;
      const subaccount = subaccountFilter(ctx, q.subaccount);
      if (q.min_ts !== undefined && q.max_ts !== undefined && q.min_ts > q.max_ts) throw invalidParameters('min_ts is after max_ts');
      const events = q.event_ticker && q.event_ticker.length ? new Set(q.event_ticker) : null;
      const cut = liveCutoffs(ctx);
      const all = shardMatches(q.exchange_index)
        ? engineOf(svc)
            .listOrders({ userId: c.userId, subaccount, ticker: q.ticker, status: q.status })
            .filter((o) => isLiveOrder(o, cut) && (!events || events.has(o.event_ticker)) && inSecondsWindow(o.created_time, q.min_ts, q.max_ts))
        : [];
      // newest first, paged by the order's creation counter (its id's): stable while orders come
      // and go between a client's pages (listOrders gives creation order, checked, not assumed)
      const keyed = all.map((o) => ({ o, k: idCounter(o.order_id) }));
      for (let i = 1; i < keyed.length; i++) {
        if (keyed[i]!.k >= keyed[i - 1]!.k) {
          keyed.sort((a, b) => b.k - a.k);
          break;
        }
      }
      const page = pageAfterKey(keyed, q.cursor, q.limit, (x) => x.k);
      return { orders: page.items.map((x) => presentOrder(x.o)), cursor: page.cursor, has_next: page.has_next };
    },

    getQueuePositions: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { market_tickers?: string[]; event_ticker?: string; subaccount?: number };
      const tickers = q.market_tickers && q.market_tickers.length ? new Set(q.market_tickers) : null;
      if (!tickers && !q.event_ticker) throw invalidParameters('give market_tickers or event_ticker');
      const engine = engineOf(svc);
      const subaccount = subaccountFilter(ctx, q.subaccount);
      return engine
        .listOrders({ userId: c.userId, subaccount, status: 'resting', eventTicker: q.event_ticker })
        .filter((o) => !tickers || tickers.has(o.ticker))
        .reverse() // oldest first
        .map((o) => {
          const ahead = centiToCount(engine.queuePosition(o.order_id) ?? 0);
          return { order_id: o.order_id, market_ticker: o.ticker, queue_position: ahead, queue_position_fp: ahead };
        });
    },

    getOrderQueuePosition: (ctx) => {
      const o = ownOrder(svc, ctx, ctx.params.order_id!, subaccountFilter(ctx, undefined));
      const ahead = engineOf(svc).queuePosition(o.order_id);
      if (ahead === undefined) throw notFound(`resting order ${o.order_id} (it is ${o.status})`);
      // the spec's form: a bare decimal
      return centiToCount(ahead);
    },
  };
}

