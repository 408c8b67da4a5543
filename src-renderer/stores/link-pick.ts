// A new linked panel's first market (issue 34): a ladder (ticket, tape) made in a new link
// colour starts empty and says "Pick one in Markets (Alt+1, then Enter on a row)". While it
// waits, its colour is listed here, and the next market picked in a white Markets list (the one
// Alt+1 shows) feeds the newest waiting colour instead of the white group; from then on the panel
// follows its colour as before (a Markets list in that colour drives it). Esc-free: the wait ends
// when the colour gets a market by any route or the last panel waiting for it goes.
import { create } from 'zustand';
import type { LinkColour } from './trading';

type Colour = Exclude<LinkColour, 'white'>;

export const useLinkPick = create<{ waiting: { colour: Colour; by: string }[] }>()(() => ({ waiting: [] }));

/** Panel `by` waits for a market in `colour` (the newest wait is fed first). */
export function awaitPick(colour: Colour, by: string): void {
  const rest = useLinkPick.getState().waiting.filter((w) => w.by !== by);
  useLinkPick.setState({ waiting: [...rest, { colour, by }] });
}

export function stopAwaiting(by: string): void {
  const waiting = useLinkPick.getState().waiting;
  if (waiting.some((w) => w.by === by)) useLinkPick.setState({ waiting: waiting.filter((w) => w.by !== by) });
}

/** The colour the next white pick feeds, if any (the newest waiting one). */
export function waitingColour(): Colour | null {
  const w = useLinkPick.getState().waiting;
  return w.length ? w[w.length - 1]!.colour : null;
}

/** The colour got its market: every panel waiting for it stops waiting. */
export function fed(colour: Colour): void {
  useLinkPick.setState({ waiting: useLinkPick.getState().waiting.filter((w) => w.colour !== colour) });
}
