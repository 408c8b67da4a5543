// Clearing-member (FCM) routes: subtraders, their fills, blocked categories and daily caps.
import { z } from 'zod';
import { CountIn, DollarsIn, DollarsRequest, Id, listOf, nullableArray, UnixTs, withInput } from './common';
import { openEnum } from './novelty';

/** Suffix of a subtrader id `{account_id}_{suffix}`: 1-16 ASCII letters or digits. */
export const SubtraderSuffix = z
  .string()
  .regex(/^[A-Za-z0-9]{1,16}$/, 'subtrader_suffix must be 1-16 ASCII letters or digits');

export const CreateSubtraderRequest = z.object({ subtrader_suffix: SubtraderSuffix }).strict();
export type CreateSubtraderRequest = z.output<typeof CreateSubtraderRequest>;

export const CreateSubtraderResponse = z.object({ subtrader_id: Id });
export type CreateSubtraderResponse = z.output<typeof CreateSubtraderResponse>;

export const Subtrader = z
  .object({
    subtrader_id: Id,
    exchange_indices: nullableArray(z.number().int()).optional(),
    trading_blocked: z.boolean().optional(),
    fcm_trading_blocked: z.boolean().optional(),
    propagation_pending: z.boolean().optional(),
  })
  .loose();
export type Subtrader = z.output<typeof Subtrader>;

/** `{ subtraders: [...] }` (a bare array is read too). */
export const SubtradersResponse = listOf('subtraders', Subtrader);
export type SubtradersResponse = z.output<typeof SubtradersResponse>;

/** FCM fill: `fill_id`, `ticker`, `taker_outcome_side`, `yes_price`, `count`, subtrader ids, `maker_fee_cost`. */
export const FcmFill = z
  .object({
    fill_id: z.string().min(1),
    ticker: z.string().min(1),
    taker_outcome_side: openEnum('fcm_fill.taker_outcome_side', ['yes', 'no']),
    yes_price_dollars: DollarsIn,
    count_fp: CountIn,
    maker_subtrader_id: z.string().nullish(),
    taker_subtrader_id: z.string().nullish(),
    maker_fee_cost: DollarsIn.nullish(),
    taker_fee_cost: DollarsIn.nullish(),
    ts: UnixTs.optional(),
    created_time: z.string().optional(),
  })
  .loose();
export type FcmFill = z.output<typeof FcmFill>;

/** GET /fcm/fills: `{ fills, cursor }` (no `limit`). */
export const FcmFillsPage = z.object({ fills: nullableArray(FcmFill), cursor: z.string().nullish(), has_next: z.boolean().optional() });
export type FcmFillsPage = z.output<typeof FcmFillsPage>;

/** One category block switch. */
export const SetBlockedCategoryRequest = z
  .object({ subtrader_id: Id, category: z.string().min(1), blocked: z.boolean() })
  .strict();
export type SetBlockedCategoryRequest = z.output<typeof SetBlockedCategoryRequest>;

/** One entry of a blocked set: a category name, or the spec's `{category, blocked}` record. */
const BlockedEntry = z.union([
  z.string(),
  z.object({ category: z.string(), blocked: z.boolean().optional(), subtrader_id: z.string().optional() }).loose(),
]);
type BlockedEntry = z.output<typeof BlockedEntry>;

/** The names of the entries that are blocked (a record with `blocked: false` is not), in order, once each. */
function blockedNames(entries: readonly BlockedEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const name = typeof e === 'string' ? e : e.blocked === false ? undefined : e.category;
    if (name !== undefined && !out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The subtrader's full blocked set, the answer of both GET and PUT. The real service sends
 * `{ "categories": [string] }`; this exchange used to send `{ subtrader_id, blocked_categories }`
 * and now sends both keys (the rule of docs/spec/protocol-notes.md where both fit). Read: either key (the real
 * service's wins when both are there), entries as names or the spec's `{category, blocked}`
 * records, null as none, or a bare array. Output, one shape: `{ subtrader_id?, categories }`.
 */
export const BlockedCategories = withInput<
  | readonly BlockedEntry[]
  | { subtrader_id?: string; categories?: readonly BlockedEntry[] | null; blocked_categories?: readonly BlockedEntry[] | null; [k: string]: unknown }
>()(
  (v) => (Array.isArray(v) ? { categories: v } : v),
  z
    .object({
      subtrader_id: z.string().optional(),
      categories: z.array(BlockedEntry).nullish(),
      blocked_categories: z.array(BlockedEntry).nullish(),
    })
    .loose()
    .transform((r): { subtrader_id?: string; categories: string[] } => {
      const names = blockedNames(r.categories ?? r.blocked_categories ?? []);
      return r.subtrader_id === undefined ? { categories: names } : { subtrader_id: r.subtrader_id, categories: names };
    }),
);
export type BlockedCategories = z.output<typeof BlockedCategories>;

/** Daily event-contract notional cap: `limit` in dollars, plus the SDK's utilisation fields. */
export const DailyCap = z
  .object({
    subtrader_id: z.string().optional(),
    limit: DollarsIn.nullable(),
    executed_utilization: DollarsIn.optional(),
    resting_order_utilization: DollarsIn.optional(),
    pending_order_utilization: DollarsIn.optional(),
    cap_date: z.string().optional(),
  })
  .loose();
export type DailyCap = z.output<typeof DailyCap>;

export const SetDailyCapRequest = z.object({ subtrader_id: Id, limit: DollarsRequest }).strict();
export type SetDailyCapRequest = z.output<typeof SetDailyCapRequest>;
