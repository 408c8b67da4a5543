// The tiny deterministic "engine" shared by crash-child.ts and crash.test.ts.
export interface CrashRecord {
  p: number;
  n: number;
  body: string;
}
export interface CrashState {
  /** last n applied per producer */
  applied: Record<string, number>;
}

export function makeRecord(p: number, n: number): CrashRecord {
  return { p, n, body: `${p}:${n}:${'x'.repeat((p * 7 + n * 13) % 200)}` };
}

/** The "engine": each producer's records must arrive in order with no gaps. */
export function applyRecord(state: CrashState, rec: CrashRecord): void {
  const prev = state.applied[rec.p] ?? 0;
  if (rec.n !== prev + 1) throw new Error(`producer ${rec.p}: record n=${rec.n} after n=${prev}`);
  if (rec.body !== makeRecord(rec.p, rec.n).body) throw new Error(`producer ${rec.p} n=${rec.n}: body differs`);
  state.applied[rec.p] = rec.n;
}
