import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import {
  AcceptBlockTradeProposalRequest,
  AcceptQuoteRequest,
  CommunicationsId,
  CreateBlockTradeProposalRequest,
  CreateQuoteRequest,
  CreateQuoteResponse,
  CreateRfqRequest,
  CreateRfqResponse,
  Quote,
  Rfq,
} from './communications';
import { responseSamples, sampleProposal, sampleQuote, sampleRfq, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('communications id', () => {
  it('reads user_id (spec) and communications_id (SDK) as user_id', () => {
    expect(CommunicationsId.parse({ user_id: 'u1' }).user_id).toBe('u1');
    expect(CommunicationsId.parse({ communications_id: 'u1' }).user_id).toBe('u1');
    expect(rejects(CommunicationsId, {})).toMatch(/user_id/);
  });
});

describe('RFQ', () => {
  it('create needs market_ticker and rest_remainder; contracts and target_cost are optional', () => {
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: true })).toEqual({ market_ticker: 'KXT', rest_remainder: true });
    expect(rejects(CreateRfqRequest, { market_ticker: 'KXT' })).toMatch(/rest_remainder/);
    expect(rejects(CreateRfqRequest, { rest_remainder: false })).toMatch(/market_ticker/);
  });

  it('reads target_cost and the SDK target_cost_dollars (and centi-cents) as target_cost', () => {
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: false, target_cost: '25.50' }).target_cost).toBe('25.50');
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: false, target_cost_dollars: '25.50' }).target_cost).toBe('25.50');
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: false, target_cost_centi_cents: 255_000 }).target_cost).toBe('25.5000');
    expect(rejects(CreateRfqRequest, { market_ticker: 'KXT', rest_remainder: false, target_cost: '1', target_cost_dollars: '2' })).toMatch(/different/);
  });

  it('reads contracts (int) and the SDK contracts_fp as contracts text; rejects unknown fields', () => {
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: false, contracts: 100 }).contracts).toBe('100');
    expect(CreateRfqRequest.parse({ market_ticker: 'KXT', rest_remainder: false, contracts_fp: '2.50' }).contracts).toBe('2.50');
    rejects(CreateRfqRequest, { market_ticker: 'KXT', rest_remainder: false, side: 'yes' });
  });

  it('create answer: { rfq: { rfq_id } } and the SDK flat { id } read alike', () => {
    expect(CreateRfqResponse.parse(responseSamples.createRfq)).toEqual({ rfq: { rfq_id: 'rfq-1' } });
    expect(CreateRfqResponse.parse(sdkResponseSamples.createRfq)).toEqual({ rfq: { rfq_id: 'rfq-1' } });
    expect(rejects(CreateRfqResponse, {})).toMatch(/rfq_id/);
  });

  it('reads the SDK id, closed status and string created_ts', () => {
    const sdk = endpoints.getRfq.response.parse(sdkResponseSamples.getRfq).rfq;
    expect(sdk).toMatchObject({ rfq_id: 'rfq-1', status: 'closed', created_ts: 1_735_689_600, contracts_fp: '100.00' });
    expect(Rfq.parse({ ...sampleRfq, status: 'cancelled' }).status).toBe('canceled');
    expect(Rfq.parse({ ...sampleRfq, status: 'pending' }).status).toBe('pending');
    rejects(Rfq, { ...sampleRfq, rfq_id: undefined, id: undefined });
  });

  it('the list filter takes the spec statuses and user_filter=self only', () => {
    const q = endpoints.getRfqs.query;
    expect(q.parse({ status: 'confirmed', user_filter: 'self' })).toEqual({ status: 'confirmed', user_filter: 'self' });
    expect(rejects(q, { user_filter: 'all' })).toMatch(/only 'self'/);
    rejects(q, { status: 'closed' });
  });
});

describe('quotes', () => {
  const good = { rfq_id: 'rfq-1', yes_bid: '0.4400', no_bid: '0.5400', rest_remainder: false };
  it('create takes yes_bid / no_bid as dollar text without suffix', () => {
    expect(CreateQuoteRequest.parse(good)).toEqual(good);
    rejects(CreateQuoteRequest, { ...good, yes_bid_dollars: '0.44' });
    rejects(CreateQuoteRequest, { ...good, yes_bid: 0.44 });
  });
  it('create answer: { quote: { quote_id } } and the SDK flat { id } read alike', () => {
    expect(CreateQuoteResponse.parse(responseSamples.createQuote)).toEqual({ quote: { quote_id: 'quote-1' } });
    expect(CreateQuoteResponse.parse(sdkResponseSamples.createQuote)).toEqual({ quote: { quote_id: 'quote-1' } });
  });
  it("reads the SDK id, 'cancelled' and string timestamps", () => {
    const q = endpoints.getQuote.response.parse(sdkResponseSamples.getQuote).quote;
    expect(q).toMatchObject({ quote_id: 'quote-1', status: 'canceled', updated_ts: 1_735_689_600 });
    rejects(Quote, { ...sampleQuote, yes_bid_dollars: 0.44 });
  });
  it('accept takes accepted_side yes or no', () => {
    expect(AcceptQuoteRequest.parse({ accepted_side: 'no' })).toEqual({ accepted_side: 'no' });
    expect(rejects(AcceptQuoteRequest, { accepted_side: 'bid' })).toMatch(/yes.*no/);
    rejects(AcceptQuoteRequest, {});
  });
  it('a quote list needs a user filter; rfq_id alone is not enough', () => {
    const q = endpoints.getQuotes.query;
    expect(rejects(q, { rfq_id: 'rfq-1' })).toMatch(/needs a user filter/);
    expect(q.parse({ rfq_id: 'rfq-1', user_filter: 'self' })).toEqual({ rfq_id: 'rfq-1', user_filter: 'self' });
    expect(q.parse({ quote_creator_user_id: 'u' })).toEqual({ quote_creator_user_id: 'u' });
    expect(q.parse({ rfq_creator_user_id: 'u' })).toEqual({ rfq_creator_user_id: 'u' });
    expect(q.parse({ rfq_user_filter: 'self' })).toEqual({ rfq_user_filter: 'self' });
    expect(rejects(q, { user_filter: 'others' })).toMatch(/only 'self'/);
  });
});

describe('block trade proposals', () => {
  const good = {
    buyer_user_id: 'u-b',
    seller_user_id: 'u-s',
    market_ticker: 'KXT',
    price_centi_cents: 4500,
    centicount: 10_000,
    maker_side: 'yes',
    expiration_ts: '2025-01-01T00:05:00Z',
  };
  it('create takes integer price_centi_cents and centicount >= 1 and an RFC 3339 expiration', () => {
    expect(CreateBlockTradeProposalRequest.parse(good)).toEqual(good);
    expect(rejects(CreateBlockTradeProposalRequest, { ...good, price_centi_cents: 0 })).toMatch(/at least 1/);
    expect(rejects(CreateBlockTradeProposalRequest, { ...good, centicount: 1.5 })).toMatch(/integer/);
    rejects(CreateBlockTradeProposalRequest, { ...good, centicount: '100' });
    expect(rejects(CreateBlockTradeProposalRequest, { ...good, expiration_ts: 1_735_689_900 })).toBeTruthy();
    expect(rejects(CreateBlockTradeProposalRequest, { ...good, expiration_ts: 'tomorrow' })).toMatch(/RFC 3339/);
    rejects(CreateBlockTradeProposalRequest, { ...good, maker_side: 'bid' });
  });
  it('accept takes an optional body', () => {
    expect(AcceptBlockTradeProposalRequest.parse(undefined)).toEqual({});
    expect(AcceptBlockTradeProposalRequest.parse({ subaccount: 2 })).toEqual({ subaccount: 2 });
    rejects(AcceptBlockTradeProposalRequest, { subaccount: 99 });
  });
  it('reads proposals', () => {
    expect(endpoints.getBlockTradeProposals.response.parse(responseSamples.getBlockTradeProposals).block_trade_proposals[0]).toMatchObject(sampleProposal);
    rejects(endpoints.getBlockTradeProposals.response, { block_trade_proposals: [{ ...sampleProposal, buyer_accepted: 'no' }] });
  });
});
