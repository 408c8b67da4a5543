// Shared by the trading, portfolio, subaccount and account handlers: the engine and wallet
// state, exchange-index routing (this exchange has one shard, index 0), unit conversion of
// already validated request strings, and the order lookups that confine a caller to its own.
import type { Engine } from '../engine/engine';
import type { OrderView } from '../engine/types';
import { countToCenti, dollarsToTicks } from '../engine/units';
import type { HandlerCtx } from '../http/app';
import { invalidParameters, notFound } from '../core/errors';
import { cutoffsAt, type Cutoffs } from '../state/catalog';
import type { WalletState } from '../state/wallet';
import { caller, subaccountOf } from './support';
import { type Services } from '../core/services';

export const engineOf = (svc: Services): Engine => svc.node.core.engine;
export const walletState = (svc: Services): WalletState => svc.node.core.domain<WalletState>('wallet');

/** The only exchange index this exchange runs. -1 asks to auto-route by ticker: also index 0. */
export const SHARD = 0;

/** An exchange index a write names must exist. */
export function requireShard(index: number | undefined): void {
  if (index !== undefined && index !== SHARD && index !== -1) {
    throw invalidParameters(`exchange_index ${index} does not exist on this exchange (it runs index ${SHARD})`);
  }
}

/** A read filter on exchange index: omitted, 0 or -1 matches index 0; any other index matches nothing. */
export function shardMatches(index: number | undefined): boolean {
  return index === undefined || index === SHARD || index === -1;
}

/** A price already checked by the schema (dollars, at most 4 decimals) in ticks. */
export function priceTicks(price: string, field = 'price'): number {
  const t = dollarsToTicks(price);
  if (t === undefined) throw invalidParameters(`${field} must be a dollar amount with at most 4 decimals`);
  return t;
}

/** A count already checked by the schema (at most 2 decimals) in centi-contracts. */
export function countCenti(count: string, field = 'count'): number {
  const c = countToCenti(count);
  if (c === undefined || c < 0) throw invalidParameters(`${field} must be a non-negative count with at most 2 decimals`);
  return c;
}

/**
 * The caller's order, or 404 (unknown, someone else's, or outside the subaccount a scoped key
 * or the request names). `subaccount` undefined: any of the caller's subaccounts.
 */
export function ownOrder(svc: Services, ctx: HandlerCtx, orderId: string, subaccount: number | undefined): OrderView {
  const c = caller(ctx);
  const o = engineOf(svc).getOrder(orderId);
  if (!o || o.user_id !== c.userId || (subaccount !== undefined && o.subaccount !== subaccount)) throw notFound(`order ${orderId}`);
  return o;
}

/** Whether a unix-seconds window [min_ts, max_ts] holds a time in ms. */
export function inSecondsWindow(ms: number, minTs: number | undefined, maxTs: number | undefined): boolean {
  const s = Math.floor(ms / 1000);
  return (minTs === undefined || s >= minTs) && (maxTs === undefined || s <= maxTs);
}

/**
 * The subaccount a read or lookup is limited to: a scoped key's own (another is 403), else the
 * one requested, else undefined = every subaccount. (support's subaccountOf cannot say "all":
 * an undefined fallback argument takes its default of 0.)
 */
export function subaccountFilter(ctx: HandlerCtx, requested: number | undefined): number | undefined {
  if (caller(ctx).subaccount !== null) return subaccountOf(ctx, requested);
  return requested;
}

// ---- the live side of the historical split (rules in state/catalog.ts) -------------------------

/** The historical cutoffs at a request's time (the same ones GET /historical/cutoff reports). */
export const liveCutoffs = (ctx: HandlerCtx): Cutoffs => cutoffsAt(ctx.nowMs);

export { isLiveFill, isLiveOrder, isLivePosition } from '../state/catalog';
