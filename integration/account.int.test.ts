// Account limits, endpoint costs, volume progress and the usage-level upgrade through the
// terminal's client. API keys are in api-keys.int.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, centiOf, freshTicker, openMarket } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import { endpoints } from '../src-shared/endpoints';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
let fcm: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  fcm = t.client('fcm');
});
afterAll(async () => {
  await t?.close();
});

/** An order placed straight through the engine, as the simulation does (not through the API). */
async function engineOrder(name: string, ticker: string, price: number): Promise<void> {
  const node = t.ex.svc.node;
  const r = await node.submit({ type: 'createOrder', nowMs: node.now(), userId: t.account(name).user_id, ticker, side: 'bid', priceTicks: price, countCenti: 100 });
  if (!r.ok) throw new Error(JSON.stringify(r.result));
}

describe('limits and costs', () => {
  it('a new account is Basic: 200/100 tokens a second, 3 s of reads and 1 s of writes', async () => {
    const l = await trader.getAccountLimits();
    expect(l.usage_tier).toBe('basic');
    expect(l.read).toEqual({ bucket_capacity: 600, refill_rate: 200 });
    expect(l.write).toEqual({ bucket_capacity: 100, refill_rate: 100 });
    expect(l.grants).toEqual([]);
  });

  it('endpoint costs list the exceptions to default_cost 10', async () => {
    const c = await trader.getEndpointCosts();
    expect(c.default_cost).toBe(10);
    expect(c.endpoint_costs).toContainEqual({ method: 'POST', path: endpoints.batchCreateOrders.path, cost: 10 });
    expect(c.endpoint_costs).toContainEqual({ method: 'DELETE', path: endpoints.batchCancelOrders.path, cost: 2 });
    expect(c.endpoint_costs).toContainEqual({ method: 'DELETE', path: endpoints.cancelOrder.path, cost: 2 });
    expect(c.endpoint_costs.find((e) => e.path === endpoints.getMarkets.path)).toBeUndefined();
  });
});

describe('volume progress', () => {
  it('counts the trailing 30 days of the caller fills against the level goals', async () => {
    const empty = await fcm.getVolumeProgress();
    expect(empty.volume_progress).toHaveLength(1);
    expect(empty.volume_progress[0]!.trailing_30d_volume_fp).toBe('0.00');
    const ticker = freshTicker('VOL');
    await openMarket(t, ticker, 'VOL');
    await counterparty.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '7.5', price: '0.50' } });
    await fcm.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'ask', count: '7.5', price: '0.50' } });
    const p = (await fcm.getVolumeProgress()).volume_progress[0]!;
    expect(p.trailing_30d_volume_fp).toBe('7.50');
    expect(p.computed_ts).toBeGreaterThan(1_600_000_000);
    expect(p.goals.map((g) => g.level)).toEqual(['expert', 'premier', 'paragon', 'prime', 'prestige']);
    for (const g of p.goals) expect(centiOf(g.earn_volume_goal_fp)).toBeGreaterThan(centiOf(g.keep_volume_goal_fp));
    expect((await counterparty.getVolumeProgress()).volume_progress[0]!.trailing_30d_volume_fp).toBe('7.50');
  });
});

describe('usage-level upgrade', () => {
  it('is 403 unless one of the last 100 orders came through the API; then a permanent Advanced grant', async () => {
    const ticker = freshTicker('UPG');
    await openMarket(t, ticker, 'UPG');
    // no orders at all
    expect((await apiError(trader.upgradeApiUsageLevel())).status).toBe(403);
    // orders the simulation places through the engine do not count
    await engineOrder('trader', ticker, 100);
    expect((await apiError(trader.upgradeApiUsageLevel())).status).toBe(403);
    // one API order, then 100 engine orders push it out of the window
    await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.02' } });
    for (let i = 0; i < 100; i++) await engineOrder('trader', ticker, 100 + i);
    expect((await apiError(trader.upgradeApiUsageLevel())).status).toBe(403);
    expect((await trader.getAccountLimits()).usage_tier).toBe('basic');

    await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.03' } });
    expect(await trader.upgradeApiUsageLevel()).toEqual({});
    const l = await trader.getAccountLimits();
    expect(l.usage_tier).toBe('advanced');
    expect(l.read).toEqual({ bucket_capacity: 900, refill_rate: 300 });
    expect(l.write).toEqual({ bucket_capacity: 900, refill_rate: 300 });
    expect(l.grants).toEqual([{ exchange_instance: 'event_contract', level: 'advanced', source: 'manual', expires_ts: null }]);
    // asking again changes nothing
    expect(await trader.upgradeApiUsageLevel()).toEqual({});
    expect((await trader.getAccountLimits()).grants).toHaveLength(1);

    await t.restart();
    trader = t.client('trader');
    counterparty = t.client('counterparty');
    fcm = t.client('fcm');
    expect((await trader.getAccountLimits()).usage_tier).toBe('advanced');
    expect((await counterparty.getAccountLimits()).usage_tier).toBe('basic');
  });
});
