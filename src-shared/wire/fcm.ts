// Clearing-member (FCM) routes: subtraders, their fills, blocked categories and daily caps.
import { z } from 'zod';
import { CountIn, DollarsIn, DollarsRequest, Id, listOf, nullableArray, UnixTs } from './common';
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

/**
 * The subtrader's full blocked set (shape not shown in the spec): `{ subtrader_id, blocked_categories }`.
 * An empty or null list means nothing is blocked.
 */
export const BlockedCategories = z
  .object({ subtrader_id: z.string().optional(), blocked_categories: nullableArray(z.string()) })
  .loose();
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
