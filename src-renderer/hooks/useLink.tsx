// Which market a panel shows: its link group's (a colour shared with other panels) or its own
// pinned one. Layout gives each panel its link through PanelLinkContext (saved with the layout);
// a panel outside the layout (a test, the event ladders' columns) follows the white group or the
// pin it is given.
import { createContext, useCallback, useContext, useEffect } from 'react';
import { useTrading, type Link } from '../stores/trading';
import { awaitPick, fed, stopAwaiting, waitingColour } from '../stores/link-pick';

export interface PanelLink {
  panelId: string;
  link: Link;
  pinned: string | null;
  setLink(link: Link): void;
  setPinned(ticker: string | null): void;
}

const DEFAULT: PanelLink = { panelId: '', link: 'white', pinned: null, setLink: () => undefined, setPinned: () => undefined };

export const PanelLinkContext = createContext<PanelLink>(DEFAULT);

export function usePanelLink(): PanelLink {
  return useContext(PanelLinkContext);
}

/** The market this panel shows. */
export function usePanelTicker(): string | null {
  const ctx = useContext(PanelLinkContext);
  return useTrading((s) => (ctx.link === 'pin' ? ctx.pinned : ctx.link === 'white' ? s.ticker : s.groups[ctx.link]));
}

/**
 * Choosing a market in this panel drives its link group (or moves its pin). In a white list,
 * while a new panel of another colour waits for its first market (stores/link-pick), the pick
 * feeds that colour instead.
 */
export function useSelectMarket(): (ticker: string | null) => void {
  const ctx = useContext(PanelLinkContext);
  return useCallback(
    (ticker: string | null) => {
      if (ctx.link === 'pin') return ctx.setPinned(ticker);
      const waiting = ctx.link === 'white' && ticker ? waitingColour() : null;
      if (waiting) {
        useTrading.getState().selectIn(waiting, ticker);
        fed(waiting);
      } else useTrading.getState().selectIn(ctx.link, ticker);
    },
    [ctx],
  );
}

/**
 * An empty panel of a link colour (a new linked ladder, ticket or tape) waits for its first
 * market: the next pick in the white Markets list feeds it. Returns the colour it waits in.
 */
export function useAwaitFirstMarket(ticker: string | null): string | null {
  const ctx = useContext(PanelLinkContext);
  const by = ctx.panelId;
  const colour = ctx.link !== 'pin' && ctx.link !== 'white' ? ctx.link : null;
  const waits = colour !== null && ticker === null && by !== '';
  useEffect(() => {
    if (!waits || !colour) return undefined;
    awaitPick(colour, by);
    return () => stopAwaiting(by);
  }, [waits, colour, by]);
  return waits ? colour : null;
}
