// The communications rail's records and commands: RFQs and quotes (and, from
// comms-proposals.ts, block trade proposals) as plain JSON state, the commands that change it
// (applied in comms.ts and comms-proposals.ts), and what is read off a record: the account an
// RFQ trades from, the requester's price for the accepted side, the size it trades.
import { fillFeeCents, TAKER_K } from '../engine/fees';
import type { MarketView, OutcomeSide } from '../engine/types';
import { MAX_COUNT_CENTI, MICRO_PER_CENT } from '../engine/units';
import type { ProposalCommand, ProposalRecord } from './comms-proposals';

export const COMMS_DOMAIN = 'comms';
/** Size of an RFQ that names neither contracts nor a target cost: one contract. */
export const DEFAULT_RFQ_CENTI = 100;

export type RfqStatus = 'open' | 'accepted' | 'confirmed' | 'canceled';
export type QuoteStatus = 'open' | 'accepted' | 'confirmed' | 'executed' | 'canceled';

export interface RfqRecord {
  rfq_id: string;
  seq: number;
  creator_user_id: string;
  creator_subaccount: number;
  /** Set when an FCM member created it for a subtrader (whose account trades). */
  subtrader_id: string | null;
  market_ticker: string;
  event_ticker: string;
  contracts_centi: number | null;
  target_cost_micro: number | null;
  target_cost_excludes_fees: boolean;
  rest_remainder: boolean;
  obscure_creator_id: boolean;
  status: RfqStatus;
  accepted_quote_id: string | null;
  created_ms: number;
  updated_ms: number;
  cancelled_ms: number | null;
  cancellation_reason: string | null;
}

export interface QuoteRecord {
  quote_id: string;
  seq: number;
  rfq_id: string;
  market_ticker: string;
  creator_user_id: string;
  creator_subaccount: number;
  rfq_creator_user_id: string;
  /** Ticks; 0 declines that side. */
  yes_bid: number;
  no_bid: number;
  rest_remainder: boolean;
  post_only: boolean;
  status: QuoteStatus;
  accepted_side: OutcomeSide | null;
  /** Size fixed at acceptance (centi). */
  contracts_centi: number | null;
  created_ms: number;
  updated_ms: number;
  accepted_ms: number | null;
  confirmed_ms: number | null;
  executed_ms: number | null;
  cancelled_ms: number | null;
  cancellation_reason: string | null;
  creator_order_id: string | null;
  rfq_creator_order_id: string | null;
  trade_id: string | null;
}

export interface CommsState {
  seq: number;
  rfqs: Record<string, RfqRecord>;
  quotes: Record<string, QuoteRecord>;
  proposals: Record<string, ProposalRecord>;
}

export type RfqCommand =
  | {
      type: 'createRfq';
      nowMs: number;
      rfqId: string;
      userId: string;
      subaccount: number;
      subtraderId?: string;
      marketTicker: string;
      contractsCenti?: number;
      targetCostMicro?: number;
      targetCostExcludesFees?: boolean;
      restRemainder: boolean;
      replaceExisting?: boolean;
      obscureCreatorId?: boolean;
    }
  | { type: 'deleteRfq'; nowMs: number; userId: string; rfqId: string }
  | {
      type: 'createQuote';
      nowMs: number;
      quoteId: string;
      userId: string;
      subaccount: number;
      rfqId: string;
      yesBidTicks: number;
      noBidTicks: number;
      restRemainder?: boolean;
      postOnly?: boolean;
    }
  /** `rfqId` (the RFQ-scoped routes): the quote must be on that RFQ, else 404. */
  | { type: 'deleteQuote'; nowMs: number; userId: string; quoteId: string; rfqId?: string }
  | { type: 'acceptQuote'; nowMs: number; userId: string; quoteId: string; rfqId?: string; acceptedSide: OutcomeSide }
  | { type: 'confirmQuote'; nowMs: number; userId: string; quoteId: string; rfqId?: string };

export type RfqCommandOf<K extends RfqCommand['type']> = Extract<RfqCommand, { type: K }>;

export type CommsCommand = RfqCommand | ProposalCommand;

export function emptyComms(): CommsState {
  return { seq: 0, rfqs: {}, quotes: {}, proposals: {} };
}

export function commsStateOf(domains: Readonly<Record<string, unknown>>): CommsState | undefined {
  return domains[COMMS_DOMAIN] as CommsState | undefined;
}

/** The engine account an RFQ trades from. */
export function rfqAccount(rfq: RfqRecord): { userId: string; subaccount: number } {
  return rfq.subtrader_id ? { userId: rfq.subtrader_id, subaccount: 0 } : { userId: rfq.creator_user_id, subaccount: rfq.creator_subaccount };
}

/** Requester's own-leg price (ticks) for the accepted side of a quote. */
export function requesterPrice(q: QuoteRecord, side: OutcomeSide): number {
  return side === 'yes' ? q.yes_bid : q.no_bid;
}

/** Contracts (centi) an RFQ trades at `price` (the requester's own leg). */
export function executionCount(rfq: RfqRecord, market: MarketView, price: number): number {
  if (rfq.contracts_centi !== null) return rfq.contracts_centi;
  if (rfq.target_cost_micro === null) return DEFAULT_RFQ_CENTI;
  const target = rfq.target_cost_micro;
  let hi = Math.min(Math.floor(target / price), MAX_COUNT_CENTI);
  if (rfq.target_cost_excludes_fees) return hi;
  // P x (1 - P) is the same on either leg, so the fee can be computed at the own-leg price
  const cost = (c: number) => price * c + fillFeeCents(TAKER_K, market.fee_multiplier, c, price) * MICRO_PER_CENT;
  let lo = 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= target) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
