// Day boundaries in UTC, where the exchange's daily things turn over (historical cutoffs, the
// FCM daily notional cap).
export const DAY_MS = 86_400_000;

/** Milliseconds from `nowMs` to the next UTC midnight. */
export function msUntilUtcMidnight(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS - nowMs;
}

/** How long a test that must not straddle UTC midnight should wait first (0 when there is time). */
export function waitToAvoidUtcMidnight(nowMs: number, marginMs = 120_000): number {
  const left = msUntilUtcMidnight(nowMs);
  return left < marginMs ? left + 1_000 : 0;
}
