// The communications rail over REST: the caller's id, RFQs, quotes (flat and RFQ-scoped
// routes) and block trade proposals. Writes are domain commands (state/comms.ts,
// state/comms-proposals.ts); ids are generated here so the commands replay exactly.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Engine } from '../engine/engine';
import { countToCenti, dollarsToMicro, dollarsToTicks } from '../engine/units';
import { forbidden, invalidParameters, notFound } from '../core/errors';
import type { HandlerCtx } from '../http/app';
import type { GetQuotesQuery, GetRfqsQuery } from '../../src-shared/endpoints/communications';
import type {
  AcceptBlockTradeProposalRequest,
  AcceptQuoteRequest,
  CreateBlockTradeProposalRequest,
  CreateQuoteRequest,
  CreateRfqRequest,
} from '../../src-shared/wire/communications';
import { COMMS_DOMAIN, type CommsState, type QuoteRecord, type RfqRecord } from '../state/comms';
import { proposalStatus } from '../state/comms-proposals';
import { presentProposal, presentQuote, presentRfq, revealsCreator } from './comms-present';
import { caller, pageAfterKey, subaccountOf, type HandlerFamily, type HandlerMap } from './support';
import { run, type Services } from '../core/services';

const comms = (svc: Services): CommsState => svc.node.core.domain<CommsState>(COMMS_DOMAIN);
const engineOf = (svc: Services): Engine => svc.node.core.engine;

/** Newest first; paged by seq (pageAfterKey), so an RFQ, quote or proposal leaving a status between a client's pages hides none. */
const bySeqDesc = <T extends { seq: number }>(a: T, b: T) => b.seq - a.seq;

function inWindow(ms: number, minTs: number | undefined, maxTs: number | undefined): boolean {
  const s = Math.floor(ms / 1000);
  return (minTs === undefined || s >= minTs) && (maxTs === undefined || s <= maxTs);
}

function ticksOf(text: string, field: string): number {
  const t = dollarsToTicks(text);
  if (t === undefined) throw invalidParameters(`${field} must be a dollar amount with at most 4 decimals`);
  return t;
}

/** The quote if the caller may see it (quoter or RFQ creator) and, when scoped, it is on that RFQ. */
function visibleQuote(svc: Services, userId: string, quoteId: string, rfqId?: string): { q: QuoteRecord; rfq: RfqRecord } {
  const st = comms(svc);
  const q = st.quotes[quoteId];
  const rfq = q ? st.rfqs[q.rfq_id] : undefined;
  if (!q || !rfq || (rfqId !== undefined && q.rfq_id !== rfqId) || (q.creator_user_id !== userId && rfq.creator_user_id !== userId)) {
    throw notFound(`quote ${quoteId}`);
  }
  return { q, rfq };
}

function quoteHandlers(svc: Services, scoped: boolean): HandlerMap {
  const ids = (ctx: HandlerCtx) => ({ quoteId: ctx.params['quote_id']!, ...(scoped ? { rfqId: ctx.params['rfq_id']! } : {}) });
  const prefix = scoped ? 'RfqQuote' : 'Quote';
  return {
    [`get${prefix}`]: (ctx) => {
      const c = caller(ctx);
      const { quoteId, rfqId } = ids(ctx) as { quoteId: string; rfqId?: string };
      const { q, rfq } = visibleQuote(svc, c.userId, quoteId, rfqId);
      return { quote: presentQuote(q, rfq, c.userId, engineOf(svc).getMarket(q.market_ticker)) };
    },
    [`delete${prefix}`]: async (ctx) => {
      const c = caller(ctx);
      await run(svc, { type: 'deleteQuote', nowMs: ctx.nowMs, userId: c.userId, ...ids(ctx) });
    },
    [`accept${prefix}`]: async (ctx) => {
      const c = caller(ctx);
      const body = ctx.body as AcceptQuoteRequest;
      await run(svc, { type: 'acceptQuote', nowMs: ctx.nowMs, userId: c.userId, ...ids(ctx), acceptedSide: body.accepted_side });
    },
    [`confirm${prefix}`]: async (ctx) => {
      const c = caller(ctx);
      await run(svc, { type: 'confirmQuote', nowMs: ctx.nowMs, userId: c.userId, ...ids(ctx) });
    },
  };
}

/** The communications routes: RFQs, quotes (plain and RFQ-scoped), block trade proposals. */
export const communicationsHandlers: HandlerFamily = (svc) => ({
  ...rfqHandlers(svc),
  ...quoteListHandlers(svc),
  ...quoteHandlers(svc, false),
  ...quoteHandlers(svc, true),
  ...blockTradeHandlers(svc),
});

function rfqHandlers(svc: Services): HandlerMap {
  return {
    getCommunicationsId: (ctx) => {
      const c = caller(ctx);
      return { user_id: c.userId, communications_id: c.userId };
    },

    getRfqs: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetRfqsQuery>;
      const sub = q.subaccount === undefined ? undefined : subaccountOf(ctx, q.subaccount);
      const rows = Object.values(comms(svc).rfqs)
        .filter(
          (r) =>
            (q.event_ticker === undefined || r.event_ticker === q.event_ticker) &&
            (q.market_ticker === undefined || r.market_ticker === q.market_ticker) &&
            (q.status === undefined || r.status === q.status) &&
            (sub === undefined || (r.creator_subaccount === sub && r.subtrader_id === null)) &&
            (q.user_filter === undefined || r.creator_user_id === c.userId) &&
            // an obscured creator is not found by its id either
            (q.creator_user_id === undefined || (r.creator_user_id === q.creator_user_id && revealsCreator(r, c.userId))),
        )
        .sort(bySeqDesc);
      const page = pageAfterKey(rows, q.cursor, q.limit, (r) => r.seq);
      return { rfqs: page.items.map((r) => presentRfq(r, c.userId)), cursor: page.cursor, has_next: page.has_next };
    },

    getRfq: (ctx) => {
      const c = caller(ctx);
      const rfq = comms(svc).rfqs[ctx.params['rfq_id']!];
      if (!rfq) throw notFound(`rfq ${ctx.params['rfq_id']}`);
      return { rfq: presentRfq(rfq, c.userId) };
    },

    createRfq: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as CreateRfqRequest;
      if (b.subtrader_id !== undefined && !c.isFcmMember) throw forbidden('only FCM member accounts act for subtraders');
      let contractsCenti: number | undefined;
      if (b.contracts !== undefined) {
        contractsCenti = countToCenti(b.contracts);
        if (contractsCenti === undefined || contractsCenti <= 0) throw invalidParameters('contracts must be a positive count with at most 2 decimals');
      }
      let targetCostMicro: number | undefined;
      if (b.target_cost !== undefined) {
        targetCostMicro = dollarsToMicro(b.target_cost);
        if (targetCostMicro === undefined || targetCostMicro <= 0) throw invalidParameters('target_cost must be a positive dollar amount');
      }
      const subaccount = b.subtrader_id !== undefined ? (b.subaccount ?? 0) : (subaccountOf(ctx, b.subaccount) ?? 0);
      const rfqId = randomUUID();
      await run(svc, {
        type: 'createRfq',
        nowMs: ctx.nowMs,
        rfqId,
        userId: c.userId,
        subaccount,
        ...(b.subtrader_id !== undefined ? { subtraderId: b.subtrader_id } : {}),
        marketTicker: b.market_ticker,
        ...(contractsCenti !== undefined ? { contractsCenti } : {}),
        ...(targetCostMicro !== undefined ? { targetCostMicro } : {}),
        targetCostExcludesFees: b.target_cost_excludes_fees ?? false,
        restRemainder: b.rest_remainder,
        replaceExisting: b.replace_existing ?? false,
        obscureCreatorId: b.obscure_creator_id ?? false,
      });
      return { rfq: { rfq_id: rfqId, id: rfqId }, id: rfqId };
    },

    deleteRfq: async (ctx) => {
      const c = caller(ctx);
      await run(svc, { type: 'deleteRfq', nowMs: ctx.nowMs, userId: c.userId, rfqId: ctx.params['rfq_id']! });
    },
  };
}

function quoteListHandlers(svc: Services): HandlerMap {
  return {
    getQuotes: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetQuotesQuery>;
      const st = comms(svc);
      const engine = engineOf(svc);
      const rows: { quote: QuoteRecord; rfq: RfqRecord; seq: number }[] = [];
      for (const quote of Object.values(st.quotes)) {
        const rfq = st.rfqs[quote.rfq_id];
        if (!rfq) continue;
        // only quotes the caller may see: their own, or on their RFQs
        if (quote.creator_user_id !== c.userId && rfq.creator_user_id !== c.userId) continue;
        if (q.quote_creator_user_id !== undefined && quote.creator_user_id !== q.quote_creator_user_id) continue;
        if (q.rfq_creator_user_id !== undefined && (rfq.creator_user_id !== q.rfq_creator_user_id || !revealsCreator(rfq, c.userId))) continue;
        if (q.rfq_creator_subtrader_id !== undefined && rfq.subtrader_id !== q.rfq_creator_subtrader_id) continue;
        if (q.user_filter !== undefined && quote.creator_user_id !== c.userId) continue;
        if (q.rfq_user_filter !== undefined && rfq.creator_user_id !== c.userId) continue;
        if (q.rfq_id !== undefined && quote.rfq_id !== q.rfq_id) continue;
        if (q.status !== undefined && quote.status !== q.status) continue;
        if (!inWindow(quote.updated_ms, q.min_ts, q.max_ts)) continue;
        rows.push({ quote, rfq, seq: quote.seq });
      }
      rows.sort(bySeqDesc);
      const page = pageAfterKey(rows, q.cursor, q.limit, (r) => r.seq);
      return {
        quotes: page.items.map((r) => presentQuote(r.quote, r.rfq, c.userId, engine.getMarket(r.quote.market_ticker))),
        cursor: page.cursor,
        has_next: page.has_next,
      };
    },

    createQuote: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as CreateQuoteRequest;
      const quoteId = randomUUID();
      await run(svc, {
        type: 'createQuote',
        nowMs: ctx.nowMs,
        quoteId,
        userId: c.userId,
        subaccount: subaccountOf(ctx, b.subaccount) ?? 0,
        rfqId: b.rfq_id,
        yesBidTicks: ticksOf(b.yes_bid, 'yes_bid'),
        noBidTicks: ticksOf(b.no_bid, 'no_bid'),
        restRemainder: b.rest_remainder ?? false,
        postOnly: b.post_only ?? false,
      });
      return { quote: { quote_id: quoteId, id: quoteId }, id: quoteId };
    },

  };
}

function blockTradeHandlers(svc: Services): HandlerMap {
  return {
    getBlockTradeProposals: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { market_ticker?: string; status?: string; limit?: number; cursor?: string };
      const now = ctx.nowMs;
      const rows = Object.values(comms(svc).proposals)
        .filter(
          (p) =>
            (p.buyer.user_id === c.userId || p.seller.user_id === c.userId || p.proposer_user_id === c.userId) &&
            (q.market_ticker === undefined || p.market_ticker === q.market_ticker) &&
            (q.status === undefined || proposalStatus(p, now) === q.status),
        )
        .sort(bySeqDesc);
      const page = pageAfterKey(rows, q.cursor, q.limit, (r) => r.seq);
      return { block_trade_proposals: page.items.map((p) => presentProposal(p, c.userId, now)), cursor: page.cursor, has_next: page.has_next };
    },

    createBlockTradeProposal: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as CreateBlockTradeProposalRequest;
      // a subaccount-scoped key proposes only for its own subaccount on its own side
      const ownSub = (userId: string, requested: number | undefined, subtrader: string | undefined) =>
        userId === c.userId && subtrader === undefined ? subaccountOf(ctx, requested, undefined) : requested;
      const buyerSubaccount = ownSub(b.buyer_user_id, b.buyer_subaccount, b.buyer_subtrader_id);
      const sellerSubaccount = ownSub(b.seller_user_id, b.seller_subaccount, b.seller_subtrader_id);
      const proposalId = randomUUID();
      await run(svc, {
        type: 'createBlockTradeProposal',
        nowMs: ctx.nowMs,
        proposalId,
        userId: c.userId,
        buyerUserId: b.buyer_user_id,
        sellerUserId: b.seller_user_id,
        marketTicker: b.market_ticker,
        priceTicks: b.price_centi_cents,
        countCenti: b.centicount,
        makerSide: b.maker_side,
        expirationTs: b.expiration_ts,
        ...(b.buyer_subtrader_id !== undefined ? { buyerSubtraderId: b.buyer_subtrader_id } : {}),
        ...(buyerSubaccount !== undefined ? { buyerSubaccount } : {}),
        ...(b.seller_subtrader_id !== undefined ? { sellerSubtraderId: b.seller_subtrader_id } : {}),
        ...(sellerSubaccount !== undefined ? { sellerSubaccount } : {}),
      });
      return { block_trade_proposal_id: proposalId };
    },

    acceptBlockTradeProposal: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as AcceptBlockTradeProposalRequest;
      const subaccount = b.subtrader_id === undefined ? subaccountOf(ctx, b.subaccount, undefined) : b.subaccount;
      await run(svc, {
        type: 'acceptBlockTradeProposal',
        nowMs: ctx.nowMs,
        userId: c.userId,
        proposalId: ctx.params['block_trade_proposal_id']!,
        ...(b.subtrader_id !== undefined ? { subtraderId: b.subtrader_id } : {}),
        ...(subaccount !== undefined ? { subaccount } : {}),
      });
    },
  };
}
