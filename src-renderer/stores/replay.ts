// A replay this page started or changed, told to the replay bar at once: the bar reads main only
// every few seconds while none plays (features/replay/ReplayBar.tsx).
import type { ReplayView } from '../../src-shared/ipc/contract';

const listeners = new Set<(view: ReplayView) => void>();

/** The bar shows this replay now, not at its next read. */
export function showReplay(view: ReplayView): void {
  for (const l of listeners) l(view);
}

/** Called with every replay shown; returns its unsubscribe. */
export function onReplayShown(listener: (view: ReplayView) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
