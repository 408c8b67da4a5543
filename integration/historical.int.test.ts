// The historical archive against the real embedded exchange: the cutoff record, and the split
// of markets, candles, trades, fills, orders and positions between the live routes and
// /historical at the cutoff. Old data comes from the seed (90 days of history) and from
// commands submitted here at past times (the trader's own archived activity).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange, avoidUtcMidnight } from '../test-support/exchange/harness';
import { apiError } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import type { Market } from '../src-shared/wire/markets';

const DAY = 86_400_000;

let t: TestExchange;
let pub: ApiClient;
let trader: ApiClient;
let cutoffSec: number;
/** the trader's archived market (traded and settled 40 days ago) */
const OLD_EVENT = 'KXCPI-HISTIT';
const OLD = `${OLD_EVENT}-T2.5`;
let oldOrderIds: string[] = [];
let liveTicker: string;

async function at(nowMs: number, cmd: Record<string, unknown>) {
  const o = await t.ex.svc.node.submit({ nowMs, ...cmd } as never);
  expect(o.ok, `${String(cmd.type)}: ${JSON.stringify(o.result)}`).toBe(true);
  return o.result as Record<string, unknown>;
}

beforeAll(async () => {
  await avoidUtcMidnight();
  t = await startTestExchange();
  pub = t.publicClient();
  trader = t.client('trader');
  const traderId = t.account('trader').user_id;
  const cpId = t.account('counterparty').user_id;
  const past = Math.floor(Date.now() / DAY) * DAY - 40 * DAY;
  await at(past, { type: 'catalogUpsertEvent', event: { event_ticker: OLD_EVENT, series_ticker: 'KXCPI', title: 'Archived test event' } });
  await at(past, { type: 'catalogCreateMarket', open: true, market: { ticker: OLD, event_ticker: OLD_EVENT, title: 'Archived test market', open_ms: past, close_ms: past + DAY } });
  await at(past + 1000, { type: 'createOrder', userId: cpId, ticker: OLD, side: 'ask', priceTicks: 3000, countCenti: 1000, clientOrderId: randomUUID() });
  const taken = await at(past + 2000, { type: 'createOrder', userId: traderId, ticker: OLD, side: 'bid', priceTicks: 3000, countCenti: 1000, timeInForce: 'immediate_or_cancel', clientOrderId: randomUUID() });
  const rested = await at(past + 3000, { type: 'createOrder', userId: traderId, ticker: OLD, side: 'bid', priceTicks: 1000, countCenti: 500, clientOrderId: randomUUID() });
  const takenId = (taken.order as { order_id: string }).order_id;
  const restedId = (rested.order as { order_id: string }).order_id;
  await at(past + 4000, { type: 'cancelOrder', userId: traderId, orderId: restedId });
  oldOrderIds = [takenId, restedId];
  await at(past + DAY, { type: 'catalogMarketLifecycle', ticker: OLD, action: 'close' });
  await at(past + DAY + 1000, { type: 'catalogMarketLifecycle', ticker: OLD, action: 'determine', result: 'yes' });
  await at(past + DAY + 2000, { type: 'catalogMarketLifecycle', ticker: OLD, action: 'settle' });

  // and something live: a trade now
  liveTicker = t.ex.svc.node.core.engine.listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' })[0]!.ticker;
  await t.client('counterparty').createOrder({ body: { ticker: liveTicker, client_order_id: randomUUID(), side: 'ask', count: '2', price: '0.97' } });
  await trader.createOrder({ body: { ticker: liveTicker, client_order_id: randomUUID(), side: 'bid', count: '2', price: '0.97', time_in_force: 'immediate_or_cancel' } });
  cutoffSec = (await pub.getHistoricalCutoff()).market_settled_ts;
});
afterAll(async () => {
  await t?.close();
});

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

describe('cutoff', () => {
  it('is UTC midnight 30 days back, the same for every surface', async () => {
    const c = await pub.getHistoricalCutoff();
    expect(c.market_settled_ts % 86400).toBe(0);
    const age = Date.now() / 1000 - c.market_settled_ts;
    expect(age).toBeGreaterThanOrEqual(30 * 86400);
    expect(age).toBeLessThan(31 * 86400);
    expect(c).toEqual({ market_settled_ts: c.market_settled_ts, trades_created_ts: c.market_settled_ts, orders_updated_ts: c.market_settled_ts, market_positions_last_updated_ts: c.market_settled_ts });
  });
});

describe('markets', () => {
  it('archives exactly the markets settled before the cutoff, and only there', async () => {
    const archived = await pages<Market>(async (cursor) => {
      const p = await pub.getHistoricalMarkets({ query: { limit: 25, ...(cursor ? { cursor } : {}) } });
      return { items: p.markets, cursor: p.cursor };
    });
    expect(archived.length).toBeGreaterThan(10);
    for (const m of archived) {
      expect(m.status).toBe('settled');
      expect(Date.parse(m.settlement_ts!) / 1000).toBeLessThan(cutoffSec);
    }
    expect(archived.map((m) => m.ticker)).toContain(OLD);
    const live = await pages<Market>(async (cursor) => {
      const p = await pub.getMarkets({ query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      return { items: p.markets, cursor: p.cursor };
    });
    const liveSet = new Set(live.map((m) => m.ticker));
    for (const m of archived) expect(liveSet.has(m.ticker)).toBe(false);
    expect(live.length + archived.length).toBe(t.ex.svc.node.core.engine.listMarkets().length);
    // a market settled after the cutoff is still live
    const recent = live.find((m) => m.status === 'settled')!;
    expect(Date.parse(recent.settlement_ts!) / 1000).toBeGreaterThanOrEqual(cutoffSec);
  });

  it('filters the archive and reads one archived market; live markets are 404 here and vice versa', async () => {
    const weather = (await pub.getHistoricalMarkets({ query: { series_ticker: 'KXHIGHNY', limit: 100 } })).markets;
    expect(weather.length).toBe(12);
    const ev = weather[0]!.event_ticker;
    expect((await pub.getHistoricalMarkets({ query: { event_ticker: ev } })).markets).toHaveLength(6);
    expect((await pub.getHistoricalMarkets({ query: { tickers: [OLD, weather[1]!.ticker] } })).markets.map((m) => m.ticker).sort()).toEqual([OLD, weather[1]!.ticker].sort());
    expect((await pub.getHistoricalMarkets({ query: { status: 'open' } })).markets).toEqual([]);
    expect((await pub.getHistoricalMarkets({ query: { mve_filter: 'only' } })).markets).toEqual([]);
    const closeTs = Date.parse(weather[0]!.close_time!) / 1000;
    const around = (await pub.getHistoricalMarkets({ query: { series_ticker: 'KXHIGHNY', min_close_ts: closeTs, max_close_ts: closeTs } })).markets;
    expect(around.map((m) => m.event_ticker)).toEqual(Array(6).fill(ev));
    const one = await pub.getHistoricalMarket({ params: { ticker: OLD } });
    expect(one.market).toMatchObject({ ticker: OLD, status: 'settled', result: 'yes', settlement_value_dollars: '1.0000', volume_fp: '10.00', last_price_dollars: '0.3000' });
    expect((await apiError(pub.getMarket({ params: { ticker: OLD } }))).status).toBe(404);
    expect((await apiError(pub.getHistoricalMarket({ params: { ticker: liveTicker } }))).status).toBe(404);
    expect((await apiError(pub.getHistoricalMarket({ params: { ticker: 'NOPE-1' } }))).status).toBe(404);
  });

  it('serves archived candles under both field spellings; live markets have none here', async () => {
    const start = Math.floor((Date.now() - 45 * DAY) / 1000);
    const { candlesticks, ticker } = await pub.getHistoricalMarketCandlesticks({ params: { ticker: OLD }, query: { start_ts: start, end_ts: cutoffSec, period_interval: 3600 } });
    expect(ticker).toBe(OLD);
    const traded = candlesticks.filter((c) => c.volume_fp !== '0.00');
    expect(traded).toHaveLength(1);
    expect(traded[0]!.price).toMatchObject({ open_dollars: '0.3000', close_dollars: '0.3000', mean_dollars: '0.3000' });
    expect(traded[0]!.open_interest_fp).toBe('10.00');
    // nothing after settlement
    expect(candlesticks[candlesticks.length - 1]!.end_period_ts * 1000).toBeLessThanOrEqual(Math.floor(Date.now() / DAY) * DAY - 38 * DAY);
    const raw = (await (await fetch(`${t.ex.baseUrl}/historical/markets/${OLD}/candlesticks?start_ts=${start}&end_ts=${cutoffSec}&period_interval=86400`)).json()) as {
      candlesticks: { volume: string; volume_fp: string; price: { open: string | null; open_dollars: string | null } }[];
    };
    const day = raw.candlesticks.find((c) => c.volume !== '0.00')!;
    expect(day).toMatchObject({ volume: '10.00', volume_fp: '10.00', price: { open: '0.3000', open_dollars: '0.3000' } });
    expect((await apiError(pub.getHistoricalMarketCandlesticks({ params: { ticker: liveTicker }, query: { start_ts: start, end_ts: cutoffSec, period_interval: 3600 } }))).status).toBe(404);
    // and the live route no longer has the archived market's candles
    expect((await apiError(pub.getMarketCandlesticks({ params: { series_ticker: 'KXCPI', ticker: OLD }, query: { start_ts: start, end_ts: cutoffSec, period_interval: 3600 } }))).status).toBe(404);
  });
});

describe('trades', () => {
  it('splits a long-running market’s trades at the cutoff: older ones only in the archive', async () => {
    const bos = t.ex.svc.node.core.engine.listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' }).find((m) => m.event_ticker.endsWith('BOS'))!;
    const archived = await pages(async (cursor) => {
      const p = await pub.getHistoricalTrades({ query: { ticker: bos.ticker, limit: 9, ...(cursor ? { cursor } : {}) } });
      return { items: p.trades, cursor: p.cursor };
    });
    const live = await pages(async (cursor) => {
      const p = await pub.getTrades({ query: { ticker: bos.ticker, limit: 9, ...(cursor ? { cursor } : {}) } });
      return { items: p.trades, cursor: p.cursor };
    });
    expect(archived.length).toBeGreaterThan(0);
    expect(live.length).toBeGreaterThan(0);
    for (const tr of archived) expect(tr.ts!).toBeLessThan(cutoffSec);
    for (const tr of live) expect(tr.ts!).toBeGreaterThanOrEqual(cutoffSec);
    const all = t.ex.svc.node.core.engine.getTrades({ ticker: bos.ticker });
    expect(new Set([...archived, ...live].map((x) => x.trade_id))).toEqual(new Set(all.map((x) => x.trade_id)));
    const windowed = await pub.getHistoricalTrades({ query: { min_ts: cutoffSec - 86400, max_ts: cutoffSec + 86400, limit: 1000 } });
    for (const tr of windowed.trades) {
      expect(tr.ts!).toBeGreaterThanOrEqual(cutoffSec - 86400);
      expect(tr.ts!).toBeLessThan(cutoffSec);
    }
    expect((await pub.getHistoricalTrades({ query: { is_block_trade: true } })).trades).toEqual([]);
    const mine = (await pub.getHistoricalTrades({ query: { ticker: OLD } })).trades;
    expect(mine).toEqual([expect.objectContaining({ ticker: OLD, yes_price_dollars: '0.3000', count_fp: '10.00', taker_side: 'yes', is_block_trade: false })]);
  });
});

describe("the caller's archive", () => {
  it('fills: before the cutoff only, by subaccount and ticker', async () => {
    const { fills } = await trader.getHistoricalFills();
    expect(fills.map((f) => f.ticker)).toEqual([OLD]);
    expect(fills[0]).toMatchObject({ order_id: oldOrderIds[0], yes_price_dollars: '0.3000', count_fp: '10.00', is_taker: true, exchange_index: 0 });
    expect(fills[0]!.ts!).toBeLessThan(cutoffSec);
    expect((await trader.getHistoricalFills({ query: { subaccount: 0, ticker: OLD } })).fills).toHaveLength(1);
    expect((await trader.getHistoricalFills({ query: { subaccount: 1 } })).fills).toEqual([]);
    expect((await trader.getHistoricalFills({ query: { ticker: liveTicker } })).fills).toEqual([]);
    // the live fill is on the live route
    expect((await trader.getFills({ query: { ticker: liveTicker } })).fills.length).toBeGreaterThan(0);
    expect((await t.client('counterparty').getHistoricalFills()).fills.map((f) => f.is_taker)).toEqual([false]);
  });

  it('orders: finished ones last updated before the cutoff', async () => {
    const { orders } = await trader.getHistoricalOrders({ query: { limit: 10 } });
    expect(orders.map((o) => o.order_id).sort()).toEqual([...oldOrderIds].sort());
    expect(orders.find((o) => o.order_id === oldOrderIds[0])).toMatchObject({ status: 'executed', ticker: OLD });
    expect(orders.find((o) => o.order_id === oldOrderIds[1])).toMatchObject({ status: 'canceled' });
    const page = await trader.getHistoricalOrders({ query: { limit: 1 } });
    expect(page.orders).toHaveLength(1);
    const next = await trader.getHistoricalOrders({ query: { limit: 1, cursor: page.cursor! } });
    expect(next.orders[0]!.order_id).not.toBe(page.orders[0]!.order_id);
    expect((await trader.getHistoricalOrders({ query: { ticker: liveTicker } })).orders).toEqual([]);
  });

  it('positions: settled positions of archived events, with event aggregates', async () => {
    const r = await trader.getHistoricalPositions();
    expect(r.market_positions).toEqual([expect.objectContaining({ ticker: OLD, position_fp: '0.00', realized_pnl_dollars: '7.00', exchange_index: 0 })]);
    expect(r.event_positions).toEqual([expect.objectContaining({ event_ticker: OLD_EVENT })]);
    expect((await trader.getHistoricalPositions({ query: { event_ticker: OLD_EVENT } })).market_positions).toHaveLength(1);
    expect((await trader.getHistoricalPositions({ query: { ticker: liveTicker } })).market_positions).toEqual([]);
    expect((await trader.getHistoricalPositions({ query: { subaccount: 2 } })).market_positions).toEqual([]);
  });

  it('needs a signature', async () => {
    for (const path of ['/historical/fills', '/historical/orders', '/historical/positions']) {
      expect((await fetch(`${t.ex.baseUrl}${path}`)).status).toBe(401);
    }
    await expect(pub.getHistoricalFills()).rejects.toThrow();
  });
});

describe('restart', () => {
  it('keeps the catalog and the archive across a restart (journal replay)', async () => {
    const before = {
      markets: (await pub.getHistoricalMarkets({ query: { limit: 1000 } })).markets.map((m) => m.ticker),
      series: (await pub.getSeriesList()).series,
      fees: (await pub.getEventFeeChanges({ query: { limit: 100 } })).event_fee_changes,
      fills: (await trader.getHistoricalFills()).fills,
    };
    await t.restart();
    pub = t.publicClient();
    trader = t.client('trader');
    expect((await pub.getHistoricalMarkets({ query: { limit: 1000 } })).markets.map((m) => m.ticker)).toEqual(before.markets);
    expect((await pub.getSeriesList()).series).toEqual(before.series);
    expect((await pub.getEventFeeChanges({ query: { limit: 100 } })).event_fee_changes).toEqual(before.fees);
    expect((await trader.getHistoricalFills()).fills).toEqual(before.fills);
  });
});
