// V2 order writes (/portfolio/events/orders/*) and order reads (/portfolio/orders/*).
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, pageQuery, qCsv, qExchangeIndex, qSubaccount, qTs } from './query';
import { EmptyResponse, Id, Ticker } from '../wire/common';
import {
  AmendOrderRequest,
  AmendOrderResponse,
  BatchCancelOrdersRequest,
  BatchCancelOrdersResponse,
  BatchCreateOrdersRequest,
  BatchCreateOrdersResponse,
  CancelOrderResponse,
  CreateOrderRequest,
  CreateOrderResponse,
  DecreaseOrderRequest,
  DecreaseOrderResponse,
  OrderResponse,
  OrdersPage,
  OrderStatus,
  QueuePositionResponse,
  QueuePositionsResponse,
} from '../wire/orders';

const orderIdParams = z.object({ order_id: Id }).strict();
const subaccountQuery = z.object({ subaccount: qSubaccount.optional() }).strict();

/** Cancel routes `subaccount` and `exchange_index` in the query; -1 auto-routes by `market_ticker`. */
export const CancelOrderQuery = z
  .object({
    subaccount: qSubaccount.optional(),
    exchange_index: qExchangeIndex.optional(),
    market_ticker: Ticker.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.exchange_index === -1 && !q.market_ticker) {
      ctx.addIssue({ code: 'custom', path: ['market_ticker'], message: 'market_ticker is required when exchange_index is -1 (auto-route)' });
    }
  });

export const GetOrdersQuery = z
  .object({
    ticker: Ticker.optional(),
    event_ticker: qCsv(Ticker, 10_000, 0, 'event_ticker').optional(),
    status: OrderStatus.optional(),
    min_ts: qTs.optional(),
    max_ts: qTs.optional(),
    ...pageQuery,
    subaccount: qSubaccount.optional(),
    exchange_index: qExchangeIndex.optional(),
  })
  .strict();

export const orderEndpoints = {
  createOrder: endpoint({
    id: 'createOrder',
    method: 'POST',
    path: '/portfolio/events/orders',
    auth: 'signed',
    bucket: 'write',
    renderer: 'exposure',
    params: noParams,
    query: noQuery,
    body: CreateOrderRequest,
    response: CreateOrderResponse,
    status: 201,
    summary: 'Place an order (V2, YES leg, bid/ask); a reused client_order_id returns the original order',
  }),
  batchCreateOrders: endpoint({
    id: 'batchCreateOrders',
    method: 'POST',
    path: '/portfolio/events/orders/batched',
    auth: 'signed',
    bucket: 'write',
    renderer: 'exposure',
    batch: { itemsField: 'orders', perItemCost: 10 },
    params: noParams,
    query: noQuery,
    body: BatchCreateOrdersRequest,
    response: BatchCreateOrdersResponse,
    status: 201,
    summary: 'Place several orders; per-entry errors inside a success answer',
  }),
  cancelOrder: endpoint({
    id: 'cancelOrder',
    method: 'DELETE',
    path: '/portfolio/events/orders/{order_id}',
    auth: 'signed',
    bucket: 'write',
    params: orderIdParams,
    query: CancelOrderQuery,
    body: null,
    response: CancelOrderResponse,
    status: 200,
    summary: 'Cancel one order; answers 200 with reduced_by and ts_ms (404 if already gone)',
  }),
  cancelAllOrders: endpoint({
    id: 'cancelAllOrders',
    method: 'DELETE',
    path: '/portfolio/events/orders',
    auth: 'signed',
    bucket: 'write',
    params: noParams,
    query: subaccountQuery,
    body: null,
    response: EmptyResponse,
    status: 204,
    summary: 'Cancel up to 10,000 resting orders of the caller (204)',
  }),
  batchCancelOrders: endpoint({
    id: 'batchCancelOrders',
    method: 'DELETE',
    path: '/portfolio/events/orders/batched',
    auth: 'signed',
    bucket: 'write',
    batch: { itemsField: 'orders', perItemCost: 2 },
    params: noParams,
    query: noQuery,
    body: BatchCancelOrdersRequest,
    response: BatchCancelOrdersResponse,
    status: 200,
    summary: 'Cancel several orders; per-entry errors inside a success answer',
  }),
  amendOrder: endpoint({
    id: 'amendOrder',
    method: 'POST',
    path: '/portfolio/events/orders/{order_id}/amend',
    auth: 'signed',
    bucket: 'write',
    renderer: 'exposure',
    params: orderIdParams,
    query: subaccountQuery,
    body: AmendOrderRequest,
    response: AmendOrderResponse,
    status: 200,
    summary: 'Change price and total count of a resting order; answers old_order and order',
  }),
  decreaseOrder: endpoint({
    id: 'decreaseOrder',
    method: 'POST',
    path: '/portfolio/events/orders/{order_id}/decrease',
    auth: 'signed',
    bucket: 'write',
    params: orderIdParams,
    query: subaccountQuery,
    body: DecreaseOrderRequest,
    response: DecreaseOrderResponse,
    status: 200,
    summary: 'Shrink a resting order by reduce_by or to reduce_to (exactly one)',
  }),
  getOrder: endpoint({
    id: 'getOrder',
    method: 'GET',
    path: '/portfolio/orders/{order_id}',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: orderIdParams,
    query: noQuery,
    body: null,
    response: OrderResponse,
    status: 200,
    summary: 'One order of the caller',
  }),
  getOrders: endpoint({
    id: 'getOrders',
    method: 'GET',
    path: '/portfolio/orders',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: GetOrdersQuery,
    arrays: { event_ticker: 'comma' },
    body: null,
    response: OrdersPage,
    status: 200,
    page: { items: 'orders', sizeParam: 'limit' },
    summary: "The caller's orders, newest first (all shards unless exchange_index)",
  }),
  getQueuePositions: endpoint({
    id: 'getQueuePositions',
    method: 'GET',
    path: '/portfolio/orders/queue_positions',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        market_tickers: qCsv(Ticker, 10_000, 0, 'market_tickers').optional(),
        event_ticker: Ticker.optional(),
        subaccount: qSubaccount.optional(),
      })
      .strict(),
    arrays: { market_tickers: 'comma' },
    body: null,
    response: QueuePositionsResponse,
    status: 200,
    summary: 'Queue positions of resting orders (normalised to { queue_positions: [...] })',
  }),
  getOrderQueuePosition: endpoint({
    id: 'getOrderQueuePosition',
    method: 'GET',
    path: '/portfolio/orders/{order_id}/queue_position',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: orderIdParams,
    query: noQuery,
    body: null,
    response: QueuePositionResponse,
    status: 200,
    summary: 'Queue position of one order (a bare decimal; the SDK form is read too)',
  }),
} as const;
