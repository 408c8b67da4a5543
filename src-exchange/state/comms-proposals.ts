// Block trade proposals: a negotiated trade between a named buyer and seller. The buyer buys
// YES at `price_centi_cents` (1 centi-cent = 1 tick = 0.0001 dollars), the seller sells YES
// (buys NO at 1 - price); `centicount` is the size in centi-contracts; `maker_side` says which
// side provided the liquidity ('yes' = the buyer, 'no' = the seller) for fees. The proposer
// must be the buyer or the seller; creating does not accept. Each side accepts once; the
// second acceptance executes the trade (engine `executeBlockTrade`) in the same command, or
// is rejected with nothing changed. A proposal past its expiration cannot be accepted and
// reads as `expired`.
import type { DomainCtx } from './domain';
import type { OutcomeSide } from '../engine/types';
import { isOrderCount, isOrderPrice, TICKS_PER_DOLLAR } from '../engine/units';
import { checkSubtraderTrade, fcmStateOf, ownedSubtrader, reject, type Outcome, type Rejected } from './fcm';
import { dispatch, executeOffBook, isRejected, openMarket, userExists, type CommandHandlers } from './comms-common';

/** The part of the communications state proposals use: their records and the shared sequence. */
interface ProposalsState {
  seq: number;
  proposals: Record<string, ProposalRecord>;
}

export type ProposalStatus = 'open' | 'executed';

export interface ProposalSide {
  user_id: string;
  subtrader_id: string | null;
  subaccount: number | null;
  accepted: boolean;
  accepted_ms: number | null;
  order_id: string | null;
}

export interface ProposalRecord {
  id: string;
  seq: number;
  proposer_user_id: string;
  market_ticker: string;
  /** YES price in ticks. */
  price_ticks: number;
  count_centi: number;
  maker_side: OutcomeSide;
  expiration_ms: number;
  /** As given (RFC 3339). */
  expiration_ts: string;
  status: ProposalStatus;
  buyer: ProposalSide;
  seller: ProposalSide;
  created_ms: number;
  updated_ms: number;
  executed_ms: number | null;
  trade_id: string | null;
}

export type ProposalCommand =
  | {
      type: 'createBlockTradeProposal';
      nowMs: number;
      proposalId: string;
      userId: string;
      buyerUserId: string;
      sellerUserId: string;
      marketTicker: string;
      priceTicks: number;
      countCenti: number;
      makerSide: OutcomeSide;
      expirationTs: string;
      buyerSubtraderId?: string;
      buyerSubaccount?: number;
      sellerSubtraderId?: string;
      sellerSubaccount?: number;
    }
  | { type: 'acceptBlockTradeProposal'; nowMs: number; userId: string; proposalId: string; subtraderId?: string; subaccount?: number };

/** Status as read at `nowMs`: an open proposal past its expiration is `expired`. */
export function proposalStatus(p: ProposalRecord, nowMs: number): ProposalStatus | 'expired' {
  return p.status === 'open' && nowMs >= p.expiration_ms ? 'expired' : p.status;
}

/** The engine account a side trades from. */
export function sideAccount(s: ProposalSide): { userId: string; subaccount: number } {
  return s.subtrader_id ? { userId: s.subtrader_id, subaccount: 0 } : { userId: s.user_id, subaccount: s.subaccount ?? 0 };
}

/** Own-leg cost (micro) of a side. */
function sideNotional(p: ProposalRecord, buyer: boolean): number {
  return (buyer ? p.price_ticks : TICKS_PER_DOLLAR - p.price_ticks) * p.count_centi;
}

function checkSide(ctx: DomainCtx, side: ProposalSide, what: string): Rejected | undefined {
  if (!userExists(ctx, side.user_id)) return reject('invalid_parameters', `${what} ${side.user_id} is not a participant`, 400);
  if (side.subtrader_id !== null) {
    if (side.subaccount !== null) return reject('invalid_parameters', `give ${what}_subtrader_id or ${what}_subaccount, not both`, 400);
    if (!ownedSubtrader(fcmStateOf(ctx.domains), side.user_id, side.subtrader_id)) {
      return reject('invalid_parameters', `${what}_subtrader_id ${side.subtrader_id} is not a subtrader of ${side.user_id}`, 400);
    }
  } else if (side.subaccount !== null && side.subaccount !== 0 && ctx.engine.getBalance(side.user_id, side.subaccount) === undefined) {
    return reject('not_found', `${what} subaccount ${side.subaccount} not found`, 404);
  }
  return undefined;
}

function checkSubtraders(ctx: DomainCtx, p: ProposalRecord, nowMs: number): Rejected | undefined {
  for (const [side, buyer] of [
    [p.buyer, true],
    [p.seller, false],
  ] as const) {
    if (side.subtrader_id === null) continue;
    const bad = checkSubtraderTrade(ctx.domains, ctx.engine, {
      subtraderId: side.subtrader_id,
      ticker: p.market_ticker,
      notionalMicro: sideNotional(p, buyer),
      nowMs,
    });
    if (bad) return bad;
  }
  return undefined;
}

const newSide = (userId: string, subtraderId: string | undefined, subaccount: number | undefined): ProposalSide => ({
  user_id: userId,
  subtrader_id: subtraderId ?? null,
  subaccount: subaccount ?? null,
  accepted: false,
  accepted_ms: null,
  order_id: null,
});

type ProposalCommandOf<K extends ProposalCommand['type']> = Extract<ProposalCommand, { type: K }>;

const HANDLERS: CommandHandlers<ProposalsState, ProposalCommand> = { createBlockTradeProposal: createProposal, acceptBlockTradeProposal: acceptProposal };

export function applyProposalCommand(state: ProposalsState, cmd: ProposalCommand, ctx: DomainCtx): Outcome {
  return dispatch(HANDLERS, state, cmd, ctx);
}

function createProposal(state: ProposalsState, cmd: ProposalCommandOf<'createBlockTradeProposal'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  if (typeof cmd.proposalId !== 'string' || !cmd.proposalId || state.proposals[cmd.proposalId]) return reject('conflict', 'proposal id is taken', 409);
  if (cmd.userId !== cmd.buyerUserId && cmd.userId !== cmd.sellerUserId) {
    return reject('forbidden', 'the proposer must be the buyer or the seller', 403);
  }
  if (!isOrderPrice(cmd.priceTicks)) return reject('invalid_parameters', 'price_centi_cents must be between 1 and 9999', 400);
  if (!isOrderCount(cmd.countCenti)) return reject('invalid_parameters', 'centicount must be a positive integer', 400);
  if (cmd.makerSide !== 'yes' && cmd.makerSide !== 'no') return reject('invalid_parameters', "maker_side must be 'yes' or 'no'", 400);
  const expirationMs = typeof cmd.expirationTs === 'string' ? Date.parse(cmd.expirationTs) : NaN;
  if (!Number.isFinite(expirationMs)) return reject('invalid_parameters', 'expiration_ts must be an RFC 3339 date-time', 400);
  if (expirationMs <= now) return reject('invalid_parameters', 'expiration_ts is in the past', 400);
  const buyer = newSide(cmd.buyerUserId, cmd.buyerSubtraderId, cmd.buyerSubaccount);
  const seller = newSide(cmd.sellerUserId, cmd.sellerSubtraderId, cmd.sellerSubaccount);
  const bad = checkSide(ctx, buyer, 'buyer') ?? checkSide(ctx, seller, 'seller');
  if (bad) return bad;
  const b = sideAccount(buyer);
  const s = sideAccount(seller);
  if (b.userId === s.userId) return reject('invalid_parameters', 'buyer and seller trade from the same account', 400);
  const market = openMarket(ctx.engine, cmd.marketTicker);
  if (isRejected(market)) return market;
  const p: ProposalRecord = {
    id: cmd.proposalId,
    seq: state.seq + 1,
    proposer_user_id: cmd.userId,
    market_ticker: market.ticker,
    price_ticks: cmd.priceTicks,
    count_centi: cmd.countCenti,
    maker_side: cmd.makerSide,
    expiration_ms: expirationMs,
    expiration_ts: cmd.expirationTs,
    status: 'open',
    buyer,
    seller,
    created_ms: now,
    updated_ms: now,
    executed_ms: null,
    trade_id: null,
  };
  const capped = checkSubtraders(ctx, p, now);
  if (capped) return capped;
  state.seq = p.seq;
  state.proposals[p.id] = p;
  return { ok: true, block_trade_proposal_id: p.id };
}

/** A side accepts; the second acceptance executes the trade. */
function acceptProposal(state: ProposalsState, cmd: ProposalCommandOf<'acceptBlockTradeProposal'>, ctx: DomainCtx): Outcome {
  const now = cmd.nowMs;
  const p = state.proposals[cmd.proposalId];
  if (!p || (p.buyer.user_id !== cmd.userId && p.seller.user_id !== cmd.userId)) {
    return reject('not_found', `block trade proposal ${cmd.proposalId} not found`, 404);
  }
  if (p.status !== 'open') return reject('invalid_parameters', `block trade proposal ${p.id} is ${p.status}`, 400);
  if (now >= p.expiration_ms) return reject('invalid_parameters', `block trade proposal ${p.id} has expired`, 400, 'expired');
  if (cmd.subtraderId !== undefined && cmd.subaccount !== undefined) return reject('invalid_parameters', 'give subtrader_id or subaccount, not both', 400);
  // The side the caller accepts: theirs, matching the body's subtrader/subaccount when the
  // proposal named one; where it named none, the body chooses the account.
  const unnamed = (s: ProposalSide) => s.subtrader_id === null && s.subaccount === null;
  const matches = (s: ProposalSide) =>
    s.user_id === cmd.userId &&
    (cmd.subtraderId === undefined || s.subtrader_id === cmd.subtraderId || unnamed(s)) &&
    (cmd.subaccount === undefined || s.subaccount === cmd.subaccount || unnamed(s));
  const candidates = [p.buyer, p.seller].filter(matches);
  if (candidates.length === 0) return reject('invalid_parameters', 'subtrader_id or subaccount does not match your side of the proposal', 400);
  const side = candidates.find((s) => !s.accepted);
  if (!side) return reject('invalid_parameters', `you have already accepted block trade proposal ${p.id}`, 400);
  const filled: ProposalSide = unnamed(side)
    ? { ...side, subtrader_id: cmd.subtraderId ?? null, subaccount: cmd.subaccount ?? null, accepted: true, accepted_ms: now }
    : { ...side, accepted: true, accepted_ms: now };
  const bad = checkSide(ctx, filled, side === p.buyer ? 'buyer' : 'seller');
  if (bad) return bad;
  const next: ProposalRecord = { ...p, buyer: side === p.buyer ? filled : p.buyer, seller: side === p.seller ? filled : p.seller };
  const b = sideAccount(next.buyer);
  const s = sideAccount(next.seller);
  if (b.userId === s.userId) return reject('invalid_parameters', 'buyer and seller trade from the same account', 400);
  if (next.buyer.accepted && next.seller.accepted) {
    const capped = checkSubtraders(ctx, next, now);
    if (capped) return capped;
    const r = executeOffBook(ctx, {
      nowMs: now,
      buyerUserId: b.userId,
      buyerSubaccount: b.subaccount,
      sellerUserId: s.userId,
      sellerSubaccount: s.subaccount,
      ticker: p.market_ticker,
      yesPriceTicks: p.price_ticks,
      countCenti: p.count_centi,
      makerSide: p.maker_side,
    });
    if (isRejected(r)) return r;
    next.status = 'executed';
    next.executed_ms = now;
    next.trade_id = r.trade.trade_id;
    next.buyer = { ...next.buyer, order_id: r.buyerOrder.order_id };
    next.seller = { ...next.seller, order_id: r.sellerOrder.order_id };
  }
  next.updated_ms = now;
  state.proposals[p.id] = next;
  return { ok: true, status: next.status };
}
