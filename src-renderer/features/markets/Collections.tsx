// Multivariate collections: browse them, pick one market (and a side) in each of the
// collection's events, and create the combined market from those legs.
import { useState, type Dispatch, type SetStateAction } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { MultivariateCollection } from '../../../src-shared/wire/events';
import { rest } from '../../lib/rest';
import { useRest, useRestRows } from '../../hooks/useRest';
import { fmtDateTime } from '../../lib/format';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Empty, ErrorState, InlineError, Loading } from '../../ui/States';
import { LoadMore } from '../../ui/LoadMore';
import { useSelectMarket } from '../../hooks/useLink';

const columns: Columns<MultivariateCollection> = [
  col<MultivariateCollection>({ id: 'collection_ticker', header: 'Collection', size: 170, accessorFn: (c) => c.collection_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<MultivariateCollection>({ id: 'title', header: 'Title', accessorFn: (c) => c.title }),
  col<MultivariateCollection>({ id: 'events', header: 'Events', size: 60, accessorFn: (c) => c.associated_event_tickers.length || c.associated_events.length, meta: { num: true } }),
  col<MultivariateCollection>({ id: 'legs', header: 'Legs', size: 60, accessorFn: (c) => `${c.size_min ?? '?'}-${c.size_max ?? '?'}` }),
  col<MultivariateCollection>({ id: 'close', header: 'Closes', size: 118, accessorFn: (c) => c.close_date ?? '', cell: ({ getValue }) => fmtDateTime((getValue() as string) || null) }),
];

interface Leg {
  market: string;
  side: 'yes' | 'no';
}
type CollectionEvent = NonNullable<ReturnType<typeof useRest<'getEvents'>>['data']>['events'][number];

/** One event of the collection: the market it adds as a leg (or none) and the leg's side. */
function LegPicker({ ev, legs, setLegs, allYes }: { ev: CollectionEvent; legs: Record<string, Leg>; setLegs: Dispatch<SetStateAction<Record<string, Leg>>>; allYes: boolean }) {
  const leg = legs[ev.event_ticker];
  return (
    <fieldset className="u-b-1px-solid-var-border-brad-3-p-4px-8px">
      <legend className="dim">
        {ev.title} <span className="mono">{ev.event_ticker}</span>
      </legend>
      <div className="row">
        <select
          aria-label={`Leg market in ${ev.event_ticker}`}
          value={leg?.market ?? ''}
          onChange={(e) => {
            const v = e.target.value;
            setLegs((prev) => {
              const next = { ...prev };
              if (v) next[ev.event_ticker] = { market: v, side: prev[ev.event_ticker]?.side ?? 'yes' };
              else delete next[ev.event_ticker];
              return next;
            });
          }}
        >
          <option value="">No leg from this event</option>
          {(ev.markets ?? []).map((m) => (
            <option key={m.ticker} value={m.ticker}>
              {m.yes_sub_title ?? m.title ?? m.ticker}
            </option>
          ))}
        </select>
        <div className="seg" role="group" aria-label="Leg side">
          {(['yes', 'no'] as const).map((side) => (
            <button
              key={side}
              type="button"
              aria-pressed={leg?.side === side}
              disabled={!leg || (side === 'no' && allYes)}
              onClick={() => leg && setLegs({ ...legs, [ev.event_ticker]: { ...leg, side } })}
            >
              {side.toUpperCase()}
            </button>
          ))}
        </div>
      </div>
    </fieldset>
  );
}

/** The combined events already created from the collection, each with its first markets. */
function CombinedEvents({ collection }: { collection: MultivariateCollection }) {
  const mve = useRest('getMultivariateEvents', { query: { collection_ticker: collection.collection_ticker, limit: 50 } });
  const select = useSelectMarket();
  return (
  <div className="section u-p-6px-0-0">
    <h3>Combined events already created</h3>
    {mve.isPending ? (
      <Loading text="Loading combined events…" />
    ) : mve.error ? (
      <ErrorState error={mve.error} onRetry={() => void mve.refetch()} />
    ) : mve.data.events.length === 0 ? (
      <div className="dim">None yet.</div>
    ) : (
      <ul className="u-m-0-pl-16">
        {mve.data.events.map((e) => (
          <li key={e.event_ticker}>
            <span className="mono">{e.event_ticker}</span> {e.title}{' '}
            {(e.markets ?? []).slice(0, 3).map((m) => (
              <button key={m.ticker} type="button" className="btn btn-sm" onClick={() => select(m.ticker)}>
                {m.ticker}
              </button>
            ))}
          </li>
        ))}
      </ul>
    )}
  </div>
  );
}

function CollectionBuilder({ collection }: { collection: MultivariateCollection }) {
  const eventTickers = collection.associated_event_tickers.length ? collection.associated_event_tickers : collection.associated_events.map((e) => e.ticker);
  const events = useRest('getEvents', { query: { tickers: eventTickers.slice(0, 100).join(','), with_nested_markets: true, limit: 100 } }, { enabled: eventTickers.length > 0 });
  const [legs, setLegs] = useState<Record<string, Leg>>({});
  const select = useSelectMarket();
  const create = useMutation({
    mutationFn: () =>
      rest('createMarketInCollection', {
        params: { ticker: collection.collection_ticker },
        body: {
          selected_markets: Object.entries(legs).map(([event_ticker, l]) => ({ event_ticker, market_ticker: l.market, side: l.side })),
          with_market_payload: true,
        },
      }),
  });
  const count = Object.keys(legs).length;
  const min = collection.size_min ?? 1;
  const max = collection.size_max ?? Infinity;
  return (
    <div className="panel-body pad col">
      <div>
        <strong>{collection.title}</strong> <span className="mono dim">{collection.collection_ticker}</span>
      </div>
      {collection.description && <div className="prose dim">{collection.description}</div>}
      <div className="dim">
        Pick {min === max ? min : `${min} to ${Number.isFinite(max) ? max : 'any number of'}`} legs: one market and a side per event.
        {collection.is_all_yes ? ' Every leg must be YES.' : ''}
      </div>
      {events.isPending && <Loading text="Loading the collection's events…" />}
      {events.error && <ErrorState error={events.error} onRetry={() => void events.refetch()} />}
      {events.data && events.data.events.length === 0 && <Empty>This collection lists no events.</Empty>}
      {events.data?.events.map((ev) => (
        <LegPicker key={ev.event_ticker} ev={ev} legs={legs} setLegs={setLegs} allYes={!!collection.is_all_yes} />
      ))}
      <div className="row">
        <button type="button" className="btn btn-primary" disabled={count < min || count > max || create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Creating…' : `Create market from ${count} leg${count === 1 ? '' : 's'}`}
        </button>
        {create.data && (
          <span className="inline-ok">
            Created <span className="mono">{create.data.market_ticker}</span>{' '}
            <button type="button" className="btn btn-sm" onClick={() => select(create.data.market_ticker)}>
              Open it
            </button>
          </span>
        )}
      </div>
      {create.error && <InlineError error={create.error} />}
      <CombinedEvents collection={collection} />
    </div>
  );
}

export function Collections() {
  const { pages: pages, rows: rows } = useRestRows('getMultivariateCollections', { query: {} }, 'multivariate_contracts', { pageSize: 100 });
  const [picked, setPicked] = useState<MultivariateCollection | null>(null);
  return (
    <div className="split">
      <div className="u-fx-1-1-50-d-flex-fd-column-br-1px-solid-var-border">
        <DataTable
          label="Multivariate collections"
          data={rows}
          columns={columns}
          getRowId={(c) => c.collection_ticker}
          {...queryState(pages)}
          loadingText="Loading collections…"
          emptyText="No multivariate collections on this exchange."
          onActivate={setPicked}
          rowClassName={(c) => (c.collection_ticker === picked?.collection_ticker ? 'selected-row' : undefined)}
          footer={<LoadMore pages={pages} label="Load more" />}
        />
      </div>
      <div className="u-fx-1-1-50-d-flex-fd-column-minw-0">
        {picked ? <CollectionBuilder key={picked.collection_ticker} collection={picked} /> : <div className="state">Open a collection to build a market from its legs.</div>}
      </div>
    </div>
  );
}
