// The busy / error state of a dialog's one action: run it, show a spinner while it runs, keep
// its error for the form to display. Errors are kept, not thrown: the form shows them.
import { useCallback, useState } from 'react';
import { errorText } from '../lib/errors';
import { notify } from '../stores/notices';

export function useAction(): { busy: boolean; error: unknown; setError: (e: unknown) => void; run: (fn: () => Promise<void>, always?: () => void) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (fn: () => Promise<void>, always?: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      always?.();
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

/**
 * The same for an action with no form to hold its error (a button in a table row): the outcome
 * goes to a toast. Returns whether it succeeded.
 */
export async function toastAction(failTitle: string, fn: () => Promise<unknown>, okTitle?: string): Promise<boolean> {
  try {
    await fn();
    if (okTitle) notify('success', okTitle);
    return true;
  } catch (err) {
    notify('error', failTitle, errorText(err));
    return false;
  }
}
