// Historical archives: data older than the per-surface cutoff. Fills, orders and positions are signed.
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, pageQuery, qBool, qCsv, qSubaccount, qTs } from './query';
import { Ticker } from '../wire/common';
import { HistoricalCutoff } from '../wire/historical';
import { CandlesticksResponse, MarketResponse, MarketsPage, MarketStatusFilter, TradesPage } from '../wire/markets';
import { OrdersPage } from '../wire/orders';
import { FillsPage, PositionsResponse } from '../wire/portfolio';
import { candleQuery, MveFilter } from './markets';

/** `subaccount`: 0 = primary; omit = all subaccounts (fills, orders). */
const archiveQuery = z
  .object({
    ticker: Ticker.optional(),
    min_ts: qTs.optional(),
    max_ts: qTs.optional(),
    subaccount: qSubaccount.optional(),
    ...pageQuery,
  })
  .strict();

export const historicalEndpoints = {
  getHistoricalCutoff: endpoint({
    id: 'getHistoricalCutoff',
    method: 'GET',
    path: '/historical/cutoff',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: noQuery,
    body: null,
    response: HistoricalCutoff,
    status: 200,
    summary: 'Per-surface cutoffs between live and historical data',
  }),
  getHistoricalMarkets: endpoint({
    id: 'getHistoricalMarkets',
    method: 'GET',
    path: '/historical/markets',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        series_ticker: Ticker.optional(),
        event_ticker: Ticker.optional(),
        tickers: qCsv(Ticker, 10_000, 0, 'tickers').optional(),
        status: MarketStatusFilter.optional(),
        min_close_ts: qTs.optional(),
        max_close_ts: qTs.optional(),
        mve_filter: MveFilter.optional(),
        ...pageQuery,
      })
      .strict(),
    arrays: { tickers: 'comma' },
    body: null,
    response: MarketsPage,
    status: 200,
    page: { items: 'markets', sizeParam: 'limit' },
    summary: 'Archived market snapshots',
  }),
  getHistoricalMarket: endpoint({
    id: 'getHistoricalMarket',
    method: 'GET',
    path: '/historical/markets/{ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ ticker: Ticker }).strict(),
    query: noQuery,
    body: null,
    response: MarketResponse,
    status: 200,
    summary: 'One archived market',
  }),
  getHistoricalMarketCandlesticks: endpoint({
    id: 'getHistoricalMarketCandlesticks',
    method: 'GET',
    path: '/historical/markets/{ticker}/candlesticks',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ ticker: Ticker }).strict(),
    query: z.object(candleQuery).strict(),
    body: null,
    response: CandlesticksResponse,
    status: 200,
    summary: 'Candles of an archived market (historical field names read as the live ones)',
  }),
  getHistoricalTrades: endpoint({
    id: 'getHistoricalTrades',
    method: 'GET',
    path: '/historical/trades',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        ticker: Ticker.optional(),
        min_ts: qTs.optional(),
        max_ts: qTs.optional(),
        is_block_trade: qBool.optional(),
        ...pageQuery,
      })
      .strict(),
    body: null,
    response: TradesPage,
    status: 200,
    page: { items: 'trades', sizeParam: 'limit' },
    summary: 'Archived public trades',
  }),
  getHistoricalFills: endpoint({
    id: 'getHistoricalFills',
    method: 'GET',
    path: '/historical/fills',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: archiveQuery,
    body: null,
    response: FillsPage,
    status: 200,
    page: { items: 'fills', sizeParam: 'limit' },
    summary: "The caller's archived fills",
  }),
  getHistoricalOrders: endpoint({
    id: 'getHistoricalOrders',
    method: 'GET',
    path: '/historical/orders',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: archiveQuery,
    body: null,
    response: OrdersPage,
    status: 200,
    page: { items: 'orders', sizeParam: 'limit' },
    summary: "The caller's archived orders",
  }),
  getHistoricalPositions: endpoint({
    id: 'getHistoricalPositions',
    method: 'GET',
    path: '/historical/positions',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: z
      .object({
        ...pageQuery,
        ticker: Ticker.optional(),
        event_ticker: Ticker.optional(),
        subaccount: qSubaccount.optional(),
      })
      .strict(),
    body: null,
    response: PositionsResponse,
    status: 200,
    page: { items: 'market_positions', sizeParam: 'limit' },
    summary: 'Archived settled positions (no count_filter)',
  }),
} as const;
