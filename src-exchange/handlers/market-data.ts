// Markets, orderbooks, candlesticks and public trades (plus, from ./series-events, series,
// events, collections and structured targets). Reads present the engine's state merged with
// the catalog; markets settled before the historical cutoff have left these routes.
import type { z } from 'zod';
import type { MarketView } from '../engine/types';
import { invalidParameters, notFound } from '../core/errors';
import type { BulkCandlesticksQuery, CandlesticksQuery, GetMarketsQuery, TradesQuery } from '../../src-shared/endpoints/markets';
import { isArchivedMarket, marketCloseMs, marketUpdatedMs } from '../state/catalog';
import type { HandlerFamily } from './support';
import { pageAfterSortKey } from './support';
import { buildCandles, MAX_CANDLES, periodEnds } from './candles';
import { presentBook, presentMarket, presentTrade } from './present-market';
import { readsOf, tradePage, type Reads } from './reads';
import { seriesEventHandlers } from './series-events';

type MarketsQuery = z.output<typeof GetMarketsQuery>;

const STATUS_FILTER: Record<NonNullable<MarketsQuery['status']>, readonly MarketView['status'][]> = {
  unopened: ['unopened'],
  open: ['open'],
  paused: ['paused'],
  closed: ['closed', 'determined'],
  settled: ['settled'],
};

const inSec = (ms: number, min: number | undefined, max: number | undefined) => {
  const s = Math.floor(ms / 1000);
  return (min === undefined || s >= min) && (max === undefined || s <= max);
};

/** The live markets matching GET /markets filters, in creation order. */
export function filterMarkets(reads: Reads, q: MarketsQuery, nowMs: number): MarketView[] {
  const cat = reads.cat();
  const cut = reads.cutoffs(nowMs);
  const tickers = q.tickers ? new Set(q.tickers) : undefined;
  const statuses = q.status ? STATUS_FILTER[q.status] : undefined;
  return reads
    .engine()
    .listMarkets({ ...(q.series_ticker !== undefined ? { seriesTicker: q.series_ticker } : {}), ...(q.event_ticker !== undefined ? { eventTicker: q.event_ticker } : {}) })
    .filter((m) => {
      if (isArchivedMarket(m, cut)) return false;
      if (tickers && !tickers.has(m.ticker)) return false;
      if (statuses && !statuses.includes(m.status)) return false;
      const meta = cat.markets[m.ticker];
      const mve = !!meta?.mve_collection_ticker;
      if (q.mve_filter === 'only' && !mve) return false;
      if (q.mve_filter === 'exclude' && mve) return false;
      if (!inSec(m.created_ms, q.min_created_ts, q.max_created_ts)) return false;
      if (!inSec(marketUpdatedMs(m, meta), q.min_updated_ts, q.max_updated_ts)) return false;
      if (!inSec(marketCloseMs(m, meta), q.min_close_ts, q.max_close_ts)) return false;
      if (q.min_settled_ts !== undefined || q.max_settled_ts !== undefined) {
        if (m.settled_ms === 0 || !inSec(m.settled_ms, q.min_settled_ts, q.max_settled_ts)) return false;
      }
      return true;
    });
}

export function presentMarkets(reads: Reads, markets: readonly MarketView[], nowMs: number) {
  const engine = reads.engine();
  const cat = reads.cat();
  return markets.map((m) => presentMarket(engine, cat, m, reads.tapes.tape(m.ticker), nowMs));
}

function candlesOf(reads: Reads, markets: readonly MarketView[], q: z.output<typeof CandlesticksQuery>, nowMs: number) {
  const total = markets.reduce((n, m) => n + periodEnds(m, q, nowMs).count, 0);
  if (total > MAX_CANDLES) {
    throw invalidParameters(`the request spans ${total} candlesticks; at most ${MAX_CANDLES}: narrow start_ts/end_ts or use a longer period_interval`);
  }
  return markets.map((m) => buildCandles(reads.tapes, m, q, nowMs, { includeLatestBeforeStart: q.include_latest_before_start === true }));
}

export const marketHandlers: HandlerFamily = (svc) => {
  const reads = readsOf(svc);
  return {
    getMarkets: (ctx) => {
      const q = ctx.query as MarketsQuery;
      // keyed by the market's place in the catalog (the list's order), not by offset: a market
      // leaving the filter between a client's pages (a status change) hides none of the next page
      const engine = reads.engine();
      const page = pageAfterSortKey(filterMarkets(reads, q, ctx.nowMs), q.cursor, q.limit, (m) => [engine.marketPlace(m.ticker)!]);
      return { markets: presentMarkets(reads, page.items, ctx.nowMs), cursor: page.cursor, has_next: page.has_next };
    },

    getMarket: (ctx) => {
      const m = reads.liveMarket(ctx.params.ticker!, ctx.nowMs);
      return { market: presentMarkets(reads, [m], ctx.nowMs)[0] };
    },

    getOrderbook: (ctx) => {
      const m = reads.liveMarket(ctx.params.ticker!, ctx.nowMs);
      const depth = (ctx.query as { depth?: number }).depth ?? 0;
      return { orderbook_fp: presentBook(reads.engine().getBook(m.ticker, depth)!) };
    },

    getOrderbooks: (ctx) => {
      const tickers = [...new Set((ctx.query as { tickers: string[] }).tickers)];
      const cut = reads.cutoffs(ctx.nowMs);
      const engine = reads.engine();
      const unknown = tickers.filter((t) => {
        const m = engine.getMarket(t);
        return !m || isArchivedMarket(m, cut);
      });
      if (unknown.length > 0) throw notFound(`markets ${unknown.join(', ')}`);
      return {
        orderbooks: tickers.map((t) => ({ market_ticker: t, ticker: t, orderbook_fp: presentBook(engine.getBook(t, 0)!) })),
      };
    },

    getMarketCandlesticks: (ctx) => {
      const m = reads.liveMarket(ctx.params.ticker!, ctx.nowMs);
      if (m.series_ticker !== ctx.params.series_ticker) throw notFound(`market ${m.ticker} in series ${ctx.params.series_ticker}`);
      const [candlesticks] = candlesOf(reads, [m], ctx.query as z.output<typeof CandlesticksQuery>, ctx.nowMs);
      return { ticker: m.ticker, candlesticks };
    },

    getBulkMarketCandlesticks: (ctx) => {
      const q = ctx.query as z.output<typeof BulkCandlesticksQuery>;
      const tickers = [...new Set(q.market_tickers)];
      const cut = reads.cutoffs(ctx.nowMs);
      const engine = reads.engine();
      const markets: MarketView[] = [];
      const unknown: string[] = [];
      for (const t of tickers) {
        const m = engine.getMarket(t);
        if (!m || isArchivedMarket(m, cut)) unknown.push(t);
        else markets.push(m);
      }
      if (unknown.length > 0) throw notFound(`markets ${unknown.join(', ')}`);
      const all = candlesOf(reads, markets, q, ctx.nowMs);
      // the spec's form: a bare array of { market_ticker, candlesticks }
      return markets.map((m, i) => ({ market_ticker: m.ticker, candlesticks: all[i] }));
    },

    getTrades: (ctx) => {
      const q = ctx.query as z.output<typeof TradesQuery>;
      const cut = reads.cutoffs(ctx.nowMs);
      const page = tradePage(reads, {
        ticker: q.ticker,
        minMs: Math.max((q.min_ts ?? 0) * 1000, cut.tradesCreatedMs),
        maxMs: q.max_ts !== undefined ? q.max_ts * 1000 + 999 : Number.MAX_SAFE_INTEGER,
        isBlockTrade: q.is_block_trade,
        limit: q.limit,
        cursor: q.cursor,
      });
      return { trades: page.trades.map(presentTrade), cursor: page.cursor, has_next: page.has_next };
    },
  };
};

export const marketDataHandlers: HandlerFamily = (svc) => ({ ...marketHandlers(svc), ...seriesEventHandlers(svc) });
