// Which market a panel shows: its link group's (a colour shared with other panels) or its own
// pinned one. Layout gives each panel its link through PanelLinkContext (saved with the layout);
// a panel outside the layout (a test, the event ladders' columns) follows the white group or the
// pin it is given.
import { createContext, useCallback, useContext } from 'react';
import { useTrading, type Link } from '../stores/trading';

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

/** Choosing a market in this panel drives its link group (or moves its pin). */
export function useSelectMarket(): (ticker: string | null) => void {
  const ctx = useContext(PanelLinkContext);
  return useCallback(
    (ticker: string | null) => {
      if (ctx.link === 'pin') ctx.setPinned(ticker);
      else useTrading.getState().selectIn(ctx.link, ticker);
    },
    [ctx],
  );
}
