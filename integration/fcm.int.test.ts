// Clearing-member routes through the terminal's client: subtraders, blocked categories and
// daily caps (enforced on RFQs, quotes, block trades and the internal subtrader order path),
// and the FCM reads of subtrader orders, fills and positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange, avoidUtcMidnight } from '../test-support/exchange/harness';
import { apiError, centiOf, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import { ArgsValidationError } from '../src-main/api/errors';
import { ExchangeError } from '../src-exchange/core/errors';
import { placeSubtraderOrder } from '../src-exchange/handlers/fcm';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
let fcm: ApiClient;
let fcmId: string;
let counterpartyId: string;

beforeAll(async () => {
  await avoidUtcMidnight(); // the daily cap resets at UTC midnight
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  fcm = t.client('fcm');
  fcmId = t.account('fcm').user_id;
  counterpartyId = t.account('counterparty').user_id;
});
afterAll(async () => {
  await t?.close();
});

async function market(series = 'FCMS'): Promise<string> {
  const ticker = freshTicker('FCM');
  await openMarket(t, ticker, `${ticker}-EV`, series);
  return ticker;
}

let suffixN = 0;
async function subtrader(): Promise<string> {
  const r = await fcm.createSubtrader({ body: { subtrader_suffix: `st${++suffixN}x` } });
  return r.subtrader_id;
}

async function placeFor(subtraderId: string, ticker: string, priceTicks: number, countCenti: number, clientOrderId?: string) {
  return placeSubtraderOrder(t.ex.svc, {
    fcmUserId: fcmId,
    subtraderId,
    order: { ticker, side: 'bid', priceTicks, countCenti, ...(clientOrderId ? { clientOrderId } : {}) },
  });
}

async function rejection(p: Promise<unknown>): Promise<ExchangeError> {
  const err = await p.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExchangeError);
  return err as ExchangeError;
}

const ordersOf = async (id: string) => (await fcm.getFcmOrders({ query: { subtrader_id: id } })).orders;

describe('FCM routes are for FCM members only', () => {
  it('answers 403 to a non-FCM account on every /fcm route', async () => {
    const calls: (() => Promise<unknown>)[] = [
      () => trader.getFcmOrders({ query: { subtrader_id: 'x' } }),
      () => trader.getFcmFills(),
      () => trader.getFcmPositions({ query: { subtrader_id: 'x' } }),
      () => trader.getSubtraders(),
      () => trader.createSubtrader({ body: { subtrader_suffix: 'abc' } }),
      () => trader.getSubtraderBlockedCategories({ query: { subtrader_id: 'x' } }),
      () => trader.setSubtraderBlockedCategory({ body: { subtrader_id: 'x', category: 'Politics', blocked: true } }),
      () => trader.getSubtraderDailyCap({ query: { subtrader_id: 'x' } }),
      () => trader.setSubtraderDailyCap({ body: { subtrader_id: 'x', limit: '10' } }),
      () => trader.clearSubtraderDailyCap({ query: { subtrader_id: 'x' } }),
    ];
    for (const call of calls) {
      const err = await apiError(call());
      expect([err.status, err.code]).toEqual([403, 'forbidden']);
    }
  });
});

describe('subtraders', () => {
  it('creates {fcm_user_id}_{suffix} with its own funded account; duplicates 409; bad suffixes 400', async () => {
    const raw = await rawSigned(t, 'fcm', 'POST', '/fcm/subtraders', { subtrader_suffix: 'Desk42' });
    expect(raw.status).toBe(201);
    const id = (raw.body as { subtrader_id: string }).subtrader_id;
    expect(id).toBe(`${fcmId}_Desk42`);
    const dup = await apiError(fcm.createSubtrader({ body: { subtrader_suffix: 'Desk42' } }));
    expect([dup.status, dup.code]).toEqual([409, 'conflict']);
    for (const bad of ['', 'has space', 'a'.repeat(17), 'dash-ed']) {
      expect((await rawSigned(t, 'fcm', 'POST', '/fcm/subtraders', { subtrader_suffix: bad })).status).toBe(400);
    }
    const listed = (await fcm.getSubtraders()).subtraders;
    expect(listed.filter((s) => s.subtrader_id === id)).toHaveLength(1);
    expect(listed.every((s) => s.subtrader_id.startsWith(`${fcmId}_`))).toBe(true);
    expect(t.ex.svc.node.core.engine.getBalance(id)?.cash).toBe(10_000 * 1_000_000);
    expect((await fcm.getFcmPositions({ query: { subtrader_id: id } })).market_positions).toEqual([]);
    expect(await ordersOf(id)).toEqual([]);
  });

  it('answers 404 for a subtrader the FCM does not own', async () => {
    const someone = `${counterpartyId}_abc`;
    expect((await apiError(fcm.getSubtraderBlockedCategories({ query: { subtrader_id: someone } }))).status).toBe(404);
    expect((await apiError(fcm.setSubtraderDailyCap({ body: { subtrader_id: someone, limit: '1' } }))).status).toBe(404);
    expect((await apiError(fcm.getSubtraderDailyCap({ query: { subtrader_id: someone } }))).status).toBe(404);
    expect((await apiError(fcm.getFcmOrders({ query: { subtrader_id: someone } }))).status).toBe(404);
    expect((await apiError(fcm.getFcmPositions({ query: { subtrader_id: someone } }))).status).toBe(404);
  });
});

describe('blocked categories', () => {
  it('are set one at a time, answered in full, and reject orders and RFQs in the category', async () => {
    const id = await subtrader();
    expect((await fcm.getSubtraderBlockedCategories({ query: { subtrader_id: id } })).categories).toEqual([]);
    const set = await fcm.setSubtraderBlockedCategory({ body: { subtrader_id: id, category: 'BLOCKSER', blocked: true } });
    expect(set.categories).toEqual(['BLOCKSER']);
    await fcm.setSubtraderBlockedCategory({ body: { subtrader_id: id, category: 'Weather', blocked: true } });
    expect((await fcm.getSubtraderBlockedCategories({ query: { subtrader_id: id } })).categories).toEqual(['BLOCKSER', 'Weather']);

    // a market whose series the catalog does not know: its category is the series ticker
    const blocked = await market('blockser');
    const err = await rejection(placeFor(id, blocked, 5000, 100));
    expect([err.status, err.code]).toEqual([400, 'category_blocked']);
    const rfqErr = await apiError(fcm.createRfq({ body: { market_ticker: blocked, rest_remainder: false, contracts: 1, subtrader_id: id } }));
    expect([rfqErr.status, rfqErr.code]).toEqual([400, 'category_blocked']);
    expect(await ordersOf(id)).toEqual([]);
    expect((await fcm.getRfqs({ query: { market_ticker: blocked } })).rfqs).toEqual([]);

    // another category trades; unblocking lets the first one trade too
    const open = await market('OPENSER');
    expect((await placeFor(id, open, 5000, 100)).order.status).toBe('resting');
    const unset = await fcm.setSubtraderBlockedCategory({ body: { subtrader_id: id, category: 'blockser', blocked: false } });
    expect(unset.categories).toEqual(['Weather']);
    expect((await placeFor(id, blocked, 5000, 100)).order.ticker).toBe(blocked);
    expect(await ordersOf(id)).toHaveLength(2);
  });
});

describe('daily event-contract notional cap', () => {
  it('is read, set and cleared; a repeat clear answers 404', async () => {
    const id = await subtrader();
    expect(await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).toMatchObject({ subtrader_id: id, limit: null, executed_utilization: '0.00' });
    const set = await rawSigned(t, 'fcm', 'PUT', '/fcm/subtraders/event_contract_daily_cap', { subtrader_id: id, limit: '50.5' });
    expect(set.status).toBe(200);
    expect((await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).limit).toBe('50.50');
    expect((await rawSigned(t, 'fcm', 'PUT', '/fcm/subtraders/event_contract_daily_cap', { subtrader_id: id, limit: '-1' })).status).toBe(400);
    expect((await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).limit).toBe('50.50');
    await fcm.clearSubtraderDailyCap({ query: { subtrader_id: id } });
    expect((await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).limit).toBeNull();
    expect((await apiError(fcm.clearSubtraderDailyCap({ query: { subtrader_id: id } }))).status).toBe(404);
  });

  it('rejects a subtrader order over the cap with nothing changed and accepts one under it', async () => {
    const id = await subtrader();
    const ticker = await market();
    await fcm.setSubtraderDailyCap({ body: { subtrader_id: id, limit: '50' } });
    // 100 contracts at 0.60 = $60 > $50
    const err = await rejection(placeFor(id, ticker, 6000, 10_000));
    expect([err.status, err.code, err.details]).toEqual([400, 'daily_cap_exceeded', 'daily_cap_exceeded']);
    expect(await ordersOf(id)).toEqual([]);
    expect(t.ex.svc.node.core.engine.getBalance(id)?.locked).toBe(0);
    // 50 contracts at 0.60 = $30: accepted; then $30 more would make $60: rejected
    const ok = await placeFor(id, ticker, 6000, 5000, 'cap-ok-1');
    expect(ok.order.status).toBe('resting');
    expect((await rejection(placeFor(id, ticker, 6000, 5000))).code).toBe('daily_cap_exceeded');
    expect((await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).executed_utilization).toBe('30.00');
    // the same client_order_id again is the original order, not a new one
    expect((await placeFor(id, ticker, 6000, 5000, 'cap-ok-1')).duplicate).toBe(true);
    const byClientId = (await fcm.getFcmOrders({ query: { client_order_ids: ['cap-ok-1', 'unknown'] } })).orders;
    expect(byClientId.map((o) => o.order_id)).toEqual([ok.order.order_id]);
    expect(byClientId[0]).toMatchObject({ status: 'resting', remaining_count_fp: '50.00', yes_price_dollars: '0.6000' });
    // $20 still fits exactly
    expect((await placeFor(id, ticker, 4000, 5000)).order.status).toBe('resting');
  });

  it('applies to RFQs for the subtrader: a target cost over the cap is refused, an acceptance over it too', async () => {
    const id = await subtrader();
    const ticker = await market();
    await fcm.setSubtraderDailyCap({ body: { subtrader_id: id, limit: '50' } });
    const over = await apiError(fcm.createRfq({ body: { market_ticker: ticker, rest_remainder: false, target_cost: '60', subtrader_id: id } }));
    expect([over.status, over.code]).toEqual([400, 'daily_cap_exceeded']);
    expect((await fcm.getRfqs({ query: { market_ticker: ticker } })).rfqs).toEqual([]);

    const rfqId = (await fcm.createRfq({ body: { market_ticker: ticker, rest_remainder: false, target_cost: '20', subtrader_id: id } })).rfq.rfq_id;
    expect((await fcm.getRfq({ params: { rfq_id: rfqId } })).rfq).toMatchObject({ subtrader_id: id, target_cost_dollars: '20.00' });
    const quoteId = (await counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.4', no_bid: '0.5' } })).quote.quote_id;
    expect((await counterparty.getQuotes({ query: { rfq_creator_subtrader_id: id, user_filter: 'self' } })).quotes.map((q) => q.quote_id)).toEqual([quoteId]);
    await fcm.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } });
    await counterparty.confirmQuote({ params: { quote_id: quoteId } });
    // at 0.40 with fees, $20 buys 47.97 contracts ($19.188 + ceil(0.07 x 47.97 x 0.24) = $0.81 fee)
    const pos = (await fcm.getFcmPositions({ query: { subtrader_id: id, ticker, count_filter: 'position' } })).market_positions;
    expect(pos).toHaveLength(1);
    expect(centiOf(pos[0]!.position_fp)).toBe(4797);
    expect((await fcm.getFcmPositions({ query: { subtrader_id: id, settlement_status: 'settled' } })).market_positions).toEqual([]);
    const orders = await ordersOf(id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'executed', fill_count_fp: '47.97', ticker });
    expect((await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).executed_utilization).toBe('19.188');
    expect(t.ex.svc.node.core.engine.getBalance(id)?.cash).toBe(10_000 * 1_000_000 - 19_188_000 - 810_000);
    const fills = (await fcm.getFcmFills()).fills.filter((f) => f.ticker === ticker);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ taker_subtrader_id: id, maker_subtrader_id: null, taker_outcome_side: 'yes', yes_price_dollars: '0.4000', count_fp: '47.97' });

    // a second RFQ for 100 contracts: created (the price is not known yet), refused on acceptance ($19.19 + $40 > $50)
    const second = (await fcm.createRfq({ body: { market_ticker: ticker, rest_remainder: false, contracts: 100, subtrader_id: id } })).rfq.rfq_id;
    const q2 = (await counterparty.createQuote({ body: { rfq_id: second, yes_bid: '0.4', no_bid: '0.5' } })).quote.quote_id;
    const capErr = await apiError(fcm.acceptQuote({ params: { quote_id: q2 }, body: { accepted_side: 'yes' } }));
    expect([capErr.status, capErr.code]).toEqual([400, 'daily_cap_exceeded']);
    expect((await fcm.getQuote({ params: { quote_id: q2 } })).quote.status).toBe('open');
    // raising the cap lets it through
    await fcm.setSubtraderDailyCap({ body: { subtrader_id: id, limit: '100' } });
    await fcm.acceptQuote({ params: { quote_id: q2 }, body: { accepted_side: 'yes' } });
    await counterparty.confirmQuote({ params: { quote_id: q2 } });
    expect(await ordersOf(id)).toHaveLength(2);
  });

  it('applies to block trades for the subtrader, and FCM fills name both subtraders when both sides are its own', async () => {
    const buyer = await subtrader();
    const seller = await subtrader();
    const ticker = await market();
    await fcm.setSubtraderDailyCap({ body: { subtrader_id: buyer, limit: '10' } });
    const body = {
      buyer_user_id: fcmId,
      seller_user_id: fcmId,
      buyer_subtrader_id: buyer,
      seller_subtrader_id: seller,
      market_ticker: ticker,
      price_centi_cents: 5000,
      centicount: 3000, // 30 contracts at 0.50 = $15 for the buyer: over its $10 cap
      maker_side: 'yes' as const,
      expiration_ts: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const over = await apiError(fcm.createBlockTradeProposal({ body }));
    expect([over.status, over.code]).toEqual([400, 'daily_cap_exceeded']);
    const id = (await fcm.createBlockTradeProposal({ body: { ...body, centicount: 1000 } })).block_trade_proposal_id;
    await fcm.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id }, body: { subtrader_id: buyer } });
    await fcm.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id }, body: { subtrader_id: seller } });
    expect((await fcm.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals[0]).toMatchObject({ status: 'executed' });
    const fills = (await fcm.getFcmFills({ query: { min_ts: 0 } })).fills.filter((f) => f.ticker === ticker);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ maker_subtrader_id: buyer, taker_subtrader_id: seller, taker_outcome_side: 'no', count_fp: '10.00', maker_fee_cost: '0.00' });
    expect((await fcm.getFcmFills({ query: { max_ts: 1 } })).fills).toEqual([]);
    const buyerPos = (await fcm.getFcmPositions({ query: { subtrader_id: buyer, event_ticker: `${ticker}-EV` } })).market_positions[0];
    expect(buyerPos?.position_fp).toBe('10.00');
    expect((await fcm.getFcmPositions({ query: { subtrader_id: seller } })).market_positions[0]?.position_fp).toBe('-10.00');
  });
});

describe('FCM reads', () => {
  it('/fcm/orders needs subtrader_id unless client_order_ids is given; filters by status and ticker; pages', async () => {
    const raw = await rawSigned(t, 'fcm', 'GET', '/fcm/orders');
    expect(raw.status).toBe(400);
    const err = await fcm.getFcmOrders({ query: {} as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArgsValidationError);
    const noLimit = await rawSigned(t, 'fcm', 'GET', '/fcm/fills?limit=5');
    expect(noLimit.status).toBe(400);

    const id = await subtrader();
    const a = await market();
    const b = await market();
    await placeFor(id, a, 1000, 100);
    await placeFor(id, a, 1100, 100);
    await placeFor(id, b, 1200, 100);
    expect((await fcm.getFcmOrders({ query: { subtrader_id: id, ticker: a } })).orders).toHaveLength(2);
    expect((await fcm.getFcmOrders({ query: { subtrader_id: id, event_ticker: `${b}-EV`, status: 'resting' } })).orders).toHaveLength(1);
    expect((await fcm.getFcmOrders({ query: { subtrader_id: id, status: 'executed' } })).orders).toEqual([]);
    const first = await fcm.getFcmOrders({ query: { subtrader_id: id, limit: 2 } });
    expect(first.orders.map((o) => o.yes_price_dollars)).toEqual(['0.1200', '0.1100']);
    expect(first.has_next).toBe(true);
    const rest = await fcm.getFcmOrders({ query: { subtrader_id: id, limit: 2, cursor: first.cursor ?? '' } });
    expect(rest.orders.map((o) => o.yes_price_dollars)).toEqual(['0.1000']);
    expect((await fcm.getFcmOrders({ query: { subtrader_id: id, max_ts: 1 } })).orders).toEqual([]);
  });
});

describe('durability', () => {
  it('subtraders, blocked categories and caps survive a restart and are still enforced', async () => {
    const id = await subtrader();
    await fcm.setSubtraderBlockedCategory({ body: { subtrader_id: id, category: 'Sports', blocked: true } });
    await fcm.setSubtraderDailyCap({ body: { subtrader_id: id, limit: '5' } });
    const ticker = await market();
    await placeFor(id, ticker, 4000, 1000); // $4 of $5
    const before = {
      subtraders: (await fcm.getSubtraders()).subtraders,
      cap: await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } }),
    };

    await t.restart();
    fcm = t.client('fcm');
    trader = t.client('trader');
    counterparty = t.client('counterparty');

    expect((await fcm.getSubtraders()).subtraders).toEqual(before.subtraders);
    expect((await fcm.getSubtraderBlockedCategories({ query: { subtrader_id: id } })).categories).toEqual(['Sports']);
    expect(await fcm.getSubtraderDailyCap({ query: { subtrader_id: id } })).toEqual(before.cap);
    expect((await rejection(placeFor(id, ticker, 4000, 1000))).code).toBe('daily_cap_exceeded');
    expect((await placeFor(id, ticker, 1000, 1000)).order.status).toBe('resting');
    expect(await ordersOf(id)).toHaveLength(2);
  });
});
