// The busy / error state of a dialog's one action: run it, show a spinner while it runs, keep
// its error for the form to display. Errors are kept, not thrown: the form shows them.
import { useCallback, useState } from 'react';

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
