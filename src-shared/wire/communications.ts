// The bilateral block-trade rail: RFQs, quotes and block trade proposals, plus the caller's
// communications id. Ids and statuses are read in either the spec's or the SDK's spelling and
// output in the spec's.
import { z } from 'zod';
import { openEnum } from './novelty';
import {
  CountIn,
  CountRequest,
  DollarsIn,
  DollarsRequest,
  Id,
  nullableArray,
  oneOf,
  optionalBody,
  pageOf,
  pick,
  PriceRequest,
  Subaccount,
  Ticker,
  UnixTs,
} from './common';
import { MveSelectedLeg } from './markets';

/** `/communications/id`: spec `user_id`, SDK `communications_id`. Output `{ user_id }`. */
export const CommunicationsId = z
  .object({ user_id: z.string().optional(), communications_id: z.string().optional() })
  .loose()
  .transform((r, ctx) => ({ ...r, user_id: pick(ctx, 'user_id (or the SDK communications_id)', r.user_id, r.communications_id) }));
export type CommunicationsId = z.output<typeof CommunicationsId>;

/** RFQ status. The spec's four plus the SDK's `closed`; a remote `cancelled` reads as `canceled`. */
export const RfqStatus = z.enum(['open', 'accepted', 'confirmed', 'canceled', 'closed']);
export type RfqStatus = z.output<typeof RfqStatus>;
/** The list filter takes the spec's four. */
export const RfqStatusFilter = z.enum(['open', 'accepted', 'confirmed', 'canceled']);
const RfqStatusIn = openEnum('rfq.status', RfqStatus.options, { cancelled: 'canceled' });

/** Quote status, spelled `canceled` (the SDK's `cancelled` is read as that). */
export const QuoteStatus = z.enum(['open', 'accepted', 'confirmed', 'executed', 'canceled']);
export type QuoteStatus = z.output<typeof QuoteStatus>;
const QuoteStatusIn = openEnum('quote.status', QuoteStatus.options, { cancelled: 'canceled' });

export const YesNo = z.enum(['yes', 'no'], { message: "expected 'yes' or 'no'" });

/**
 * An RFQ. Spec names `rfq_id` (SDK `id`), `market_ticker`, `contracts` (wire `contracts_fp`), `status`.
 * Output: `rfq_id`, `contracts_fp`, `target_cost_dollars`, `created_ts` in Unix seconds.
 */
export const Rfq = z
  .object({
    rfq_id: z.string().optional(),
    id: z.string().optional(),
    market_ticker: z.string().min(1),
    contracts_fp: CountIn.optional(),
    contracts: z.union([CountIn, z.number().int().nonnegative().transform(String)]).optional(),
    target_cost_dollars: DollarsIn.optional(),
    target_cost: DollarsIn.optional(),
    target_cost_excludes_fees: z.boolean().optional(),
    status: RfqStatusIn,
    rest_remainder: z.boolean().optional(),
    creator_id: z.string().optional(),
    creator_user_id: z.string().optional(),
    creator_subaccount: Subaccount.optional(),
    mve_collection_ticker: z.string().optional(),
    mve_selected_legs: nullableArray(MveSelectedLeg).optional(),
    cancellation_reason: z.string().optional(),
    created_ts: UnixTs.optional(),
    updated_ts: UnixTs.optional(),
    cancelled_ts: UnixTs.optional(),
  })
  .loose()
  .transform(({ contracts, target_cost, ...r }, ctx) => ({
    ...r,
    rfq_id: pick(ctx, 'rfq_id (or the SDK id)', r.rfq_id, r.id),
    // an RFQ sized by its target cost says contracts_fp 0 (the SDK requires the field): no count
    contracts_fp: (r.target_cost_dollars ?? target_cost) !== undefined && isZeroCount(r.contracts_fp ?? contracts) ? undefined : (r.contracts_fp ?? contracts),
    target_cost_dollars: r.target_cost_dollars ?? target_cost,
  }));
export type Rfq = z.output<typeof Rfq>;

function isZeroCount(v: string | undefined): boolean {
  return v !== undefined && /^0*(?:\.0*)?$/.test(v);
}

export const RfqResponse = z.object({ rfq: Rfq });
export const RfqsPage = pageOf('rfqs', Rfq);
export type RfqsPage = z.output<typeof RfqsPage>;

/** "12.3456" dollars from an integer of centi-cents (1 dollar = 10,000), without floats. */
function centiCentsToDollars(n: number): string {
  const s = String(n).padStart(5, '0');
  return `${s.slice(0, -4)}.${s.slice(-4)}`;
}

/**
 * Create RFQ. Only `market_ticker` and `rest_remainder` are required; `contracts` and
 * `target_cost` may both be omitted. `target_cost` (dollars) is also read as the SDK's
 * `target_cost_dollars` (or its deprecated `target_cost_centi_cents`); `contracts` (int) as the
 * SDK's `contracts_fp`. Output: `contracts` and `target_cost` as decimal text.
 */
export const CreateRfqRequest = z
  .object({
    market_ticker: Ticker,
    rest_remainder: z.boolean({ message: 'rest_remainder (boolean) is required' }),
    contracts: z.union([z.number().int().positive(), CountRequest]).optional(),
    contracts_fp: CountRequest.optional(),
    target_cost: DollarsRequest.optional(),
    target_cost_dollars: DollarsRequest.optional(),
    target_cost_centi_cents: z.number().int().positive().optional(),
    target_cost_excludes_fees: z.boolean().optional(),
    replace_existing: z.boolean().optional(),
    subtrader_id: Id.optional(),
    subaccount: Subaccount.optional(),
    obscure_creator_id: z.boolean().optional(),
  })
  .strict()
  .transform(({ contracts, contracts_fp, target_cost, target_cost_dollars, target_cost_centi_cents, ...rest }, ctx) => {
    const count = oneOf(ctx, 'contracts / contracts_fp', contracts, contracts_fp);
    const centi = target_cost_centi_cents === undefined ? undefined : centiCentsToDollars(target_cost_centi_cents);
    const dollars = oneOf(ctx, 'target_cost / target_cost_dollars', target_cost, target_cost_dollars);
    const cost = oneOf(ctx, 'target_cost / target_cost_centi_cents', dollars, centi);
    return {
      ...rest,
      ...(count !== undefined ? { contracts: String(count) } : {}),
      ...(cost !== undefined ? { target_cost: cost } : {}),
    };
  });
export type CreateRfqRequest = z.output<typeof CreateRfqRequest>;

const IdOnly = (spec: 'rfq_id' | 'quote_id') =>
  z
    .object({ [spec]: z.string().optional(), id: z.string().optional() } as Record<'rfq_id' | 'quote_id' | 'id', z.ZodOptional<z.ZodString>>)
    .loose();

/** Create RFQ: spec `{ rfq: { rfq_id } }`, SDK a flat `{ id }`. Output `{ rfq: { rfq_id } }`. */
export const CreateRfqResponse = z
  .object({ rfq: IdOnly('rfq_id').optional(), id: z.string().optional(), rfq_id: z.string().optional() })
  .loose()
  .transform((r, ctx) => ({ rfq: { rfq_id: pick(ctx, 'rfq.rfq_id (or the SDK id)', r.rfq?.rfq_id, r.rfq?.id, r.rfq_id, r.id) } }));
export type CreateRfqResponse = z.output<typeof CreateRfqResponse>;

/**
 * A quote. Spec names `quote_id` (SDK `id`), `rfq_id`, `yes_bid` / `no_bid` (wire
 * `yes_bid_dollars` / `no_bid_dollars`), `updated_ts`. Output has `quote_id`, timestamps in seconds.
 */
export const Quote = z
  .object({
    quote_id: z.string().optional(),
    id: z.string().optional(),
    rfq_id: z.string().min(1),
    market_ticker: z.string().optional(),
    yes_bid_dollars: DollarsIn,
    no_bid_dollars: DollarsIn,
    contracts_fp: CountIn.optional(),
    yes_contracts_fp: CountIn.optional(),
    no_contracts_fp: CountIn.optional(),
    status: QuoteStatusIn,
    accepted_side: openEnum('quote.accepted_side', YesNo.options).optional(),
    rest_remainder: z.boolean().optional(),
    post_only: z.boolean().optional(),
    creator_id: z.string().optional(),
    rfq_creator_id: z.string().optional(),
    creator_user_id: z.string().optional(),
    rfq_creator_user_id: z.string().optional(),
    creator_subaccount: Subaccount.optional(),
    rfq_creator_subaccount: Subaccount.optional(),
    creator_order_id: z.string().optional(),
    rfq_creator_order_id: z.string().optional(),
    rfq_target_cost_dollars: DollarsIn.optional(),
    target_cost_excludes_fees: z.boolean().optional(),
    cancellation_reason: z.string().optional(),
    created_ts: UnixTs.optional(),
    updated_ts: UnixTs.optional(),
    accepted_ts: UnixTs.optional(),
    confirmed_ts: UnixTs.optional(),
    executed_ts: UnixTs.optional(),
    cancelled_ts: UnixTs.optional(),
  })
  .loose()
  .transform((q, ctx) => ({ ...q, quote_id: pick(ctx, 'quote_id (or the SDK id)', q.quote_id, q.id) }));
export type Quote = z.output<typeof Quote>;

export const QuoteResponse = z.object({ quote: Quote });
export const QuotesPage = pageOf('quotes', Quote);
export type QuotesPage = z.output<typeof QuotesPage>;

/** Create quote: `yes_bid` / `no_bid` are dollar decimals with wire names WITHOUT a suffix. */
export const CreateQuoteRequest = z
  .object({
    rfq_id: Id,
    yes_bid: PriceRequest,
    no_bid: PriceRequest,
    rest_remainder: z.boolean().optional(),
    subaccount: Subaccount.optional(),
    post_only: z.boolean().optional(),
  })
  .strict();
export type CreateQuoteRequest = z.output<typeof CreateQuoteRequest>;

/** Create quote: spec `{ quote: { quote_id } }`, SDK a flat `{ id }`. Output `{ quote: { quote_id } }`. */
export const CreateQuoteResponse = z
  .object({ quote: IdOnly('quote_id').optional(), id: z.string().optional(), quote_id: z.string().optional() })
  .loose()
  .transform((r, ctx) => ({ quote: { quote_id: pick(ctx, 'quote.quote_id (or the SDK id)', r.quote?.quote_id, r.quote?.id, r.quote_id, r.id) } }));
export type CreateQuoteResponse = z.output<typeof CreateQuoteResponse>;

export const AcceptQuoteRequest = z.object({ accepted_side: YesNo }).strict();
export type AcceptQuoteRequest = z.output<typeof AcceptQuoteRequest>;

// ---------------------------------------------------------------------------
// Block trade proposals

/** Price and size are plain integers (centi-cents, centicounts), each at least 1. */
const CentiInt = (what: string) => z.number({ message: `${what} must be an integer` }).int(`${what} must be an integer`).min(1, `${what} must be at least 1`);

/** RFC 3339 date-time string (block trade `expiration_ts`). */
const Rfc3339DateTime = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), 'expected an RFC 3339 date-time string');

export const BlockTradeProposal = z
  .object({
    id: z.string().min(1),
    market_ticker: z.string().min(1),
    status: z.string(),
    buyer_accepted: z.boolean(),
    seller_accepted: z.boolean(),
    proposer_user_id: z.string().optional(),
    buyer_user_id: z.string().optional(),
    seller_user_id: z.string().optional(),
    buyer_subtrader_id: z.string().optional(),
    seller_subtrader_id: z.string().optional(),
    price_centi_cents: z.number().int().optional(),
    centicount: z.number().int().optional(),
    maker_side: YesNo.optional(),
    expiration_ts: z.string().optional(),
    created_ts: UnixTs.optional(),
    updated_ts: UnixTs.optional(),
    buyer_accepted_ts: UnixTs.optional(),
    seller_accepted_ts: UnixTs.optional(),
    executed_ts: UnixTs.optional(),
    buyer_order_id: z.string().optional(),
    seller_order_id: z.string().optional(),
  })
  .loose();
export type BlockTradeProposal = z.output<typeof BlockTradeProposal>;
export const BlockTradeProposalsPage = pageOf('block_trade_proposals', BlockTradeProposal);

export const CreateBlockTradeProposalRequest = z
  .object({
    buyer_user_id: Id,
    seller_user_id: Id,
    market_ticker: Ticker,
    price_centi_cents: CentiInt('price_centi_cents'),
    centicount: CentiInt('centicount'),
    maker_side: YesNo,
    expiration_ts: Rfc3339DateTime,
    buyer_subtrader_id: Id.optional(),
    buyer_subaccount: Subaccount.optional(),
    seller_subtrader_id: Id.optional(),
    seller_subaccount: Subaccount.optional(),
  })
  .strict();
export type CreateBlockTradeProposalRequest = z.output<typeof CreateBlockTradeProposalRequest>;

export const CreateBlockTradeProposalResponse = z.object({ block_trade_proposal_id: Id });
export type CreateBlockTradeProposalResponse = z.output<typeof CreateBlockTradeProposalResponse>;

/** Optional body: accept as a subtrader or a subaccount. An absent body reads as `{}`. */
export const AcceptBlockTradeProposalRequest = optionalBody(
  z.object({ subtrader_id: Id.optional(), subaccount: Subaccount.optional() }).strict(),
);
export type AcceptBlockTradeProposalRequest = z.output<typeof AcceptBlockTradeProposalRequest>;
