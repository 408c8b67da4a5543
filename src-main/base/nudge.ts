// How often a connection waiting out its reconnect backoff may try again early because the
// exchange answered on another path (a REST call): the backoff is for a service that does not
// answer, and this one just did. Bounded so that an exchange whose REST answers while this
// connection is refused is not retried at the pace of REST calls: a nudge needs 1 s since the last
// try, doubling with each nudge taken (1, 2, 4 ... s, up to `capMs`) until the connection is up
// again. Shared by the stream (StreamConnection) and the FIX sessions (FixInitiator).

/** the least time between a connect tried and a nudge's (doubling with each nudge until up) */
export const NUDGE_AFTER_MS = 1_000;

export class NudgeBound {
  private triedAt = 0;
  /** nudges taken since the connection was last up: each doubles the wait the next one needs */
  private taken = 0;

  constructor(private readonly capMs: number) {}

  /** A connect was tried now. */
  tried(now = Date.now()): void {
    this.triedAt = now;
  }

  /** The connection is up: the next nudge (after a later drop) waits 1 s again. */
  up(): void {
    this.taken = 0;
  }

  /** Whether a nudge now may try at once; true counts it as taken. */
  take(now = Date.now()): boolean {
    const wait = Math.min(this.capMs, NUDGE_AFTER_MS * 2 ** this.taken);
    if (now - this.triedAt < wait) return false;
    this.taken++;
    return true;
  }
}
