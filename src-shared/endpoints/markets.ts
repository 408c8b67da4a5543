// Markets, orderbooks, candlesticks and public trades. Orderbook reads require auth.
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, pageQuery, qBool, qCsv, qInt, qPeriodInterval, qRepeat, qTs } from './query';
import { Ticker } from '../wire/common';
import {
  BulkCandlesticksResponse,
  CandlesticksResponse,
  MarketResponse,
  MarketsPage,
  MarketStatusFilter,
  OrderbookResponse,
  OrderbooksResponse,
  TradesPage,
} from '../wire/markets';

export const MveFilter = z.enum(['only', 'exclude']);

export const GetMarketsQuery = z
  .object({
    ...pageQuery,
    status: MarketStatusFilter.optional(),
    series_ticker: Ticker.optional(),
    event_ticker: Ticker.optional(),
    tickers: qCsv(Ticker, 10_000, 0, 'tickers').optional(),
    mve_filter: MveFilter.optional(),
    min_created_ts: qTs.optional(),
    max_created_ts: qTs.optional(),
    min_updated_ts: qTs.optional(),
    max_updated_ts: qTs.optional(),
    min_close_ts: qTs.optional(),
    max_close_ts: qTs.optional(),
    min_settled_ts: qTs.optional(),
    max_settled_ts: qTs.optional(),
  })
  .strict();

/** start_ts, end_ts and period_interval are required; period_interval is normalised to seconds. */
export const candleQuery = {
  start_ts: qTs,
  end_ts: qTs,
  period_interval: qPeriodInterval,
};
export const CandlesticksQuery = z.object({ ...candleQuery, include_latest_before_start: qBool.optional() }).strict();

/** 1-100 tickers, comma-joined. */
export const BulkCandlesticksQuery = z
  .object({
    market_tickers: qCsv(Ticker, 100, 1, 'market_tickers'),
    ...candleQuery,
    include_latest_before_start: qBool.optional(),
  })
  .strict();

/** 1-100 tickers, repeated (`?tickers=a&tickers=b`). */
export const OrderbooksQuery = z.object({ tickers: qRepeat(Ticker, 100, 1, 'tickers') }).strict();

export const TradesQuery = z
  .object({
    ...pageQuery,
    ticker: Ticker.optional(),
    min_ts: qTs.optional(),
    max_ts: qTs.optional(),
    is_block_trade: qBool.optional(),
  })
  .strict();

const tickerParams = z.object({ ticker: Ticker }).strict();

export const marketEndpoints = {
  getMarkets: endpoint({
    id: 'getMarkets',
    method: 'GET',
    path: '/markets',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: GetMarketsQuery,
    arrays: { tickers: 'comma' },
    body: null,
    response: MarketsPage,
    status: 200,
    page: { items: 'markets', sizeParam: 'limit' },
    summary: 'Markets, filtered by status, series, event, tickers and time bounds',
  }),
  getMarket: endpoint({
    id: 'getMarket',
    method: 'GET',
    path: '/markets/{ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: tickerParams,
    query: noQuery,
    body: null,
    response: MarketResponse,
    status: 200,
    summary: 'One market',
  }),
  getOrderbook: endpoint({
    id: 'getOrderbook',
    method: 'GET',
    path: '/markets/{ticker}/orderbook',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: tickerParams,
    query: z.object({ depth: qInt(0, 100).optional() }).strict(),
    body: null,
    response: OrderbookResponse,
    status: 200,
    summary: 'YES and NO bids of one market (depth 0 or absent = all levels)',
  }),
  getOrderbooks: endpoint({
    id: 'getOrderbooks',
    method: 'GET',
    path: '/markets/orderbooks',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: OrderbooksQuery,
    arrays: { tickers: 'repeat' },
    body: null,
    response: OrderbooksResponse,
    status: 200,
    summary: 'Orderbooks of 1-100 markets',
  }),
  getMarketCandlesticks: endpoint({
    id: 'getMarketCandlesticks',
    method: 'GET',
    path: '/series/{series_ticker}/markets/{ticker}/candlesticks',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ series_ticker: Ticker, ticker: Ticker }).strict(),
    query: CandlesticksQuery,
    body: null,
    response: CandlesticksResponse,
    status: 200,
    summary: 'Candles of one market',
  }),
  getBulkMarketCandlesticks: endpoint({
    id: 'getBulkMarketCandlesticks',
    method: 'GET',
    path: '/markets/candlesticks',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: BulkCandlesticksQuery,
    arrays: { market_tickers: 'comma' },
    body: null,
    response: BulkCandlesticksResponse,
    status: 200,
    summary: 'Candles of 1-100 markets (normalised to { markets: [{ market_ticker, candlesticks }] })',
  }),
  getTrades: endpoint({
    id: 'getTrades',
    method: 'GET',
    path: '/markets/trades',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: TradesQuery,
    body: null,
    response: TradesPage,
    status: 200,
    page: { items: 'trades', sizeParam: 'limit' },
    summary: 'Public trades (is_block_trade omitted = all)',
  }),
} as const;
