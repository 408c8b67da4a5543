// V2 event-market orders (create, amend, decrease, cancel, batch), the order read model,
// queue positions and order groups.
import { z } from 'zod';
import { openEnum } from './novelty';
import {
  CountIn,
  CountRequest,
  CountRequestOrZero,
  CountText,
  DollarsIn,
  EntryError,
  ExchangeIndex,
  Id,
  listOf,
  nullableArray,
  oneOf,
  pageOf,
  pick,
  PriceRequest,
  Subaccount,
  Ticker,
  UnixMillis,
  withInput,
} from './common';

/** Order entry is on the YES leg: `bid` buys YES, `ask` sells YES. Not `yes`/`no`. */
export const BookSide = z.enum(['bid', 'ask'], { message: "side must be 'bid' or 'ask' (not yes/no)" });
export type BookSide = z.output<typeof BookSide>;

export const TimeInForce = z.enum(['fill_or_kill', 'good_till_canceled', 'immediate_or_cancel']);
export type TimeInForce = z.output<typeof TimeInForce>;

export const SelfTradePreventionType = z.enum(['taker_at_cross', 'maker']);
export type SelfTradePreventionType = z.output<typeof SelfTradePreventionType>;

/** Order status filter (exact, as sent). */
export const OrderStatus = z.enum(['resting', 'canceled', 'executed']);
export type OrderStatus = z.output<typeof OrderStatus>;
/** Order status as read: open (a status the service adds is kept); a remote `cancelled` is read as `canceled`. */
const OrderStatusIn = openEnum('order.status', OrderStatus.options, { cancelled: 'canceled' });

/** `market_ticker` is required when `exchange_index` is -1 (auto-route by ticker). */
function requireTickerForAutoRoute(ctx: z.RefinementCtx, v: { exchange_index?: number | undefined; market_ticker?: string | undefined }) {
  if (v.exchange_index === -1 && !v.market_ticker) {
    ctx.addIssue({ code: 'custom', path: ['market_ticker'], message: 'market_ticker is required when exchange_index is -1 (auto-route)' });
  }
}

/**
 * Create request (POST /portfolio/events/orders). Strict: unknown fields are rejected. Besides the
 * spec's fields it takes the SDK's `expiration_time` (Unix seconds; with good_till_canceled) and
 * `post_only` (cancel instead of crossing), which the exchange honours.
 */
export const CreateOrderRequest = z
  .object({
    ticker: Ticker,
    client_order_id: z.string().min(1).optional(),
    side: BookSide,
    count: CountRequest,
    price: PriceRequest,
    time_in_force: TimeInForce.optional(),
    self_trade_prevention_type: SelfTradePreventionType.optional(),
    subaccount: Subaccount.optional(),
    exchange_index: ExchangeIndex.optional(),
    order_group_id: Id.optional(),
    expiration_time: z.number().int().nonnegative().optional(),
    post_only: z.boolean().optional(),
  })
  .strict();
export type CreateOrderRequest = z.output<typeof CreateOrderRequest>;

/** Create response: `order_id`, `fill_count`, `remaining_count` (count strings), `ts_ms`. */
export const CreateOrderResponse = z
  .object({
    order_id: Id,
    client_order_id: z.string().nullish(),
    fill_count: CountIn.optional(),
    remaining_count: CountIn.optional(),
    fill_count_fp: CountIn.optional(),
    remaining_count_fp: CountIn.optional(),
    average_fill_price: DollarsIn.optional(),
    average_fee_paid: DollarsIn.optional(),
    ts_ms: UnixMillis.optional(),
  })
  .loose()
  .transform(({ fill_count_fp, remaining_count_fp, ...r }, ctx) => ({
    ...r,
    fill_count: pick(ctx, 'fill_count', r.fill_count, fill_count_fp),
    remaining_count: pick(ctx, 'remaining_count', r.remaining_count, remaining_count_fp),
  }));
export type CreateOrderResponse = z.output<typeof CreateOrderResponse>;

export const BatchCreateOrdersRequest = z
  .object({ orders: z.array(CreateOrderRequest).min(1, 'orders needs at least one order') })
  .strict();
export type BatchCreateOrdersRequest = z.output<typeof BatchCreateOrdersRequest>;

/** One batch-create result: success fields, or an `error` with the other fields null. */
export const BatchCreateOrderResult = z
  .object({
    order_id: z.string().nullish(),
    client_order_id: z.string().nullish(),
    fill_count: CountIn.nullish(),
    remaining_count: CountIn.nullish(),
    average_fill_price: DollarsIn.nullish(),
    average_fee_paid: DollarsIn.nullish(),
    ts_ms: UnixMillis.nullish(),
    error: EntryError.nullish(),
  })
  .loose();
export type BatchCreateOrderResult = z.output<typeof BatchCreateOrderResult>;
export const BatchCreateOrdersResponse = z.object({ orders: nullableArray(BatchCreateOrderResult) });
export type BatchCreateOrdersResponse = z.output<typeof BatchCreateOrdersResponse>;

/** Cancel answers 200 with a body (a 204 would be a protocol violation). */
export const CancelOrderResponse = z
  .object({
    order_id: z.string().optional(),
    client_order_id: z.string().nullish(),
    reduced_by: CountIn.optional(),
    reduced_by_fp: CountIn.optional(),
    ts_ms: UnixMillis,
  })
  .loose()
  .transform(({ reduced_by_fp, ...r }, ctx) => ({ ...r, reduced_by: pick(ctx, 'reduced_by', r.reduced_by, reduced_by_fp) }));
export type CancelOrderResponse = z.output<typeof CancelOrderResponse>;

export const BatchCancelEntry = z
  .object({
    order_id: Id,
    subaccount: Subaccount.optional(),
    exchange_index: ExchangeIndex.optional(),
    market_ticker: Ticker.optional(),
  })
  .strict()
  .superRefine((v, ctx) => requireTickerForAutoRoute(ctx, v));
export const BatchCancelOrdersRequest = z
  .object({ orders: z.array(BatchCancelEntry).min(1, 'orders needs at least one entry') })
  .strict();
export type BatchCancelOrdersRequest = z.output<typeof BatchCancelOrdersRequest>;

/** One batch-cancel result: `reduced_by` is zero on error. */
export const BatchCancelOrderResult = z
  .object({
    order_id: z.string(),
    client_order_id: z.string().nullish(),
    reduced_by: CountIn.optional(),
    reduced_by_fp: CountIn.optional(),
    ts_ms: UnixMillis.nullish(),
    error: EntryError.nullish(),
  })
  .loose()
  .transform(({ reduced_by_fp, ...r }) => ({ ...r, reduced_by: r.reduced_by ?? reduced_by_fp ?? '0' }));
export type BatchCancelOrderResult = z.output<typeof BatchCancelOrderResult>;
export const BatchCancelOrdersResponse = z.object({ orders: nullableArray(BatchCancelOrderResult) });
export type BatchCancelOrdersResponse = z.output<typeof BatchCancelOrdersResponse>;

/** Amend: `count` is the total (max fillable) count; `expiration_time` 0 clears expiry. */
export const AmendOrderRequest = z
  .object({
    ticker: Ticker,
    side: BookSide,
    price: PriceRequest,
    count: CountRequest,
    client_order_id: z.string().min(1).optional(),
    updated_client_order_id: z.string().min(1).optional(),
    exchange_index: ExchangeIndex.optional(),
    expiration_time: z.number().int().nonnegative().optional(),
  })
  .strict();
export type AmendOrderRequest = z.output<typeof AmendOrderRequest>;

/** Decrease: exactly one of `reduce_by` / `reduce_to`; `market_ticker` needed with exchange_index -1. */
export const DecreaseOrderRequest = z
  .object({
    reduce_by: CountRequest.optional(),
    reduce_to: CountRequestOrZero.optional(),
    exchange_index: ExchangeIndex.optional(),
    market_ticker: Ticker.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.reduce_by === undefined) === (v.reduce_to === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of reduce_by or reduce_to' });
    }
    requireTickerForAutoRoute(ctx, v);
  });
export type DecreaseOrderRequest = z.output<typeof DecreaseOrderRequest>;

export const DecreaseOrderResponse = z
  .object({
    order_id: z.string().optional(),
    client_order_id: z.string().nullish(),
    remaining_count: CountIn.optional(),
    remaining_count_fp: CountIn.optional(),
    ts_ms: UnixMillis.optional(),
  })
  .loose()
  .transform(({ remaining_count_fp, ...r }) => ({ ...r, remaining_count: r.remaining_count ?? remaining_count_fp }));
export type DecreaseOrderResponse = z.output<typeof DecreaseOrderResponse>;

/** The order read model (list/get). Spec names `order_id`, `client_order_id`, `ticker`, `status`, `remaining_count`. */
export const Order = z
  .object({
    order_id: Id,
    client_order_id: z.string().nullish(),
    user_id: z.string().optional(),
    ticker: z.string().min(1),
    status: OrderStatusIn,
    book_side: openEnum('order.book_side', BookSide.options).optional(),
    outcome_side: openEnum('order.outcome_side', ['yes', 'no']).optional(),
    side: openEnum('order.side', ['yes', 'no']).optional(),
    action: openEnum('order.action', ['buy', 'sell']).optional(),
    type: openEnum('order.type', ['limit', 'market']).optional(),
    yes_price_dollars: DollarsIn.optional(),
    no_price_dollars: DollarsIn.optional(),
    fill_count_fp: CountIn.optional(),
    remaining_count_fp: CountIn,
    initial_count_fp: CountIn.optional(),
    taker_fill_cost_dollars: DollarsIn.optional(),
    maker_fill_cost_dollars: DollarsIn.optional(),
    taker_fees_dollars: DollarsIn.optional(),
    maker_fees_dollars: DollarsIn.optional(),
    expiration_time: z.string().nullish(),
    created_time: z.string().nullish(),
    last_update_time: z.string().nullish(),
    self_trade_prevention_type: openEnum('order.self_trade_prevention_type', SelfTradePreventionType.options).nullish(),
    order_group_id: z.string().nullish(),
    cancel_order_on_pause: z.boolean().optional(),
    subaccount_number: Subaccount.nullish(),
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type Order = z.output<typeof Order>;

export const OrderResponse = z.object({ order: Order });
export type OrderResponse = z.output<typeof OrderResponse>;
export const OrdersPage = pageOf('orders', Order);
export type OrdersPage = z.output<typeof OrdersPage>;

/** An entry of the amend answer: at least the `order_id` (full order fields when sent). */
export const AmendedOrder = z.object({ order_id: Id }).loose();

/**
 * Amend: spec `{ old_order, order }` (each with `order_id`); the SDK's V2 answer is one flat
 * order summary `{ order_id, remaining_count, fill_count, ts_ms, ... }`. Both fit in one object, so
 * the exchange sends both; the output is always `{ old_order, order, ...flat fields }`.
 */
export const AmendOrderResponse = z
  .object({
    old_order: AmendedOrder.optional(),
    order: AmendedOrder.optional(),
    order_id: z.string().optional(),
    client_order_id: z.string().nullish(),
    remaining_count: CountIn.optional(),
    fill_count: CountIn.optional(),
    average_fill_price: DollarsIn.optional(),
    average_fee_paid: DollarsIn.optional(),
    ts_ms: UnixMillis.optional(),
  })
  .loose()
  .transform((r, ctx) => {
    const { old_order, order, ...flat } = r;
    const orderId = pick(ctx, 'order (or the SDK flat order_id)', order?.order_id, flat.order_id);
    return {
      ...flat,
      old_order: old_order ?? { order_id: orderId },
      order: order ?? { ...flat, order_id: orderId },
    };
  });
export type AmendOrderResponse = z.output<typeof AmendOrderResponse>;

/**
 * Queue position of one order: spec a bare decimal, SDK `{ queue_position_fp }`. Output: the
 * decimal text.
 */
export const QueuePositionResponse = withInput<string | { queue_position_fp?: string; queue_position?: string }>()(
  (v) => (typeof v === 'string' ? { queue_position: v } : v),
  z
    .object({ queue_position_fp: CountIn.optional(), queue_position: CountIn.optional() })
    .loose()
    .transform((v, ctx) => pick(ctx, 'queue_position_fp (or a bare decimal)', v.queue_position_fp, v.queue_position)),
);
export type QueuePositionResponse = z.output<typeof QueuePositionResponse>;

/** Spec entry `{order_id, queue_position}`; SDK `{order_id, market_ticker, queue_position_fp}`. */
export const QueuePosition = z
  .object({
    order_id: Id,
    market_ticker: z.string().optional(),
    queue_position: CountIn.optional(),
    queue_position_fp: CountIn.optional(),
  })
  .loose()
  .transform(({ queue_position_fp, ...q }, ctx) => ({
    ...q,
    queue_position: pick(ctx, 'queue_position (or the SDK queue_position_fp)', q.queue_position, queue_position_fp),
  }));
export type QueuePosition = z.output<typeof QueuePosition>;

/** GET /portfolio/orders/queue_positions: spec a bare array, SDK `{ queue_positions }`. Output the envelope. */
export const QueuePositionsResponse = listOf('queue_positions', QueuePosition);
export type QueuePositionsResponse = z.output<typeof QueuePositionsResponse>;

// ---------------------------------------------------------------------------
// Order groups

const contractsLimitFields = {
  contracts_limit: z.union([z.number().int().positive(), CountRequest]).optional(),
  contracts_limit_fp: CountRequest.optional(),
};

/**
 * `contracts_limit` (spec; the SDK sends whole contracts as an integer) or the SDK's
 * `contracts_limit_fp`; at least one, equal when both. Output: `contracts_limit` as count text.
 */
function contractsLimit(ctx: z.RefinementCtx, a: number | string | undefined, b: string | undefined): string {
  const limit = oneOf(ctx, 'contracts_limit / contracts_limit_fp', a, b);
  if (limit === undefined) {
    ctx.addIssue({ code: 'custom', message: 'contracts_limit is required' });
    return z.NEVER;
  }
  return String(limit);
}

/** Only exchange index 0 supports order groups. */
export const CreateOrderGroupRequest = z
  .object({
    ...contractsLimitFields,
    subaccount: Subaccount.optional(),
    exchange_index: z.literal(0, { message: 'order groups exist only on exchange_index 0' }).optional(),
  })
  .strict()
  .transform(({ contracts_limit, contracts_limit_fp, ...rest }, ctx) => ({
    ...rest,
    contracts_limit: contractsLimit(ctx, contracts_limit, contracts_limit_fp),
  }));
export type CreateOrderGroupRequest = z.output<typeof CreateOrderGroupRequest>;

export const UpdateOrderGroupLimitRequest = z
  .object(contractsLimitFields)
  .strict()
  .transform(({ contracts_limit, contracts_limit_fp }, ctx) => ({ contracts_limit: contractsLimit(ctx, contracts_limit, contracts_limit_fp) }));
export type UpdateOrderGroupLimitRequest = z.output<typeof UpdateOrderGroupLimitRequest>;

export const CreateOrderGroupResponse = z
  .object({
    order_group_id: z.string().optional(),
    id: z.string().optional(),
    subaccount: Subaccount.optional(),
    exchange_index: ExchangeIndex.optional(),
  })
  .loose()
  .transform((r, ctx) => ({ ...r, order_group_id: pick(ctx, 'order_group_id', r.order_group_id, r.id) }));
export type CreateOrderGroupResponse = z.output<typeof CreateOrderGroupResponse>;

const orderGroupFields = {
  order_group_id: z.string().optional(),
  id: z.string().optional(),
  contracts_limit: CountText.optional(),
  contracts_limit_fp: CountIn.optional(),
  contracts_used: CountText.optional(),
  contracts_used_fp: CountIn.optional(),
  is_auto_cancel_enabled: z.boolean().optional(),
  exchange_index: ExchangeIndex.optional(),
};

type OrderGroupIn = {
  order_group_id?: string | undefined;
  id?: string | undefined;
  contracts_limit?: string | undefined;
  contracts_limit_fp?: string | undefined;
  contracts_used?: string | undefined;
  contracts_used_fp?: string | undefined;
};

function normaliseGroup<T extends OrderGroupIn>(g: T) {
  const { contracts_limit_fp, contracts_used_fp, id, order_group_id, ...rest } = g;
  return {
    ...rest,
    order_group_id: order_group_id ?? id,
    contracts_limit: g.contracts_limit ?? contracts_limit_fp,
    contracts_used: g.contracts_used ?? contracts_used_fp,
  };
}

/**
 * Order group: spec `order_group_id`, `contracts_limit`, `contracts_used`; SDK `id`,
 * `contracts_limit_fp`. Output has the spec's names (counts as text).
 */
export const OrderGroup = z
  .object(orderGroupFields)
  .loose()
  .transform((g, ctx) => {
    const out = normaliseGroup(g);
    return { ...out, order_group_id: pick(ctx, 'order_group_id (or the SDK id)', out.order_group_id) };
  });
export type OrderGroup = z.output<typeof OrderGroup>;

/** GET /portfolio/order_groups: spec a plain array (no cursor), SDK `{ order_groups }`. Output the envelope. */
export const OrderGroupsResponse = listOf('order_groups', OrderGroup);
export type OrderGroupsResponse = z.output<typeof OrderGroupsResponse>;

/**
 * Group detail: the group plus `orders` (order ids). The SDK's detail is flat and carries no id, so
 * `order_group_id` is optional here.
 */
export const OrderGroupDetail = z
  .object({ ...orderGroupFields, orders: nullableArray(z.string()) })
  .loose()
  .transform((g) => normaliseGroup(g));
export type OrderGroupDetail = z.output<typeof OrderGroupDetail>;
