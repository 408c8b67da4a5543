// Event ladders: every outcome of the linked market's event side by side, one compact ladder
// each (pinned to its market), for events whose outcomes trade against each other. A column's
// title chooses that market in this panel's link group.
import { useEffect, useMemo, type ReactNode } from 'react';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useRest } from '../../hooks/useRest';
import { PanelLinkContext, usePanelLink, usePanelTicker, useSelectMarket, type PanelLink } from '../../hooks/useLink';
import { useTrading } from '../../stores/trading';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { LadderPanel } from './LadderPanel';

const MAX = 8;

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
  if (!ticker) return <div className="panel"><Empty>No market selected. Pick one in Markets: its event's outcomes show here side by side.</Empty></div>;
  if (markets.isPending || info.market.isPending) return <div className="panel"><Loading text="Loading the event's markets…" /></div>;
  if (markets.error) return <div className="panel"><ErrorState error={markets.error} onRetry={() => void markets.refetch()} /></div>;
  const list = (markets.data?.markets ?? []).filter((m) => m.status === 'active' || m.status === 'open' || m.ticker === ticker);
  const shown = list.slice(0, MAX);
  return (
    <div className="panel">
      <div className="panel-bar">
        <strong className="nowrap">{event}</strong>
        <span className="dim grow u-ov-hidden-to-ellipsis-ws-nowrap">{info.event.data?.event.title ?? ''}</span>
        <span className="dim">
          {shown.length} of {list.length} outcome{list.length === 1 ? '' : 's'}
        </span>
      </div>
      <div className="multi-ladder" data-testid="event-ladders">
        {shown.map((m) => (
          <div key={m.ticker} className="multi-ladder-col">
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
