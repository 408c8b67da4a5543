// The exact change a confirmation allows, as the text it is bound to (ConfirmInMain's `change`):
// a console code printed for one change confirms that change only, and a dialog shows it. Each
// text names the profile and every value the change sets, and where it starts from, so a save
// that differs in any value, or a state that moved since the question, asks again.
import type { RiskLimits } from '../../src-shared/ipc/risk';

/** A canonical form of the limits (keys sorted): two saves of the same values read the same. */
export function canonicalLimits(l: RiskLimits): string {
  const rec = l as unknown as Record<string, unknown>;
  return JSON.stringify(Object.fromEntries(Object.keys(rec).sort().map((k) => [k, String(rec[k])])));
}

/** Saving `next` over `prev` on a profile: every value that changes, and the whole new set. */
export function limitsChange(profileId: string, prev: RiskLimits, next: RiskLimits): string {
  const a = prev as unknown as Record<string, unknown>;
  const b = next as unknown as Record<string, unknown>;
  const diff = Object.keys(b)
    .sort()
    .filter((k) => String(a[k]) !== String(b[k]))
    .map((k) => `${k} ${String(a[k])} -> ${String(b[k])}`);
  return `risk limits of profile ${profileId}: ${diff.join(', ')}; the new limits ${canonicalLimits(next)}`;
}

/** Releasing one engagement of a profile's kill switch (another engagement asks again). */
export function releaseChange(profileId: string, since: number | null): string {
  return `release the kill switch of profile ${profileId} (engaged since ${since === null ? 'unknown' : new Date(since).toISOString()})`;
}
