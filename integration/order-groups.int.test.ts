// Order groups through the terminal's client: create, list (plain array), detail with orders,
// fills counting against the limit, limit update, reset, trigger, delete (404 on repeat).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
});
afterAll(async () => {
  await t?.close();
});

const cid = () => randomUUID();

describe('order groups', () => {
  it('create answers order_group_id; the list is a plain array and the detail adds orders', async () => {
    const ticker = freshTicker('OG');
    await openMarket(t, ticker, 'OG');
    const g = await trader.createOrderGroup({ body: { contracts_limit: 5 } });
    expect(g.order_group_id).toMatch(/^[0-9a-f-]{36}$/);
    const raw = await rawSigned(t, 'trader', 'GET', '/portfolio/order_groups');
    expect(Array.isArray(raw.body)).toBe(true);
    const list = await trader.getOrderGroups();
    expect(list.order_groups).toEqual([expect.objectContaining({ order_group_id: g.order_group_id, contracts_limit: '5.00', contracts_used: '0.00' })]);

    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '3', price: '0.40', order_group_id: g.order_group_id } });
    const detail = await trader.getOrderGroup({ params: { id: g.order_group_id } });
    expect(detail.orders).toEqual([o.order_id]);
    expect(detail.order_group_id).toBe(g.order_group_id);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.order_group_id).toBe(g.order_group_id);
    // another account cannot see it
    expect((await apiError(counterparty.getOrderGroup({ params: { id: g.order_group_id } }))).status).toBe(404);
    expect((await counterparty.getOrderGroups()).order_groups).toEqual([]);
  });

  it('fills count against the limit; at the limit the group trips until reset', async () => {
    const ticker = freshTicker('OG');
    await openMarket(t, ticker, 'OG');
    const g = await trader.createOrderGroup({ body: { contracts_limit: '2' } });
    await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '2', price: '0.40', order_group_id: g.order_group_id } });
    await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '2', price: '0.40' } });
    expect((await trader.getOrderGroup({ params: { id: g.order_group_id } })).contracts_used).toBe('2.00');
    const refused = await apiError(trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.30', order_group_id: g.order_group_id } }));
    expect(refused.status).toBe(400);
    expect(await trader.resetOrderGroup({ params: { id: g.order_group_id } })).toEqual({});
    expect((await trader.getOrderGroup({ params: { id: g.order_group_id } })).contracts_used).toBe('0.00');
    const ok = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.30', order_group_id: g.order_group_id } });
    expect(ok.remaining_count).toBe('1.00');
  });

  it('limit update replaces contracts_limit; trigger cancels the resting orders; delete is 404 on repeat', async () => {
    const ticker = freshTicker('OG');
    await openMarket(t, ticker, 'OG');
    const g = await trader.createOrderGroup({ body: { contracts_limit: 10, subaccount: 0, exchange_index: 0 } });
    await trader.updateOrderGroupLimit({ params: { id: g.order_group_id }, body: { contracts_limit: 25 } });
    expect((await trader.getOrderGroup({ params: { id: g.order_group_id } })).contracts_limit).toBe('25.00');
    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '4', price: '0.20', order_group_id: g.order_group_id } });
    expect(await trader.triggerOrderGroup({ params: { id: g.order_group_id } })).toEqual({});
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.status).toBe('canceled');
    expect((await trader.getOrderGroup({ params: { id: g.order_group_id } })).orders).toEqual([]);

    expect(await trader.deleteOrderGroup({ params: { id: g.order_group_id } })).toEqual({});
    expect((await apiError(trader.deleteOrderGroup({ params: { id: g.order_group_id } }))).status).toBe(404);
    expect((await apiError(trader.getOrderGroup({ params: { id: g.order_group_id } }))).status).toBe(404);
    expect((await apiError(trader.resetOrderGroup({ params: { id: g.order_group_id } }))).status).toBe(404);
    expect((await apiError(trader.updateOrderGroupLimit({ params: { id: g.order_group_id }, body: { contracts_limit: 3 } }))).status).toBe(404);
    expect((await trader.getOrderGroups()).order_groups.map((x) => x.order_group_id)).not.toContain(g.order_group_id);
  });

  it('only exchange_index 0 supports groups; a missing subaccount is 404', async () => {
    const bad = await rawSigned(t, 'trader', 'POST', '/portfolio/order_groups/create', { contracts_limit: 5, exchange_index: 1 });
    expect(bad.status).toBe(400);
    const noLimit = await rawSigned(t, 'trader', 'POST', '/portfolio/order_groups/create', {});
    expect(noLimit.status).toBe(400);
    expect((await apiError(trader.createOrderGroup({ body: { contracts_limit: 5, subaccount: 40 } }))).status).toBe(404);
  });
});
