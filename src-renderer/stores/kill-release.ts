// The kill switch's release question when it holds local orders (issue 34): what resumes, asked
// per kind. `askKillRelease` opens the dialog (features/risk/KillReleaseDialog.tsx, mounted once
// by the app) and resolves with the kinds to arm again, or null when the trader keeps it engaged.
import { create } from 'zustand';
import type { LocalKind, LocalOrderView } from '../../src-shared/ipc/tools';
import { plural } from '../../src-shared/text';

export type HeldByKind = Partial<Record<LocalKind, number>>;

export const KIND_NAMES: Record<LocalKind, [string, string]> = {
  stop: ['stop', 'stops'],
  take_profit: ['take-profit', 'take-profits'],
  trailing_stop: ['trailing stop', 'trailing stops'],
  bracket_target: ['bracket target', 'bracket targets'],
};

/** Local orders the kill switch holds, by kind. */
export function heldByKind(orders: readonly Pick<LocalOrderView, 'kind' | 'state'>[]): HeldByKind {
  const out: HeldByKind = {};
  for (const o of orders) if (o.state === 'kill_held') out[o.kind] = (out[o.kind] ?? 0) + 1;
  return out;
}

/** "2 stops, 1 trailing stop" (empty when none). */
export function heldText(held: HeldByKind): string {
  return (Object.entries(held) as [LocalKind, number][])
    .filter(([, n]) => n > 0)
    .map(([k, n]) => plural(n, KIND_NAMES[k][0], KIND_NAMES[k][1]))
    .join(', ');
}

export const heldCount = (held: HeldByKind): number => Object.values(held).reduce((a, b) => a + (b ?? 0), 0);

interface Request {
  held: HeldByKind;
  resolve: (rearm: LocalKind[] | null) => void;
}

export const useKillRelease = create<{ req: Request | null }>()(() => ({ req: null }));

export function askKillRelease(held: HeldByKind): Promise<LocalKind[] | null> {
  return new Promise((resolve) => {
    useKillRelease.getState().req?.resolve(null);
    useKillRelease.setState({ req: { held, resolve } });
  });
}

export function answerKillRelease(rearm: LocalKind[] | null): void {
  const req = useKillRelease.getState().req;
  useKillRelease.setState({ req: null });
  req?.resolve(rearm);
}
