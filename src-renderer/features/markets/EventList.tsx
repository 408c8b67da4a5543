// Events with their nested markets: pick an event, then a market in it.
import { useMemo, useState } from 'react';
import type { Event } from '../../../src-shared/wire/events';
import type { Market } from '../../../src-shared/wire/markets';
import { useRestRows } from '../../hooks/useRest';
import { useDebounced } from '../../hooks/useDebounced';
import { fmtDateTime } from '../../lib/format';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { marketColumns, useLiveMarkets } from './market-columns';
import { LoadMore } from '../../ui/LoadMore';
import { useSelectMarket } from '../../hooks/useLink';

const eventColumns: Columns<Event> = [
  col<Event>({ id: 'event_ticker', header: 'Event', size: 170, accessorFn: (e) => e.event_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Event>({ id: 'title', header: 'Title', accessorFn: (e) => e.title }),
  col<Event>({ id: 'category', header: 'Category', size: 100, accessorFn: (e) => e.category ?? '' }),
  col<Event>({ id: 'markets', header: 'Markets', size: 64, accessorFn: (e) => e.markets?.length ?? 0, meta: { num: true } }),
  col<Event>({ id: 'strike', header: 'Strike date', size: 118, accessorFn: (e) => e.strike_date ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null) }),
  col<Event>({ id: 'status', header: 'Status', size: 70, accessorFn: (e) => e.status ?? '' }),
];

const NO_MARKETS: Market[] = [];

export function EventList({ series }: { series: string }) {
  const [seriesText, setSeriesText] = useState(series);
  const s = useDebounced(seriesText.trim());
  const { pages: pages, rows: events } = useRestRows('getEvents', { query: { with_nested_markets: true, ...(s ? { series_ticker: s } : {}) } }, 'events', { pageSize: 100 });
  const [picked, setPicked] = useState<string | null>(null);
  const event = events.find((e) => e.event_ticker === picked) ?? null;
  const select = useSelectMarket();
  const mcols = useMemo(() => marketColumns(), []);
  const eventMarkets = useLiveMarkets(event?.markets ?? NO_MARKETS);
  return (
    <div className="vsplit">
      <div className="u-fx-1-1-55-minh-0-d-flex">
        <DataTable
          label="Events"
          data={events}
          columns={eventColumns}
          getRowId={(e) => e.event_ticker}
          loading={pages.isPending || pages.isFetchingNextPage}
          loadingText="Loading events…"
          error={pages.error}
          onRetry={() => void pages.refetch()}
          emptyText={s ? `No events in series ${s}.` : 'No events.'}
          onActivate={(e) => setPicked(e.event_ticker)}
          rowClassName={(e) => (e.event_ticker === picked ? 'selected-row' : undefined)}
          tools={<input placeholder="Series ticker" aria-label="Filter events by series" value={seriesText} onChange={(e) => setSeriesText(e.target.value)} className="u-w-130" />}
          footer={<LoadMore pages={pages} loaded={events.length} />}
        />
      </div>
      <div className="u-fx-1-1-45-minh-0-d-flex-fd-column-bt-1px-solid-var-border">
        {event ? (
          <DataTable
            label={`Markets in ${event.event_ticker}`}
            data={eventMarkets}
            columns={mcols}
            getRowId={(m) => m.ticker}
            emptyText="This event lists no markets."
            onActivate={(m) => {
              select(m.ticker);
            }}
          />
        ) : (
          <div className="state">Choose an event (Enter or double-click) to see its markets.</div>
        )}
      </div>
    </div>
  );
}
