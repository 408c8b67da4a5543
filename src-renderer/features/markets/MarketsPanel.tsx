// Markets: browse and search markets, events and series, the watchlist, multivariate
// collections, structured targets, and the selected market's detail.
import { useState, type ReactNode } from 'react';
import { runCommand, useCommand } from '../../lib/commands';
import { TabbedPanel } from '../../ui/TabbedPanel';
import { Collections } from './Collections';
import { EventList } from './EventList';
import { MarketDetail } from './MarketDetail';
import { MarketList, type MarketFilters } from './MarketList';
import { SeriesList } from './SeriesList';
import { Targets } from './Targets';
import { Watchlist } from './Watchlist';
import { focusLater } from '../../lib/focus-later';

type Tab = 'markets' | 'events' | 'series' | 'watchlist' | 'collections' | 'targets' | 'detail';

const TABS: { id: Tab; label: string }[] = [
  { id: 'markets', label: 'Markets' },
  { id: 'events', label: 'Events' },
  { id: 'series', label: 'Series' },
  { id: 'watchlist', label: 'Watchlist' },
  { id: 'collections', label: 'Collections' },
  { id: 'targets', label: 'Targets' },
  { id: 'detail', label: 'Detail' },
];

export function MarketsPanel() {
  const [tab, setTab] = useState<Tab>('markets');
  const [filters, setFilters] = useState<MarketFilters>({ status: 'open', series: '', event: '' });
  useCommand('markets.search', () => {
    runCommand('panel.markets');
    setTab('markets');
    // after the panel is shown and the list has rendered
    focusLater(() => document.querySelector<HTMLInputElement>('[data-market-search]'), { frames: 2 });
  });
  const render: Record<Tab, () => ReactNode> = {
    markets: () => <MarketList filters={filters} setFilters={setFilters} />,
    events: () => <EventList series={filters.series} />,
    series: () => (
      <SeriesList
        onOpen={(s) => {
          setFilters({ ...filters, series: s.ticker, event: '' });
          setTab('markets');
        }}
      />
    ),
    watchlist: () => <Watchlist />,
    collections: () => <Collections />,
    targets: () => <Targets />,
    detail: () => <MarketDetail />,
  };
  return <TabbedPanel label="Markets views" tabs={TABS.map((t) => ({ ...t, render: render[t.id] }))} value={tab} onChange={setTab} />;
}
