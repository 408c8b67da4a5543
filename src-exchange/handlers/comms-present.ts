// RFQs, quotes and block trade proposals as wire objects. Spec and SDK names both go out where
// both fit (`rfq_id` + `id`, `quote_id` + `id`, `creator_id` + `creator_user_id`). Who sees what:
// an RFQ's creator id is hidden from others while `obscure_creator_id` holds and the RFQ is
// not confirmed; subaccounts, subtraders and order ids go only to their owner.
import type { z } from 'zod';
import type { MarketView } from '../engine/types';
import { centiToCount, ticksToDollars } from '../engine/units';
import type { BlockTradeProposal, Quote, Rfq } from '../../src-shared/wire/communications';
import { executionCount, type QuoteRecord, type RfqRecord } from '../state/comms';
import { proposalStatus, type ProposalRecord } from '../state/comms-proposals';
import { dollarsText, seconds } from './present';

export type WireRfq = z.input<typeof Rfq>;
export type WireQuote = z.input<typeof Quote>;
export type WireProposal = z.input<typeof BlockTradeProposal>;

const when = <T extends object>(cond: boolean, v: T): T | Record<string, never> => (cond ? v : {});

/** Whether `viewer` may see who created the RFQ. */
export function revealsCreator(rfq: RfqRecord, viewer: string): boolean {
  return !rfq.obscure_creator_id || rfq.creator_user_id === viewer || rfq.status === 'confirmed';
}

export function presentRfq(rfq: RfqRecord, viewer: string): WireRfq {
  const own = rfq.creator_user_id === viewer;
  const whole = rfq.contracts_centi !== null && rfq.contracts_centi % 100 === 0;
  return {
    rfq_id: rfq.rfq_id,
    id: rfq.rfq_id,
    market_ticker: rfq.market_ticker,
    event_ticker: rfq.event_ticker,
    // The SDK's RFQ requires contracts_fp. One sized by target_cost has no count of its own:
    // it says 0.00 and its size is target_cost_dollars (the quotes carry what it buys).
    contracts_fp: centiToCount(rfq.contracts_centi ?? 0),
    ...when(whole, { contracts: (rfq.contracts_centi ?? 0) / 100 }),
    ...when(rfq.target_cost_micro !== null, { target_cost_dollars: dollarsText(rfq.target_cost_micro ?? 0) }),
    target_cost_excludes_fees: rfq.target_cost_excludes_fees,
    rest_remainder: rfq.rest_remainder,
    obscure_creator_id: rfq.obscure_creator_id,
    status: rfq.status,
    ...when(revealsCreator(rfq, viewer), { creator_id: rfq.creator_user_id, creator_user_id: rfq.creator_user_id }),
    ...when(own, { creator_subaccount: rfq.creator_subaccount }),
    ...when(own && rfq.subtrader_id !== null, { subtrader_id: rfq.subtrader_id ?? '' }),
    ...when(rfq.cancellation_reason !== null, { cancellation_reason: rfq.cancellation_reason ?? '' }),
    created_ts: seconds(rfq.created_ms),
    updated_ts: seconds(rfq.updated_ms),
    ...when(rfq.cancelled_ms !== null, { cancelled_ts: seconds(rfq.cancelled_ms ?? 0) }),
  };
}

/** Contracts a quote trades on each side (known for a contracts RFQ, derived for a target cost). */
function quoteSizes(q: QuoteRecord, rfq: RfqRecord, market: MarketView | undefined): Partial<WireQuote> {
  if (q.contracts_centi !== null) return { contracts_fp: centiToCount(q.contracts_centi) };
  if (rfq.target_cost_micro === null || !market) {
    return rfq.contracts_centi !== null ? { contracts_fp: centiToCount(rfq.contracts_centi) } : {};
  }
  return {
    ...when(q.yes_bid > 0, { yes_contracts_fp: centiToCount(executionCount(rfq, market, q.yes_bid)) }),
    ...when(q.no_bid > 0, { no_contracts_fp: centiToCount(executionCount(rfq, market, q.no_bid)) }),
  };
}

export function presentQuote(q: QuoteRecord, rfq: RfqRecord, viewer: string, market: MarketView | undefined): WireQuote {
  const quoter = q.creator_user_id === viewer;
  const requester = rfq.creator_user_id === viewer;
  const ts = (ms: number | null) => (ms === null ? undefined : seconds(ms));
  return {
    quote_id: q.quote_id,
    id: q.quote_id,
    rfq_id: q.rfq_id,
    market_ticker: q.market_ticker,
    yes_bid_dollars: ticksToDollars(q.yes_bid),
    no_bid_dollars: ticksToDollars(q.no_bid),
    ...quoteSizes(q, rfq, market),
    status: q.status,
    ...when(q.accepted_side !== null, { accepted_side: q.accepted_side ?? 'yes' }),
    rest_remainder: q.rest_remainder,
    post_only: q.post_only,
    creator_id: q.creator_user_id,
    creator_user_id: q.creator_user_id,
    ...when(revealsCreator(rfq, viewer), { rfq_creator_id: rfq.creator_user_id, rfq_creator_user_id: rfq.creator_user_id }),
    ...when(quoter, { creator_subaccount: q.creator_subaccount }),
    ...when(requester && rfq.subtrader_id === null, { rfq_creator_subaccount: rfq.creator_subaccount }),
    ...when(quoter && q.creator_order_id !== null, { creator_order_id: q.creator_order_id ?? '' }),
    ...when(requester && q.rfq_creator_order_id !== null, { rfq_creator_order_id: q.rfq_creator_order_id ?? '' }),
    ...when(rfq.target_cost_micro !== null, { rfq_target_cost_dollars: dollarsText(rfq.target_cost_micro ?? 0) }),
    target_cost_excludes_fees: rfq.target_cost_excludes_fees,
    ...when(q.cancellation_reason !== null, { cancellation_reason: q.cancellation_reason ?? '' }),
    created_ts: seconds(q.created_ms),
    updated_ts: seconds(q.updated_ms),
    accepted_ts: ts(q.accepted_ms),
    confirmed_ts: ts(q.confirmed_ms),
    executed_ts: ts(q.executed_ms),
    cancelled_ts: ts(q.cancelled_ms),
  };
}

export function presentProposal(p: ProposalRecord, viewer: string, nowMs: number): WireProposal {
  const ts = (ms: number | null) => (ms === null ? undefined : seconds(ms));
  const mine = (userId: string) => userId === viewer;
  return {
    id: p.id,
    block_trade_proposal_id: p.id,
    market_ticker: p.market_ticker,
    status: proposalStatus(p, nowMs),
    buyer_accepted: p.buyer.accepted,
    seller_accepted: p.seller.accepted,
    proposer_user_id: p.proposer_user_id,
    buyer_user_id: p.buyer.user_id,
    seller_user_id: p.seller.user_id,
    ...when(mine(p.buyer.user_id) && p.buyer.subtrader_id !== null, { buyer_subtrader_id: p.buyer.subtrader_id ?? '' }),
    ...when(mine(p.seller.user_id) && p.seller.subtrader_id !== null, { seller_subtrader_id: p.seller.subtrader_id ?? '' }),
    ...when(mine(p.buyer.user_id) && p.buyer.subaccount !== null, { buyer_subaccount: p.buyer.subaccount ?? 0 }),
    ...when(mine(p.seller.user_id) && p.seller.subaccount !== null, { seller_subaccount: p.seller.subaccount ?? 0 }),
    price_centi_cents: p.price_ticks,
    price_dollars: ticksToDollars(p.price_ticks),
    centicount: p.count_centi,
    count_fp: centiToCount(p.count_centi),
    maker_side: p.maker_side,
    expiration_ts: new Date(p.expiration_ms).toISOString(),
    created_ts: seconds(p.created_ms),
    updated_ts: seconds(p.updated_ms),
    buyer_accepted_ts: ts(p.buyer.accepted_ms),
    seller_accepted_ts: ts(p.seller.accepted_ms),
    executed_ts: ts(p.executed_ms),
    ...when(mine(p.buyer.user_id) && p.buyer.order_id !== null, { buyer_order_id: p.buyer.order_id ?? '' }),
    ...when(mine(p.seller.user_id) && p.seller.order_id !== null, { seller_order_id: p.seller.order_id ?? '' }),
    ...when(p.trade_id !== null, { trade_id: p.trade_id ?? '' }),
  };
}
