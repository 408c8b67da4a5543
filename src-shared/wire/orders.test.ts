import { describe, expect, it } from 'vitest';
import { collectNovelties } from './novelty';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import {
  AmendOrderRequest,
  AmendOrderResponse,
  BatchCancelOrdersRequest,
  BatchCreateOrdersRequest,
  BatchCreateOrdersResponse,
  CancelOrderResponse,
  CreateOrderGroupRequest,
  CreateOrderRequest,
  CreateOrderResponse,
  DecreaseOrderRequest,
  Order,
  OrderGroup,
  OrderGroupDetail,
  OrderGroupsResponse,
  QueuePositionResponse,
  QueuePositionsResponse,
  UpdateOrderGroupLimitRequest,
} from './orders';
import { responseSamples, sampleOrder, sdkResponseSamples } from './samples';

/** The readable message of a failed parse (fails the test if it parsed). */
function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

const goodCreate = { ticker: 'KXTEST-25JAN01-T50', client_order_id: 'c-1', side: 'bid', count: '10', price: '0.4500' };

describe('order create request', () => {
  it('accepts the spec fields and the optional ones', () => {
    expect(CreateOrderRequest.parse(goodCreate)).toEqual(goodCreate);
    const full = { ...goodCreate, time_in_force: 'immediate_or_cancel', self_trade_prevention_type: 'maker', subaccount: 3, exchange_index: -1, order_group_id: 'og-1' };
    expect(CreateOrderRequest.parse(full)).toEqual(full);
  });

  it('rejects unknown fields (strict), e.g. the V1 action and yes_price', () => {
    expect(rejects(CreateOrderRequest, { ...goodCreate, action: 'buy' })).toMatch(/action/);
    expect(rejects(CreateOrderRequest, { ...goodCreate, yes_price: 45 })).toMatch(/yes_price/);
  });

  it("takes side 'bid' or 'ask', not yes/no", () => {
    expect(rejects(CreateOrderRequest, { ...goodCreate, side: 'yes' })).toMatch(/bid.*ask/);
    expect(CreateOrderRequest.parse({ ...goodCreate, side: 'ask' }).side).toBe('ask');
  });

  it('needs a price that is a non-negative multiple of 0.0001 as a string', () => {
    rejects(CreateOrderRequest, { ...goodCreate, price: '0.45001' });
    rejects(CreateOrderRequest, { ...goodCreate, price: '-0.45' });
    rejects(CreateOrderRequest, { ...goodCreate, price: 0.45 });
    expect(CreateOrderRequest.parse({ ...goodCreate, price: '0.0001' }).price).toBe('0.0001');
  });

  it('needs a positive count with at most 2 decimals, as a string', () => {
    expect(rejects(CreateOrderRequest, { ...goodCreate, count: '1.005' })).toMatch(/2 decimals/);
    expect(rejects(CreateOrderRequest, { ...goodCreate, count: '0' })).toMatch(/positive/);
    rejects(CreateOrderRequest, { ...goodCreate, count: 10 });
    expect(CreateOrderRequest.parse({ ...goodCreate, count: '2.50' }).count).toBe('2.50');
  });

  it('checks time_in_force, self_trade_prevention_type and subaccount 0-63', () => {
    rejects(CreateOrderRequest, { ...goodCreate, time_in_force: 'gtc' });
    rejects(CreateOrderRequest, { ...goodCreate, self_trade_prevention_type: 'cancel_both' });
    rejects(CreateOrderRequest, { ...goodCreate, subaccount: 64 });
    rejects(CreateOrderRequest, { ...goodCreate, subaccount: -1 });
  });

  it('batch create takes 1+ create bodies, each strict', () => {
    expect(BatchCreateOrdersRequest.parse({ orders: [goodCreate, goodCreate] }).orders).toHaveLength(2);
    rejects(BatchCreateOrdersRequest, { orders: [] });
    rejects(BatchCreateOrdersRequest, { orders: [{ ...goodCreate, extra: 1 }] });
  });
});

describe('order create / cancel / batch responses', () => {
  it('reads the create answer and rejects numbers for counts', () => {
    const r = CreateOrderResponse.parse(responseSamples.createOrder);
    expect(r).toMatchObject({ order_id: 'ord-1', fill_count: '0.00', remaining_count: '10.00' });
    rejects(CreateOrderResponse, { order_id: 'o', fill_count: 0, remaining_count: 10 });
  });

  it('a cancel answer has reduced_by and ts_ms; an empty body is a protocol violation', () => {
    expect(CancelOrderResponse.parse(responseSamples.cancelOrder)).toMatchObject({ reduced_by: '10.00', ts_ms: 1_735_689_600_000 });
    rejects(CancelOrderResponse, undefined);
    rejects(CancelOrderResponse, {});
  });

  it('batch entries carry success fields or an error with the other fields null', () => {
    const r = BatchCreateOrdersResponse.parse(responseSamples.batchCreateOrders);
    expect(r.orders[0]?.order_id).toBe('ord-1');
    expect(r.orders[1]?.error?.code).toBe('invalid_order');
    expect(r.orders[1]?.order_id).toBeNull();
    const c = endpoints.batchCancelOrders.response.parse(responseSamples.batchCancelOrders);
    expect(c.orders[1]).toMatchObject({ order_id: 'ord-x', reduced_by: '0.00' });
  });
});

describe('cancel and decrease routing rules', () => {
  it('cancel with exchange_index -1 needs market_ticker', () => {
    const q = endpoints.cancelOrder.query;
    expect(rejects(q, { exchange_index: -1 })).toMatch(/market_ticker is required/);
    expect(q.parse({ exchange_index: '-1', market_ticker: 'KXT' })).toEqual({ exchange_index: -1, market_ticker: 'KXT' });
    expect(q.parse({ subaccount: '2' })).toEqual({ subaccount: 2 });
  });

  it('batch cancel entries follow the same rule', () => {
    expect(BatchCancelOrdersRequest.parse({ orders: [{ order_id: 'o1', subaccount: 1, market_ticker: 'KXT' }] }).orders).toHaveLength(1);
    expect(rejects(BatchCancelOrdersRequest, { orders: [{ order_id: 'o1', exchange_index: -1 }] })).toMatch(/market_ticker/);
  });

  it('decrease needs exactly one of reduce_by / reduce_to', () => {
    expect(DecreaseOrderRequest.parse({ reduce_by: '2' })).toEqual({ reduce_by: '2' });
    expect(DecreaseOrderRequest.parse({ reduce_to: '0' })).toEqual({ reduce_to: '0' });
    expect(rejects(DecreaseOrderRequest, { reduce_by: '1', reduce_to: '3' })).toMatch(/exactly one of reduce_by or reduce_to/);
    expect(rejects(DecreaseOrderRequest, {})).toMatch(/exactly one/);
  });

  it('decrease with exchange_index -1 needs market_ticker', () => {
    expect(rejects(DecreaseOrderRequest, { reduce_by: '1', exchange_index: -1 })).toMatch(/market_ticker is required/);
    expect(DecreaseOrderRequest.parse({ reduce_by: '1', exchange_index: -1, market_ticker: 'KXT' }).market_ticker).toBe('KXT');
  });
});

describe('amend', () => {
  const body = { ticker: 'KXT', side: 'ask', price: '0.5000', count: '4', exchange_index: 0, expiration_time: 0 };
  it('accepts the amend body and rejects unknown fields', () => {
    expect(AmendOrderRequest.parse(body)).toEqual(body);
    rejects(AmendOrderRequest, { ...body, subaccount: 1 }); // subaccount goes in the query
    rejects(AmendOrderRequest, { ...body, side: 'no' });
  });

  it('reads { old_order, order } and the SDK flat answer to the same shape', () => {
    const spec = AmendOrderResponse.parse(responseSamples.amendOrder);
    expect(spec.old_order.order_id).toBe('ord-1');
    expect(spec.order.order_id).toBe('ord-1');
    const sdk = AmendOrderResponse.parse(sdkResponseSamples.amendOrder);
    expect(sdk.old_order).toEqual({ order_id: 'ord-1' });
    expect(sdk.order).toMatchObject({ order_id: 'ord-1', remaining_count: '10.00' });
    rejects(AmendOrderResponse, { ts_ms: 1 });
  });
});

describe('order read model', () => {
  it('reads an order and keeps unknown fields', () => {
    const o = Order.parse({ ...sampleOrder, future_field: 1 });
    expect(o.remaining_count_fp).toBe('10.00');
    expect(o.future_field).toBe(1);
  });
  it("reads a remote 'cancelled' as 'canceled', and keeps (and notes) a status the spec does not list", () => {
    expect(Order.parse({ ...sampleOrder, status: 'cancelled' }).status).toBe('canceled');
    const [o, novelties] = collectNovelties(() => Order.parse({ ...sampleOrder, status: 'pending', action: 'sell_to_close', book_side: 'cross' }));
    expect([o.status, o.action, o.book_side]).toEqual(['pending', 'sell_to_close', 'cross']);
    expect(novelties.map((n) => n.key)).toEqual(['order.status="pending"', 'order.book_side="cross"', 'order.action="sell_to_close"']);
    rejects(Order, { ...sampleOrder, status: 7 });
  });
  it('rejects a count sent as a number', () => {
    rejects(Order, { ...sampleOrder, remaining_count_fp: 10 });
  });
  it('lists take event_ticker as a comma list and a status filter', () => {
    const q = endpoints.getOrders.query.parse({ event_ticker: 'E1,E2', status: 'resting', limit: '50' });
    expect(q).toEqual({ event_ticker: ['E1', 'E2'], status: 'resting', limit: 50 });
    rejects(endpoints.getOrders.query, { status: 'open' });
  });
});

describe('queue positions', () => {
  it('reads the bare decimal and the SDK { queue_position_fp } to the decimal text', () => {
    expect(QueuePositionResponse.parse('25.00')).toBe('25.00');
    expect(QueuePositionResponse.parse({ queue_position_fp: '25.00' })).toBe('25.00');
    rejects(QueuePositionResponse, 25);
  });
  it('reads the plain array and the SDK envelope to { queue_positions }', () => {
    const spec = QueuePositionsResponse.parse(responseSamples.getQueuePositions);
    const sdk = QueuePositionsResponse.parse(sdkResponseSamples.getQueuePositions);
    expect(spec.queue_positions[0]).toMatchObject({ order_id: 'ord-1', queue_position: '25.00' });
    expect(sdk.queue_positions[0]).toMatchObject({ order_id: 'ord-1', queue_position: '25.00', market_ticker: 'KXTEST-25JAN01-T50' });
  });
});

describe('order groups', () => {
  it('create takes contracts_limit (or the SDK integer / _fp) and exchange_index 0 only', () => {
    expect(CreateOrderGroupRequest.parse({ contracts_limit: '100' })).toEqual({ contracts_limit: '100' });
    expect(CreateOrderGroupRequest.parse({ contracts_limit: 100, exchange_index: 0 })).toEqual({ contracts_limit: '100', exchange_index: 0 });
    expect(CreateOrderGroupRequest.parse({ contracts_limit_fp: '100.00', subaccount: 2 })).toEqual({ contracts_limit: '100.00', subaccount: 2 });
    expect(CreateOrderGroupRequest.parse({ contracts_limit: 100, contracts_limit_fp: '100.00' }).contracts_limit).toBe('100');
    expect(rejects(CreateOrderGroupRequest, { contracts_limit: '5', exchange_index: 1 })).toMatch(/exchange_index 0/);
    expect(rejects(CreateOrderGroupRequest, {})).toMatch(/contracts_limit is required/);
    expect(rejects(CreateOrderGroupRequest, { contracts_limit: 5, contracts_limit_fp: '6.00' })).toMatch(/different values/);
    rejects(CreateOrderGroupRequest, { contracts_limit: '5', foo: 1 });
    expect(UpdateOrderGroupLimitRequest.parse({ contracts_limit: 7 })).toEqual({ contracts_limit: '7' });
  });

  it('reads the SDK id / contracts_limit_fp as order_group_id / contracts_limit', () => {
    expect(OrderGroup.parse({ id: 'og-1', contracts_limit_fp: '100.00', is_auto_cancel_enabled: true })).toMatchObject({
      order_group_id: 'og-1',
      contracts_limit: '100.00',
    });
    rejects(OrderGroup, { contracts_limit: '1.00' });
  });

  it('reads the plain array and the SDK envelope to { order_groups }', () => {
    const spec = OrderGroupsResponse.parse(responseSamples.getOrderGroups);
    const sdk = OrderGroupsResponse.parse(sdkResponseSamples.getOrderGroups);
    expect(spec.order_groups[0]).toMatchObject({ order_group_id: 'og-1', contracts_limit: '100.00', contracts_used: '0.00' });
    expect(sdk.order_groups[0]).toMatchObject({ order_group_id: 'og-1', contracts_limit: '100.00' });
    expect(OrderGroupsResponse.parse({ order_groups: null }).order_groups).toEqual([]);
  });

  it('detail carries the order ids', () => {
    expect(OrderGroupDetail.parse(responseSamples.getOrderGroup)).toMatchObject({ order_group_id: 'og-1', orders: ['ord-1'], contracts_used: '3.00' });
    expect(OrderGroupDetail.parse(sdkResponseSamples.getOrderGroup)).toMatchObject({ contracts_limit: '100.00', orders: ['ord-1'] });
  });

  it('delete takes exchange_index 0 only; limit takes no subaccount query', () => {
    rejects(endpoints.deleteOrderGroup.query, { exchange_index: 1 });
    expect(rejects(endpoints.updateOrderGroupLimit.query, { subaccount: 1 })).toMatch(/subaccount/);
  });
});
