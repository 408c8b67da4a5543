// Client-side token buckets mirroring the exchange's (read and write): a request waits for
// its tokens instead of earning a 429. Seeded from GET /account/limits and
// GET /account/endpoint_costs; until then the Basic tier (the most conservative) applies.
//
// Written here rather than on the `limiter` package's TokenBucket because that one starts
// empty, throws on a cost above the bucket size (a large batch), cannot be cancelled, and
// has no way to drain on a 429 or to report queued waiters.
import { z } from 'zod';
import { API_PREFIX, endpointRow } from '../../src-shared/endpoints';
import type { AnyEndpoint, Bucket } from '../../src-shared/endpoints/types';
import { DEFAULT_COST, TIER_RATES } from '../../src-shared/rate-limits';

export interface BucketParams {
  /** tokens the bucket holds when full */
  capacity: number;
  /** tokens added per second */
  refillRate: number;
}

/** Basic tier's rates (200 read / 100 write tokens per second), capacity one second of refill. */
export const BASIC_TIER: Record<Bucket, BucketParams> = {
  read: { capacity: TIER_RATES.basic.read, refillRate: TIER_RATES.basic.read },
  write: { capacity: TIER_RATES.basic.write, refillRate: TIER_RATES.basic.write },
};

export interface BucketSnapshot {
  available: number;
  capacity: number;
  refillRate: number;
  /** requests waiting for tokens */
  queued: number;
}
export type LimiterSnapshot = Record<Bucket, BucketSnapshot>;

type CostRow = Pick<AnyEndpoint, 'method' | 'path' | 'bucket' | 'batch'>;

interface Waiter {
  cost: number;
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private params: BucketParams,
    private readonly now: () => number,
  ) {
    this.tokens = params.capacity;
    this.last = now();
  }

  configure(params: BucketParams): void {
    this.refill();
    this.params = params;
    this.tokens = Math.min(this.tokens, params.capacity);
    this.pump();
  }

  /** Resolves once `cost` tokens are taken. A cost above capacity waits for a full bucket and leaves it in debt. */
  take(cost: number, signal?: AbortSignal, front = false): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if ((this.queue.length === 0 || front) && this.tryTake(cost)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { cost, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i !== -1) this.queue.splice(i, 1);
          reject(signal.reason);
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** After a 429 the server's bucket is empty whatever ours says. */
  drain(): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0);
  }

  snapshot(): BucketSnapshot {
    this.refill();
    return { available: Math.max(0, Math.floor(this.tokens)), capacity: this.params.capacity, refillRate: this.params.refillRate, queued: this.queue.length };
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.params.capacity, this.tokens + (elapsed * this.params.refillRate) / 1000);
  }

  private tryTake(cost: number): boolean {
    this.refill();
    if (this.tokens + 1e-9 < Math.min(cost, this.params.capacity)) return false;
    this.tokens -= cost;
    return true;
  }

  private pump(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (!this.tryTake(head.cost)) break;
      this.queue.shift();
      if (head.onAbort) head.signal?.removeEventListener('abort', head.onAbort);
      head.resolve();
    }
    const head = this.queue[0];
    if (!head) return;
    const missing = Math.min(head.cost, this.params.capacity) - this.tokens;
    const waitMs = Math.max(1, Math.ceil((missing * 1000) / this.params.refillRate));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, waitMs);
  }
}

/** `/trade-api/v2/markets/{ticker}` and `/markets/{id}` both become `/markets/{}`. */
function costKey(method: string, path: string): string {
  const bare = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  return `${method.toUpperCase()} ${bare.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '')}`;
}

export interface EndpointCosts {
  default_cost: number;
  endpoint_costs: { method: string; path: string; cost: number }[];
}

export class RateLimiter {
  private readonly buckets: Record<Bucket, TokenBucket>;
  private defaultCost = DEFAULT_COST;
  private costs = new Map<string, number>();
  private seededFlag = false;

  constructor(opts: { read?: BucketParams; write?: BucketParams; now?: () => number } = {}) {
    const now = opts.now ?? (() => performance.now());
    this.buckets = {
      read: new TokenBucket(opts.read ?? BASIC_TIER.read, now),
      write: new TokenBucket(opts.write ?? BASIC_TIER.write, now),
    };
  }

  /** True once limits from the server have been applied. */
  get seeded(): boolean {
    return this.seededFlag;
  }

  setLimits(limits: Partial<Record<Bucket, BucketParams>>): void {
    if (limits.read) this.buckets.read.configure(limits.read);
    if (limits.write) this.buckets.write.configure(limits.write);
    this.seededFlag = true;
  }

  setCosts(costs: EndpointCosts): void {
    this.defaultCost = costs.default_cost;
    this.costs = new Map(costs.endpoint_costs.map((c) => [costKey(c.method, c.path), c.cost]));
  }

  /**
   * Tokens a request costs: the listed cost of its endpoint (else the default); batch rows pay
   * that per item (the listed cost of a batch endpoint is read as per item, falling back to
   * the row's own per-item cost).
   */
  costOf(row: CostRow, args?: { body?: unknown }): number {
    const listed = this.costs.get(costKey(row.method, row.path));
    if (!row.batch) return listed ?? this.defaultCost;
    const body = args?.body as Record<string, unknown> | undefined;
    const items = body?.[row.batch.itemsField];
    const n = Array.isArray(items) ? Math.max(1, items.length) : 1;
    return (listed ?? row.batch.perItemCost) * n;
  }

  /** Waits until the row's bucket has the request's tokens, then takes them; `front`: ahead of every queued request. */
  take(row: CostRow, args?: { body?: unknown }, signal?: AbortSignal, front = false): Promise<void> {
    return this.buckets[row.bucket].take(this.costOf(row, args), signal, front);
  }

  /** The most tokens one request may cost in a bucket (what the server's bucket holds, as we mirror it). */
  capacity(bucket: Bucket): number {
    return this.buckets[bucket].snapshot().capacity;
  }

  /** Called on a 429: the server's bucket is empty, so ours is too. */
  drain(bucket: Bucket): void {
    this.buckets[bucket].drain();
  }

  snapshot(): LimiterSnapshot {
    return { read: this.buckets.read.snapshot(), write: this.buckets.write.snapshot() };
  }
}

const ServerBucket = z.object({ bucket_capacity: z.number().positive(), refill_rate: z.number().positive() });
/** The live body has nested objects; the published schema has plain per-second integers. */
const LimitsShape = z.object({
  read: z.union([ServerBucket, z.number().positive()]).optional(),
  write: z.union([ServerBucket, z.number().positive()]).optional(),
  read_limit: z.number().positive().optional(),
  write_limit: z.number().positive().optional(),
});
const CostsShape = z.object({
  default_cost: z.number().nonnegative(),
  endpoint_costs: z
    .array(z.object({ method: z.string(), path: z.string(), cost: z.number().nonnegative() }))
    .nullish()
    .transform((v) => v ?? []),
});

function toParams(v: z.infer<typeof ServerBucket> | number | undefined, fallback: number | undefined): BucketParams | undefined {
  if (typeof v === 'object') return { capacity: v.bucket_capacity, refillRate: v.refill_rate };
  const perSecond = v ?? fallback;
  return perSecond === undefined ? undefined : { capacity: perSecond, refillRate: perSecond };
}

/** Reads limits and endpoint costs from the server into the limiter. */
/**
 * The exchange's bucket runs on its own clock and sees our requests after varying latency (the
 * first on a new connection arrives later than the ones after it), so a bucket that mirrors it
 * exactly still earns the odd 429. Keep a margin: 90% of the capacity, 95% of the refill rate.
 */
export const LIMIT_MARGIN = { capacity: 0.9, refill: 0.95 } as const;

function withMargin(p: BucketParams): BucketParams {
  return { capacity: Math.max(1, Math.floor(p.capacity * LIMIT_MARGIN.capacity)), refillRate: p.refillRate * LIMIT_MARGIN.refill };
}

/** What seeding needs of a client: one call per row (the ApiClient fits). */
export interface Requester {
  request(row: AnyEndpoint, args: Record<string, never>): Promise<unknown>;
}

export async function seedLimiter(
  client: Requester,
  limiter: RateLimiter,
  rows: { limits?: AnyEndpoint; costs?: AnyEndpoint } = {},
): Promise<LimiterSnapshot> {
  const limitsRow = rows.limits ?? endpointRow('getAccountLimits');
  const costsRow = rows.costs ?? endpointRow('getEndpointCosts');
  const [limitsRaw, costsRaw] = await Promise.all([client.request(limitsRow, {}), client.request(costsRow, {})]);
  const limits = LimitsShape.safeParse(limitsRaw);
  if (!limits.success) throw new Error(`seedLimiter: unexpected /account/limits body: ${limits.error.message}`);
  const costs = CostsShape.safeParse(costsRaw);
  if (!costs.success) throw new Error(`seedLimiter: unexpected /account/endpoint_costs body: ${costs.error.message}`);
  const read = toParams(limits.data.read, limits.data.read_limit);
  const write = toParams(limits.data.write, limits.data.write_limit);
  limiter.setLimits({ ...(read ? { read: withMargin(read) } : {}), ...(write ? { write: withMargin(write) } : {}) });
  limiter.setCosts(costs.data);
  return limiter.snapshot();
}
