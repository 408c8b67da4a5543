// Clearing-member (FCM) state: the subtraders each FCM member owns, their blocked event
// categories and daily event-contract notional caps; and the ONE pre-trade check every
// subtrader trade passes (orders, RFQs, quotes, block trades), `checkSubtraderTrade`.
//
// A subtrader trades from its own engine account whose user id is the subtrader id
// `{fcm_user_id}_{suffix}`; it starts with SUBTRADER_STARTING_CASH_MICRO of paper money.
// The day's notional is derived from the engine, not stored: the cost (own-leg price x
// count) of every order the subtrader's account created since 00:00 UTC, block trades
// included (they leave executed orders). A cancelled order still counts: the cap is on what
// was sent that day, so cancelling never frees room.
import type { DomainCtx, DomainResult } from './domain';
import type { Engine } from '../engine/engine';
import type { CreateOrderCommand } from '../engine/types';
import { isOrderCount, isOrderPrice, microToDollars, TICKS_PER_DOLLAR } from '../engine/units';
import { CATALOG, type CatalogState } from './catalog';
import type { UsersState } from './users';

export const FCM_DOMAIN = 'fcm';
/** Paper money each new subtrader account starts with: $10,000 in micro-dollars. */
export const SUBTRADER_STARTING_CASH_MICRO = 10_000 * 1_000_000;
export const SUFFIX_RE = /^[A-Za-z0-9]{1,16}$/;
const DAY_MS = 86_400_000;

/** A domain rejection, and a command's outcome (the accepted result carries its fields). */
export type Rejected = Extract<DomainResult, { ok: false }>;
export type Outcome = Rejected | ({ ok: true } & Record<string, unknown>);

export function reject(code: string, message: string, status?: number, details?: string): Rejected {
  return { ok: false, code, message, ...(status !== undefined ? { status } : {}), ...(details !== undefined ? { details } : {}) };
}

export interface SubtraderRecord {
  subtrader_id: string;
  fcm_user_id: string;
  suffix: string;
  created_ms: number;
  /** As first given; compared case-insensitively. */
  blocked_categories: string[];
  /** Daily event-contract notional cap in micro-dollars; null = no cap. */
  daily_cap_micro: number | null;
}

export interface FcmState {
  subtraders: Record<string, SubtraderRecord>;
}

export type SubtraderOrder = Omit<CreateOrderCommand, 'type' | 'nowMs' | 'userId'>;

export type FcmCommand =
  | { type: 'createSubtrader'; nowMs: number; fcmUserId: string; suffix: string }
  | { type: 'setSubtraderBlockedCategory'; nowMs: number; fcmUserId: string; subtraderId: string; category: string; blocked: boolean }
  | { type: 'setSubtraderDailyCap'; nowMs: number; fcmUserId: string; subtraderId: string; limitMicro: number }
  | { type: 'clearSubtraderDailyCap'; nowMs: number; fcmUserId: string; subtraderId: string }
  | { type: 'placeSubtraderOrder'; nowMs: number; fcmUserId: string; subtraderId: string; order: SubtraderOrder };

export function emptyFcm(): FcmState {
  return { subtraders: {} };
}

export function fcmStateOf(domains: Readonly<Record<string, unknown>>): FcmState | undefined {
  return domains[FCM_DOMAIN] as FcmState | undefined;
}

export function subtraderId(fcmUserId: string, suffix: string): string {
  return `${fcmUserId}_${suffix}`;
}

/** The subtrader if `fcmUserId` owns it. */
export function ownedSubtrader(state: FcmState | undefined, fcmUserId: string, id: string): SubtraderRecord | undefined {
  const s = state?.subtraders[id];
  return s && s.fcm_user_id === fcmUserId ? s : undefined;
}

export function subtradersOf(state: FcmState | undefined, fcmUserId: string): SubtraderRecord[] {
  return Object.values(state?.subtraders ?? {})
    .filter((s) => s.fcm_user_id === fcmUserId)
    .sort((a, b) => a.created_ms - b.created_ms || a.subtrader_id.localeCompare(b.subtrader_id));
}

/** Start of the UTC day holding `nowMs`. */
export function utcDayStartMs(nowMs: number): number {
  return nowMs - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
}

/** Cost in micro-dollars of buying `countCenti` on the order's own leg. */
export function orderNotionalMicro(side: 'bid' | 'ask', yesPriceTicks: number, countCenti: number): number {
  return (side === 'bid' ? yesPriceTicks : TICKS_PER_DOLLAR - yesPriceTicks) * countCenti;
}

/** Of the day's notional (dailyNotionalMicro), what is still resting on the books, micro-dollars. */
export function dailyRestingNotionalMicro(engine: Engine, id: string, nowMs: number): number {
  let sum = 0;
  for (const o of engine.listOrders({ userId: id, minCreatedMs: utcDayStartMs(nowMs) })) {
    if (o.status === 'resting') sum += orderNotionalMicro(o.side, o.yes_price, o.remaining_count);
  }
  return sum;
}

/** What the subtrader's account has sent today (UTC), micro-dollars. */
export function dailyNotionalMicro(engine: Engine, id: string, nowMs: number): number {
  let sum = 0;
  for (const o of engine.listOrders({ userId: id, minCreatedMs: utcDayStartMs(nowMs) })) {
    sum += orderNotionalMicro(o.side, o.yes_price, o.initial_count);
  }
  return sum;
}

/**
 * The market's category for blocking: the series' category in the catalog domain when the
 * catalog knows the series, else the market's series ticker.
 */
export function marketCategory(domains: Readonly<Record<string, unknown>>, engine: Engine, ticker: string): string | undefined {
  const market = engine.getMarket(ticker);
  if (!market) return undefined;
  const category = (domains[CATALOG] as CatalogState | undefined)?.series[market.series_ticker]?.category;
  return category ? category : market.series_ticker;
}

function sameCategory(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export interface SubtraderTrade {
  subtraderId: string;
  ticker: string;
  /** What this trade adds to the day's notional (micro-dollars); 0 when not yet known. */
  notionalMicro: number;
  nowMs: number;
}

/**
 * The pre-trade check of every subtrader trade: the subtrader exists, the market's category
 * is not blocked for it, and the trade keeps the day's notional within its cap. Undefined
 * when the trade may go ahead, else the rejection.
 */
export function checkSubtraderTrade(domains: Readonly<Record<string, unknown>>, engine: Engine, t: SubtraderTrade): Rejected | undefined {
  const sub = fcmStateOf(domains)?.subtraders[t.subtraderId];
  if (!sub) return reject('not_found', `subtrader ${t.subtraderId} not found`, 404);
  const category = marketCategory(domains, engine, t.ticker);
  if (category !== undefined && sub.blocked_categories.some((c) => sameCategory(c, category))) {
    return reject('category_blocked', `category ${category} is blocked for subtrader ${t.subtraderId}`, 400, 'category_blocked');
  }
  if (sub.daily_cap_micro !== null) {
    const used = dailyNotionalMicro(engine, t.subtraderId, t.nowMs);
    if (used + t.notionalMicro > sub.daily_cap_micro) {
      return reject(
        'daily_cap_exceeded',
        `subtrader ${t.subtraderId}: this trade would bring today's event-contract notional to $${microToDollars(used + t.notionalMicro)}, over the daily cap of $${microToDollars(sub.daily_cap_micro)}`,
        400,
        'daily_cap_exceeded',
      );
    }
  }
  return undefined;
}

function isFcmMember(ctx: DomainCtx, userId: string): boolean {
  return (ctx.domains['users'] as UsersState | undefined)?.users[userId]?.is_fcm_member === true;
}

function owned(state: FcmState, ctx: DomainCtx, fcmUserId: string, id: string): SubtraderRecord | Rejected {
  if (!isFcmMember(ctx, fcmUserId)) return reject('forbidden', 'only FCM member accounts have subtraders', 403);
  const s = ownedSubtrader(state, fcmUserId, id);
  return s ?? reject('not_found', `subtrader ${id} not found`, 404);
}

const isRejection = (v: SubtraderRecord | Rejected): v is Rejected => 'ok' in v;

export function applyFcm(state: FcmState, cmd: FcmCommand, ctx: DomainCtx): Outcome {
  switch (cmd.type) {
    case 'createSubtrader': {
      if (!isFcmMember(ctx, cmd.fcmUserId)) return reject('forbidden', 'only FCM member accounts have subtraders', 403);
      if (typeof cmd.suffix !== 'string' || !SUFFIX_RE.test(cmd.suffix)) {
        return reject('invalid_parameters', 'subtrader_suffix must be 1-16 ASCII letters or digits', 400);
      }
      const id = subtraderId(cmd.fcmUserId, cmd.suffix);
      if (state.subtraders[id] || ctx.engine.listBalances(id).length > 0) return reject('conflict', `subtrader ${id} already exists`, 409);
      const r = ctx.engine.apply({ type: 'deposit', nowMs: cmd.nowMs, userId: id, amountMicro: SUBTRADER_STARTING_CASH_MICRO });
      for (const e of r.events) ctx.emit(e);
      if (!r.ok) {
        if (r.mutated) ctx.markMutated();
        return reject(r.code, r.message, undefined, r.details);
      }
      state.subtraders[id] = {
        subtrader_id: id,
        fcm_user_id: cmd.fcmUserId,
        suffix: cmd.suffix,
        created_ms: cmd.nowMs,
        blocked_categories: [],
        daily_cap_micro: null,
      };
      return { ok: true, subtrader_id: id };
    }
    case 'setSubtraderBlockedCategory': {
      const s = owned(state, ctx, cmd.fcmUserId, cmd.subtraderId);
      if (isRejection(s)) return s;
      if (typeof cmd.category !== 'string' || cmd.category.length === 0 || cmd.category.length > 200) {
        return reject('invalid_parameters', 'category must be a non-empty string', 400);
      }
      if (typeof cmd.blocked !== 'boolean') return reject('invalid_parameters', 'blocked must be a boolean', 400);
      const rest = s.blocked_categories.filter((c) => !sameCategory(c, cmd.category));
      s.blocked_categories = cmd.blocked ? [...rest, cmd.category] : rest;
      return { ok: true, blocked_categories: [...s.blocked_categories] };
    }
    case 'setSubtraderDailyCap': {
      const s = owned(state, ctx, cmd.fcmUserId, cmd.subtraderId);
      if (isRejection(s)) return s;
      if (typeof cmd.limitMicro !== 'number' || !Number.isSafeInteger(cmd.limitMicro) || cmd.limitMicro < 0) {
        return reject('invalid_parameters', 'limit must be a non-negative dollar amount', 400);
      }
      s.daily_cap_micro = cmd.limitMicro;
      return { ok: true };
    }
    case 'clearSubtraderDailyCap': {
      const s = owned(state, ctx, cmd.fcmUserId, cmd.subtraderId);
      if (isRejection(s)) return s;
      if (s.daily_cap_micro === null) return reject('not_found', `subtrader ${cmd.subtraderId} has no daily cap`, 404);
      s.daily_cap_micro = null;
      return { ok: true };
    }
    case 'placeSubtraderOrder': {
      const s = owned(state, ctx, cmd.fcmUserId, cmd.subtraderId);
      if (isRejection(s)) return s;
      const o = cmd.order;
      const repeat = o.clientOrderId !== undefined && ctx.engine.getOrderByClientId(s.subtrader_id, o.clientOrderId) !== undefined;
      if (!repeat) {
        const valid = isOrderPrice(o.priceTicks) && isOrderCount(o.countCenti) && (o.side === 'bid' || o.side === 'ask');
        const notionalMicro = valid ? orderNotionalMicro(o.side, o.priceTicks, o.countCenti) : 0;
        const bad = checkSubtraderTrade(ctx.domains, ctx.engine, { subtraderId: s.subtrader_id, ticker: o.ticker, notionalMicro, nowMs: cmd.nowMs });
        if (bad) return bad;
      }
      const r = ctx.engine.apply({ ...o, type: 'createOrder', nowMs: cmd.nowMs, userId: s.subtrader_id });
      for (const e of r.events) ctx.emit(e);
      if (!r.ok) {
        if (r.mutated) ctx.markMutated();
        return reject(r.code, r.message, undefined, r.details);
      }
      return { ok: true, order: r.order, duplicate: r.duplicate };
    }
  }
}
