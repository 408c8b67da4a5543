// What every REST handler family shares: caller and subaccount rules, and cursors. (The services,
// `run` and the rejection's protocol error, which the other doors share too, are core/services.ts.)
import type { Caller, Handler, HandlerCtx } from '../http/app';
import { forbidden, invalidParameters, unauthorized } from '../core/errors';
import type { Services } from '../core/services';

export type HandlerMap = Partial<Record<string, Handler>>;
export type HandlerFamily = (svc: Services) => HandlerMap;

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

// ---- cursors: opaque, stable over a sorted list ------------------------------------------

/** A cursor holding one number: an offset (`o`) or the last item's key (`k`, pageAfterKey). */
type CursorField = 'o' | 'k';

/** A cursor is one field of a base64url JSON object: `o`, `k` (numbers) or `s` (a sort key, pageAfterSortKey). */
function writeCursor(field: CursorField | 's', value: unknown): string {
  return Buffer.from(JSON.stringify({ [field]: value })).toString('base64url');
}

/** The cursor's field, or undefined when the cursor is not such an object. */
function readCursor(cursor: string, field: CursorField | 's'): unknown {
  try {
    return (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>)[field];
  } catch {
    return undefined;
  }
}

const foreignCursor = () => invalidParameters('cursor is not one this exchange issued');

export function encodeCursor(n: number, field: CursorField = 'o'): string {
  return writeCursor(field, n);
}

export function decodeCursor(cursor: string | undefined, field: CursorField = 'o'): number {
  if (!cursor) return 0;
  const v = readCursor(cursor, field);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  throw foreignCursor();
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
  return pageFrom(all, start, limit, defaultLimit, () => encodeCursor(start + size));
}

/** The page of `all` from `start`; its cursor is `cursorOf` the page's last item (none on the last page). */
function pageFrom<T>(all: readonly T[], start: number, limit: number | undefined, defaultLimit: number, cursorOf: (last: T) => string): Page<T> {
  const size = limit ?? defaultLimit;
  const items = all.slice(start, start + size);
  const has_next = start + size < all.length;
  const last = items[items.length - 1];
  return { items, cursor: has_next && last !== undefined ? cursorOf(last) : '', has_next };
}

/** The index of the first item that is `past` the cursor (false for every item before it, true from it on). */
function firstPast<T>(all: readonly T[], past: (item: T) => boolean): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(all[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One page of a list sorted by a key that falls from first to last (newest first by creation
 * order), the cursor the last item's key: the next page is what comes after that key, wherever
 * it now is. An offset moves when items of an earlier page leave the list between two reads (an
 * order of page 1 canceled while a client pages through the resting ones), and the first item of
 * the next page was never read; a key does not move.
 */
export function pageAfterKey<T>(all: readonly T[], cursor: string | undefined, limit: number | undefined, keyOf: (item: T) => number, defaultLimit = 100): Page<T> {
  const after = cursor ? decodeCursor(cursor, 'k') : null;
  const start = after === null ? 0 : firstPast(all, (x) => keyOf(x) < after);
  return pageFrom(all, start, limit, defaultLimit, (last) => encodeCursor(keyOf(last), 'k'));
}

/** A sort key: fields compared in order, strings by code unit, numbers by value. */
export type SortKey = readonly (string | number)[];

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** The sort key a cursor of pageAfterSortKey holds, shaped as the list's keys are; refused otherwise. */
function decodeSortKey(cursor: string, shape: SortKey | null): SortKey {
  const after = readCursor(cursor, 's');
  const fits =
    Array.isArray(after) &&
    after.length > 0 &&
    after.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) &&
    (shape === null || (after.length === shape.length && after.every((v, i) => typeof v === typeof shape[i])));
  if (!fits) throw foreignCursor();
  return after as SortKey;
}

/**
 * One page of a list sorted by a rising, unique sort key (positions by ticker and subaccount), the
 * cursor the last item's key: the next page starts after that key wherever it now is, as
 * pageAfterKey does for a falling number (a position closed on page 1 while a client pages the
 * open ones would move an offset past the next page's first).
 */
export function pageAfterSortKey<T>(all: readonly T[], cursor: string | undefined, limit: number | undefined, keyOf: (item: T) => SortKey, defaultLimit = 100): Page<T> {
  const after = cursor ? decodeSortKey(cursor, all.length ? keyOf(all[0]!) : null) : null;
  const start = after === null ? 0 : firstPast(all, (x) => compareKeys(keyOf(x), after) > 0);
  return pageFrom(all, start, limit, defaultLimit, (last) => writeCursor('s', keyOf(last)));
}

/** Seconds from ms. */
export const sec = (ms: number) => Math.floor(ms / 1000);

export function assertNever(x: never): never {
  throw new Error(`unexpected ${String(x)}`);
}
