// Series, events, multivariate collections and structured targets (public unless marked).
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, pageQuery, qBool, qCsv, qInt, qIntList, qRepeat, qTs } from './query';
import { Id, Ticker } from '../wire/common';
import {
  CreateMarketInCollectionRequest,
  CreateMarketInCollectionResponse,
  EventCandlesticksResponse,
  EventFeeChangesPage,
  EventMetadata,
  EventResponse,
  EventsPage,
  EventStatus,
  ForecastHistoryResponse,
  MultivariateCollectionResponse,
  MultivariateCollectionsPage,
  SeriesFeeChangesResponse,
  SeriesListResponse,
  SeriesResponse,
  StructuredTargetResponse,
  StructuredTargetsPage,
} from '../wire/events';
import { candleQuery } from './markets';

/** GET /events and /events/multivariate share their filters. `tickers` is comma-joined. */
export const GetEventsQuery = z
  .object({
    ...pageQuery,
    status: EventStatus.optional(),
    series_ticker: Ticker.optional(),
    tickers: qCsv(Ticker, 10_000, 0, 'tickers').optional(),
    with_nested_markets: qBool.optional(),
    with_milestones: qBool.optional(),
    min_close_ts: qTs.optional(),
    min_updated_ts: qTs.optional(),
    collection_ticker: Ticker.optional(),
  })
  .strict();

/**
 * Forecast `period_interval`: the candle values (60, 3600, 86400 seconds; SDK minutes 1, 60, 1440)
 * plus the SDK's 0 (raw points). Output in seconds (0 stays 0).
 */
export const ForecastPeriodInterval = qInt().pipe(
  z
    .number()
    .refine((n) => [0, 1, 60, 1440, 3600, 86400].includes(n), 'period_interval must be 0, 60, 3600 or 86400 seconds (or the SDK minutes 1, 60, 1440)')
    .transform((n) => (n === 1 ? 60 : n === 1440 ? 86400 : n)),
);

export const ForecastQuery = z
  .object({
    percentiles: qIntList(0, 9999, 10_000, 1, 'percentiles'),
    start_ts: qTs,
    end_ts: qTs,
    period_interval: ForecastPeriodInterval,
  })
  .strict();

/** `page_size` 1-2000 (default 100); this endpoint has no `limit`. `ids` repeated. */
export const StructuredTargetsQuery = z
  .object({
    ids: qRepeat(z.string().min(1), 10_000, 0, 'ids').optional(),
    type: z.string().min(1).optional(),
    competition: z.string().min(1).optional(),
    page_size: qInt(1, 2000).optional(),
    cursor: z.string().optional(),
  })
  .strict();

const eventParams = z.object({ event_ticker: Ticker }).strict();
const collectionParams = z.object({ ticker: Ticker }).strict();
const seriesEventParams = z.object({ series_ticker: Ticker, ticker: Ticker }).strict();

export const seriesEventEndpoints = {
  getSeriesList: endpoint({
    id: 'getSeriesList',
    method: 'GET',
    path: '/series',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        category: z.string().min(1).optional(),
        tags: z.string().min(1).optional(),
        include_product_metadata: qBool.optional(),
        include_volume: qBool.optional(),
        min_updated_ts: qTs.optional(),
      })
      .strict(),
    body: null,
    response: SeriesListResponse,
    status: 200,
    summary: 'All series (a plain list, no pagination; normalised to { series: [...] })',
  }),
  getSeries: endpoint({
    id: 'getSeries',
    method: 'GET',
    path: '/series/{series_ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ series_ticker: Ticker }).strict(),
    query: z.object({ include_volume: qBool.optional() }).strict(),
    body: null,
    response: SeriesResponse,
    status: 200,
    summary: 'One series',
  }),
  getSeriesFeeChanges: endpoint({
    id: 'getSeriesFeeChanges',
    method: 'GET',
    path: '/series/fee_changes',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z.object({ series_ticker: Ticker.optional(), show_historical: qBool.optional() }).strict(),
    body: null,
    response: SeriesFeeChangesResponse,
    status: 200,
    summary: 'Scheduled series fee changes (normalised to { series_fee_change_arr: [...] })',
  }),
  getEventCandlesticks: endpoint({
    id: 'getEventCandlesticks',
    method: 'GET',
    path: '/series/{series_ticker}/events/{ticker}/candlesticks',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: seriesEventParams,
    query: z.object(candleQuery).strict(),
    body: null,
    response: EventCandlesticksResponse,
    status: 200,
    summary: 'Candles of every market of an event (ticker is an event ticker)',
  }),
  getForecastPercentileHistory: endpoint({
    id: 'getForecastPercentileHistory',
    method: 'GET',
    path: '/series/{series_ticker}/events/{ticker}/forecast_percentile_history',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: seriesEventParams,
    query: ForecastQuery,
    arrays: { percentiles: 'repeat' },
    body: null,
    response: ForecastHistoryResponse,
    status: 200,
    summary: 'Forecast percentile points over time (normalised to { percentile_points: [...] })',
  }),
  getEvents: endpoint({
    id: 'getEvents',
    method: 'GET',
    path: '/events',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: GetEventsQuery,
    arrays: { tickers: 'comma' },
    body: null,
    response: EventsPage,
    status: 200,
    page: { items: 'events', sizeParam: 'limit' },
    summary: 'Events (with_nested_markets for their markets)',
  }),
  getMultivariateEvents: endpoint({
    id: 'getMultivariateEvents',
    method: 'GET',
    path: '/events/multivariate',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: GetEventsQuery,
    arrays: { tickers: 'comma' },
    body: null,
    response: EventsPage,
    status: 200,
    page: { items: 'events', sizeParam: 'limit' },
    summary: 'Multivariate events, same filters as /events',
  }),
  getEvent: endpoint({
    id: 'getEvent',
    method: 'GET',
    path: '/events/{event_ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: eventParams,
    query: z.object({ with_nested_markets: qBool.optional() }).strict(),
    body: null,
    response: EventResponse,
    status: 200,
    summary: 'One event',
  }),
  getEventMetadata: endpoint({
    id: 'getEventMetadata',
    method: 'GET',
    path: '/events/{event_ticker}/metadata',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: eventParams,
    query: noQuery,
    body: null,
    response: EventMetadata,
    status: 200,
    summary: 'Event images, tags, categories and per-market details (null lists read as [])',
  }),
  getEventFeeChanges: endpoint({
    id: 'getEventFeeChanges',
    method: 'GET',
    path: '/events/fee_changes',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z.object({ event_ticker: Ticker.optional(), ...pageQuery }).strict(),
    body: null,
    response: EventFeeChangesPage,
    status: 200,
    page: { items: 'event_fee_changes', sizeParam: 'limit' },
    summary: 'Event fee overrides (both null = cleared)',
  }),
  getMultivariateCollections: endpoint({
    id: 'getMultivariateCollections',
    method: 'GET',
    path: '/multivariate_event_collections',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        status: z.enum(['unopened', 'open', 'closed']).optional(),
        series_ticker: Ticker.optional(),
        associated_event_ticker: Ticker.optional(),
        ...pageQuery,
      })
      .strict(),
    body: null,
    response: MultivariateCollectionsPage,
    status: 200,
    page: { items: 'multivariate_contracts', sizeParam: 'limit' },
    summary: 'Multivariate event collections',
  }),
  getMultivariateCollection: endpoint({
    id: 'getMultivariateCollection',
    method: 'GET',
    path: '/multivariate_event_collections/{ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: collectionParams,
    query: noQuery,
    body: null,
    response: MultivariateCollectionResponse,
    status: 200,
    summary: 'One multivariate event collection',
  }),
  createMarketInCollection: endpoint({
    id: 'createMarketInCollection',
    method: 'POST',
    path: '/multivariate_event_collections/{ticker}',
    auth: 'signed',
    bucket: 'read',
    renderer: 'write',
    params: collectionParams,
    query: noQuery,
    body: CreateMarketInCollectionRequest,
    response: CreateMarketInCollectionResponse,
    status: 200,
    deprecated: true,
    summary: 'Create (or find) the market for a leg selection (predates RFQs)',
  }),
  getStructuredTargets: endpoint({
    id: 'getStructuredTargets',
    method: 'GET',
    path: '/structured_targets',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: StructuredTargetsQuery,
    arrays: { ids: 'repeat' },
    body: null,
    response: StructuredTargetsPage,
    status: 200,
    page: { items: 'structured_targets', sizeParam: 'page_size' },
    summary: 'Structured targets (page_size 1-2000, no limit)',
  }),
  getStructuredTarget: endpoint({
    id: 'getStructuredTarget',
    method: 'GET',
    path: '/structured_targets/{id}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ id: Id }).strict(),
    query: noQuery,
    body: null,
    response: StructuredTargetResponse,
    status: 200,
    summary: 'One structured target (404 if unknown; null structured_target = soft not-found)',
  }),
} as const;
