// Event ladders: every outcome of the linked market's event side by side, one compact ladder
// each (pinned to its market), for events whose outcomes trade against each other. A column's
// title chooses that market in this panel's link group. The columns share the panel's width: as
// many whole ladders as fit side by side (none narrower than MIN_COL), the rest a sideways scroll
// away that stops on a whole column, so no ladder runs past the panel's (or the window's) edge.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useRest } from '../../hooks/useRest';
import { PanelLinkContext, usePanelLink, usePanelTicker, useSelectMarket, type PanelLink } from '../../hooks/useLink';
import { useTrading } from '../../stores/trading';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { LadderPanel } from './LadderPanel';

const MAX = 8;
/** the narrowest a column gets before one fewer is shown at a time (a compact ladder's prices and sizes whole) */
export const MIN_COL = 200;

/** How wide each of `count` columns is in the element given to `ref`: its width shared by as many whole columns as fit. */
function useFitColumns(count: number) {
  const [el, ref] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  const fit = Math.max(1, Math.min(count, Math.floor(width / MIN_COL)));
  // a share of the width (not whole pixels): the columns in view end exactly at its edge
  return { ref, fit, measured: width > 0, basis: `${100 / fit}%` };
}

function Pinned({ owner, ticker, children }: { owner: string; ticker: string; children: ReactNode }) {
  const id = `${owner || 'eventladders'}:${ticker}`;
  const value = useMemo<PanelLink>(() => ({ panelId: id, link: 'pin', pinned: ticker, setLink: () => undefined, setPinned: () => undefined }), [id, ticker]);
  // its book must stream while the column is shown
  useEffect(() => {
    useTrading.getState().setPin(id, ticker);
    return () => useTrading.getState().setPin(id, null);
  }, [id, ticker]);
  return <PanelLinkContext.Provider value={value}>{children}</PanelLinkContext.Provider>;
}

export function EventLadders() {
  const ticker = usePanelTicker();
  const link = usePanelLink();
  const select = useSelectMarket();
  const info = useMarketInfo(ticker);
  const event = info.eventTicker;
  const markets = useRest('getMarkets', event ? { query: { event_ticker: event, limit: 100 } } : undefined, { enabled: !!event, staleTime: 30_000 });
  const list = (markets.data?.markets ?? []).filter((m) => m.status === 'active' || m.status === 'open' || m.ticker === ticker);
  const shown = list.slice(0, MAX);
  const cols = useFitColumns(shown.length);
  if (!ticker) return <div className="panel"><Empty>No market selected. Pick one in Markets: its event's outcomes show here side by side.</Empty></div>;
  if (markets.isPending || info.market.isPending) return <div className="panel"><Loading text="Loading the event's markets…" /></div>;
  if (markets.error) return <div className="panel"><ErrorState error={markets.error} onRetry={() => void markets.refetch()} /></div>;
  return (
    <div className="panel">
      <div className="panel-bar">
        <strong className="nowrap">{event}</strong>
        <span className="dim grow u-ov-hidden-to-ellipsis-ws-nowrap">{info.event.data?.event.title ?? ''}</span>
        <span className="dim">
          {shown.length} of {list.length} outcome{list.length === 1 ? '' : 's'}
        </span>
        {cols.measured && cols.fit < shown.length && <span className="dim nowrap" title="Scroll sideways for the rest">· {cols.fit} in view</span>}
      </div>
      <div className="multi-ladder" data-testid="event-ladders" ref={cols.ref}>
        {shown.map((m) => (
          <div key={m.ticker} className="multi-ladder-col" style={cols.measured ? { flexBasis: cols.basis } : undefined}>
            <button type="button" className={`btn btn-sm multi-ladder-title${m.ticker === ticker ? ' btn-on' : ''}`} onClick={() => select(m.ticker)} title={`Choose ${m.ticker} in this panel's link group`}>
              {m.yes_sub_title || m.ticker}
            </button>
            <Pinned owner={link.panelId} ticker={m.ticker}>
              <LadderPanel compact />
            </Pinned>
          </div>
        ))}
        {shown.length === 0 && <Empty>No open outcomes in {event}.</Empty>}
      </div>
    </div>
  );
}
