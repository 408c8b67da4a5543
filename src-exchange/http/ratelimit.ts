// Token buckets per account, ENFORCED: an overrun is a 429 too_many_requests with the error
// body (no Retry-After, as on the real exchange). Tiers and costs: src-shared/rate-limits.ts.
import { TokenBucket } from 'limiter';
import type { AnyEndpoint } from '../../src-shared/endpoints/types';
import { CANCEL_ORDER_COST, DEFAULT_COST, TIER_RATES, type UsageTier } from '../../src-shared/rate-limits';
import { ExchangeError } from '../core/errors';

export interface BucketParams {
  bucket_capacity: number;
  refill_rate: number;
}

/** Capacity: 1 s of refill for Basic writes, 3 s above Basic (and for reads). */
export function tierLimits(tier: UsageTier): { read: BucketParams; write: BucketParams } {
  const r = TIER_RATES[tier];
  return {
    read: { bucket_capacity: r.read * 3, refill_rate: r.read },
    write: { bucket_capacity: tier === 'basic' ? r.write : r.write * 3, refill_rate: r.write },
  };
}

/** Endpoints whose cost differs from the default; batch rows are per item. */
export function endpointCost(row: AnyEndpoint, body: unknown): number {
  if (row.batch) {
    const items = (body as Record<string, unknown> | null | undefined)?.[row.batch.itemsField];
    const n = Array.isArray(items) ? items.length : 1;
    return Math.max(1, n) * row.batch.perItemCost;
  }
  if (row.id === 'cancelOrder') return CANCEL_ORDER_COST;
  return DEFAULT_COST;
}

/** The non-default costs, as GET /account/endpoint_costs lists them. */
export function endpointCostTable(rows: readonly AnyEndpoint[]): { method: string; path: string; cost: number }[] {
  const out: { method: string; path: string; cost: number }[] = [];
  for (const row of rows) {
    if (row.batch) out.push({ method: row.method, path: row.path, cost: row.batch.perItemCost });
    else if (row.id === 'cancelOrder') out.push({ method: row.method, path: row.path, cost: CANCEL_ORDER_COST });
  }
  return out;
}

export class RateLimits {
  private readonly buckets = new Map<string, { tier: UsageTier; read: TokenBucket; write: TokenBucket }>();
  constructor(private readonly enabled = true) {}

  private bucketsFor(userId: string, tier: UsageTier) {
    let b = this.buckets.get(userId);
    if (!b || b.tier !== tier) {
      const lim = tierLimits(tier);
      const make = (p: BucketParams) => {
        const bucket = new TokenBucket({ bucketSize: p.bucket_capacity, tokensPerInterval: p.refill_rate, interval: 'second' });
        bucket.content = p.bucket_capacity; // start full: a new session may burst
        return bucket;
      };
      b = { tier, read: make(lim.read), write: make(lim.write) };
      this.buckets.set(userId, b);
    }
    return b;
  }

  /** Takes the tokens or throws 429. */
  take(userId: string, tier: UsageTier, bucket: 'read' | 'write', cost: number): void {
    if (!this.enabled) return;
    const b = this.bucketsFor(userId, tier)[bucket];
    if (cost > b.bucketSize) {
      throw new ExchangeError(429, 'too_many_requests', `this request costs ${cost} tokens, more than the ${bucket} bucket holds (${b.bucketSize})`);
    }
    if (!b.tryRemoveTokens(cost)) {
      throw new ExchangeError(429, 'too_many_requests', `${bucket} rate limit exceeded`);
    }
  }
}
