// Market data against the real embedded exchange (seeded catalog, sim off), through the
// terminal's own client: series, events, fee schedules and overrides, markets with every filter,
// orderbooks, candlesticks from trades made here, public trades, multivariate collections,
// structured targets, forecast history and the exchange schedule.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import type { Market } from '../src-shared/wire/markets';
import type { Endpoints } from '../src-shared/endpoints';
import type { QueryIn } from '../src-shared/endpoints/types';

let t: TestExchange;
let pub: ApiClient;
let trader: ApiClient;
let counterparty: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  pub = t.publicClient();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
});
afterAll(async () => {
  await t?.close();
});

const node = () => t.ex.svc.node;
const engine = () => node().core.engine;
const nowSec = () => Math.floor(Date.now() / 1000);

async function submit(cmd: Record<string, unknown>) {
  const o = await node().submit({ nowMs: node().now(), ...cmd } as never);
  expect(o.ok, JSON.stringify(o.result)).toBe(true);
  return o;
}

/** A fresh event in a seeded series with one open market, made through catalog commands. */
async function catalogMarket(series = 'KXCPI'): Promise<{ event: string; ticker: string }> {
  const event = `${series}-IT${randomUUID().slice(0, 6).toUpperCase()}`;
  const ticker = `${event}-M1`;
  await submit({ type: 'catalogUpsertEvent', event: { event_ticker: event, series_ticker: series, title: `Test event ${event}`, market_details: null } });
  const now = Date.now();
  await submit({ type: 'catalogCreateMarket', open: true, market: { ticker, event_ticker: event, title: 'Test market', open_ms: now - 60_000, close_ms: now + 86_400_000 } });
  return { event, ticker };
}

/** counterparty rests, trader takes: one trade at `price`; returns the taker's order id. */
async function cross(ticker: string, price: string, count: string, takerSide: 'bid' | 'ask' = 'bid') {
  await counterparty.createOrder({ body: { ticker, client_order_id: randomUUID(), side: takerSide === 'bid' ? 'ask' : 'bid', count, price } });
  const r = await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: takerSide, count, price, time_in_force: 'immediate_or_cancel' } });
  expect(r.fill_count).toBe(Number(count).toFixed(2));
  return r.order_id;
}

async function allMarkets(query: QueryIn<Endpoints['getMarkets']>): Promise<Market[]> {
  const out: Market[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await pub.getMarkets({ query: { ...query, limit: 40, ...(cursor ? { cursor } : {}) } });
    out.push(...page.markets);
    if (!page.cursor) return out;
    cursor = page.cursor;
  }
  throw new Error('too many pages');
}

describe('series', () => {
  it('lists the seeded series across categories with exact fee multipliers (a plain array on the wire)', async () => {
    const { series } = await pub.getSeriesList();
    const categories = new Set(series.map((s) => s.category));
    for (const c of ['Economics', 'Climate and Weather', 'Crypto', 'Politics', 'Sports']) expect(categories).toContain(c);
    expect(series.length).toBeGreaterThanOrEqual(5);
    const btc = series.find((s) => s.ticker === 'KXBTC')!;
    expect(btc).toMatchObject({ fee_type: 'quadratic', fee_multiplier: '1', category: 'Crypto' });
    expect(series.find((s) => s.ticker === 'KXHIGHNY')?.fee_multiplier).toBe('1.25');
    expect(btc.product_metadata).toBeUndefined();
    const raw = await (await fetch(`${t.ex.baseUrl}/series`)).json();
    expect(Array.isArray(raw)).toBe(true);
  });

  it('filters by category (the categories list), tags, updated time; adds volume and product metadata on request', async () => {
    const crypto = (await pub.getSeriesList({ query: { category: 'Crypto' } })).series;
    expect(crypto.map((s) => s.ticker)).toContain('KXBTC');
    for (const s of crypto) expect([s.category, ...s.categories]).toContain('Crypto');
    const nba = (await pub.getSeriesList({ query: { tags: 'NBA' } })).series;
    expect(nba.map((s) => s.ticker).sort()).toEqual(['KXMVENBA', 'KXNBAGAME']);
    expect((await pub.getSeriesList({ query: { min_updated_ts: nowSec() + 3600 } })).series).toEqual([]);
    const rich = (await pub.getSeriesList({ query: { include_volume: true, include_product_metadata: true } })).series;
    const mayor = rich.find((s) => s.ticker === 'KXMAYOR')!;
    expect(Number(mayor.volume_fp)).toBeGreaterThan(0);
    expect(mayor.product_metadata).toMatchObject({ scope: 'Politics' });
  });

  it('reads one series and 404s an unknown one', async () => {
    const { series } = await pub.getSeries({ params: { series_ticker: 'KXNBAGAME' }, query: { include_volume: true } });
    expect(series).toMatchObject({ ticker: 'KXNBAGAME', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1', category: 'Sports' });
    expect(series.volume_fp).toMatch(/^\d+\.\d\d$/);
    expect((await apiError(pub.getSeries({ params: { series_ticker: 'NOPE' } }))).status).toBe(404);
  });

  it('shows scheduled fee changes, and past ones with show_historical', async () => {
    const upcoming = (await pub.getSeriesFeeChanges()).series_fee_change_arr;
    expect(upcoming.map((c) => c.id).sort()).toEqual(['KXCPI-FEE-1', 'KXNBAGAME-FEE-1']);
    for (const c of upcoming) expect(c.effective_ts).toBeGreaterThan(nowSec());
    const cpi = upcoming.find((c) => c.series_ticker === 'KXCPI')!;
    expect(cpi).toMatchObject({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1', maker_fee: '0.0175', taker_fee: '0.07' });
    const all = (await pub.getSeriesFeeChanges({ query: { show_historical: true } })).series_fee_change_arr;
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining(['KXBTC-FEE-1', 'KXHIGHNY-FEE-1', 'KXCPI-FEE-1']));
    const btc = (await pub.getSeriesFeeChanges({ query: { series_ticker: 'KXBTC', show_historical: true } })).series_fee_change_arr;
    expect(btc).toEqual([expect.objectContaining({ id: 'KXBTC-FEE-1', fee_multiplier: '1', maker_fee: '0', taker_fee: '0.07' })]);
    expect(btc[0]!.effective_ts).toBeLessThan(nowSec());
    expect((await apiError(pub.getSeriesFeeChanges({ query: { series_ticker: 'NOPE' } }))).status).toBe(404);
  });
});

describe('events', () => {
  it('pages through 20 seeded events (no multivariate ones) with every status represented', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await pub.getEvents({ query: { limit: 6, ...(cursor ? { cursor } : {}) } });
      expect(page.events.length).toBeLessThanOrEqual(6);
      seen.push(...page.events.map((e) => e.event_ticker));
      for (const e of page.events) expect(e).toHaveProperty('fee_type_override');
      cursor = page.cursor || undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(20);
    expect(seen.some((s) => s.startsWith('KXMVE'))).toBe(false);
    for (const status of ['unopened', 'open', 'closed', 'settled'] as const) {
      const { events } = await pub.getEvents({ query: { status, limit: 100 } });
      expect(events.length, status).toBeGreaterThan(0);
      for (const e of events) expect(e.status).toBe(status);
    }
  });

  it('pages by the event, not by offset: an event leaving the filter between two pages hides none of the next', async () => {
    const made = [await catalogMarket('KXCPI'), await catalogMarket('KXCPI'), await catalogMarket('KXCPI')];
    const q = { series_ticker: 'KXCPI', status: 'open' as const, limit: 1 };
    const seen: string[] = [];
    let page = await pub.getEvents({ query: q });
    // up to the first event made here, then it leaves the open ones (its one market closed)
    while (page.events[0]?.event_ticker !== made[0]!.event) {
      seen.push(...page.events.map((e) => e.event_ticker));
      expect(page.cursor, `reached ${made[0]!.event}`).toBeTruthy();
      page = await pub.getEvents({ query: { ...q, cursor: page.cursor! } });
    }
    await submit({ type: 'closeMarket', ticker: made[0]!.ticker });
    const after: string[] = [];
    while (page.cursor) {
      page = await pub.getEvents({ query: { ...q, cursor: page.cursor } });
      after.push(...page.events.map((e) => e.event_ticker));
    }
    expect(after.slice(0, 2)).toEqual([made[1]!.event, made[2]!.event]);
  });

  it('filters by series, tickers and close time; nests live markets; lists milestones', async () => {
    const { events } = await pub.getEvents({ query: { series_ticker: 'KXNBAGAME', with_nested_markets: true, with_milestones: true } });
    expect(events).toHaveLength(4);
    const live = events.filter((e) => e.status !== 'settled');
    for (const e of live) expect(e.markets?.length).toBe(2);
    const picked = await pub.getEvents({ query: { tickers: [events[0]!.event_ticker, events[3]!.event_ticker] } });
    expect(picked.events.map((e) => e.event_ticker)).toEqual([events[0]!.event_ticker, events[3]!.event_ticker]);
    expect(picked.events[0]!.markets).toBeUndefined();
    const withMilestones = await pub.getEvents({ query: { series_ticker: 'KXNBAGAME', with_milestones: true } });
    expect(withMilestones.milestones?.map((m) => m.type)).toEqual(['basketball_game', 'basketball_game', 'basketball_game', 'basketball_game']);
    const later = await pub.getEvents({ query: { min_close_ts: nowSec(), limit: 100 } });
    for (const e of later.events) expect(['open', 'unopened', 'closed']).toContain(e.status);
  });

  it('reads one event with its live markets; an archived event keeps its record but not its markets', async () => {
    const { events } = await pub.getEvents({ query: { series_ticker: 'KXHIGHNY' } });
    const open = events.find((e) => e.status === 'open')!;
    const one = await pub.getEvent({ params: { event_ticker: open.event_ticker }, query: { with_nested_markets: true } });
    expect(one.markets).toHaveLength(6);
    expect(one.event.markets?.map((m) => m.ticker)).toEqual(one.markets.map((m) => m.ticker));
    expect(one.event).toMatchObject({ series_ticker: 'KXHIGHNY', mutually_exclusive: true, status: 'open' });
    const old = events[0]!;
    const archived = await pub.getEvent({ params: { event_ticker: old.event_ticker } });
    expect(archived.event.status).toBe('settled');
    expect(archived.markets).toEqual([]);
    expect((await apiError(pub.getEvent({ params: { event_ticker: 'NOPE-1' } }))).status).toBe(404);
  });

  it('serves event metadata; a null market_details travels as null and reads as []', async () => {
    const cpi = (await pub.getEvents({ query: { series_ticker: 'KXCPI' } })).events[0]!.event_ticker;
    const meta = await pub.getEventMetadata({ params: { event_ticker: cpi } });
    expect(meta.market_details).toEqual([]);
    expect(meta.tags).toEqual(['Inflation']);
    const raw = (await (await fetch(`${t.ex.baseUrl}/events/${cpi}/metadata`)).json()) as { market_details: unknown };
    expect(raw.market_details).toBeNull();
    const game = (await pub.getEvents({ query: { series_ticker: 'KXNBAGAME' } })).events[0]!.event_ticker;
    const gm = await pub.getEventMetadata({ params: { event_ticker: game } });
    expect(gm.market_details).toHaveLength(2);
    expect(gm.competition).toBe('NBA');
    expect((await apiError(pub.getEventMetadata({ params: { event_ticker: 'NOPE-1' } }))).status).toBe(404);
  });

  it('lists multivariate events apart, filtered by collection', async () => {
    const { events } = await pub.getMultivariateEvents({ query: { limit: 100 } });
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const e of events) expect(e.event_ticker).toMatch(/^KXMVE/);
    const nba = await pub.getMultivariateEvents({ query: { collection_ticker: 'KXMVENBA' } });
    expect(nba.events.length).toBeGreaterThanOrEqual(1);
    for (const e of nba.events) expect(e.series_ticker).toBe('KXMVENBA');
  });
});

describe('event fee overrides', () => {
  it('lists seeded overrides with both keys present, a cleared one as both null', async () => {
    const { event_fee_changes: all } = await pub.getEventFeeChanges({ query: { limit: 100 } });
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const c of all) {
      expect(c).toHaveProperty('fee_type_override');
      expect(c).toHaveProperty('fee_multiplier_override');
    }
    expect(all.some((c) => c.fee_type_override === null && c.fee_multiplier_override === null)).toBe(true);
    expect(all.some((c) => c.fee_type_override === 'quadratic' && c.fee_multiplier_override === '0.5')).toBe(true);
    const first = await pub.getEventFeeChanges({ query: { limit: 1 } });
    expect(first.event_fee_changes).toHaveLength(1);
    const second = await pub.getEventFeeChanges({ query: { limit: 1, cursor: first.cursor! } });
    expect(second.event_fee_changes[0]!.id).not.toBe(first.event_fee_changes[0]!.id);
    expect((await apiError(pub.getEventFeeChanges({ query: { event_ticker: 'NOPE-1' } }))).status).toBe(404);
  });

  it('an override changes the fee of the next fill; clearing it restores the series fee', async () => {
    const { event, ticker } = await catalogMarket('KXCPI');
    const feeOf = async (orderId: string) => (await trader.getFills({ query: { ticker } })).fills.find((f) => f.order_id === orderId)!.fee_cost;
    // series KXCPI: quadratic x1 -> 0.07 x 10 x 0.5 x 0.5 = $0.175 -> $0.18
    expect(await feeOf(await cross(ticker, '0.50', '10'))).toBe('0.18');

    const bad = await node().submit({ type: 'catalogSetEventFeeOverride', nowMs: node().now(), id: randomUUID(), event_ticker: event, fee_type_override: 'quadratic', fee_multiplier_override: null });
    expect(bad.ok).toBe(false);
    expect((bad.result as { code: string }).code).toBe('invalid_parameters');
    expect((await pub.getEvent({ params: { event_ticker: event } })).event.fee_type_override).toBeNull();

    await submit({ type: 'catalogSetEventFeeOverride', id: randomUUID(), event_ticker: event, fee_type_override: 'quadratic', fee_multiplier_override: '2' });
    const ev = (await pub.getEvent({ params: { event_ticker: event } })).event;
    expect(ev).toMatchObject({ fee_type_override: 'quadratic', fee_multiplier_override: '2' });
    expect((await pub.getMarket({ params: { ticker } })).market).toMatchObject({ fee_multiplier: '2' });
    expect(await feeOf(await cross(ticker, '0.50', '10'))).toBe('0.35');

    await submit({ type: 'catalogSetEventFeeOverride', id: randomUUID(), event_ticker: event, fee_type_override: null, fee_multiplier_override: null });
    expect((await pub.getEvent({ params: { event_ticker: event } })).event).toMatchObject({ fee_type_override: null, fee_multiplier_override: null });
    expect(await feeOf(await cross(ticker, '0.50', '10'))).toBe('0.18');
    const changes = (await pub.getEventFeeChanges({ query: { event_ticker: event } })).event_fee_changes;
    expect(changes.map((c) => c.fee_multiplier_override)).toEqual([null, '2']);
  });
});

describe('markets', () => {
  it('pages every live market once; archived markets have left the live route', async () => {
    const all = await allMarkets({});
    expect(new Set(all.map((m) => m.ticker)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(60);
    const settled = engine().listMarkets({ status: 'settled' });
    const archived = settled.filter((m) => !all.some((x) => x.ticker === m.ticker));
    expect(archived.length).toBeGreaterThan(0);
    expect(all.length + archived.length).toBe(engine().listMarkets().length);
    expect((await apiError(pub.getMarket({ params: { ticker: archived[0]!.ticker } }))).status).toBe(404);
  });

  it('pages by the market, not by offset: a market leaving the filter between two pages hides none of the next', async () => {
    const { event, ticker: first } = await catalogMarket();
    const now = Date.now();
    const rest = [`${event}-M2`, `${event}-M3`];
    for (const ticker of rest) await submit({ type: 'catalogCreateMarket', open: true, market: { ticker, event_ticker: event, title: 'Test market', open_ms: now - 60_000, close_ms: now + 86_400_000 } });
    const q = { event_ticker: event, status: 'open' as const, limit: 1 };
    const p1 = await pub.getMarkets({ query: q });
    expect(p1.markets.map((m) => m.ticker)).toEqual([first]);
    // the market read on page 1 leaves the open ones before page 2 is asked for
    await submit({ type: 'pauseMarket', ticker: first });
    const p2 = await pub.getMarkets({ query: { ...q, cursor: p1.cursor! } });
    const p3 = await pub.getMarkets({ query: { ...q, cursor: p2.cursor! } });
    expect([...p2.markets, ...p3.markets].map((m) => m.ticker)).toEqual(rest);
    expect(p3.cursor ?? '').toBe('');
    // a cursor of another list is refused, not read as a place
    expect((await apiError(pub.getMarkets({ query: { ...q, cursor: 'bm90LWEtY3Vyc29y' } }))).status).toBe(400);
  });

  it('filters by each status', async () => {
    const expected = { unopened: ['unopened'], open: ['open'], paused: ['paused'], closed: ['closed', 'determined'], settled: ['settled'] } as const;
    for (const [status, allowed] of Object.entries(expected)) {
      const got = await allMarkets({ status: status as keyof typeof expected });
      expect(got.length, status).toBeGreaterThan(0);
      for (const m of got) expect(allowed as readonly string[]).toContain(m.status);
    }
  });

  it('filters by series, event, tickers, multivariate and time bounds', async () => {
    const btc = await allMarkets({ series_ticker: 'KXBTC' });
    expect(btc.length).toBeGreaterThan(0);
    for (const m of btc) expect(m.ticker.startsWith('KXBTC-')).toBe(true);
    const ev = btc[0]!.event_ticker;
    const byEvent = await allMarkets({ event_ticker: ev });
    expect(byEvent.map((m) => m.event_ticker)).toEqual(byEvent.map(() => ev));
    const two = await pub.getMarkets({ query: { tickers: [btc[0]!.ticker, btc[1]!.ticker] } });
    expect(two.markets.map((m) => m.ticker)).toEqual([btc[0]!.ticker, btc[1]!.ticker]);
    const mve = await allMarkets({ mve_filter: 'only' });
    expect(mve.length).toBeGreaterThanOrEqual(3);
    for (const m of mve) expect(m.mve_collection_ticker).toMatch(/^KXMVE/);
    const plain = await allMarkets({ mve_filter: 'exclude' });
    expect(plain.some((m) => m.mve_collection_ticker)).toBe(false);
    const now = nowSec();
    const closing = await allMarkets({ min_close_ts: now, max_close_ts: now + 3 * 86400 });
    for (const m of closing) {
      const close = Date.parse(m.close_time!) / 1000;
      expect(close).toBeGreaterThanOrEqual(now);
      expect(close).toBeLessThanOrEqual(now + 3 * 86400);
    }
    const settledRecently = await allMarkets({ min_settled_ts: now - 30 * 86400, max_settled_ts: now });
    expect(settledRecently.length).toBeGreaterThan(0);
    for (const m of settledRecently) expect(m.status).toBe('settled');
    const created = await allMarkets({ min_created_ts: now - 2 * 86400 });
    for (const m of created) expect(Date.parse(m.created_time!) / 1000).toBeGreaterThanOrEqual(now - 2 * 86400);
    const { ticker } = await catalogMarket('KXBTC');
    const since = nowSec() - 2;
    await submit({ type: 'catalogUpdateMarket', ticker, patch: { rules_secondary: 'Updated rules.' } });
    const updated = await allMarkets({ min_updated_ts: since });
    expect(updated.map((m) => m.ticker)).toContain(ticker);
    expect(updated.find((m) => m.ticker === ticker)?.rules_secondary).toBe('Updated rules.');
    expect((await allMarkets({ max_updated_ts: since - 86400 * 400 })).length).toBe(0);
  });

  it('presents a market with the SDK field names, prices consistent with the book', async () => {
    const quoted = engine().listMarkets({ status: 'open' }).find((m) => m.yes_bid > 0 && m.no_bid > 0)!;
    const { market } = await pub.getMarket({ params: { ticker: quoted.ticker } });
    const { orderbook_fp: book } = await trader.getOrderbook({ params: { ticker: quoted.ticker }, query: { depth: 1 } });
    expect(market.yes_bid_dollars).toBe(book.yes_dollars[0]![0]);
    expect(market.yes_bid_size_fp).toBe(book.yes_dollars[0]![1]);
    // best YES ask = 1 - best NO bid
    expect(Math.round(Number(market.yes_ask_dollars) * 10000)).toBe(10000 - Math.round(Number(book.no_dollars[0]![0]) * 10000));
    expect(market).toMatchObject({ status: 'open', market_type: 'binary', exchange_index: 0, result: '' });
    expect(market.volume_fp).toMatch(/^\d+\.\d\d$/);
    expect(market.open_interest_fp).toMatch(/^\d+\.\d\d$/);
    expect(market.last_price_dollars).toMatch(/^0\.\d{4}$/);
    expect(market.rules_primary).not.toBe('');
    expect((await apiError(pub.getMarket({ params: { ticker: 'NOPE-1' } }))).status).toBe(404);
  });
});

describe('orderbooks', () => {
  it('lists bids only, best first, with depth limits; needs a signature', async () => {
    const { ticker } = await catalogMarket();
    for (const [price, count] of [['0.40', '5'], ['0.42', '3'], ['0.38', '7']] as const) {
      await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count, price } });
    }
    await counterparty.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'ask', count: '4', price: '0.55' } });
    await counterparty.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'ask', count: '2', price: '0.60' } });
    const all = (await trader.getOrderbook({ params: { ticker } })).orderbook_fp;
    expect(all.yes_dollars).toEqual([['0.4200', '3.00'], ['0.4000', '5.00'], ['0.3800', '7.00']]);
    expect(all.no_dollars).toEqual([['0.4500', '4.00'], ['0.4000', '2.00']]);
    expect((await trader.getOrderbook({ params: { ticker }, query: { depth: 0 } })).orderbook_fp.yes_dollars).toHaveLength(3);
    const top = (await trader.getOrderbook({ params: { ticker }, query: { depth: 1 } })).orderbook_fp;
    expect(top).toMatchObject({ yes_dollars: [['0.4200', '3.00']], no_dollars: [['0.4500', '4.00']] });
    expect((await rawSigned(t, 'trader', 'GET', `/markets/${ticker}/orderbook?depth=101`)).status).toBe(400);
    expect((await apiError(trader.getOrderbook({ params: { ticker: 'NOPE-1' } }))).status).toBe(404);
    expect((await fetch(`${t.ex.baseUrl}/markets/${ticker}/orderbook`)).status).toBe(401);
  });

  it('answers 1-100 books with market_ticker and ticker; 101 is a 400; unknown is a 404', async () => {
    const a = await catalogMarket();
    const b = await catalogMarket();
    await trader.createOrder({ body: { ticker: a.ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.10' } });
    const { orderbooks } = await trader.getOrderbooks({ query: { tickers: [a.ticker, b.ticker] } });
    expect(orderbooks.map((o) => o.market_ticker)).toEqual([a.ticker, b.ticker]);
    expect(orderbooks[0]!.orderbook_fp.yes_dollars).toEqual([['0.1000', '1.00']]);
    const raw = await rawSigned(t, 'trader', 'GET', `/markets/orderbooks?tickers=${a.ticker}&tickers=${b.ticker}`);
    expect(raw.status).toBe(200);
    expect((raw.body as { orderbooks: { ticker: string; market_ticker: string }[] }).orderbooks[1]).toMatchObject({ ticker: b.ticker, market_ticker: b.ticker });
    const many = Array.from({ length: 101 }, (_, i) => `tickers=T${i}`).join('&');
    const tooMany = await rawSigned(t, 'trader', 'GET', `/markets/orderbooks?${many}`);
    expect(tooMany.status).toBe(400);
    expect((tooMany.body as { error: { code: string } }).error.code).toBe('invalid_parameters');
    expect((await apiError(trader.getOrderbooks({ query: { tickers: [a.ticker, 'NOPE-1'] } }))).status).toBe(404);
  });
});

describe('candlesticks and trades', () => {
  it('builds candles from the trades made here (price, volume, bid/ask, open interest)', async () => {
    const { event, ticker } = await catalogMarket('KXCPI');
    const startTs = nowSec() - 120;
    await cross(ticker, '0.40', '5', 'bid');
    await cross(ticker, '0.45', '3', 'ask');
    await cross(ticker, '0.42', '2', 'bid');
    const trades = (await pub.getTrades({ query: { ticker } })).trades;
    expect(trades.map((x) => x.yes_price_dollars)).toEqual(['0.4200', '0.4500', '0.4000']);
    const endTs = nowSec() + 60;
    const { candlesticks, ticker: echoed } = await pub.getMarketCandlesticks({ params: { series_ticker: 'KXCPI', ticker }, query: { start_ts: startTs, end_ts: endTs, period_interval: 60 } });
    expect(echoed).toBe(ticker);
    const traded = candlesticks.filter((c) => c.volume_fp !== '0.00');
    // group the trades by the minute they fall in, as the candles must
    const byEnd = new Map<number, typeof trades>();
    for (const tr of [...trades].reverse()) {
      const end = Math.ceil(tr.ts! / 60) * 60;
      byEnd.set(end, [...(byEnd.get(end) ?? []), tr]);
    }
    expect(traded.map((c) => c.end_period_ts)).toEqual([...byEnd.keys()]);
    for (const c of traded) {
      const ts = byEnd.get(c.end_period_ts)!;
      const prices = ts.map((x) => x.yes_price_dollars);
      expect(c.price).toMatchObject({ open_dollars: prices[0], close_dollars: prices[prices.length - 1], high_dollars: [...prices].sort().at(-1), low_dollars: [...prices].sort()[0] });
      const volume = ts.reduce((n, x) => n + Math.round(Number(x.count_fp) * 100), 0);
      expect(Math.round(Number(c.volume_fp) * 100)).toBe(volume);
    }
    const last = candlesticks[candlesticks.length - 1]!;
    const market = (await pub.getMarket({ params: { ticker } })).market;
    expect(last.open_interest_fp).toBe(market.open_interest_fp);
    // the taker that sold hit the bid at 0.45
    expect(candlesticks.some((c) => c.yes_bid.high_dollars === '0.4500')).toBe(true);
    // hourly and the SDK's minute form (1 = one minute)
    const hourly = await pub.getMarketCandlesticks({ params: { series_ticker: 'KXCPI', ticker }, query: { start_ts: startTs, end_ts: endTs + 3600, period_interval: 3600 } });
    expect(hourly.candlesticks.reduce((n, c) => n + Number(c.volume_fp), 0)).toBe(10);
    const sdkMinute = await pub.getMarketCandlesticks({ params: { series_ticker: 'KXCPI', ticker }, query: { start_ts: startTs, end_ts: endTs, period_interval: 1 } });
    expect(sdkMinute.candlesticks).toEqual(candlesticks);
    // event candles: one list per market of the event
    const ev = await pub.getEventCandlesticks({ params: { series_ticker: 'KXCPI', ticker: event }, query: { start_ts: startTs, end_ts: endTs, period_interval: 60 } });
    expect(ev.market_tickers).toEqual([ticker]);
    expect(ev.market_candlesticks[0]).toEqual(candlesticks);
    expect(ev.adjusted_end_ts).toBe(endTs);
    // bulk: a bare array of { market_ticker, candlesticks }
    const other = await catalogMarket('KXCPI');
    const bulk = await pub.getBulkMarketCandlesticks({ query: { market_tickers: [ticker, other.ticker], start_ts: startTs, end_ts: endTs, period_interval: 60 } });
    expect(bulk.markets.map((m) => m.market_ticker)).toEqual([ticker, other.ticker]);
    expect(bulk.markets[0]!.candlesticks).toEqual(candlesticks);
    const rawBulk = await (await fetch(`${t.ex.baseUrl}/markets/candlesticks?market_tickers=${ticker}&start_ts=${startTs}&end_ts=${endTs}&period_interval=60`)).json();
    expect(Array.isArray(rawBulk)).toBe(true);
  });

  it('prepends the latest candle before the start when asked, and sums to the seeded volume', async () => {
    const bos = engine().listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' })[0]!;
    const now = nowSec();
    // a candle is included when it ends by end_ts: today's ends at the next midnight
    const daily = await pub.getMarketCandlesticks({ params: { series_ticker: 'KXMAYOR', ticker: bos.ticker }, query: { start_ts: now - 90 * 86400, end_ts: now + 86400, period_interval: 86400 } });
    expect(daily.candlesticks.length).toBeGreaterThan(55);
    const total = daily.candlesticks.reduce((n, c) => n + Math.round(Number(c.volume_fp) * 100), 0);
    expect(total).toBe(bos.volume);
    const withPrev = await pub.getMarketCandlesticks({ params: { series_ticker: 'KXMAYOR', ticker: bos.ticker }, query: { start_ts: now - 86400, end_ts: now, period_interval: 3600, include_latest_before_start: true } });
    const first = withPrev.candlesticks[0]!;
    expect(first.price?.open_dollars).toBeNull();
    expect(first.price?.previous_dollars).toMatch(/^0\.\d{4}$/);
    expect(first.end_period_ts).toBeLessThan(withPrev.candlesticks[1]!.end_period_ts);
  });

  it('refuses bad candle requests', async () => {
    const bos = engine().listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' })[0]!;
    const now = nowSec();
    const tooMany = await apiError(pub.getMarketCandlesticks({ params: { series_ticker: 'KXMAYOR', ticker: bos.ticker }, query: { start_ts: now - 60 * 86400, end_ts: now, period_interval: 60 } }));
    expect(tooMany.status).toBe(400);
    expect((await apiError(pub.getMarketCandlesticks({ params: { series_ticker: 'KXMAYOR', ticker: bos.ticker }, query: { start_ts: now, end_ts: now - 10, period_interval: 60 } }))).status).toBe(400);
    expect((await apiError(pub.getMarketCandlesticks({ params: { series_ticker: 'KXCPI', ticker: bos.ticker }, query: { start_ts: now - 60, end_ts: now, period_interval: 60 } }))).status).toBe(404);
    expect((await fetch(`${t.ex.baseUrl}/series/KXMAYOR/markets/${bos.ticker}/candlesticks?start_ts=1&end_ts=2&period_interval=5`)).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `M${i}`).join(',');
    expect((await fetch(`${t.ex.baseUrl}/markets/candlesticks?market_tickers=${many}&start_ts=1&end_ts=2&period_interval=60`)).status).toBe(400);
    expect((await apiError(pub.getBulkMarketCandlesticks({ query: { market_tickers: ['NOPE-1'], start_ts: now - 60, end_ts: now, period_interval: 60 } }))).status).toBe(404);
    expect((await apiError(pub.getEventCandlesticks({ params: { series_ticker: 'KXCPI', ticker: 'NOPE-1' }, query: { start_ts: now - 60, end_ts: now, period_interval: 60 } }))).status).toBe(404);
  });

  it('pages public trades newest first with ticker, time and block-trade filters; none older than the cutoff', async () => {
    const bos = engine().listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' })[0]!;
    const cutoff = (await pub.getHistoricalCutoff()).trades_created_ts;
    const seen: string[] = [];
    let cursor: string | undefined;
    let prev = Number.MAX_SAFE_INTEGER;
    do {
      const page = await pub.getTrades({ query: { ticker: bos.ticker, limit: 7, ...(cursor ? { cursor } : {}) } });
      for (const tr of page.trades) {
        expect(tr.ticker).toBe(bos.ticker);
        expect(tr.ts!).toBeLessThanOrEqual(prev);
        expect(tr.ts!).toBeGreaterThanOrEqual(cutoff);
        prev = tr.ts!;
        seen.push(tr.trade_id);
      }
      cursor = page.cursor || undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const live = engine().getTrades({ ticker: bos.ticker }).filter((x) => x.created_time >= cutoff * 1000);
    expect(seen.length).toBe(live.length);
    const window = await pub.getTrades({ query: { ticker: bos.ticker, min_ts: cutoff, max_ts: cutoff + 5 * 86400, limit: 1000 } });
    for (const tr of window.trades) expect(tr.ts!).toBeLessThanOrEqual(cutoff + 5 * 86400);
    expect((await pub.getTrades({ query: { ticker: bos.ticker, is_block_trade: true } })).trades).toEqual([]);
    expect((await pub.getTrades({ query: { ticker: bos.ticker, is_block_trade: false, limit: 3 } })).trades).toHaveLength(3);
    expect((await fetch(`${t.ex.baseUrl}/markets/trades?cursor=garbage`)).status).toBe(400);
  });
});

describe('multivariate collections', () => {
  it('lists and reads collections (exchange_index 0) with filters; 404 for unknown', async () => {
    const { multivariate_contracts: all } = await pub.getMultivariateCollections();
    expect(all.map((c) => c.collection_ticker).sort()).toEqual(['KXMVECROSS', 'KXMVENBA']);
    for (const c of all) expect(c.exchange_index).toBe(0);
    const cross = all.find((c) => c.collection_ticker === 'KXMVECROSS')!;
    expect(cross.associated_event_tickers).toHaveLength(3);
    const byEvent = await pub.getMultivariateCollections({ query: { associated_event_ticker: cross.associated_event_tickers[0]! } });
    expect(byEvent.multivariate_contracts.map((c) => c.collection_ticker)).toEqual(['KXMVECROSS']);
    expect((await pub.getMultivariateCollections({ query: { status: 'closed' } })).multivariate_contracts).toEqual([]);
    expect((await pub.getMultivariateCollections({ query: { series_ticker: 'KXMVENBA' } })).multivariate_contracts).toHaveLength(1);
    const page = await pub.getMultivariateCollections({ query: { limit: 1 } });
    expect(page.multivariate_contracts).toHaveLength(1);
    expect(page.cursor).toBeTruthy();
    const one = await pub.getMultivariateCollection({ params: { ticker: 'KXMVECROSS' } });
    expect(one.multivariate_contract).toMatchObject({ collection_ticker: 'KXMVECROSS', title: cross.title, size_min: 2, size_max: 3 });
    expect((await apiError(pub.getMultivariateCollection({ params: { ticker: 'NOPE' } }))).status).toBe(404);
  });

  it('creates (or finds) the market of a leg selection, which then trades', async () => {
    const c = (await pub.getMultivariateCollection({ params: { ticker: 'KXMVECROSS' } })).multivariate_contract;
    const legs = c.associated_event_tickers.slice(0, 2).map((ev) => {
      const m = engine().listMarkets({ eventTicker: ev, status: 'open' })[0]!;
      return { event_ticker: ev, market_ticker: m.ticker, side: 'yes' as const };
    });
    const made = await trader.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: legs, with_market_payload: true } });
    expect(made.market_ticker.startsWith(made.event_ticker)).toBe(true);
    expect(made.market).toMatchObject({ ticker: made.market_ticker, status: 'open', mve_collection_ticker: 'KXMVECROSS' });
    expect(made.market?.mve_selected_legs).toEqual(legs);
    const again = await trader.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: [...legs].reverse() } });
    expect(again).toMatchObject({ market_ticker: made.market_ticker, event_ticker: made.event_ticker });
    expect(again.market).toBeUndefined();
    await cross(made.market_ticker, '0.20', '4');
    const { market } = await pub.getMarket({ params: { ticker: made.market_ticker } });
    expect(market).toMatchObject({ volume_fp: '4.00', last_price_dollars: '0.2000' });
    const mveEvents = await pub.getMultivariateEvents({ query: { collection_ticker: 'KXMVECROSS', limit: 100 } });
    expect(mveEvents.events.map((e) => e.event_ticker)).toContain(made.event_ticker);
  });

  it('refuses bad leg selections with 400 and unknown collections with 404, changing nothing', async () => {
    const before = engine().listMarkets().length;
    const c = (await pub.getMultivariateCollection({ params: { ticker: 'KXMVECROSS' } })).multivariate_contract;
    const ev = c.associated_event_tickers[0]!;
    const m = engine().listMarkets({ eventTicker: ev, status: 'open' });
    const one = [{ event_ticker: ev, market_ticker: m[0]!.ticker }];
    expect((await apiError(trader.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: one } }))).status).toBe(400);
    const sameEvent = [{ event_ticker: ev, market_ticker: m[0]!.ticker }, { event_ticker: ev, market_ticker: m[1]!.ticker }];
    expect((await apiError(trader.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: sameEvent } }))).status).toBe(400);
    const foreign = engine().listMarkets({ seriesTicker: 'KXMAYOR', status: 'open' })[0]!;
    const outside = [one[0]!, { event_ticker: foreign.event_ticker, market_ticker: foreign.ticker }];
    expect((await apiError(trader.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: outside } }))).status).toBe(400);
    const nbaEv = (await pub.getMultivariateCollection({ params: { ticker: 'KXMVENBA' } })).multivariate_contract.associated_event_tickers;
    const noSide = nbaEv.map((e) => ({ event_ticker: e, market_ticker: engine().listMarkets({ eventTicker: e })[0]!.ticker, side: 'no' as const }));
    expect((await apiError(trader.createMarketInCollection({ params: { ticker: 'KXMVENBA' }, body: { selected_markets: noSide } }))).status).toBe(400);
    expect((await apiError(trader.createMarketInCollection({ params: { ticker: 'NOPE' }, body: { selected_markets: one } }))).status).toBe(404);
    expect(engine().listMarkets().length).toBe(before);
    await expect(pub.createMarketInCollection({ params: { ticker: 'KXMVECROSS' }, body: { selected_markets: one } })).rejects.toThrow();
  });
});

describe('structured targets', () => {
  it('pages with page_size, filters by ids, type and competition; 404 for an unknown id', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await pub.getStructuredTargets({ query: { page_size: 5, ...(cursor ? { cursor } : {}) } });
      expect(page.structured_targets.length).toBeLessThanOrEqual(5);
      ids.push(...page.structured_targets.map((x) => x.structured_target_id));
      cursor = page.cursor || undefined;
    } while (cursor);
    expect(ids).toHaveLength(13);
    const teams = (await pub.getStructuredTargets({ query: { type: 'basketball_team' } })).structured_targets;
    expect(teams).toHaveLength(8);
    for (const x of teams) expect(x).toMatchObject({ type: 'basketball_team', competition: 'NBA', name: expect.any(String) });
    expect((await pub.getStructuredTargets({ query: { competition: 'Eastern' } })).structured_targets.length).toBe(4);
    expect((await pub.getStructuredTargets({ query: { competition: 'UCL' } })).structured_targets.map((x) => x.name).sort()).toEqual(['Arsenal', 'Liverpool', 'Manchester City']);
    const picked = await pub.getStructuredTargets({ query: { ids: [ids[0]!, ids[12]!] } });
    expect(picked.structured_targets.map((x) => x.structured_target_id)).toEqual([ids[0], ids[12]]);
    const one = await pub.getStructuredTarget({ params: { id: ids[3]! } });
    expect(one.structured_target?.structured_target_id).toBe(ids[3]);
    const raw = (await (await fetch(`${t.ex.baseUrl}/structured_targets/${ids[3]}`)).json()) as { structured_target: { id: string; structured_target_id: string } };
    expect(raw.structured_target.id).toBe(raw.structured_target.structured_target_id);
    expect((await apiError(pub.getStructuredTarget({ params: { id: 'nope' } }))).status).toBe(404);
    expect((await fetch(`${t.ex.baseUrl}/structured_targets?page_size=2001`)).status).toBe(400);
  });
});

describe('forecast percentile history', () => {
  it('answers ordered percentiles, deterministically, to a signed caller', async () => {
    const cpi = (await pub.getEvents({ query: { series_ticker: 'KXCPI', status: 'open' } })).events[0]!.event_ticker;
    const now = nowSec();
    const q = { percentiles: [1000, 5000, 9000], start_ts: now - 86400, end_ts: now, period_interval: 3600 };
    const { percentile_points: points } = await trader.getForecastPercentileHistory({ params: { series_ticker: 'KXCPI', ticker: cpi }, query: q });
    expect(points.length).toBe(24 * 3);
    for (let i = 0; i < points.length; i += 3) {
      const [p10, p50, p90] = points.slice(i, i + 3);
      expect(p10!.ts).toBe(p50!.ts);
      expect(p10!.value).toBeLessThan(p50!.value);
      expect(p50!.value).toBeLessThan(p90!.value);
    }
    const again = await trader.getForecastPercentileHistory({ params: { series_ticker: 'KXCPI', ticker: cpi }, query: q });
    expect(again.percentile_points).toEqual(points);
    const tooMany = await apiError(trader.getForecastPercentileHistory({ params: { series_ticker: 'KXCPI', ticker: cpi }, query: { ...q, percentiles: Array.from({ length: 11 }, (_, i) => i * 500) } }));
    expect(tooMany.status).toBe(400);
    const mayor = (await pub.getEvents({ query: { series_ticker: 'KXMAYOR' } })).events[0]!.event_ticker;
    expect((await apiError(trader.getForecastPercentileHistory({ params: { series_ticker: 'KXMAYOR', ticker: mayor }, query: q }))).status).toBe(404);
    expect((await apiError(trader.getForecastPercentileHistory({ params: { series_ticker: 'KXBTC', ticker: cpi }, query: q }))).status).toBe(404);
    expect((await fetch(`${t.ex.baseUrl}/series/KXCPI/events/${cpi}/forecast_percentile_history?percentiles=5000&start_ts=1&end_ts=2&period_interval=60`)).status).toBe(401);
  });
});

describe('exchange', () => {
  it('publishes standard hours and maintenance windows in both spellings', async () => {
    const { schedule } = await pub.getExchangeSchedule();
    expect(schedule.standard_hours.length).toBeGreaterThan(0);
    expect(schedule.maintenance_windows).toHaveLength(2);
    const w = schedule.maintenance_windows[0]!;
    expect(Date.parse(w.end)).toBeGreaterThan(Date.now());
    expect(Date.parse(w.end) - Date.parse(w.start)).toBe(2 * 3_600_000);
    const raw = (await (await fetch(`${t.ex.baseUrl}/exchange/schedule`)).json()) as { schedule: { maintenance_windows: Record<string, string>[]; standard_hours: Record<string, unknown>[] } };
    const rw = raw.schedule.maintenance_windows[0]!;
    expect(rw.start).toBe(rw.start_datetime);
    expect(rw.end).toBe(rw.end_datetime);
    expect(raw.schedule.standard_hours[0]).toMatchObject({ monday: [{ open_time: '00:00', close_time: '24:00' }] });
    const status = await pub.getExchangeStatus();
    expect(status).toMatchObject({ exchange_active: true, trading_active: true });
  });
});
