// Market data and private channels: ticker (coalesced), trade, market lifecycle, fill,
// user_orders, market_positions, order_group_updates, and domain events (communications by
// audience). Private messages reach only their owner's signed connections.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { TestStream, openTestMarket } from '../test-support/exchange/ws-client';
import type { ExchangeEvent } from '../src-exchange/state/domain';
import { FillFrame, MarketLifecycleFrame, MarketPositionFrame, OrderGroupUpdatesFrame, TickerFrame, TradeFrame, UserOrderFrame } from '../src-shared/wire/stream';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
const open: TestStream[] = [];

async function connect(signedAs?: string | { keyId: string; privateKeyPem: string }): Promise<TestStream> {
  const key =
    typeof signedAs === 'string' ? { keyId: t.account(signedAs).api_key_id, privateKeyPem: t.account(signedAs).private_key_pem } : signedAs;
  const s = await TestStream.open(t.ex.wsUrl, key ? { key } : {});
  open.push(s);
  return s;
}

let marketNo = 0;
async function newMarket(): Promise<string> {
  const ticker = `WSC-${++marketNo}`;
  await openTestMarket(t.ex.svc.node, ticker);
  return ticker;
}

const order = (c: ApiClient, ticker: string, side: 'bid' | 'ask', price: string, count: string, extra: Record<string, unknown> = {}) =>
  c.createOrder({ body: { ticker, side, price, count, ...extra } });

/** Publish events through the node's listener path, as a durable command's events are. */
function publish(events: ExchangeEvent[]): void {
  (t.ex.svc.node as unknown as { publish(e: readonly ExchangeEvent[]): void }).publish(events);
}

beforeAll(async () => {
  t = await startTestExchange();
});
afterAll(async () => {
  for (const s of open) await s.close();
  await t?.close();
});
afterEach(() => {
  for (const s of open) expect(s.malformed).toEqual([]);
});

describe('public market data', () => {
  it('ticker: one message per market per turn when the top of book changes, none when nothing shown changed', async () => {
    const ticker = await newMarket();
    const s = await connect();
    await s.command('subscribe', { channels: ['ticker'], market_ticker: ticker });
    const node = t.ex.svc.node;
    const trader = t.account('trader').user_id;
    // five orders in one journal batch: published in one turn, coalesced into one ticker
    await Promise.all(
      [3_000, 3_100, 3_200, 3_300, 3_400].map((p) => node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader, ticker, side: 'bid', priceTicks: p, countCenti: 200 })),
    );
    const first = await s.until((fs) => fs.find((f) => f.msg.type === 'ticker'));
    expect(TickerFrame.safeParse(first.raw).success).toBe(true);
    expect(first.raw.msg).toMatchObject({ market_ticker: ticker, yes_bid_dollars: '0.3400', yes_ask_dollars: '1.0000', yes_bid_size_fp: '2.00', price_dollars: '0.0000', volume_fp: '0.00', open_interest_fp: '0.00' });
    expect(Number.isInteger((first.raw.msg as { ts: number }).ts)).toBe(true);
    await s.sync();
    expect(s.data('ticker')).toHaveLength(1);

    // below the best bid: nothing shown changes, nothing is sent
    await order(t.client('trader'), ticker, 'bid', '0.1000', '1');
    await s.sync();
    expect(s.data('ticker')).toHaveLength(1);

    // an ask sets yes_ask; a trade sets price and volume
    await order(t.client('counterparty'), ticker, 'ask', '0.6000', '1');
    await s.until((fs) => fs.find((f) => f.msg.type === 'ticker' && (f.raw.msg as { yes_ask_dollars: string }).yes_ask_dollars === '0.6000'));
    await order(t.client('counterparty'), ticker, 'ask', '0.3400', '1.5');
    const traded = await s.until((fs) => fs.find((f) => f.msg.type === 'ticker' && (f.raw.msg as { volume_fp: string }).volume_fp === '1.50'));
    expect(traded.raw.msg).toMatchObject({ price_dollars: '0.3400', yes_bid_dollars: '0.3400', yes_bid_size_fp: '0.50', last_trade_size_fp: '1.50', open_interest_fp: '1.50' });
  });

  it('ticker with send_initial_snapshot sends the current state at once', async () => {
    const ticker = await newMarket();
    await order(t.client('trader'), ticker, 'bid', '0.2500', '1');
    const s = await connect();
    await s.command('subscribe', { channels: ['ticker'], market_tickers: [ticker], send_initial_snapshot: true });
    const f = await s.until((fs) => fs.find((x) => x.msg.type === 'ticker'));
    expect(f.raw.msg).toMatchObject({ market_ticker: ticker, yes_bid_dollars: '0.2500' });
  });

  it('trade: every execution, to all-market and per-market subscriptions, not to other markets', async () => {
    const [ticker, other] = [await newMarket(), await newMarket()];
    const all = await connect();
    const one = await connect();
    const elsewhere = await connect();
    await all.command('subscribe', { channels: ['trade'] });
    await one.command('subscribe', { channels: ['trade'], market_ticker: ticker });
    await elsewhere.command('subscribe', { channels: ['trade'], market_ticker: other });
    await order(t.client('trader'), ticker, 'bid', '0.5500', '2');
    await order(t.client('counterparty'), ticker, 'ask', '0.5500', '2');
    for (const s of [all, one]) {
      const f = await s.until((fs) => fs.find((x) => x.msg.type === 'trade'));
      expect(TradeFrame.safeParse(f.raw).success).toBe(true);
      expect(f.raw.msg).toMatchObject({ market_ticker: ticker, yes_price_dollars: '0.5500', no_price_dollars: '0.4500', count_fp: '2.00', taker_side: 'no' });
      expect(typeof (f.raw.msg as { trade_id: string }).trade_id).toBe('string');
    }
    await elsewhere.sync();
    expect(elsewhere.data('trade')).toEqual([]);
  });

  it('market_lifecycle_v2: created, activated, deactivated both ways, close, determined, settled', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['market_lifecycle_v2'] });
    const node = t.ex.svc.node;
    const ticker = 'WSC-LIFE';
    for (const cmd of [
      { type: 'addMarket', ticker, eventTicker: 'WSC-LIFE-EV', seriesTicker: 'WSC', title: 'Lifecycle', closeTime: 2_000_000_000 },
      { type: 'openMarket', ticker },
      { type: 'pauseMarket', ticker },
      { type: 'openMarket', ticker },
      { type: 'closeMarket', ticker },
      { type: 'determineMarket', ticker, result: 'yes' },
      { type: 'settleMarket', ticker },
    ]) {
      const r = await node.submit({ ...cmd, nowMs: node.now() });
      expect(r.ok, JSON.stringify(r.result)).toBe(true);
    }
    const frames = await s.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'market_lifecycle_v2' && (f.raw.msg as { market_ticker: string }).market_ticker === ticker);
      return got.length >= 7 ? got : undefined;
    });
    for (const f of frames) expect(MarketLifecycleFrame.safeParse(f.raw).success).toBe(true);
    const msgs = frames.map((f) => f.raw.msg as Record<string, unknown>);
    expect(msgs.map((m) => m.event_type)).toEqual(['created', 'activated', 'deactivated', 'deactivated', 'close_date_updated', 'determined', 'settled']);
    expect(msgs[0]).toMatchObject({ title: 'Lifecycle', series_ticker: 'WSC', event_ticker: 'WSC-LIFE-EV', close_ts: 2_000_000_000 });
    expect(msgs[2]).toMatchObject({ is_deactivated: true });
    expect(msgs[3]).toMatchObject({ is_deactivated: false });
    expect(msgs[5]).toMatchObject({ result: 'yes', determination_ts: expect.any(Number) });
    expect(msgs[6]).toMatchObject({ settlement_value: '1.0000', settled_ts: expect.any(Number) });
  });

  it('domain events on market_lifecycle_v2 (event_fee_update) reach every subscriber; a malformed one reaches nobody', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['market_lifecycle_v2'] });
    publish([
      { type: 'domain', channel: 'market_lifecycle_v2', audience: 'public', kind: 'event_fee_update', payload: { event_ticker: 'EV-1', fee_type_override: null } },
      { type: 'domain', channel: 'market_lifecycle_v2', audience: 'public', kind: 'event_fee_update', payload: { event_ticker: 'EV-1', fee_type_override: 'quadratic', fee_multiplier_override: '0.5' } },
    ]);
    const f = await s.until((fs) => fs.find((x) => x.msg.type === 'event_fee_update'));
    expect(f.raw).toEqual({ type: 'event_fee_update', sid: 1, msg: { event_ticker: 'EV-1', fee_type_override: 'quadratic', fee_multiplier_override: '0.5' } });
    await s.sync();
    expect(s.data('event_fee_update')).toHaveLength(1);
  });
});

describe('catalog-driven lifecycle', () => {
  it('a market made in a multivariate collection reports on multivariate_market_lifecycle and market_lifecycle_v2', async () => {
    const multi = await connect();
    const all = await connect();
    await multi.command('subscribe', { channels: ['multivariate_market_lifecycle'] });
    await all.command('subscribe', { channels: ['market_lifecycle_v2'] });
    const pub = t.publicClient();
    const { multivariate_contracts: collections } = await pub.getMultivariateCollections({ query: {} });
    const engine = t.ex.svc.node.core.engine;
    const c = collections.find((x) => (x.associated_events ?? []).every((a) => engine.listMarkets({ eventTicker: a.ticker, status: 'open' }).length > 0));
    expect(c, 'a seeded collection whose events have open markets').toBeDefined();
    const legs = (c!.associated_events ?? []).slice(0, c!.size_max ?? 2).map((a) => ({ event_ticker: a.ticker, market_ticker: engine.listMarkets({ eventTicker: a.ticker, status: 'open' })[0]!.ticker, side: 'yes' as const }));
    const made = await t.client('trader').createMarketInCollection({ params: { ticker: c!.collection_ticker }, body: { selected_markets: legs } });
    const frames = await multi.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'multivariate_market_lifecycle');
      return got.length >= 2 ? got : undefined;
    });
    expect(frames.map((f) => f.raw.msg)).toEqual([
      expect.objectContaining({ event_type: 'created', market_ticker: made.market_ticker, event_ticker: made.event_ticker }),
      expect.objectContaining({ event_type: 'activated', market_ticker: made.market_ticker }),
    ]);
    await all.until((fs) => fs.find((f) => f.msg.type === 'market_lifecycle_v2' && (f.raw.msg as { market_ticker: string }).market_ticker === made.market_ticker));
    // an ordinary market does not appear on the multivariate channel
    await newMarket();
    await multi.sync();
    expect(multi.data('multivariate_market_lifecycle')).toHaveLength(2);
  });

  it('an event fee override set in the catalog streams event_fee_update; clearing it sends both keys null', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['market_lifecycle_v2'] });
    const node = t.ex.svc.node;
    const ev = t.ex.svc.node.core.engine.listMarkets({ status: 'open' }).find((m) => m.series_ticker !== 'WSTEST' && !m.ticker.startsWith('WSC'))!.event_ticker;
    const set = await node.submit({ type: 'catalogSetEventFeeOverride', nowMs: node.now(), id: randomUUID(), event_ticker: ev, fee_type_override: 'quadratic', fee_multiplier_override: '0.5' });
    expect(set.ok, JSON.stringify(set.result)).toBe(true);
    const clear = await node.submit({ type: 'catalogSetEventFeeOverride', nowMs: node.now(), id: randomUUID(), event_ticker: ev, fee_type_override: null, fee_multiplier_override: null });
    expect(clear.ok, JSON.stringify(clear.result)).toBe(true);
    const frames = await s.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'event_fee_update');
      return got.length >= 2 ? got : undefined;
    });
    expect(frames[0]!.raw.msg).toMatchObject({ event_ticker: ev, fee_type_override: 'quadratic', fee_multiplier_override: expect.any(String) });
    expect(frames[1]!.raw.msg).toMatchObject({ event_ticker: ev, fee_type_override: null, fee_multiplier_override: null });
  });
});

describe('private channels', () => {
  it('fill, user_orders and market_positions go to the owner only', async () => {
    const ticker = await newMarket();
    const mine = await connect('trader');
    const theirs = await connect('counterparty');
    const id = mine.send('subscribe', { channels: ['fill', 'user_orders', 'market_positions'] });
    await mine.replies(id, 3);
    const id2 = theirs.send('subscribe', { channels: ['fill', 'user_orders', 'market_positions'], market_tickers: [ticker] });
    await theirs.replies(id2, 3);

    const coid = randomUUID();
    const placed = await order(t.client('trader'), ticker, 'bid', '0.4200', '3', { client_order_id: coid });
    await order(t.client('counterparty'), ticker, 'ask', '0.4200', '2');

    const myFill = await mine.until((fs) => fs.find((f) => f.msg.type === 'fill'));
    expect(FillFrame.safeParse(myFill.raw).success).toBe(true);
    expect(myFill.raw.msg).toMatchObject({
      order_id: placed.order_id,
      client_order_id: coid,
      market_ticker: ticker,
      is_taker: false,
      side: 'yes',
      action: 'buy',
      yes_price_dollars: '0.4200',
      count_fp: '2.00',
      post_position_fp: '2.00',
    });
    expect((myFill.raw.msg as { fee_cost: string }).fee_cost).toMatch(/^\d+\.\d{6}$/);
    const theirFill = await theirs.until((fs) => fs.find((f) => f.msg.type === 'fill'));
    expect(theirFill.raw.msg).toMatchObject({ is_taker: true, side: 'no', count_fp: '2.00', post_position_fp: '-2.00' });

    const myOrder = await mine.until((fs) => fs.filter((f) => f.msg.type === 'user_order').at(-1)?.raw.msg && fs.filter((f) => f.msg.type === 'user_order').length >= 2 ? fs.filter((f) => f.msg.type === 'user_order') : undefined);
    for (const f of myOrder) expect(UserOrderFrame.safeParse(f.raw).success).toBe(true);
    expect(myOrder.at(-1)!.raw.msg).toMatchObject({
      order_id: placed.order_id,
      client_order_id: coid,
      status: 'resting',
      side: 'bid',
      yes_price_dollars: '0.4200',
      initial_count_fp: '3.00',
      fill_count_fp: '2.00',
      remaining_count_fp: '1.00',
      maker_fill_cost_dollars: '0.840000',
      taker_fill_cost_dollars: '0.000000',
    });

    // (placing the order already sent a flat position: resting orders count changed)
    const pos = await mine.until((fs) => fs.find((f) => f.msg.type === 'market_position' && (f.raw.msg as { position_fp: string }).position_fp !== '0.00'));
    expect(MarketPositionFrame.safeParse(pos.raw).success).toBe(true);
    expect(pos.raw.msg).toMatchObject({ market_ticker: ticker, position_fp: '2.00', position_cost_dollars: '0.840000', volume_fp: '2.00' });

    await mine.sync();
    await theirs.sync();
    const orderIds = (s: TestStream) => new Set(s.data('user_order').map((f) => (f.raw.msg as { order_id: string }).order_id));
    expect(orderIds(mine).has(placed.order_id)).toBe(true);
    expect([...orderIds(theirs)].includes(placed.order_id)).toBe(false);
    for (const f of theirs.data('fill')) expect((f.raw.msg as { order_id: string }).order_id).not.toBe(placed.order_id);
  });

  it('a market filter on a private channel holds back other markets', async () => {
    const [a, b] = [await newMarket(), await newMarket()];
    const s = await connect('trader');
    await s.command('subscribe', { channels: ['user_orders'], market_ticker: a });
    await order(t.client('trader'), b, 'bid', '0.1000', '1');
    await order(t.client('trader'), a, 'bid', '0.1000', '1');
    await s.until((fs) => fs.find((f) => f.msg.type === 'user_order'));
    await s.sync();
    expect(s.data('user_order').map((f) => (f.raw.msg as { market_ticker: string }).market_ticker)).toEqual([a]);
  });

  it('a subaccount-scoped key sees only its subaccount', async () => {
    const trader = t.account('trader');
    const node = t.ex.svc.node;
    const sub = await node.submit({ type: 'createSubaccount', nowMs: node.now(), userId: trader.user_id });
    expect(sub.ok).toBe(true);
    const n = (sub.result as { subaccount: number }).subaccount;
    await node.submit({ type: 'deposit', nowMs: node.now(), userId: trader.user_id, subaccount: n, amountMicro: 10_000_000 });
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyId = randomUUID();
    const added = await node.submit({
      type: 'addApiKey',
      nowMs: node.now(),
      key: { api_key: keyId, user_id: trader.user_id, name: 'sub', public_key_pem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), key_type: 'rsa', scopes: ['read'], subaccount: n, fcm_subtrader_id: null },
    });
    expect(added.ok).toBe(true);
    const s = await connect({ keyId, privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    await s.command('subscribe', { channels: ['user_orders'] });
    const ticker = await newMarket();
    await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader.user_id, ticker, side: 'bid', priceTicks: 1_000, countCenti: 100, subaccount: 0 });
    await node.submit({ type: 'createOrder', nowMs: node.now(), userId: trader.user_id, ticker, side: 'bid', priceTicks: 1_100, countCenti: 100, subaccount: n });
    await s.until((fs) => fs.find((f) => f.msg.type === 'user_order'));
    await s.sync();
    expect(s.data('user_order').map((f) => (f.raw.msg as { subaccount: number; yes_price_dollars: string }).yes_price_dollars)).toEqual(['0.1100']);
  });

  it('order_group_updates carry seq 1, 2, 3... and reach only the owner', async () => {
    const mine = await connect('trader');
    const theirs = await connect('counterparty');
    await mine.command('subscribe', { channels: ['order_group_updates'] });
    await theirs.command('subscribe', { channels: ['order_group_updates'] });
    const c = t.client('trader');
    const g = await c.createOrderGroup({ body: { contracts_limit: 5 } });
    await c.triggerOrderGroup({ params: { id: g.order_group_id }, body: {} });
    await c.resetOrderGroup({ params: { id: g.order_group_id }, body: {} });
    await c.deleteOrderGroup({ params: { id: g.order_group_id } });
    const frames = await mine.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'order_group_updates');
      return got.length >= 4 ? got : undefined;
    });
    for (const f of frames) expect(OrderGroupUpdatesFrame.safeParse(f.raw).success).toBe(true);
    expect(frames.map((f) => [f.raw.seq, (f.raw.msg as { event_type: string }).event_type])).toEqual([
      [1, 'created'],
      [2, 'triggered'],
      [3, 'reset'],
      [4, 'deleted'],
    ]);
    expect(frames[0]!.raw.msg).toMatchObject({ order_group_id: g.order_group_id, contracts_limit: '5.00', contracts_used: '0.00' });
    const un = await mine.command('unsubscribe', { sids: [1] });
    expect(un.raw.seq).toBe(5);
    await theirs.sync();
    expect(theirs.data('order_group_updates')).toEqual([]);
  });

  it('communications events reach only connections whose user is in the audience', async () => {
    const trader = t.account('trader');
    const a = await connect('trader');
    const b = await connect('counterparty');
    const anon = await connect();
    await a.command('subscribe', { channels: ['communications'] });
    await b.command('subscribe', { channels: ['communications'] });
    await anon.command('subscribe', { channels: ['ticker'] });
    const rfqId = randomUUID();
    publish([
      {
        type: 'domain',
        channel: 'communications',
        audience: [trader.user_id],
        kind: 'rfq_created',
        payload: { rfq_id: rfqId, id: rfqId, market_ticker: 'WSC-1', contracts_fp: '10.00', target_cost_dollars: '5.0000', created_ts: new Date().toISOString() },
      },
      // not on the schema (created_ts missing): nobody gets it
      { type: 'domain', channel: 'communications', audience: [trader.user_id], kind: 'rfq_created', payload: { rfq_id: 'x', market_ticker: 'WSC-1' } },
    ]);
    const f = await a.until((fs) => fs.find((x) => x.msg.type === 'rfq_created'));
    expect(f.raw).toMatchObject({ type: 'rfq_created', sid: 1, msg: { rfq_id: rfqId, contracts_fp: '10.00' } });
    await a.sync();
    expect(a.data('rfq_created')).toHaveLength(1);
    await b.sync();
    await anon.sync();
    expect(b.data('rfq_created')).toEqual([]);
    expect(anon.data('rfq_created')).toEqual([]);
  });
});
