// The communications rail: RFQs and quotes (this file: one handler per command) and block
// trade proposals (comms-proposals.ts). Plain JSON state (its records and commands in
// comms-records.ts) changed only by commands that carry their ids.
//
// Flow: a requester creates an RFQ; makers quote a `yes_bid` and a `no_bid`; the requester
// accepts one side; the quoter confirms, which EXECUTES at once as an off-book trade
// (engine `executeBlockTrade`) and confirms the RFQ. Mapping of the accepted side:
//   - `yes`: the requester buys YES at the quote's yes_bid; the quoter buys NO at 1 - yes_bid.
//   - `no`:  the requester buys NO at the quote's no_bid; the quoter buys YES at 1 - no_bid.
// The quoter is the maker, the requester the taker (fees per docs/spec/protocol-notes.md).
// Size: the RFQ's `contracts`; else the most contracts `target_cost` buys at the accepted
// price (fees included unless target_cost_excludes_fees); else 1 contract.
import type { DomainCtx } from './domain';
import type { Engine } from '../engine/engine';
import type { MarketView } from '../engine/types';
import { checkTick } from '../engine/price-levels';
import { centiToCount, isOrderCount, TICKS_PER_DOLLAR } from '../engine/units';
import { checkSubtraderTrade, fcmStateOf, ownedSubtrader, reject, type Outcome, type Rejected } from './fcm';
import { allParticipants, dispatch, executeOffBook, isRejected, openMarket, userExists, type CommandHandlers } from './comms-common';
import {
  executionCount,
  requesterPrice,
  rfqAccount,
  type CommsState,
  type QuoteRecord,
  type RfqCommand,
  type RfqCommandOf,
  type RfqRecord,
} from './comms-records';

export { allParticipants, isRejected, openMarket, userExists };
export {
  COMMS_DOMAIN,
  DEFAULT_RFQ_CENTI,
  commsStateOf,
  emptyComms,
  executionCount,
  requesterPrice,
  rfqAccount,
  type CommsCommand,
  type CommsState,
  type QuoteRecord,
  type QuoteStatus,
  type RfqCommand,
  type RfqRecord,
  type RfqStatus,
} from './comms-records';

const HANDLERS: CommandHandlers<CommsState, RfqCommand> = { createRfq, deleteRfq, createQuote, deleteQuote, acceptQuote, confirmQuote };

export function applyRfqCommand(state: CommsState, cmd: RfqCommand, ctx: DomainCtx): Outcome {
  return dispatch(HANDLERS, state, cmd, ctx);
}

// ------------------------------------------------------------------ RFQs

function createRfq(state: CommsState, cmd: RfqCommandOf<'createRfq'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  const market = checkCreateRfq(state, cmd, ctx);
  if (isRejected(market)) return market;
  if (cmd.replaceExisting) {
    for (const r of Object.values(state.rfqs)) {
      if (r.creator_user_id === cmd.userId && r.market_ticker === market.ticker && (r.status === 'open' || r.status === 'accepted')) {
        cancelRfq(state, r, 'replaced', ctx, now);
      }
    }
  }
  const rfq: RfqRecord = {
    rfq_id: cmd.rfqId,
    seq: ++state.seq,
    creator_user_id: cmd.userId,
    creator_subaccount: cmd.subaccount,
    subtrader_id: cmd.subtraderId ?? null,
    market_ticker: market.ticker,
    event_ticker: market.event_ticker,
    contracts_centi: cmd.contractsCenti ?? null,
    target_cost_micro: cmd.targetCostMicro ?? null,
    target_cost_excludes_fees: cmd.targetCostExcludesFees ?? false,
    rest_remainder: cmd.restRemainder,
    obscure_creator_id: cmd.obscureCreatorId ?? false,
    status: 'open',
    accepted_quote_id: null,
    created_ms: now,
    updated_ms: now,
    cancelled_ms: null,
    cancellation_reason: null,
  };
  state.rfqs[rfq.rfq_id] = rfq;
  emitComms(ctx, allParticipants(ctx), 'rfq_created', {
    rfq_id: rfq.rfq_id,
    id: rfq.rfq_id,
    ...(rfq.obscure_creator_id ? {} : { creator_id: rfq.creator_user_id }),
    market_ticker: rfq.market_ticker,
    event_ticker: rfq.event_ticker,
    ...(rfq.contracts_centi !== null ? { contracts_fp: centiToCount(rfq.contracts_centi) } : {}),
    ...(rfq.target_cost_micro !== null ? { target_cost_dollars: microDollars(rfq.target_cost_micro) } : {}),
    created_ts: new Date(now).toISOString(),
  });
  return { ok: true, rfq_id: rfq.rfq_id };
}

/** Everything a new RFQ must pass before anything changes; the market it is on when it does. */
function checkCreateRfq(state: CommsState, cmd: RfqCommandOf<'createRfq'>, ctx: DomainCtx): MarketView | Rejected {
  if (!userExists(ctx, cmd.userId)) return reject('not_found', 'user not found', 404);
  if (typeof cmd.rfqId !== 'string' || !cmd.rfqId || state.rfqs[cmd.rfqId]) return reject('conflict', 'rfq id is taken', 409);
  if (typeof cmd.restRemainder !== 'boolean') return reject('invalid_parameters', 'rest_remainder (boolean) is required', 400);
  if (cmd.contractsCenti !== undefined && !isOrderCount(cmd.contractsCenti)) return reject('invalid_parameters', 'contracts must be a positive count', 400);
  if (cmd.targetCostMicro !== undefined && !(Number.isSafeInteger(cmd.targetCostMicro) && cmd.targetCostMicro > 0)) {
    return reject('invalid_parameters', 'target_cost must be a positive dollar amount', 400);
  }
  const market = openMarket(ctx.engine, cmd.marketTicker);
  if (isRejected(market)) return market;
  if (cmd.subtraderId !== undefined) {
    if (cmd.subaccount !== 0) return reject('invalid_parameters', 'give subtrader_id or subaccount, not both', 400);
    if (!ownedSubtrader(fcmStateOf(ctx.domains), cmd.userId, cmd.subtraderId)) return reject('not_found', `subtrader ${cmd.subtraderId} not found`, 404);
    const bad = checkSubtraderTrade(ctx.domains, ctx.engine, {
      subtraderId: cmd.subtraderId,
      ticker: market.ticker,
      notionalMicro: cmd.targetCostMicro ?? 0,
      nowMs: cmd.nowMs,
    });
    if (bad) return bad;
  } else if (!subaccountExists(ctx.engine, cmd.userId, cmd.subaccount)) {
    return reject('not_found', `subaccount ${cmd.subaccount} not found`, 404);
  }
  return market;
}

function deleteRfq(state: CommsState, cmd: RfqCommandOf<'deleteRfq'>, ctx: DomainCtx): Outcome {
  const rfq = state.rfqs[cmd.rfqId];
  if (!rfq || rfq.creator_user_id !== cmd.userId || (rfq.status !== 'open' && rfq.status !== 'accepted')) {
    return reject('not_found', `rfq ${cmd.rfqId} not found`, 404);
  }
  cancelRfq(state, rfq, 'deleted', ctx, cmd.nowMs);
  return { ok: true };
}

// ------------------------------------------------------------------ quotes

function createQuote(state: CommsState, cmd: RfqCommandOf<'createQuote'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  const rfq = checkCreateQuote(state, cmd, ctx);
  if (isRejected(rfq)) return rfq;
  // a new quote replaces the quoter's earlier live quote on the RFQ
  for (const q of Object.values(state.quotes)) {
    if (q.rfq_id === rfq.rfq_id && q.creator_user_id === cmd.userId && q.status === 'open') cancelQuote(q, 'replaced', now);
  }
  const q: QuoteRecord = {
    quote_id: cmd.quoteId,
    seq: ++state.seq,
    rfq_id: rfq.rfq_id,
    market_ticker: rfq.market_ticker,
    creator_user_id: cmd.userId,
    creator_subaccount: cmd.subaccount,
    rfq_creator_user_id: rfq.creator_user_id,
    yes_bid: cmd.yesBidTicks,
    no_bid: cmd.noBidTicks,
    rest_remainder: cmd.restRemainder ?? false,
    post_only: cmd.postOnly ?? false,
    status: 'open',
    accepted_side: null,
    contracts_centi: null,
    created_ms: now,
    updated_ms: now,
    accepted_ms: null,
    confirmed_ms: null,
    executed_ms: null,
    cancelled_ms: null,
    cancellation_reason: null,
    creator_order_id: null,
    rfq_creator_order_id: null,
    trade_id: null,
  };
  state.quotes[q.quote_id] = q;
  emitComms(ctx, [rfq.creator_user_id, q.creator_user_id], 'quote_created', { ...quotePayload(rfq, q, false), created_ts: new Date(now).toISOString() });
  return { ok: true, quote_id: q.quote_id };
}

/** Everything a new quote must pass before anything changes; the RFQ it quotes when it does. */
function checkCreateQuote(state: CommsState, cmd: RfqCommandOf<'createQuote'>, ctx: DomainCtx): RfqRecord | Rejected {
  if (!userExists(ctx, cmd.userId)) return reject('not_found', 'user not found', 404);
  if (typeof cmd.quoteId !== 'string' || !cmd.quoteId || state.quotes[cmd.quoteId]) return reject('conflict', 'quote id is taken', 409);
  const rfq = state.rfqs[cmd.rfqId];
  if (!rfq) return reject('not_found', `rfq ${cmd.rfqId} not found`, 404);
  if (rfq.status !== 'open') return reject('invalid_parameters', `rfq ${cmd.rfqId} is ${rfq.status}`, 400);
  if (rfq.creator_user_id === cmd.userId) return reject('invalid_parameters', 'you cannot quote your own RFQ', 400);
  const prices = [cmd.yesBidTicks, cmd.noBidTicks];
  if (!prices.every((p) => Number.isInteger(p) && p >= 0 && p < TICKS_PER_DOLLAR)) {
    return reject('invalid_parameters', 'yes_bid and no_bid must be between 0 and 0.9999', 400);
  }
  if (cmd.yesBidTicks === 0 && cmd.noBidTicks === 0) return reject('invalid_parameters', 'a quote needs yes_bid or no_bid above zero', 400);
  const market = openMarket(ctx.engine, rfq.market_ticker);
  if (isRejected(market)) return market;
  for (const [field, p] of [['yes_bid', cmd.yesBidTicks], ['no_bid', cmd.noBidTicks]] as const) {
    const offTick = p === 0 ? undefined : checkTick(market.price_level_structure, p, field);
    if (offTick) return reject(offTick.code, offTick.message, 400, offTick.details);
  }
  if (!subaccountExists(ctx.engine, cmd.userId, cmd.subaccount)) return reject('not_found', `subaccount ${cmd.subaccount} not found`, 404);
  return rfq;
}

function deleteQuote(state: CommsState, cmd: RfqCommandOf<'deleteQuote'>): Outcome {
  const now = cmd.nowMs;
  const found = visibleQuote(state, cmd.userId, cmd.quoteId, cmd.rfqId);
  if (isRejected(found)) return found;
  const { q, rfq } = found;
  if (q.creator_user_id !== cmd.userId || (q.status !== 'open' && q.status !== 'accepted')) {
    return reject('not_found', `quote ${cmd.quoteId} not found`, 404);
  }
  if (q.status === 'accepted' && rfq.accepted_quote_id === q.quote_id) {
    rfq.status = 'open';
    rfq.accepted_quote_id = null;
    rfq.updated_ms = now;
  }
  cancelQuote(q, 'deleted', now);
  return { ok: true };
}

function acceptQuote(state: CommsState, cmd: RfqCommandOf<'acceptQuote'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  const found = visibleQuote(state, cmd.userId, cmd.quoteId, cmd.rfqId);
  if (isRejected(found)) return found;
  const { q, rfq } = found;
  if (rfq.creator_user_id !== cmd.userId) return reject('forbidden', 'only the RFQ creator may accept a quote', 403);
  if (cmd.acceptedSide !== 'yes' && cmd.acceptedSide !== 'no') return reject('invalid_parameters', "accepted_side must be 'yes' or 'no'", 400);
  if (q.status === 'canceled') return reject('not_found', `quote ${cmd.quoteId} not found`, 404);
  if (q.status !== 'open') return reject('invalid_parameters', `quote ${cmd.quoteId} is ${q.status}`, 400);
  if (rfq.status !== 'open') return reject('invalid_parameters', `rfq ${rfq.rfq_id} is ${rfq.status}`, 400);
  const price = requesterPrice(q, cmd.acceptedSide);
  if (price <= 0) return reject('invalid_parameters', `the quote declines the ${cmd.acceptedSide} side`, 400);
  const market = openMarket(ctx.engine, rfq.market_ticker);
  if (isRejected(market)) return market;
  const count = executionCount(rfq, market, price);
  if (count < 1) return reject('invalid_parameters', 'target_cost buys less than 0.01 contracts at this price', 400);
  const capped = checkRfqSubtrader(ctx, rfq, price * count, now);
  if (capped) return capped;
  q.status = 'accepted';
  q.accepted_side = cmd.acceptedSide;
  q.contracts_centi = count;
  q.accepted_ms = now;
  q.updated_ms = now;
  rfq.status = 'accepted';
  rfq.accepted_quote_id = q.quote_id;
  rfq.updated_ms = now;
  emitComms(ctx, [q.creator_user_id, rfq.creator_user_id], 'quote_accepted', { ...quotePayload(rfq, q, false), accepted_side: cmd.acceptedSide, contracts_accepted_fp: centiToCount(count) });
  return { ok: true };
}

/** The quoter confirms an accepted quote: the trade executes at once and the RFQ is confirmed. */
function confirmQuote(state: CommsState, cmd: RfqCommandOf<'confirmQuote'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  const found = visibleQuote(state, cmd.userId, cmd.quoteId, cmd.rfqId);
  if (isRejected(found)) return found;
  const { q, rfq } = found;
  if (q.creator_user_id !== cmd.userId) return reject('forbidden', 'only the quoter may confirm a quote', 403);
  if (q.status === 'canceled') return reject('not_found', `quote ${cmd.quoteId} not found`, 404);
  if (q.status !== 'accepted' || q.accepted_side === null || q.contracts_centi === null) {
    return reject('invalid_parameters', `quote ${cmd.quoteId} must be accepted before it is confirmed (it is ${q.status})`, 400);
  }
  const side = q.accepted_side;
  const count = q.contracts_centi;
  const price = requesterPrice(q, side);
  const capped = checkRfqSubtrader(ctx, rfq, price * count, now);
  if (capped) return capped;
  const requester = rfqAccount(rfq);
  const quoter = { userId: q.creator_user_id, subaccount: q.creator_subaccount };
  const [buyer, seller] = side === 'yes' ? [requester, quoter] : [quoter, requester];
  const r = executeOffBook(ctx, {
    nowMs: now,
    buyerUserId: buyer.userId,
    buyerSubaccount: buyer.subaccount,
    sellerUserId: seller.userId,
    sellerSubaccount: seller.subaccount,
    ticker: rfq.market_ticker,
    yesPriceTicks: side === 'yes' ? price : TICKS_PER_DOLLAR - price,
    countCenti: count,
    // the quoter provides the liquidity: it is the seller when the requester buys YES
    makerSide: side === 'yes' ? 'no' : 'yes',
  });
  if (isRejected(r)) return r;
  const [requesterOrder, quoterOrder] = side === 'yes' ? [r.buyerOrder, r.sellerOrder] : [r.sellerOrder, r.buyerOrder];
  q.status = 'executed';
  q.confirmed_ms = now;
  q.executed_ms = now;
  q.updated_ms = now;
  q.creator_order_id = quoterOrder.order_id;
  q.rfq_creator_order_id = requesterOrder.order_id;
  q.trade_id = r.trade.trade_id;
  rfq.status = 'confirmed';
  rfq.updated_ms = now;
  for (const other of Object.values(state.quotes)) {
    if (other.rfq_id === rfq.rfq_id && other.quote_id !== q.quote_id && other.status === 'open') cancelQuote(other, 'rfq_confirmed', now);
  }
  const executed = new Date(now).toISOString();
  for (const [who, order] of [[q.creator_user_id, quoterOrder], [rfq.creator_user_id, requesterOrder]] as const) {
    emitComms(ctx, [who], 'quote_executed', { ...quotePayload(rfq, q, true), order_id: order.order_id, executed_ts: executed });
  }
  return { ok: true, trade_id: r.trade.trade_id };
}

// ------------------------------------------------------------------ helpers

/** An event on the communications channel, to `audience`. */
function emitComms(ctx: DomainCtx, audience: string[], kind: string, payload: Record<string, unknown>): void {
  ctx.emit({ type: 'domain', channel: 'communications', audience, kind, payload });
}

function subaccountExists(engine: Engine, userId: string, subaccount: number): boolean {
  return subaccount === 0 || engine.getBalance(userId, subaccount) !== undefined;
}

/** An RFQ made for a subtrader: the FCM's limits on that subtrader, for this notional. */
function checkRfqSubtrader(ctx: DomainCtx, rfq: RfqRecord, notionalMicro: number, nowMs: number): Rejected | undefined {
  if (!rfq.subtrader_id) return undefined;
  return checkSubtraderTrade(ctx.domains, ctx.engine, { subtraderId: rfq.subtrader_id, ticker: rfq.market_ticker, notionalMicro, nowMs });
}

function cancelQuote(q: QuoteRecord, reason: string, nowMs: number): void {
  q.status = 'canceled';
  q.cancelled_ms = nowMs;
  q.updated_ms = nowMs;
  q.cancellation_reason = reason;
}

function cancelRfq(state: CommsState, rfq: RfqRecord, reason: string, ctx: DomainCtx, nowMs: number): void {
  rfq.status = 'canceled';
  rfq.cancelled_ms = nowMs;
  rfq.updated_ms = nowMs;
  rfq.cancellation_reason = reason;
  rfq.accepted_quote_id = null;
  for (const q of Object.values(state.quotes)) {
    if (q.rfq_id === rfq.rfq_id && (q.status === 'open' || q.status === 'accepted')) cancelQuote(q, reason, nowMs);
  }
  emitComms(ctx, allParticipants(ctx), 'rfq_deleted', {
    rfq_id: rfq.rfq_id,
    id: rfq.rfq_id,
    market_ticker: rfq.market_ticker,
    ...(rfq.obscure_creator_id ? {} : { creator_id: rfq.creator_user_id }),
    deleted_ts: new Date(nowMs).toISOString(),
  });
}

function quotePayload(rfq: RfqRecord, q: QuoteRecord, revealCreator: boolean): Record<string, unknown> {
  return {
    quote_id: q.quote_id,
    rfq_id: q.rfq_id,
    market_ticker: q.market_ticker,
    quote_creator_id: q.creator_user_id,
    ...(revealCreator || !rfq.obscure_creator_id ? { rfq_creator_id: rfq.creator_user_id } : {}),
    yes_bid_dollars: ticksDollars(q.yes_bid),
    no_bid_dollars: ticksDollars(q.no_bid),
  };
}

function ticksDollars(t: number): string {
  const s = String(t).padStart(5, '0');
  return `${s.slice(0, -4)}.${s.slice(-4)}`;
}

/** The quote, scoped to an RFQ when asked; 404 when unknown, not on that RFQ, or not visible to `userId`. */
function visibleQuote(state: CommsState, userId: string, quoteId: string, rfqId: string | undefined): { q: QuoteRecord; rfq: RfqRecord } | Rejected {
  const q = state.quotes[quoteId];
  const rfq = q ? state.rfqs[q.rfq_id] : undefined;
  if (!q || !rfq || (rfqId !== undefined && q.rfq_id !== rfqId)) return reject('not_found', `quote ${quoteId} not found`, 404);
  if (q.creator_user_id !== userId && rfq.creator_user_id !== userId) return reject('not_found', `quote ${quoteId} not found`, 404);
  return { q, rfq };
}

function microDollars(micro: number): string {
  const s = String(micro).padStart(7, '0');
  return `${s.slice(0, -6)}.${s.slice(-6)}`.replace(/(\.\d\d\d*?)0+$/, '$1');
}
