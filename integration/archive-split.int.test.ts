// The live/historical split of the caller's own data (spec, Historical: "Data older than each
// cutoff timestamp has left the live endpoints for the matching surface"): fills split at
// trades_created_ts, finished orders at orders_updated_ts (resting orders are always live),
// settled positions per whole event at market_positions_last_updated_ts (unsettled ones stay
// live). Every record is served by exactly one side. The trader's old activity is submitted
// straight to the node at times around the cutoff; the last test moves the clock forward so
// the cutoff itself advances over data that was live.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestExchange, type TestExchange, avoidUtcMidnight } from '../test-support/exchange/harness';
import { apiError, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

const DAY = 86_400_000;
const HOUR = 3_600_000;

let t: TestExchange;
let trader: ApiClient;
let traderId: string;
let cpId: string;
/** the historical cutoff (ms) when the data was made; every cutoff is the same instant */
let cut: number;

// Event A: one market, traded and settled well before the cutoff -> archived as a whole.
const EV_A = 'KXCPI-SPLITA';
const A1 = `${EV_A}-T1`;
// Event B: B1 settled before the cutoff but B2 still trades, so B's positions stay live.
const EV_B = 'KXCPI-SPLITB';
const B1 = `${EV_B}-T1`;
const B2 = `${EV_B}-T2`;
// Event C: traded and settled after the cutoff -> live.
const EV_C = 'KXCPI-SPLITC';
const C1 = `${EV_C}-T1`;

const ids = {} as {
  aTaken: string;
  aCanceled: string;
  b1Taken: string;
  b2Taken: string;
  oldResting: string;
  lateCancel: string;
  /** executed 1 ms before the cutoff */
  edgeOld: string;
  /** executed exactly at the cutoff */
  edgeLive: string;
  cTaken: string;
  fresh: string;
};

async function at(nowMs: number, cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
  const o = await t.ex.svc.node.submit({ nowMs, ...cmd } as never);
  expect(o.ok, `${String(cmd.type)}: ${JSON.stringify(o.result)}`).toBe(true);
  return o.result as Record<string, unknown>;
}

async function order(nowMs: number, userId: string, ticker: string, side: 'bid' | 'ask', priceTicks: number, countCenti: number, ioc = false): Promise<string> {
  const r = await at(nowMs, {
    type: 'createOrder',
    userId,
    ticker,
    side,
    priceTicks,
    countCenti,
    ...(ioc ? { timeInForce: 'immediate_or_cancel' } : {}),
    clientOrderId: randomUUID(),
  });
  return (r.order as { order_id: string }).order_id;
}

async function market(nowMs: number, event: string, ticker: string, closeMs: number): Promise<void> {
  await at(nowMs, { type: 'catalogCreateMarket', open: true, market: { ticker, event_ticker: event, title: `${ticker} split test`, open_ms: nowMs, close_ms: closeMs } });
}

async function settle(nowMs: number, ticker: string, result: 'yes' | 'no'): Promise<void> {
  await at(nowMs, { type: 'catalogMarketLifecycle', ticker, action: 'close' });
  await at(nowMs + 1000, { type: 'catalogMarketLifecycle', ticker, action: 'determine', result });
  await at(nowMs + 2000, { type: 'catalogMarketLifecycle', ticker, action: 'settle' });
}

async function pages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; cursor?: string | null | undefined }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const p = await fetchPage(cursor);
    out.push(...p.items);
    if (!p.cursor) return out;
    cursor = p.cursor;
  }
  throw new Error('too many pages');
}

/** Both sides of each surface, every page (limit 2 so paging is exercised). */
async function sides(c: ApiClient) {
  const q = (cursor?: string) => ({ limit: 2, ...(cursor ? { cursor } : {}) });
  return {
    liveFills: await pages(async (cur) => {
      const p = await c.getFills({ query: q(cur) });
      return { items: p.fills, cursor: p.cursor };
    }),
    oldFills: await pages(async (cur) => {
      const p = await c.getHistoricalFills({ query: q(cur) });
      return { items: p.fills, cursor: p.cursor };
    }),
    liveOrders: await pages(async (cur) => {
      const p = await c.getOrders({ query: q(cur) });
      return { items: p.orders, cursor: p.cursor };
    }),
    oldOrders: await pages(async (cur) => {
      const p = await c.getHistoricalOrders({ query: q(cur) });
      return { items: p.orders, cursor: p.cursor };
    }),
    livePositions: await pages(async (cur) => {
      const p = await c.getPositions({ query: { ...q(cur), settlement_status: 'all' } });
      return { items: p.market_positions, cursor: p.cursor };
    }),
    oldPositions: await pages(async (cur) => {
      const p = await c.getHistoricalPositions({ query: q(cur) });
      return { items: p.market_positions, cursor: p.cursor };
    }),
  };
}

const sorted = (xs: readonly string[]) => [...xs].sort();

/** Live XOR historical for every fill, order and position the engine holds for the user. */
async function expectPartition(c: ApiClient, userId: string): Promise<Awaited<ReturnType<typeof sides>>> {
  const s = await sides(c);
  const engine = t.ex.svc.node.core.engine;
  const liveF = s.liveFills.map((f) => f.fill_id!);
  const oldF = s.oldFills.map((f) => f.fill_id!);
  expect(liveF.filter((id) => oldF.includes(id))).toEqual([]);
  expect(sorted([...liveF, ...oldF])).toEqual(sorted(engine.getFills(userId).map((f) => f.fill_id)));
  const liveO = s.liveOrders.map((o) => o.order_id);
  const oldO = s.oldOrders.map((o) => o.order_id);
  expect(liveO.filter((id) => oldO.includes(id))).toEqual([]);
  expect(sorted([...liveO, ...oldO])).toEqual(sorted(engine.listOrders({ userId }).map((o) => o.order_id)));
  for (const o of s.oldOrders) expect(o.status).not.toBe('resting');
  const liveP = s.livePositions.map((p) => p.ticker);
  const oldP = s.oldPositions.map((p) => p.ticker);
  expect(liveP.filter((x) => oldP.includes(x))).toEqual([]);
  // the user trades on subaccount 0 only here, the historical route's default
  expect(sorted([...liveP, ...oldP])).toEqual(sorted(engine.getPositions(userId).map((p) => p.ticker)));
  return s;
}

beforeAll(async () => {
  await avoidUtcMidnight();
  // Date.now looked up per call, so vi.setSystemTime below moves the exchange's clock too
  t = await startTestExchange({ clock: () => Date.now() });
  trader = t.client('trader');
  traderId = t.account('trader').user_id;
  cpId = t.account('counterparty').user_id;
  cut = (await t.publicClient().getHistoricalCutoff()).trades_created_ts * 1000;
  const old = cut - 10 * DAY;

  await at(old, { type: 'catalogUpsertEvent', event: { event_ticker: EV_A, series_ticker: 'KXCPI', title: 'Split test A' } });
  await at(old, { type: 'catalogUpsertEvent', event: { event_ticker: EV_B, series_ticker: 'KXCPI', title: 'Split test B' } });
  await market(old, EV_A, A1, old + DAY);
  await market(old, EV_B, B1, old + DAY);
  await market(old, EV_B, B2, Date.now() + 60 * DAY);

  await order(old + 1000, cpId, A1, 'ask', 3000, 1000);
  ids.aTaken = await order(old + 2000, traderId, A1, 'bid', 3000, 1000, true);
  ids.aCanceled = await order(old + 3000, traderId, A1, 'bid', 1000, 500);
  await at(old + 4000, { type: 'cancelOrder', userId: traderId, orderId: ids.aCanceled });

  await order(old + 10_000, cpId, B1, 'ask', 4000, 1000); // 6 left resting: canceled at close
  ids.b1Taken = await order(old + 11_000, traderId, B1, 'bid', 4000, 400, true);

  await order(old + 20_000, cpId, B2, 'ask', 5000, 1000);
  ids.b2Taken = await order(old + 21_000, traderId, B2, 'bid', 5000, 300, true);
  ids.oldResting = await order(old + 22_000, traderId, B2, 'bid', 500, 200);
  ids.lateCancel = await order(old + 23_000, traderId, B2, 'bid', 600, 200);

  await settle(old + DAY, A1, 'yes');
  await settle(old + DAY + 10_000, B1, 'no');

  ids.edgeOld = await order(cut - 1, traderId, B2, 'bid', 5000, 100, true);
  ids.edgeLive = await order(cut, traderId, B2, 'bid', 5000, 100, true);
  await at(cut + HOUR, { type: 'cancelOrder', userId: traderId, orderId: ids.lateCancel });

  await at(cut + DAY, { type: 'catalogUpsertEvent', event: { event_ticker: EV_C, series_ticker: 'KXCPI', title: 'Split test C' } });
  await market(cut + DAY, EV_C, C1, cut + 2 * DAY);
  await order(cut + DAY + 1000, cpId, C1, 'ask', 6000, 500);
  ids.cTaken = await order(cut + DAY + 2000, traderId, C1, 'bid', 6000, 500, true);
  await settle(cut + 2 * DAY, C1, 'no');

  // and one placed now, through the client
  ids.fresh = (await trader.createOrder({ body: { ticker: B2, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.0100' } })).order_id;
});

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('fills split at trades_created_ts', () => {
  it('serves every fill on exactly one side: before the cutoff only in the archive', async () => {
    const s = await expectPartition(trader, traderId);
    expect(sorted(s.oldFills.map((f) => f.order_id))).toEqual(sorted([ids.aTaken, ids.b1Taken, ids.b2Taken, ids.edgeOld]));
    expect(sorted(s.liveFills.map((f) => f.order_id))).toEqual(sorted([ids.edgeLive, ids.cTaken]));
    for (const f of s.liveFills) expect(f.ts! * 1000).toBeGreaterThanOrEqual(cut);
    for (const f of s.oldFills) expect(f.ts! * 1000).toBeLessThan(cut);
    // the counterparty's maker fills split the same way
    const cp = await expectPartition(t.client('counterparty'), cpId);
    expect(cp.oldFills).toHaveLength(4);
    expect(cp.liveFills).toHaveLength(2);
  });

  it('keeps archived fills out of the live filters too', async () => {
    expect((await trader.getFills({ query: { ticker: [A1] } })).fills).toEqual([]);
    expect((await trader.getFills({ query: { ticker: [A1, B1] } })).fills).toEqual([]);
    expect((await trader.getFills({ query: { order_id: ids.aTaken } })).fills).toEqual([]);
    expect((await trader.getFills({ query: { ticker: [B2], max_ts: Math.floor(cut / 1000) } })).fills.map((f) => f.order_id)).toEqual([ids.edgeLive]);
    expect((await trader.getFills({ query: { ticker: [B2], min_ts: 0, max_ts: Math.floor(cut / 1000) - 1 } })).fills).toEqual([]);
    expect((await trader.getHistoricalFills({ query: { ticker: B2 } })).fills.map((f) => f.order_id).sort()).toEqual(sorted([ids.b2Taken, ids.edgeOld]));
  });
});

describe('orders split at orders_updated_ts', () => {
  it('archives finished orders last updated before the cutoff; resting ones stay live however old', async () => {
    const s = await expectPartition(trader, traderId);
    expect(sorted(s.oldOrders.map((o) => o.order_id))).toEqual(sorted([ids.aTaken, ids.aCanceled, ids.b1Taken, ids.b2Taken, ids.edgeOld]));
    expect(sorted(s.liveOrders.map((o) => o.order_id))).toEqual(sorted([ids.oldResting, ids.lateCancel, ids.edgeLive, ids.cTaken, ids.fresh]));
    const oldResting = s.liveOrders.find((o) => o.order_id === ids.oldResting)!;
    expect(oldResting.status).toBe('resting');
    expect(Date.parse(oldResting.created_time!)).toBeLessThan(cut - 9 * DAY);
    // created before the cutoff, canceled after it: live
    expect(s.liveOrders.find((o) => o.order_id === ids.lateCancel)!.status).toBe('canceled');
  });

  it('filters the live list by status without the archived orders', async () => {
    const resting = (await trader.getOrders({ query: { status: 'resting' } })).orders.map((o) => o.order_id);
    expect(sorted(resting)).toEqual(sorted([ids.oldResting, ids.fresh]));
    const canceled = (await trader.getOrders({ query: { status: 'canceled' } })).orders.map((o) => o.order_id);
    expect(canceled).toEqual([ids.lateCancel]);
    const executed = (await trader.getOrders({ query: { status: 'executed' } })).orders.map((o) => o.order_id);
    expect(sorted(executed)).toEqual(sorted([ids.edgeLive, ids.cTaken]));
    expect((await trader.getOrders({ query: { ticker: A1 } })).orders).toEqual([]);
    expect((await trader.getOrders({ query: { event_ticker: [EV_A] } })).orders).toEqual([]);
  });

  it('answers 404 for one archived order by id, and serves live ones', async () => {
    for (const id of [ids.aTaken, ids.aCanceled, ids.edgeOld]) {
      const e = await apiError(trader.getOrder({ params: { order_id: id } }));
      expect(e.status).toBe(404);
      expect(e.message).toContain('/historical/orders');
    }
    for (const id of [ids.oldResting, ids.lateCancel, ids.edgeLive, ids.fresh]) {
      expect((await trader.getOrder({ params: { order_id: id } })).order.order_id).toBe(id);
    }
  });
});

describe('positions split at market_positions_last_updated_ts', () => {
  it('moves settled positions of archived events only; unsettled ones stay live', async () => {
    const s = await expectPartition(trader, traderId);
    expect(s.oldPositions.map((p) => p.ticker)).toEqual([A1]);
    expect(sorted(s.livePositions.map((p) => p.ticker))).toEqual(sorted([B1, B2, C1]));
    // B1 settled before the cutoff, but its event still trades (B2): live
    const settled = await trader.getPositions({ query: { settlement_status: 'settled' } });
    expect(sorted(settled.market_positions.map((p) => p.ticker))).toEqual(sorted([B1, C1]));
    expect(settled.event_positions.map((e) => e.event_ticker)).not.toContain(EV_A);
    const open = await trader.getPositions();
    expect(open.market_positions.map((p) => p.ticker)).toEqual([B2]);
    expect((await trader.getPositions({ query: { ticker: A1, settlement_status: 'all' } })).market_positions).toEqual([]);
    expect((await trader.getPositions({ query: { event_ticker: EV_A, settlement_status: 'settled' } })).event_positions).toEqual([]);
  });

  it('leaves settlements alone: the spec gives them no cutoff and no archive route', async () => {
    const tickers = (await trader.getSettlements({ query: { limit: 100 } })).settlements.map((s) => s.ticker);
    expect(sorted(tickers)).toEqual(sorted([A1, B1, C1]));
  });
});

describe('FCM live routes follow the same split', () => {
  it('/fcm/orders leaves out a subtrader order the archive holds and keeps a resting one', async () => {
    const fcm = t.client('fcm');
    const { subtrader_id } = await fcm.createSubtrader({ body: { subtrader_suffix: 'arch1' } });
    const old = cut - 10 * DAY;
    const finished = await order(old + 30_000, subtrader_id, B2, 'bid', 700, 100);
    await at(old + 31_000, { type: 'cancelOrder', userId: subtrader_id, orderId: finished });
    const resting = await order(old + 32_000, subtrader_id, B2, 'bid', 800, 100);
    const live = (await fcm.getFcmOrders({ query: { subtrader_id } })).orders.map((o) => o.order_id);
    expect(live).toContain(resting);
    expect(live).not.toContain(finished);
  });
});

describe('over time', () => {
  it('keeps the split across a restart', async () => {
    const before = await sides(trader);
    await t.restart();
    trader = t.client('trader');
    expect(await sides(trader)).toEqual(before);
  });

  it('moves data to the archive as the daily cutoff advances, without any write', async () => {
    // Date.now() of this process +3 days: the exchange's clock reads it, and rawSigned signs
    // with it (the typed client would re-sync to the Date header, which Node writes from the
    // real clock, so it is not used here).
    vi.setSystemTime(Date.now() + 3 * DAY);
    const c = await t.publicClient().getHistoricalCutoff();
    expect(c.trades_created_ts * 1000).toBe(cut + 3 * DAY);
    const get = async <T>(path: string, key: string): Promise<T[]> => {
      const r = await rawSigned(t, 'trader', 'GET', path);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body as Record<string, T[]>)[key]!;
    };
    const liveFills = await get<{ order_id: string }>('/portfolio/fills?limit=1000', 'fills');
    const oldFills = await get<{ order_id: string }>('/historical/fills?limit=1000', 'fills');
    expect(liveFills).toEqual([]);
    expect(oldFills).toHaveLength(t.ex.svc.node.core.engine.getFills(traderId).length);
    const liveOrders = (await get<{ order_id: string }>('/portfolio/orders?limit=1000', 'orders')).map((o) => o.order_id);
    const oldOrders = (await get<{ order_id: string }>('/historical/orders?limit=1000', 'orders')).map((o) => o.order_id);
    expect(sorted(liveOrders)).toEqual(sorted([ids.oldResting, ids.fresh]));
    expect(sorted(oldOrders)).toEqual(sorted([ids.aTaken, ids.aCanceled, ids.b1Taken, ids.b2Taken, ids.edgeOld, ids.lateCancel, ids.edgeLive, ids.cTaken]));
    // C settled at cut + 2 days: now archived; B still has an open market
    const livePos = (await get<{ ticker: string }>('/portfolio/positions?settlement_status=all', 'market_positions')).map((p) => p.ticker);
    const oldPos = (await get<{ ticker: string }>('/historical/positions', 'market_positions')).map((p) => p.ticker);
    expect(sorted(livePos)).toEqual(sorted([B1, B2]));
    expect(sorted(oldPos)).toEqual(sorted([A1, C1]));
    expect((await rawSigned(t, 'trader', 'GET', `/portfolio/orders/${ids.cTaken}`)).status).toBe(404);
    expect((await rawSigned(t, 'trader', 'GET', `/portfolio/orders/${ids.oldResting}`)).status).toBe(200);
  });
});
