// Markets, filtered by status, series and event on the server and by text here, a page at a time.
import { useEffect, useMemo, useState } from 'react';
import { Decimal } from '../../../src-shared/money';
import { useRestRows } from '../../hooks/useRest';
import { LoadMore } from '../../ui/LoadMore';
import { useDebounced } from '../../hooks/useDebounced';
import { DataTable } from '../../ui/DataTable';
import { marketColumns, useLiveMarkets } from './market-columns';
import { usePanelLink, usePanelTicker, useSelectMarket } from '../../hooks/useLink';
import { useTrading } from '../../stores/trading';
import { useLinkPick } from '../../stores/link-pick';

type StatusFilter = '' | 'unopened' | 'open' | 'paused' | 'closed' | 'settled';

export interface MarketFilters {
  status: StatusFilter;
  series: string;
  event: string;
}

export function MarketList({ filters, setFilters }: { filters: MarketFilters; setFilters: (f: MarketFilters) => void }) {
  const [text, setText] = useState('');
  const series = useDebounced(filters.series.trim());
  const event = useDebounced(filters.event.trim());
  const query = {
    ...(filters.status ? { status: filters.status } : {}),
    ...(series ? { series_ticker: series } : {}),
    ...(event ? { event_ticker: event } : {}),
  };
  const { pages: pages, rows: loaded } = useRestRows('getMarkets', { query }, 'markets', { pageSize: 200 });
  const all = useLiveMarkets(loaded);
  const needle = text.trim().toLowerCase();
  const rows = useMemo(
    () => (needle ? all.filter((m) => m.ticker.toLowerCase().includes(needle) || (m.title ?? '').toLowerCase().includes(needle) || (m.yes_sub_title ?? '').toLowerCase().includes(needle)) : all),
    [all, needle],
  );
  const columns = useMemo(() => marketColumns(), []);
  const select = useSelectMarket();
  const ticker = usePanelTicker();
  const { link } = usePanelLink();

  // A first start shows a live market rather than three empty panels: the busiest open market
  // quoted on both sides, by volume (the trader's own pick is remembered from then on).
  useEffect(() => {
    if (ticker !== null || filters.status !== 'open' || link !== 'white') return;
    let live: (typeof all)[number] | undefined;
    for (const m of all) {
      if (!new Decimal(m.yes_bid_dollars ?? '0').gt(0) || !new Decimal(m.yes_ask_dollars ?? '1').lt(1)) continue;
      if (!live || new Decimal(m.volume_fp ?? '0').gt(live.volume_fp ?? '0')) live = m;
    }
    if (live) useTrading.getState().selectIn('white', live.ticker); // the white group's own, never a waiting panel's
  }, [all, ticker, filters.status, link]);
  const feeds = useLinkPick((s) => (link === 'white' && s.waiting.length ? s.waiting[s.waiting.length - 1]!.colour : null));

  const filtered = needle || filters.series || filters.event || filters.status !== 'open';
  return (
    <DataTable
      label="Markets"
      data={rows}
      columns={columns}
      getRowId={(m) => m.ticker}
      loading={pages.isPending || pages.isFetchingNextPage}
      loadingText="Loading markets…"
      error={pages.error}
      onRetry={() => void pages.refetch()}
      emptyText={filtered ? 'No markets match these filters.' : 'No open markets.'}
      activateOnClick
      pureRows
      onActivate={(m) => {
        select(m.ticker);
      }}
      rowClassName={(m) => (m.ticker === ticker ? 'selected-row' : undefined)}
      tools={
        <>
          {feeds && (
            <span className="badge" role="status" data-testid="markets-feeds">
              Next pick feeds the new {feeds} panel
            </span>
          )}
          <input
            type="search"
            data-market-search
            placeholder="Search loaded markets  ( / )"
            aria-label="Search markets by ticker or title"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && rows[0]) {
                select(rows[0].ticker);
              }
            }}
            className="u-w-200"
          />
          <select aria-label="Status" value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.target.value as StatusFilter })}>
            <option value="">Any status</option>
            <option value="open">Open</option>
            <option value="unopened">Unopened</option>
            <option value="paused">Paused</option>
            <option value="closed">Closed</option>
            <option value="settled">Settled</option>
          </select>
          <input placeholder="Series" aria-label="Series ticker" value={filters.series} onChange={(e) => setFilters({ ...filters, series: e.target.value })} className="u-w-100" />
          <input placeholder="Event" aria-label="Event ticker" value={filters.event} onChange={(e) => setFilters({ ...filters, event: e.target.value })} className="u-w-120" />
        </>
      }
      footer={<LoadMore pages={pages} loaded={all.length} busyLabel="Loading more markets…" />}
    />
  );
}
