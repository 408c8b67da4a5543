// Clock-offset correction for signing timestamps. The server's `Date` header has 1 s
// resolution, so a measurement is only trusted to about half a second plus half the round
// trip; we therefore only correct when the offset exceeds 1 s (the exchange allows ~5 s).

export const OFFSET_THRESHOLD_MS = 1000;
/**
 * Beyond this the terminal refuses to sign: a server (or a man in the middle) whose Date header is
 * far off could otherwise make us sign timestamps for a moment of its choosing, to be replayed.
 */
export const MAX_OFFSET_MS = 30_000;

export class ClockSkewError extends Error {
  override name = 'ClockSkewError';
}

export interface ClockSnapshot {
  /** offset applied to signing timestamps (server - local), 0 when within the threshold */
  offsetMs: number;
  /** last raw estimate, or undefined before any measurement */
  measuredMs: number | undefined;
  measuredAt: number | undefined;
  /** why signing is refused (offset beyond MAX_OFFSET_MS), or null */
  refusal: string | null;
}

export class ClockSync {
  private applied = 0;
  private measured: number | undefined;
  private measuredAt: number | undefined;
  private refusal: string | null = null;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** Local time corrected to the server's clock, in ms. Use this for signing timestamps. */
  now(): number {
    return Math.round(this.localNow() + this.applied);
  }

  get offsetMs(): number {
    return this.applied;
  }

  /**
   * Feeds one response's `Date` header, with the local times the request was sent and its
   * answer received. Returns true when the applied offset changed.
   *
   * The header is the server's time floored to the second, so the server's clock at the
   * midpoint of the exchange is estimated at Date + 500 ms. `force` (after the server said our
   * timestamp expired) skips the hysteresis and takes the new estimate as it is.
   */
  observe(dateHeader: string | null | undefined, sentAtLocal: number, receivedAtLocal: number, force = false): boolean {
    if (!dateHeader) return false;
    const serverSecondMs = Date.parse(dateHeader);
    if (Number.isNaN(serverSecondMs)) return false;
    const midpoint = (sentAtLocal + receivedAtLocal) / 2;
    const estimate = serverSecondMs + 500 - midpoint;
    this.measured = estimate;
    this.measuredAt = receivedAtLocal;
    if (Math.abs(estimate) > MAX_OFFSET_MS) {
      this.refusal = `the exchange's clock is ${(estimate / 1000).toFixed(0)} s off this computer's (more than ${MAX_OFFSET_MS / 1000} s): the terminal will not sign requests until the clocks agree; set this computer's time`;
      return false;
    }
    this.refusal = null;
    // A new estimate within the measurement noise of the applied offset changes nothing, so a
    // real offset near the threshold does not flap between 0 and ~1 s.
    if (!force && Math.abs(estimate - this.applied) <= OFFSET_THRESHOLD_MS) return false;
    const next = Math.abs(estimate) > OFFSET_THRESHOLD_MS ? Math.round(estimate) : 0;
    const changed = next !== this.applied;
    this.applied = next;
    return changed;
  }

  /** Sets the offset directly (e.g. from an external time source); 0 disables correction. */
  setOffset(ms: number): void {
    this.applied = ms;
  }

  snapshot(): ClockSnapshot {
    return { offsetMs: this.applied, measuredMs: this.measured, measuredAt: this.measuredAt, refusal: this.refusal };
  }

  /** Throws when the last measured offset is beyond the bound: nothing may be signed. */
  assertSignable(): void {
    if (this.refusal) throw new ClockSkewError(this.refusal);
  }
}
