// Clock-offset correction for signing timestamps. The server's `Date` header has 1 s
// resolution, so a measurement is only trusted to about half a second plus half the round
// trip; we therefore only correct when the offset exceeds 1 s (the exchange allows ~5 s).

export const OFFSET_THRESHOLD_MS = 1000;

export interface ClockSnapshot {
  /** offset applied to signing timestamps (server - local), 0 when within the threshold */
  offsetMs: number;
  /** last raw estimate, or undefined before any measurement */
  measuredMs: number | undefined;
  measuredAt: number | undefined;
}

export class ClockSync {
  private applied = 0;
  private measured: number | undefined;
  private measuredAt: number | undefined;

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
    return { offsetMs: this.applied, measuredMs: this.measured, measuredAt: this.measuredAt };
  }
}
