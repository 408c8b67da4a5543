// The native dialog main asks the trader with (ConfirmInMain in the Electron shell): a compromised
// page cannot answer it. It shows the exact change its answer allows (`change`: every new value,
// the profile, the engagement or destination), so "Allow" confirms that change and no other; the
// caller applies only that change and refuses when the state moved while the dialog was open.
// The safe button is the default and the one Escape picks.
import type { MessageBoxOptions } from 'electron';
import type { ConfirmInMain } from '../app/profiles-service';

/** The answer that allows: the second button (the first, Cancel, is the default). */
export const ALLOW_RESPONSE = 1;

export function confirmDialog(q: Parameters<ConfirmInMain>[0]): MessageBoxOptions {
  return {
    type: 'warning',
    buttons: ['Cancel', q.allow],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
    title: q.title,
    message: q.message,
    ...(q.change !== undefined ? { detail: `This answer allows exactly this change, once:\n${q.change}` } : {}),
  };
}
