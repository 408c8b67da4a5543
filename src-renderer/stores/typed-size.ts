// Sizes being typed on a ladder (digits, not yet set with Enter), per ladder. While one waits the
// trading keys (B / S, flatten, reverse, the ladder's own order keys) send nothing: the trader has
// said a size the terminal would not use.
import { create } from 'zustand';
import { notify } from './notices';

export const useTypedSizes = create<{ pending: Record<string, string> }>()(() => ({ pending: {} }));

export function setTypedPending(ladderId: string, typed: string | null): void {
  useTypedSizes.setState((s) => {
    const pending = { ...s.pending };
    if (typed === null) delete pending[ladderId];
    else pending[ladderId] = typed;
    return { pending };
  });
}

/** The first size typed and not set on any ladder, or null. */
export function pendingTypedSize(): string | null {
  const all = Object.values(useTypedSizes.getState().pending);
  return all.length ? all[0]! : null;
}

/** True (and says so) when a typed size waits for Enter: the caller then sends nothing. */
export function refuseWhileTyping(): boolean {
  const typed = pendingTypedSize();
  if (typed === null) return false;
  notify('warning', 'Nothing sent', `Size ${typed || '…'} is typed on the ladder but not set: Enter sets it, Esc abandons it.`);
  return true;
}
