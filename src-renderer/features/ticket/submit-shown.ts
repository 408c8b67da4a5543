// Which ticket a submit key or the palette submits. There is one way to send a ticket: its form's
// submit (what its button does, whatever the order type). A key never sends a ticket the trader
// cannot see: it submits the ticket holding focus, else the one shown in the white link group,
// else the only one shown; with none shown, or a dialog open over the tickets, it sends nothing.

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

/** Submits the ticket in view exactly as its button would; false when none is in view (nothing sent). */
export function submitShownTicket(doc: Document = document): boolean {
  const form = ticketFormToSubmit(doc);
  if (!form) return false;
  form.requestSubmit();
  return true;
}
