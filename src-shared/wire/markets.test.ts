import { describe, expect, it } from 'vitest';
import { collectNovelties } from './novelty';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import { BulkCandlesticksResponse, Candlestick, Market, Orderbook, OrderbookResponse, OrderbooksResponse, Trade } from './markets';
import { responseSamples, sampleCandle, sampleMarket, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('market', () => {
  it('reads a market with _dollars / _fp names and keeps unknown fields', () => {
    const m = Market.parse({ ...sampleMarket, brand_new_field: 'x' });
    expect(m).toMatchObject({ yes_bid_dollars: '0.4500', volume_fp: '120.00', status: 'open' });
    expect(m.brand_new_field).toBe('x');
  });
  it('takes the spec statuses (open, paused) and the SDK lifecycle values', () => {
    for (const status of ['open', 'paused', 'settled', 'active', 'closed', 'determined', 'finalized', 'initialized']) {
      expect(Market.parse({ ...sampleMarket, status }).status).toBe(status);
    }
    // A status the service adds later is kept as sent (and noted), not a failed page of markets.
    const [m, novelties] = collectNovelties(() => Market.parse({ ...sampleMarket, status: 'halted' }));
    expect(m.status).toBe('halted');
    expect(novelties.map((n) => n.key)).toEqual(['market.status="halted"']);
    expect(rejects(Market, { ...sampleMarket, status: null })).toMatch(/status/);
  });
  it('rejects money or counts sent as numbers', () => {
    rejects(Market, { ...sampleMarket, yes_bid_dollars: 0.45 });
    rejects(Market, { ...sampleMarket, volume_fp: 120 });
    rejects(Market, { ...sampleMarket, yes_bid_dollars: '45c' });
  });
  it('the list filter: tickers comma-joined, status from the filter set, mve_filter', () => {
    const q = endpoints.getMarkets.query.parse({ tickers: 'A,B', status: 'open', mve_filter: 'exclude', min_close_ts: '100' });
    expect(q).toEqual({ tickers: ['A', 'B'], status: 'open', mve_filter: 'exclude', min_close_ts: 100 });
    rejects(endpoints.getMarkets.query, { status: 'active' });
    rejects(endpoints.getMarkets.query, { limit: 0 });
  });
});

describe('orderbook', () => {
  it('reads [price, count] string levels; a null side reads as empty', () => {
    const b = OrderbookResponse.parse(responseSamples.getOrderbook);
    expect(b.orderbook_fp.yes_dollars[0]).toEqual(['0.4500', '10.00']);
    expect(Orderbook.parse({ yes_dollars: null, no_dollars: [['0.53', '1.00']] }).yes_dollars).toEqual([]);
  });
  it('rejects numeric levels', () => {
    rejects(Orderbook, { yes_dollars: [[0.45, 10]], no_dollars: [] });
  });
  it('bulk: market_ticker (spec) and ticker (SDK) both read as market_ticker', () => {
    expect(OrderbooksResponse.parse(responseSamples.getOrderbooks).orderbooks[0]?.market_ticker).toBe(sampleMarket.ticker);
    expect(OrderbooksResponse.parse(sdkResponseSamples.getOrderbooks).orderbooks[0]?.market_ticker).toBe(sampleMarket.ticker);
    expect(rejects(OrderbooksResponse, { orderbooks: [{ orderbook_fp: { yes_dollars: [], no_dollars: [] } }] })).toMatch(/market_ticker/);
  });
  it('bulk query takes 1-100 repeated tickers', () => {
    const q = endpoints.getOrderbooks.query;
    const hundred = Array.from({ length: 100 }, (_, i) => `T${i}`);
    expect(q.parse({ tickers: hundred }).tickers).toHaveLength(100);
    expect(q.parse({ tickers: 'ONE' }).tickers).toEqual(['ONE']);
    expect(rejects(q, { tickers: [...hundred, 'T100'] })).toMatch(/at most 100/);
    expect(rejects(q, { tickers: [] })).toMatch(/at least 1/);
    rejects(q, {});
    // a repeated value may not itself be a comma list
    rejects(q, { tickers: ['A,B'] });
  });
  it('depth is 0-100', () => {
    expect(endpoints.getOrderbook.query.parse({ depth: '0' })).toEqual({ depth: 0 });
    rejects(endpoints.getOrderbook.query, { depth: 101 });
  });
});

describe('candlesticks', () => {
  it('reads live candles', () => {
    const c = Candlestick.parse(sampleCandle);
    expect(c.yes_bid.close_dollars).toBe('0.4500');
    expect(c.volume_fp).toBe('12.00');
  });
  it('reads historical candles (open/low/high/close, volume) to the same names', () => {
    const r = endpoints.getHistoricalMarketCandlesticks.response.parse(sdkResponseSamples.getHistoricalMarketCandlesticks);
    expect(r.candlesticks[0]).toMatchObject({ volume_fp: '0.00', open_interest_fp: '80.00' });
    expect(r.candlesticks[0]?.yes_ask.open_dollars).toBe('0.4200');
    expect(r.candlesticks[0]?.price?.close_dollars).toBeNull();
    expect(r.candlesticks[0]?.price?.previous_dollars).toBe('0.4500');
  });
  it('rejects a candle without end_period_ts', () => {
    const { end_period_ts: _e, ...bad } = sampleCandle;
    rejects(Candlestick, bad);
  });
  it('bulk: the bare array and the SDK { markets } read to { markets }', () => {
    expect(BulkCandlesticksResponse.parse(responseSamples.getBulkMarketCandlesticks).markets[0]?.market_ticker).toBe(sampleMarket.ticker);
    expect(BulkCandlesticksResponse.parse(sdkResponseSamples.getBulkMarketCandlesticks).markets[0]?.candlesticks).toHaveLength(1);
  });
  it('period_interval: spec seconds 60/3600/86400 and SDK minutes 1/1440, output in seconds', () => {
    const q = endpoints.getMarketCandlesticks.query;
    const pi = (v: unknown) => q.parse({ start_ts: 1, end_ts: 2, period_interval: v }).period_interval;
    expect(pi(60)).toBe(60);
    expect(pi('3600')).toBe(3600);
    expect(pi(86400)).toBe(86400);
    expect(pi(1)).toBe(60);
    expect(pi(1440)).toBe(86400);
    expect(rejects(q, { start_ts: 1, end_ts: 2, period_interval: 5 })).toMatch(/period_interval/);
    expect(rejects(q, { start_ts: 1, period_interval: 60 })).toMatch(/end_ts/);
  });
  it('bulk query: market_tickers comma-joined, 1-100, required', () => {
    const q = endpoints.getBulkMarketCandlesticks.query;
    const base = { start_ts: 1, end_ts: 2, period_interval: 60 };
    expect(q.parse({ ...base, market_tickers: 'A,B' }).market_tickers).toEqual(['A', 'B']);
    const many = Array.from({ length: 101 }, (_, i) => `T${i}`).join(',');
    expect(rejects(q, { ...base, market_tickers: many })).toMatch(/at most 100/);
    rejects(q, base);
  });
});

describe('trades', () => {
  it('reads a trade with is_block_trade', () => {
    const t = endpoints.getTrades.response.parse(responseSamples.getTrades).trades[0];
    expect(t).toMatchObject({ trade_id: 't-1', count_fp: '3.00', is_block_trade: false });
  });
  it('rejects a trade with a numeric price', () => {
    rejects(Trade, { trade_id: 't', ticker: 'T', yes_price_dollars: 0.5, count_fp: '1.00' });
  });
  it('is_block_trade filter is a boolean (text true/false from a URL)', () => {
    expect(endpoints.getTrades.query.parse({ is_block_trade: 'false' })).toEqual({ is_block_trade: false });
    rejects(endpoints.getTrades.query, { is_block_trade: 'yes' });
  });
});
