// Which ticket a submit key or the palette submits. There is one way to send a ticket: its form's
// submit (what its button does, whatever the order type). A key never sends a ticket the trader
// cannot see: it submits the ticket holding focus, else the one shown in the white link group,
// else the only one shown; with none shown, or a dialog open over the tickets, it sends nothing.
import { OrderOrigin } from '../../../src-shared/ipc/risk';

const isShown = (el: HTMLElement): boolean => el.getClientRects().length > 0 && el.offsetParent !== null;

/** The ticket form a submit key acts on, or null when no ticket is in view. */
export function ticketFormToSubmit(doc: Document = document): HTMLFormElement | null {
  const focused = doc.activeElement instanceof HTMLElement ? doc.activeElement.closest('form.ticket') : null;
  if (focused instanceof HTMLFormElement && isShown(focused)) return focused;
  // a dialog (a confirmation, TP/SL, settings) covers the tickets: its own keys apply, not the ticket's
  if (doc.querySelector('dialog[open]') !== null) return null;
  const shown = [...doc.querySelectorAll<HTMLFormElement>('form.ticket')].filter(isShown);
  if (shown.length === 1) return shown[0]!;
  return shown.find((f) => f.closest('[data-panel]')?.getAttribute('data-link') === 'white') ?? null;
}

/**
 * Submits the ticket in view exactly as its button would; false when none is in view (nothing
 * sent). `origin`: the gesture that asked (a key, the palette), which the order carries instead of
 * 'ticket' (the form's own submit reads it while the submit event runs).
 */
export function submitShownTicket(doc: Document = document, origin?: OrderOrigin): boolean {
  const form = ticketFormToSubmit(doc);
  if (!form) return false;
  if (origin) form.dataset.origin = origin;
  try {
    form.requestSubmit();
  } finally {
    delete form.dataset.origin;
  }
  return true;
}

/** The origin a ticket form's submit carries: what submitShownTicket said, else the ticket's own. */
export function submitOrigin(form: EventTarget | null | undefined): OrderOrigin {
  const said = form instanceof HTMLElement ? form.dataset.origin : undefined;
  const parsed = OrderOrigin.safeParse(said);
  return parsed.success ? parsed.data : 'ticket';
}
