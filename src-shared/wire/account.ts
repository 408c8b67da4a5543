// Account API tier limits, endpoint token costs and volume progress.
import { z } from 'zod';
import { CountIn, ExchangeInstance, nullableArray, pick, UnixTs } from './common';
import { openEnum } from './novelty';

/** Token-bucket parameters of one bucket. */
export const BucketLimit = z
  .object({ bucket_capacity: z.number().nonnegative(), refill_rate: z.number().nonnegative() })
  .loose();
export type BucketLimit = z.output<typeof BucketLimit>;

export const ApiUsageGrant = z
  .object({
    exchange_instance: openEnum('grant.exchange_instance', ExchangeInstance.options),
    level: z.string(),
    source: z.string(),
    expires_ts: UnixTs.nullish(),
  })
  .loose();
export type ApiUsageGrant = z.output<typeof ApiUsageGrant>;

/**
 * The live body nests `read` / `write` objects; the published schema describes integer
 * `read_limit` / `write_limit`. Both are read; the output always has `read` and `write`.
 */
export const AccountLimits = z
  .object({
    usage_tier: z.string(),
    read: BucketLimit.optional(),
    write: BucketLimit.optional(),
    read_limit: z.number().nonnegative().optional(),
    write_limit: z.number().nonnegative().optional(),
    grants: nullableArray(ApiUsageGrant),
  })
  .loose()
  .transform(({ read_limit, write_limit, ...r }, ctx) => {
    const bucket = (n: number | undefined) => (n === undefined ? undefined : { bucket_capacity: n, refill_rate: n });
    return {
      ...r,
      read: pick(ctx, 'read', r.read, bucket(read_limit)),
      write: pick(ctx, 'write', r.write, bucket(write_limit)),
    };
  });
export type AccountLimits = z.output<typeof AccountLimits>;

export const EndpointCost = z.object({ method: z.string(), path: z.string(), cost: z.number().int().nonnegative() }).loose();
export type EndpointCost = z.output<typeof EndpointCost>;

/** Endpoints absent from `endpoint_costs` cost `default_cost`. */
export const EndpointCosts = z.object({ default_cost: z.number().int().nonnegative(), endpoint_costs: nullableArray(EndpointCost) });
export type EndpointCosts = z.output<typeof EndpointCosts>;

/** Volumes and goals are counts (`_fp`); unsuffixed spellings are read too. */
export const VolumeGoal = z
  .object({
    level: z.string(),
    earn_volume_goal_fp: CountIn.optional(),
    keep_volume_goal_fp: CountIn.optional(),
    earn_volume_goal: CountIn.optional(),
    keep_volume_goal: CountIn.optional(),
  })
  .loose()
  .transform(({ earn_volume_goal, keep_volume_goal, ...g }, ctx) => ({
    ...g,
    earn_volume_goal_fp: pick(ctx, 'earn_volume_goal_fp', g.earn_volume_goal_fp, earn_volume_goal),
    keep_volume_goal_fp: pick(ctx, 'keep_volume_goal_fp', g.keep_volume_goal_fp, keep_volume_goal),
  }));

export const VolumeProgressSnapshot = z
  .object({
    computed_ts: UnixTs,
    trailing_30d_volume_fp: CountIn.optional(),
    trailing_30d_volume: CountIn.optional(),
    goals: nullableArray(VolumeGoal),
  })
  .loose()
  .transform(({ trailing_30d_volume, ...s }, ctx) => ({
    ...s,
    trailing_30d_volume_fp: pick(ctx, 'trailing_30d_volume_fp', s.trailing_30d_volume_fp, trailing_30d_volume),
  }));
export type VolumeProgressSnapshot = z.output<typeof VolumeProgressSnapshot>;

export const VolumeProgress = z.object({ volume_progress: nullableArray(VolumeProgressSnapshot) });
export type VolumeProgress = z.output<typeof VolumeProgress>;
