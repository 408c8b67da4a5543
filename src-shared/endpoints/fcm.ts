// Clearing-member (FCM) routes. Every row is fcmOnly: other accounts get 401/403.
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, pageQuery, qCsv, qTs } from './query';
import { EmptyResponse, Id, Ticker } from '../wire/common';
import { OrdersPage, OrderStatus } from '../wire/orders';
import { PositionsResponse, SettlementStatus } from '../wire/portfolio';
import {
  BlockedCategories,
  CreateSubtraderRequest,
  CreateSubtraderResponse,
  DailyCap,
  FcmFillsPage,
  SetBlockedCategoryRequest,
  SetDailyCapRequest,
  SubtradersResponse,
} from '../wire/fcm';

/** `subtrader_id` is required unless `client_order_ids` is given. */
export const GetFcmOrdersQuery = z
  .object({
    subtrader_id: Id.optional(),
    client_order_ids: qCsv(z.string().min(1), 10_000, 0, 'client_order_ids').optional(),
    ticker: Ticker.optional(),
    event_ticker: Ticker.optional(),
    status: OrderStatus.optional(),
    min_ts: qTs.optional(),
    max_ts: qTs.optional(),
    ...pageQuery,
  })
  .strict()
  .superRefine((q, ctx) => {
    if (!q.subtrader_id && !(q.client_order_ids && q.client_order_ids.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['subtrader_id'], message: 'subtrader_id is required unless client_order_ids is given' });
    }
  });

const subtraderQuery = z.object({ subtrader_id: Id }).strict();
const fcm = { auth: 'signed', bucket: 'read', fcmOnly: true } as const;

export const fcmEndpoints = {
  getFcmOrders: endpoint({
    id: 'getFcmOrders',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/orders',
    ...fcm,
    params: noParams,
    query: GetFcmOrdersQuery,
    arrays: { client_order_ids: 'comma' },
    body: null,
    response: OrdersPage,
    status: 200,
    page: { items: 'orders', sizeParam: 'limit' },
    summary: "A subtrader's orders (or orders by client_order_ids)",
  }),
  getFcmFills: endpoint({
    id: 'getFcmFills',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/fills',
    ...fcm,
    params: noParams,
    query: z.object({ min_ts: qTs.optional(), max_ts: qTs.optional(), cursor: z.string().optional() }).strict(),
    body: null,
    response: FcmFillsPage,
    status: 200,
    page: { items: 'fills', sizeParam: null },
    summary: "Fills across the FCM's subtraders (no limit parameter)",
  }),
  getFcmPositions: endpoint({
    id: 'getFcmPositions',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/positions',
    ...fcm,
    params: noParams,
    query: z
      .object({
        subtrader_id: Id,
        ticker: Ticker.optional(),
        event_ticker: Ticker.optional(),
        count_filter: z.string().min(1).optional(),
        settlement_status: SettlementStatus.optional(),
        ...pageQuery,
      })
      .strict(),
    body: null,
    response: PositionsResponse,
    status: 200,
    page: { items: 'market_positions', sizeParam: 'limit' },
    summary: "A subtrader's positions",
  }),
  getSubtraders: endpoint({
    id: 'getSubtraders',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/subtraders',
    ...fcm,
    params: noParams,
    query: noQuery,
    body: null,
    response: SubtradersResponse,
    status: 200,
    summary: "The FCM's subtraders",
  }),
  createSubtrader: endpoint({
    id: 'createSubtrader',
    method: 'POST',
    renderer: 'write',
    path: '/fcm/subtraders',
    ...fcm,
    params: noParams,
    query: noQuery,
    body: CreateSubtraderRequest,
    response: CreateSubtraderResponse,
    status: 201,
    summary: 'Create subtrader {account_id}_{suffix}',
  }),
  getSubtraderBlockedCategories: endpoint({
    id: 'getSubtraderBlockedCategories',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/subtraders/blocked_categories',
    ...fcm,
    params: noParams,
    query: subtraderQuery,
    body: null,
    response: BlockedCategories,
    status: 200,
    summary: 'Event categories blocked for a subtrader',
  }),
  setSubtraderBlockedCategory: endpoint({
    id: 'setSubtraderBlockedCategory',
    method: 'PUT',
    renderer: 'write',
    path: '/fcm/subtraders/blocked_categories',
    ...fcm,
    params: noParams,
    query: noQuery,
    body: SetBlockedCategoryRequest,
    response: BlockedCategories,
    status: 200,
    summary: 'Block or unblock one category for a subtrader; answers the full set',
  }),
  getSubtraderDailyCap: endpoint({
    id: 'getSubtraderDailyCap',
    method: 'GET',
    renderer: 'read',
    path: '/fcm/subtraders/event_contract_daily_cap',
    ...fcm,
    params: noParams,
    query: subtraderQuery,
    body: null,
    response: DailyCap,
    status: 200,
    summary: "A subtrader's daily event-contract notional cap",
  }),
  setSubtraderDailyCap: endpoint({
    id: 'setSubtraderDailyCap',
    method: 'PUT',
    renderer: 'write',
    path: '/fcm/subtraders/event_contract_daily_cap',
    ...fcm,
    params: noParams,
    query: noQuery,
    body: SetDailyCapRequest,
    response: EmptyResponse,
    status: 200,
    summary: "Set a subtrader's daily cap (dollars)",
  }),
  clearSubtraderDailyCap: endpoint({
    id: 'clearSubtraderDailyCap',
    method: 'DELETE',
    renderer: 'write',
    path: '/fcm/subtraders/event_contract_daily_cap',
    ...fcm,
    params: noParams,
    query: subtraderQuery,
    body: null,
    response: EmptyResponse,
    status: 200,
    summary: "Remove a subtrader's daily cap",
  }),
} as const;
