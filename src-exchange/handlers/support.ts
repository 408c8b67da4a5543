// What every REST handler family shares: the services it reaches, submitting a command and
// turning a rejection into the protocol's error, caller and subaccount rules, and cursors.
import type { ExchangeNode } from '../core/node';
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { Caller, Handler, HandlerCtx } from '../http/app';
import { ExchangeError, forbidden, invalidParameters, unauthorized } from '../http/errors';
import type { UsersState } from '../state/users';

export interface Services {
  node: ExchangeNode;
  /** the exchange's seed (for generated data such as live data and seeded history) */
  seed: number;
}

export type HandlerMap = Partial<Record<string, Handler>>;
export type HandlerFamily = (svc: Services) => HandlerMap;

const STATUS_BY_CODE: Record<string, number> = {
  not_found: 404,
  invalid_parameters: 400,
  invalid_order: 400,
  invalid_price: 400,
  insufficient_balance: 400,
  market_closed: 400,
  conflict: 409,
  order_already_exists: 409,
  forbidden: 403,
  unauthorized: 401,
};

/** Turns a rejected outcome into an ExchangeError (status from the result or the code). */
export function rejectionError(outcome: CoreOutcome): ExchangeError {
  const r = outcome.result as { code?: string; message?: string; details?: string; status?: number };
  const code = r.code ?? 'invalid_parameters';
  return new ExchangeError(r.status ?? STATUS_BY_CODE[code] ?? 400, code, r.message ?? code, r.details);
}

/** Submits a command; resolves with the result once durable, or throws the protocol error. */
export async function run<T = Record<string, unknown>>(svc: Services, cmd: CoreCommand): Promise<T> {
  const outcome = await svc.node.submit(cmd);
  if (!outcome.ok) throw rejectionError(outcome);
  return outcome.result as T;
}

export function caller(ctx: HandlerCtx): Caller {
  if (!ctx.caller) throw unauthorized('this endpoint requires a signed request');
  return ctx.caller;
}

/**
 * The subaccount a request acts on. A subaccount-scoped key is confined to its own: a
 * different one is refused; none given means the key's. Otherwise the request's, or
 * `fallback`: 0 (the primary) when omitted, or an explicit `undefined` meaning "all
 * subaccounts" for reads where omitting the filter spans every subaccount.
 */
export function subaccountOf(ctx: HandlerCtx, requested: number | undefined, ...fallbackArg: [] | [number | undefined]): number | undefined {
  const c = caller(ctx);
  if (c.subaccount !== null) {
    if (requested !== undefined && requested !== c.subaccount) {
      throw forbidden(`this API key is restricted to subaccount ${c.subaccount}`);
    }
    return c.subaccount;
  }
  // A rest parameter tells an explicit `undefined` (all) from an omitted fallback (primary).
  const fallback = fallbackArg.length === 0 ? 0 : fallbackArg[0];
  return requested ?? fallback;
}

export function users(svc: Services): UsersState {
  return svc.node.core.domain<UsersState>('users');
}

// ---- cursors: opaque, stable over a sorted list ------------------------------------------

export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof v.o === 'number' && Number.isSafeInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    /* fall through */
  }
  throw invalidParameters('cursor is not one this exchange issued');
}

export interface Page<T> {
  items: T[];
  cursor: string;
  has_next: boolean;
}

/** One page of an already sorted list. An empty cursor string means the last page. */
export function pageOf<T>(all: readonly T[], cursor: string | undefined, limit: number | undefined, defaultLimit = 100): Page<T> {
  const start = decodeCursor(cursor);
  const size = limit ?? defaultLimit;
  const items = all.slice(start, start + size);
  const has_next = start + size < all.length;
  return { items, cursor: has_next ? encodeCursor(start + size) : '', has_next };
}

/** Seconds from ms. */
export const sec = (ms: number) => Math.floor(ms / 1000);

export function assertNever(x: never): never {
  throw new Error(`unexpected ${String(x)}`);
}
