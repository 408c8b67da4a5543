// Reconnect delays: exponential with full jitter, capped; reset after a connection that lived.
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** a connection that stayed open this long resets the attempt count */
  resetAfterMs?: number;
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  readonly maxMs: number;
  readonly resetAfterMs: number;
  private readonly random: () => number;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? 250;
    this.maxMs = opts.maxMs ?? 15_000;
    this.resetAfterMs = opts.resetAfterMs ?? 30_000;
    this.random = opts.random ?? Math.random;
  }

  /** The next delay: uniform in [cap/2, cap] where cap doubles per attempt up to maxMs. */
  next(): number {
    const cap = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(cap / 2 + this.random() * (cap / 2));
  }

  reset(): void {
    this.attempt = 0;
  }

  get attempts(): number {
    return this.attempt;
  }
}
