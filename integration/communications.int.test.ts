// The communications rail through the terminal's client against a real exchange: the caller's
// id, RFQs, quotes (flat and RFQ-scoped routes) and block trade proposals, with the trades
// they execute showing up in balances, positions, fills and the public tape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, centiOf, centsOf, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import { ArgsValidationError } from '../src-main/api/errors';
import { TestStream } from '../test-support/exchange/ws-client';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
let fcm: ApiClient;
let traderId: string;
let counterpartyId: string;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  fcm = t.client('fcm');
  traderId = t.account('trader').user_id;
  counterpartyId = t.account('counterparty').user_id;
});
afterAll(async () => {
  await t?.close();
});

async function market(prefix = 'RFQ', series = 'RFQS'): Promise<string> {
  const ticker = freshTicker(prefix);
  await openMarket(t, ticker, `${ticker}-EV`, series);
  return ticker;
}

async function cents(c: ApiClient): Promise<number> {
  return (await c.getBalance()).balance;
}

async function position(c: ApiClient, ticker: string): Promise<number> {
  const r = await c.getPositions({ query: { ticker, count_filter: 'position' } });
  const row = r.market_positions.find((p) => p.ticker === ticker);
  return row ? centiOf(row.position_fp) : 0;
}

async function rfqOn(ticker: string, body: Record<string, unknown> = {}, who: ApiClient = trader): Promise<string> {
  const r = await who.createRfq({ body: { market_ticker: ticker, rest_remainder: false, contracts: 10, ...body } });
  return r.rfq.rfq_id;
}

async function quoteOn(rfqId: string, yes_bid: string, no_bid: string, who: ApiClient = counterparty): Promise<string> {
  const r = await who.createQuote({ body: { rfq_id: rfqId, yes_bid, no_bid, rest_remainder: false } });
  return r.quote.quote_id;
}

describe('communications id', () => {
  it("answers the caller's participant id as user_id (and the SDK's communications_id)", async () => {
    expect((await trader.getCommunicationsId()).user_id).toBe(traderId);
    expect((await counterparty.getCommunicationsId()).user_id).toBe(counterpartyId);
    const raw = await rawSigned(t, 'trader', 'GET', '/communications/id');
    expect(raw.body).toEqual({ user_id: traderId, communications_id: traderId });
  });
});

describe('RFQ and quote round trip', () => {
  it('quote, accept yes, confirm: the requester buys YES from the quoter at yes_bid as a block trade', async () => {
    const ticker = await market();
    const created = await rawSigned(t, 'trader', 'POST', '/communications/rfqs', { market_ticker: ticker, rest_remainder: false, contracts: 10 });
    expect(created.status).toBe(201);
    const rfqId = (created.body as { rfq: { rfq_id: string }; id: string }).rfq.rfq_id;
    expect((created.body as { id: string }).id).toBe(rfqId);

    const rfq = (await trader.getRfq({ params: { rfq_id: rfqId } })).rfq;
    expect(rfq).toMatchObject({ rfq_id: rfqId, market_ticker: ticker, contracts_fp: '10.00', status: 'open', creator_id: traderId, rest_remainder: false });
    // visible to every participant; user_filter=self narrows to the caller's own
    expect((await counterparty.getRfqs({ query: { market_ticker: ticker } })).rfqs.map((r) => r.rfq_id)).toEqual([rfqId]);
    expect((await counterparty.getRfqs({ query: { market_ticker: ticker, user_filter: 'self' } })).rfqs).toEqual([]);
    expect((await trader.getRfqs({ query: { market_ticker: ticker, user_filter: 'self', status: 'open' } })).rfqs).toHaveLength(1);
    expect((await fcm.getRfqs({ query: { event_ticker: `${ticker}-EV`, creator_user_id: traderId } })).rfqs).toHaveLength(1);

    const quoteAnswer = await rawSigned(t, 'counterparty', 'POST', '/communications/quotes', { rfq_id: rfqId, yes_bid: '0.4', no_bid: '0.55', rest_remainder: false });
    expect(quoteAnswer.status).toBe(201);
    const quoteId = (quoteAnswer.body as { quote: { quote_id: string } }).quote.quote_id;
    expect((quoteAnswer.body as { id: string }).id).toBe(quoteId);

    const seenByRequester = await trader.getQuote({ params: { quote_id: quoteId } });
    expect(seenByRequester.quote).toMatchObject({ quote_id: quoteId, rfq_id: rfqId, yes_bid_dollars: '0.4000', no_bid_dollars: '0.5500', status: 'open', creator_id: counterpartyId });
    expect((await trader.getQuotes({ query: { rfq_user_filter: 'self', rfq_id: rfqId } })).quotes.map((q) => q.quote_id)).toEqual([quoteId]);
    expect((await counterparty.getQuotes({ query: { user_filter: 'self', rfq_id: rfqId } })).quotes.map((q) => q.quote_id)).toEqual([quoteId]);
    expect((await trader.getQuotes({ query: { quote_creator_user_id: counterpartyId, status: 'open', rfq_id: rfqId } })).quotes).toHaveLength(1);
    // quotes are private between the requester and the quoter
    expect((await fcm.getQuotes({ query: { rfq_creator_user_id: traderId } })).quotes).toEqual([]);
    expect((await apiError(fcm.getQuote({ params: { quote_id: quoteId } }))).status).toBe(404);

    // order of the steps and who may take them
    expect((await apiError(counterparty.confirmQuote({ params: { quote_id: quoteId } }))).status).toBe(400);
    expect((await apiError(counterparty.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } }))).status).toBe(403);
    expect((await apiError(fcm.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } }))).status).toBe(404);

    await trader.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } });
    expect((await counterparty.getQuote({ params: { quote_id: quoteId } })).quote).toMatchObject({ status: 'accepted', accepted_side: 'yes', contracts_fp: '10.00' });
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq.status).toBe('accepted');
    expect((await apiError(trader.confirmQuote({ params: { quote_id: quoteId } }))).status).toBe(403);

    const before = { trader: await cents(trader), counterparty: await cents(counterparty) };
    await counterparty.confirmQuote({ params: { quote_id: quoteId } });

    const executed = (await trader.getQuote({ params: { quote_id: quoteId } })).quote;
    expect(executed.status).toBe('executed');
    expect(executed.rfq_creator_order_id).toBeTruthy();
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq.status).toBe('confirmed');
    // 10 YES at 0.40: the requester (taker) pays $4.00 + fee ceil(0.07 x 10 x 0.4 x 0.6) = $0.17;
    // the quoter (maker, no maker fee on this market) pays $6.00 for 10 NO
    expect(before.trader - (await cents(trader))).toBe(417);
    expect(before.counterparty - (await cents(counterparty))).toBe(600);
    expect(await position(trader, ticker)).toBe(1000);
    expect(await position(counterparty, ticker)).toBe(-1000);
    const traderFills = (await trader.getFills({ query: { ticker } })).fills;
    expect(traderFills).toHaveLength(1);
    expect(traderFills[0]).toMatchObject({ is_taker: true, yes_price_dollars: '0.4000', count_fp: '10.00', order_id: executed.rfq_creator_order_id });
    expect((await counterparty.getFills({ query: { ticker } })).fills[0]).toMatchObject({ is_taker: false, yes_price_dollars: '0.4000' });
    const tape = (await t.publicClient().getTrades({ query: { ticker } })).trades;
    expect(tape).toHaveLength(1);
    expect(tape[0]).toMatchObject({ is_block_trade: true, count_fp: '10.00', taker_side: 'yes' });
    expect((await t.publicClient().getTrades({ query: { ticker, is_block_trade: false } })).trades).toEqual([]);

    // finished: nothing more to confirm or delete
    expect((await apiError(counterparty.confirmQuote({ params: { quote_id: quoteId } }))).status).toBe(400);
    expect((await apiError(counterparty.deleteQuote({ params: { quote_id: quoteId } }))).status).toBe(404);
    expect((await apiError(trader.deleteRfq({ params: { rfq_id: rfqId } }))).status).toBe(404);
  });

  it('accept no: the requester buys NO at no_bid; a target cost buys as many contracts as it covers with fees', async () => {
    const ticker = await market();
    const rfqId = (await trader.createRfq({ body: { market_ticker: ticker, rest_remainder: true, target_cost: '5' } })).rfq.rfq_id;
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq).toMatchObject({ target_cost_dollars: '5.00', rest_remainder: true });
    const quoteId = await quoteOn(rfqId, '0.7', '0.25');
    // at 0.25 a NO contract costs 0.25 + fee: 19 contracts cost $4.75 + $0.25 fee = $5.00
    expect((await trader.getQuote({ params: { quote_id: quoteId } })).quote).toMatchObject({ no_contracts_fp: '19.00', rfq_target_cost_dollars: '5.00' });
    const before = await cents(trader);
    await trader.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'no' } });
    await counterparty.confirmQuote({ params: { quote_id: quoteId } });
    expect(await position(trader, ticker)).toBe(-1900);
    expect(await position(counterparty, ticker)).toBe(1900);
    expect(before - (await cents(trader))).toBe(500);
    const tape = (await t.publicClient().getTrades({ query: { ticker, is_block_trade: true } })).trades;
    expect(tape[0]).toMatchObject({ yes_price_dollars: '0.7500', taker_side: 'no' });
  });

  it('a declined side cannot be accepted, a new quote replaces the earlier one, and a failed confirm changes nothing', async () => {
    const ticker = await market();
    const rfqId = await rfqOn(ticker, { contracts: 1_000_000 });
    const first = await quoteOn(rfqId, '0', '0.5');
    const second = await quoteOn(rfqId, '0.5', '0');
    expect((await trader.getQuote({ params: { quote_id: first } })).quote.status).toBe('canceled');
    expect((await apiError(trader.acceptQuote({ params: { quote_id: first }, body: { accepted_side: 'no' } }))).status).toBe(404);
    expect((await apiError(trader.acceptQuote({ params: { quote_id: second }, body: { accepted_side: 'no' } }))).status).toBe(400);
    await trader.acceptQuote({ params: { quote_id: second }, body: { accepted_side: 'yes' } });
    // 1,000,000 contracts at 0.50 is more than the trader holds
    const before = await cents(trader);
    const err = await apiError(counterparty.confirmQuote({ params: { quote_id: second } }));
    expect([err.status, err.code]).toEqual([400, 'insufficient_balance']);
    expect((await trader.getQuote({ params: { quote_id: second } })).quote.status).toBe('accepted');
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq.status).toBe('accepted');
    expect(await cents(trader)).toBe(before);
    expect(await position(trader, ticker)).toBe(0);
    // the quoter withdraws the accepted quote: the RFQ is open again
    await counterparty.deleteQuote({ params: { quote_id: second } });
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq.status).toBe('open');
  });

  it('pages of open RFQs lose none when an RFQ of an earlier page is canceled between the reads, nor repeat any', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await rfqOn(await market()));
    const newestFirst = [...ids].reverse();
    const q = { user_filter: 'self', status: 'open', limit: 2 } as const;
    const p1 = await trader.getRfqs({ query: q });
    expect(p1.rfqs.map((r) => r.rfq_id)).toEqual(newestFirst.slice(0, 2));
    await trader.deleteRfq({ params: { rfq_id: newestFirst[0]! } });
    const p2 = await trader.getRfqs({ query: { ...q, cursor: p1.cursor ?? '' } });
    expect(p2.rfqs.map((r) => r.rfq_id)).toEqual(newestFirst.slice(2, 4));
    for (const id of ids) await trader.deleteRfq({ params: { rfq_id: id } }).catch(() => undefined);
  });

  it('refuses bad RFQs and quotes with a 4xx and no state change', async () => {
    const ticker = await market();
    const count = async () => (await trader.getRfqs({ query: { user_filter: 'self', limit: 1000 } })).rfqs.length;
    const n = await count();
    expect((await apiError(trader.createRfq({ body: { market_ticker: 'NO-SUCH-MARKET', rest_remainder: false } }))).status).toBe(404);
    const closed = await market();
    await t.ex.svc.node.submit({ type: 'closeMarket', nowMs: t.ex.svc.node.now(), ticker: closed });
    expect((await apiError(trader.createRfq({ body: { market_ticker: closed, rest_remainder: false } }))).status).toBe(400);
    const rawMissing = await rawSigned(t, 'trader', 'POST', '/communications/rfqs', { market_ticker: ticker });
    expect(rawMissing.status).toBe(400);
    expect((await apiError(trader.createRfq({ body: { market_ticker: ticker, rest_remainder: false, subtrader_id: 'x_y' } }))).status).toBe(403);
    expect(await count()).toBe(n);

    const rfqId = await rfqOn(ticker);
    expect((await apiError(trader.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.5', no_bid: '0.5' } }))).status).toBe(400); // own RFQ
    expect((await apiError(counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0', no_bid: '0' } }))).status).toBe(400);
    expect((await apiError(counterparty.createQuote({ body: { rfq_id: 'nope', yes_bid: '0.5', no_bid: '0.5' } }))).status).toBe(404);
    const badPrice = await rawSigned(t, 'counterparty', 'POST', '/communications/quotes', { rfq_id: rfqId, yes_bid: '0.12345', no_bid: '0.5' });
    expect(badPrice.status).toBe(400);
    expect((await counterparty.getQuotes({ query: { user_filter: 'self', rfq_id: rfqId } })).quotes).toEqual([]);
  });

  it('a quote list needs a user filter: the server answers 400 and the client refuses to send it', async () => {
    const raw = await rawSigned(t, 'trader', 'GET', '/communications/quotes?rfq_id=abc');
    expect(raw.status).toBe(400);
    expect((raw.body as { error: { code: string } }).error.code).toBe('invalid_parameters');
    const err = await trader.getQuotes({ query: { rfq_id: 'abc' } as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArgsValidationError);
    const badFilter = await rawSigned(t, 'trader', 'GET', '/communications/quotes?user_filter=all');
    expect(badFilter.status).toBe(400);
  });

  it('replace_existing cancels the caller’s open RFQ on the market; obscure_creator_id hides the creator from others', async () => {
    const ticker = await market();
    const old = await rfqOn(ticker);
    const oldQuote = await quoteOn(old, '0.3', '0.6');
    const fresh = await rfqOn(ticker, { replace_existing: true, obscure_creator_id: true, contracts: '2.5' });
    expect((await trader.getRfq({ params: { rfq_id: old } })).rfq).toMatchObject({ status: 'canceled', cancellation_reason: 'replaced' });
    expect((await counterparty.getQuote({ params: { quote_id: oldQuote } })).quote.status).toBe('canceled');
    const mine = (await trader.getRfq({ params: { rfq_id: fresh } })).rfq;
    expect(mine).toMatchObject({ status: 'open', creator_id: traderId, contracts_fp: '2.50' });
    const theirs = (await counterparty.getRfq({ params: { rfq_id: fresh } })).rfq;
    expect(theirs.creator_id).toBeUndefined();
    expect(theirs.creator_user_id).toBeUndefined();
    expect((await counterparty.getRfqs({ query: { creator_user_id: traderId, market_ticker: ticker, status: 'open' } })).rfqs).toEqual([]);
    // revealed once executed
    const q = await quoteOn(fresh, '0.5', '0.5');
    await trader.acceptQuote({ params: { quote_id: q }, body: { accepted_side: 'yes' } });
    await counterparty.confirmQuote({ params: { quote_id: q } });
    expect((await counterparty.getRfq({ params: { rfq_id: fresh } })).rfq.creator_id).toBe(traderId);
    expect(await position(trader, ticker)).toBe(250);
  });

  it('pages RFQs with a cursor', async () => {
    const ticker = await market();
    const ids = [await rfqOn(ticker), await rfqOn(ticker), await rfqOn(ticker)];
    const first = await counterparty.getRfqs({ query: { market_ticker: ticker, limit: 2 } });
    expect(first.rfqs.map((r) => r.rfq_id)).toEqual([ids[2], ids[1]]);
    expect(first.has_next).toBe(true);
    const second = await counterparty.getRfqs({ query: { market_ticker: ticker, limit: 2, cursor: first.cursor ?? '' } });
    expect(second.rfqs.map((r) => r.rfq_id)).toEqual([ids[0]]);
    expect(second.has_next).toBe(false);
  });
});

describe('deletes are not idempotent', () => {
  it('deleting an RFQ cancels it and its quotes; a repeat answers 404; others cannot delete it', async () => {
    const ticker = await market();
    const rfqId = await rfqOn(ticker);
    const quoteId = await quoteOn(rfqId, '0.2', '0.7');
    expect((await apiError(counterparty.deleteRfq({ params: { rfq_id: rfqId } }))).status).toBe(404);
    const raw = await rawSigned(t, 'trader', 'DELETE', `/communications/rfqs/${rfqId}`);
    expect(raw.status).toBe(204);
    expect((await trader.getRfq({ params: { rfq_id: rfqId } })).rfq).toMatchObject({ status: 'canceled', cancellation_reason: 'deleted' });
    expect((await trader.getQuote({ params: { quote_id: quoteId } })).quote.status).toBe('canceled');
    expect((await apiError(trader.deleteRfq({ params: { rfq_id: rfqId } }))).status).toBe(404);
    expect((await apiError(trader.deleteRfq({ params: { rfq_id: 'unknown' } }))).status).toBe(404);
    expect((await apiError(trader.getRfq({ params: { rfq_id: 'unknown' } }))).status).toBe(404);
    expect((await apiError(counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.3', no_bid: '0.6' } }))).status).toBe(400);
  });

  it('deleting a quote: only its creator, once', async () => {
    const ticker = await market();
    const rfqId = await rfqOn(ticker);
    const quoteId = await quoteOn(rfqId, '0.2', '0.7');
    expect((await apiError(trader.deleteQuote({ params: { quote_id: quoteId } }))).status).toBe(404);
    await counterparty.deleteQuote({ params: { quote_id: quoteId } });
    expect((await counterparty.getQuote({ params: { quote_id: quoteId } })).quote).toMatchObject({ status: 'canceled', cancellation_reason: 'deleted' });
    expect((await apiError(counterparty.deleteQuote({ params: { quote_id: quoteId } }))).status).toBe(404);
    expect((await apiError(trader.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } }))).status).toBe(404);
    expect((await counterparty.getQuotes({ query: { user_filter: 'self', rfq_id: rfqId, status: 'canceled' } })).quotes).toHaveLength(1);
  });
});

describe('RFQ-scoped quote routes', () => {
  it('behave like the flat ones and answer 404 for a quote of another RFQ', async () => {
    const ticker = await market();
    const a = await rfqOn(ticker);
    const b = await rfqOn(ticker, { contracts: 3 });
    const qa = await quoteOn(a, '0.45', '0.5');
    const qb = await quoteOn(b, '0.45', '0.5');

    expect((await trader.getRfqQuote({ params: { rfq_id: a, quote_id: qa } })).quote.quote_id).toBe(qa);
    const wrong = { rfq_id: b, quote_id: qa };
    expect((await apiError(trader.getRfqQuote({ params: wrong }))).status).toBe(404);
    expect((await apiError(counterparty.deleteRfqQuote({ params: wrong }))).status).toBe(404);
    expect((await apiError(trader.acceptRfqQuote({ params: wrong, body: { accepted_side: 'yes' } }))).status).toBe(404);
    expect((await apiError(counterparty.confirmRfqQuote({ params: wrong }))).status).toBe(404);
    expect((await trader.getQuote({ params: { quote_id: qa } })).quote.status).toBe('open');

    await trader.acceptRfqQuote({ params: { rfq_id: a, quote_id: qa }, body: { accepted_side: 'yes' } });
    await counterparty.confirmRfqQuote({ params: { rfq_id: a, quote_id: qa } });
    expect((await trader.getRfqQuote({ params: { rfq_id: a, quote_id: qa } })).quote.status).toBe('executed');
    expect((await trader.getRfq({ params: { rfq_id: a } })).rfq.status).toBe('confirmed');

    await counterparty.deleteRfqQuote({ params: { rfq_id: b, quote_id: qb } });
    expect((await apiError(counterparty.deleteRfqQuote({ params: { rfq_id: b, quote_id: qb } }))).status).toBe(404);
    expect(await position(trader, ticker)).toBe(1000);
  });
});

describe('block trade proposals', () => {
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it('settle only after both the buyer and the seller accept', async () => {
    const ticker = await market('BLK');
    const raw = await rawSigned(t, 'trader', 'POST', '/communications/block-trade-proposals', {
      buyer_user_id: traderId,
      seller_user_id: counterpartyId,
      market_ticker: ticker,
      price_centi_cents: 3000,
      centicount: 500,
      maker_side: 'no',
      expiration_ts: inAnHour(),
    });
    expect(raw.status).toBe(201);
    const id = (raw.body as { block_trade_proposal_id: string }).block_trade_proposal_id;
    const list = (await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id, market_ticker: ticker, status: 'open', buyer_accepted: false, seller_accepted: false, price_centi_cents: 3000, centicount: 500 });
    expect((await counterparty.getBlockTradeProposals({ query: { market_ticker: ticker, status: 'open' } })).block_trade_proposals).toHaveLength(1);
    expect((await fcm.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals).toEqual([]);
    expect((await apiError(fcm.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } }))).status).toBe(404);

    const before = { trader: await cents(trader), counterparty: await cents(counterparty) };
    await trader.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } });
    expect((await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals[0]).toMatchObject({
      status: 'open',
      buyer_accepted: true,
      seller_accepted: false,
    });
    expect(await position(trader, ticker)).toBe(0);
    expect(await cents(trader)).toBe(before.trader);
    expect((await apiError(trader.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id }, body: {} }))).status).toBe(400);

    await counterparty.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id }, body: { subaccount: 0 } });
    const done = (await counterparty.getBlockTradeProposals({ query: { market_ticker: ticker, status: 'executed' } })).block_trade_proposals;
    expect(done[0]).toMatchObject({ id, status: 'executed', buyer_accepted: true, seller_accepted: true });
    // 5 contracts at 0.30: the buyer (taker) pays $1.50 + ceil(0.07 x 5 x 0.21) = $0.08; the seller $3.50
    expect(await position(trader, ticker)).toBe(500);
    expect(await position(counterparty, ticker)).toBe(-500);
    expect(before.trader - (await cents(trader))).toBe(158);
    expect(before.counterparty - (await cents(counterparty))).toBe(350);
    expect((await t.publicClient().getTrades({ query: { ticker } })).trades[0]).toMatchObject({ is_block_trade: true, yes_price_dollars: '0.3000', count_fp: '5.00' });
    expect((await apiError(counterparty.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } }))).status).toBe(400);
  });

  it('refuses a proposer who is neither side (403), bad input (400), and an expired proposal (400)', async () => {
    const ticker = await market('BLK');
    const body = {
      buyer_user_id: traderId,
      seller_user_id: counterpartyId,
      market_ticker: ticker,
      price_centi_cents: 5000,
      centicount: 100,
      maker_side: 'yes' as const,
      expiration_ts: inAnHour(),
    };
    expect((await apiError(fcm.createBlockTradeProposal({ body }))).status).toBe(403);
    expect((await apiError(trader.createBlockTradeProposal({ body: { ...body, expiration_ts: '2001-01-01T00:00:00Z' } }))).status).toBe(400);
    expect((await apiError(trader.createBlockTradeProposal({ body: { ...body, price_centi_cents: 10_000 } }))).status).toBe(400);
    expect((await apiError(trader.createBlockTradeProposal({ body: { ...body, seller_user_id: traderId } }))).status).toBe(400);
    expect((await apiError(trader.createBlockTradeProposal({ body: { ...body, market_ticker: 'NO-SUCH' } }))).status).toBe(404);
    const zero = await rawSigned(t, 'trader', 'POST', '/communications/block-trade-proposals', { ...body, centicount: 0 });
    expect(zero.status).toBe(400);
    expect((await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals).toEqual([]);

    const soon = new Date(Date.now() + 1200).toISOString();
    const id = (await trader.createBlockTradeProposal({ body: { ...body, expiration_ts: soon } })).block_trade_proposal_id;
    await trader.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } });
    await new Promise((r) => setTimeout(r, 1400));
    const err = await apiError(counterparty.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } }));
    expect([err.status, err.details]).toEqual([400, 'expired']);
    expect((await trader.getBlockTradeProposals({ query: { market_ticker: ticker, status: 'expired' } })).block_trade_proposals[0]).toMatchObject({
      id,
      status: 'expired',
      buyer_accepted: true,
      seller_accepted: false,
    });
    expect(await position(trader, ticker)).toBe(0);
  });

  it('a second acceptance that cannot be paid changes nothing', async () => {
    const ticker = await market('BLK');
    const id = (
      await counterparty.createBlockTradeProposal({
        body: {
          buyer_user_id: traderId,
          seller_user_id: counterpartyId,
          market_ticker: ticker,
          price_centi_cents: 9000,
          centicount: 50_000_000, // 500,000 contracts at 0.90: far beyond the buyer's cash
          maker_side: 'yes',
          expiration_ts: inAnHour(),
        },
      })
    ).block_trade_proposal_id;
    await counterparty.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } });
    const before = await cents(trader);
    const err = await apiError(trader.acceptBlockTradeProposal({ params: { block_trade_proposal_id: id } }));
    expect([err.status, err.code]).toEqual([400, 'insufficient_balance']);
    expect((await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals[0]).toMatchObject({
      status: 'open',
      buyer_accepted: false,
      seller_accepted: true,
    });
    expect(await cents(trader)).toBe(before);
  });
});

describe('communications stream', () => {
  it('streams rfq_created and rfq_deleted to every participant, quote events only to the requester and the quoter', async () => {
    const streams: Record<string, TestStream> = {};
    for (const name of ['trader', 'counterparty', 'fcm']) {
      const a = t.account(name);
      streams[name] = await TestStream.open(t.ex.wsUrl, { key: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem } });
      await streams[name].command('subscribe', { channels: ['communications'] });
    }
    const { trader: ts, counterparty: cs, fcm: fs } = streams as Record<'trader' | 'counterparty' | 'fcm', TestStream>;
    try {
      const ticker = await market();
      const rfqId = await rfqOn(ticker, { contracts: 2 });
      for (const s of [ts, cs, fs]) {
        const f = await s.until((frames) => frames.find((x) => x.msg.type === 'rfq_created' && x.raw.msg && (x.raw.msg as { rfq_id?: string }).rfq_id === rfqId));
        expect(f.raw.msg).toMatchObject({ rfq_id: rfqId, market_ticker: ticker, contracts_fp: '2.00', creator_id: traderId });
        expect((f.raw.msg as { created_ts: string }).created_ts).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      }
      const quoteId = await quoteOn(rfqId, '0.5', '0.45');
      await trader.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'no' } });
      await counterparty.confirmQuote({ params: { quote_id: quoteId } });
      for (const s of [ts, cs]) {
        for (const kind of ['quote_created', 'quote_accepted', 'quote_executed']) {
          const f = await s.until((frames) => frames.find((x) => x.msg.type === kind && (x.raw.msg as { quote_id?: string }).quote_id === quoteId), 5_000, kind);
          expect(f.raw.msg).toMatchObject({ quote_id: quoteId, rfq_id: rfqId, yes_bid_dollars: '0.5000', no_bid_dollars: '0.4500' });
        }
      }
      expect(ts.data('quote_accepted').at(-1)?.raw.msg).toMatchObject({ accepted_side: 'no', contracts_accepted_fp: '2.00' });
      const gone = await rfqOn(ticker);
      await trader.deleteRfq({ params: { rfq_id: gone } });
      for (const s of [ts, cs, fs]) {
        const f = await s.until((frames) => frames.find((x) => x.msg.type === 'rfq_deleted' && (x.raw.msg as { rfq_id?: string }).rfq_id === gone));
        expect((f.raw.msg as { deleted_ts: string }).deleted_ts).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      }
      await fs.sync();
      expect(fs.data('quote_created').filter((f) => (f.raw.msg as { quote_id?: string }).quote_id === quoteId)).toEqual([]);
      expect(fs.data('quote_executed')).toEqual([]);
      for (const s of [ts, cs, fs]) expect(s.malformed).toEqual([]);
    } finally {
      for (const s of [ts, cs, fs]) await s.close();
    }
  });
});

describe('durability', () => {
  it('RFQs, quotes, proposals and the trades they made survive a restart', async () => {
    const ticker = await market();
    const rfqId = await rfqOn(ticker);
    const quoteId = await quoteOn(rfqId, '0.6', '0.35');
    await trader.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } });
    await counterparty.confirmQuote({ params: { quote_id: quoteId } });
    const openRfq = await rfqOn(ticker, { contracts: 4 });
    const proposal = (
      await trader.createBlockTradeProposal({
        body: {
          buyer_user_id: counterpartyId,
          seller_user_id: traderId,
          market_ticker: ticker,
          price_centi_cents: 2000,
          centicount: 100,
          maker_side: 'no',
          expiration_ts: new Date(Date.now() + 3_600_000).toISOString(),
        },
      })
    ).block_trade_proposal_id;
    await counterparty.acceptBlockTradeProposal({ params: { block_trade_proposal_id: proposal } });
    const before = {
      quote: (await trader.getQuote({ params: { quote_id: quoteId } })).quote,
      rfqs: (await trader.getRfqs({ query: { market_ticker: ticker } })).rfqs,
      proposals: (await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals,
      balance: await cents(trader),
    };

    await t.restart();
    trader = t.client('trader');
    counterparty = t.client('counterparty');
    fcm = t.client('fcm');

    expect((await trader.getQuote({ params: { quote_id: quoteId } })).quote).toEqual(before.quote);
    expect((await trader.getRfqs({ query: { market_ticker: ticker } })).rfqs).toEqual(before.rfqs);
    expect((await trader.getBlockTradeProposals({ query: { market_ticker: ticker } })).block_trade_proposals).toEqual(before.proposals);
    expect(await cents(trader)).toBe(before.balance);
    expect(await position(trader, ticker)).toBe(1000);
    expect(centsOf((await trader.getBalance()).balance_dollars)).toBe(before.balance);
    // and the rail keeps working after the restart
    await trader.acceptBlockTradeProposal({ params: { block_trade_proposal_id: proposal } });
    expect(await position(trader, ticker)).toBe(900);
    await trader.deleteRfq({ params: { rfq_id: openRfq } });
    expect((await trader.getRfq({ params: { rfq_id: openRfq } })).rfq.status).toBe('canceled');
  });
});
