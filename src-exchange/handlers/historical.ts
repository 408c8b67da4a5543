// The historical archive: data older than the per-surface cutoffs (state/catalog.ts cutoffsAt:
// UTC midnight at or before now - 30 days). Markets settled before the cutoff, trades and fills
// created before it, finished orders last updated before it, and settled positions of events
// archived before it are served here and nowhere else among the market-data routes.
import type { z } from 'zod';
import type { MarketView } from '../engine/types';
import type { CandlesticksQuery } from '../../src-shared/endpoints/markets';
import { isArchivedMarket, isLiveFill, isLiveOrder, isLivePosition } from '../state/catalog';
import { caller, pageOf, subaccountOf, type HandlerFamily, type HandlerMap } from './support';
import { buildCandles, MAX_CANDLES, periodEnds } from './candles';
import { presentMarket, presentTrade, sec } from './present-market';
import { presentEventPositions, presentFill, presentOrder, presentPosition } from './present';
import { readsOf, tradePage, type Reads } from './reads';
import { invalidParameters } from '../core/errors';

interface ArchiveQuery {
  ticker?: string;
  min_ts?: number;
  max_ts?: number;
  subaccount?: number;
  limit?: number;
  cursor?: string;
}

const inSec = (ms: number, min: number | undefined, max: number | undefined) => {
  const s = sec(ms);
  return (min === undefined || s >= min) && (max === undefined || s <= max);
};

/** The historical routes: the archive's markets and trades, and the caller's archived trading. */
export const historicalHandlers: HandlerFamily = (svc) => {
  const reads = readsOf(svc);
  return { ...archivedMarketHandlers(reads), ...archivedTradingHandlers(reads) };
};

function archivedMarketHandlers(reads: Reads): HandlerMap {
  const presentAll = (markets: readonly MarketView[], nowMs: number) =>
    markets.map((m) => presentMarket(reads.engine(), reads.cat(), m, reads.tapes.tape(m.ticker), nowMs));

  return {
    getHistoricalCutoff: (ctx) => {
      const c = reads.cutoffs(ctx.nowMs);
      return {
        market_settled_ts: sec(c.marketSettledMs),
        trades_created_ts: sec(c.tradesCreatedMs),
        orders_updated_ts: sec(c.ordersUpdatedMs),
        market_positions_last_updated_ts: sec(c.positionsUpdatedMs),
      };
    },

    getHistoricalMarkets: (ctx) => {
      const q = ctx.query as {
        series_ticker?: string;
        event_ticker?: string;
        tickers?: string[];
        status?: string;
        min_close_ts?: number;
        max_close_ts?: number;
        mve_filter?: 'only' | 'exclude';
        limit?: number;
        cursor?: string;
      };
      const cut = reads.cutoffs(ctx.nowMs);
      const cat = reads.cat();
      const tickers = q.tickers ? new Set(q.tickers) : undefined;
      const all = reads
        .engine()
        .listMarkets()
        .filter((m) => {
          if (!isArchivedMarket(m, cut)) return false;
          // archived markets are all settled
          if (q.status !== undefined && q.status !== 'settled') return false;
          if (q.series_ticker !== undefined && m.series_ticker !== q.series_ticker) return false;
          if (q.event_ticker !== undefined && m.event_ticker !== q.event_ticker) return false;
          if (tickers && !tickers.has(m.ticker)) return false;
          const meta = cat.markets[m.ticker];
          const mve = !!meta?.mve_collection_ticker;
          if ((q.mve_filter === 'only' && !mve) || (q.mve_filter === 'exclude' && mve)) return false;
          return inSec(meta?.close_ms ?? m.close_time * 1000, q.min_close_ts, q.max_close_ts);
        });
      const page = pageOf(all, q.cursor, q.limit);
      return { markets: presentAll(page.items, ctx.nowMs), cursor: page.cursor, has_next: page.has_next };
    },

    getHistoricalMarket: (ctx) => {
      const m = reads.archivedMarket(ctx.params.ticker!, ctx.nowMs);
      return { market: presentAll([m], ctx.nowMs)[0] };
    },

    getHistoricalMarketCandlesticks: (ctx) => {
      const m = reads.archivedMarket(ctx.params.ticker!, ctx.nowMs);
      const q = ctx.query as z.output<typeof CandlesticksQuery>;
      const count = periodEnds(m, q, ctx.nowMs).count;
      if (count > MAX_CANDLES) throw invalidParameters(`the request spans ${count} candlesticks; at most ${MAX_CANDLES}: narrow start_ts/end_ts or use a longer period_interval`);
      return { ticker: m.ticker, candlesticks: buildCandles(reads.tapes, m, q, ctx.nowMs, { historical: true }) };
    },

    getHistoricalTrades: (ctx) => {
      const q = ctx.query as { ticker?: string; min_ts?: number; max_ts?: number; is_block_trade?: boolean; limit?: number; cursor?: string };
      const cut = reads.cutoffs(ctx.nowMs);
      const page = tradePage(reads, {
        ticker: q.ticker,
        minMs: (q.min_ts ?? 0) * 1000,
        maxMs: Math.min(q.max_ts !== undefined ? q.max_ts * 1000 + 999 : Number.MAX_SAFE_INTEGER, cut.tradesCreatedMs - 1),
        isBlockTrade: q.is_block_trade,
        limit: q.limit,
        cursor: q.cursor,
      });
      return { trades: page.trades.map(presentTrade), cursor: page.cursor, has_next: page.has_next };
    },
  };
}

function archivedTradingHandlers(reads: Reads): HandlerMap {
  return {
    getHistoricalFills: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as ArchiveQuery;
      const sub = subaccountOf(ctx, q.subaccount, undefined);
      const cut = reads.cutoffs(ctx.nowMs);
      const fills = reads
        .engine()
        .getFills(c.userId, { ...(sub !== undefined ? { subaccount: sub } : {}), ...(q.ticker !== undefined ? { ticker: q.ticker } : {}) })
        .filter((f) => !isLiveFill(f, cut) && inSec(f.ts, q.min_ts, q.max_ts));
      const page = pageOf(fills, q.cursor, q.limit);
      return { fills: page.items.map(presentFill), cursor: page.cursor, has_next: page.has_next };
    },

    getHistoricalOrders: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as ArchiveQuery;
      const sub = subaccountOf(ctx, q.subaccount, undefined);
      const cut = reads.cutoffs(ctx.nowMs);
      const orders = reads
        .engine()
        .listOrders({ userId: c.userId, ...(sub !== undefined ? { subaccount: sub } : {}), ...(q.ticker !== undefined ? { ticker: q.ticker } : {}) })
        .filter((o) => !isLiveOrder(o, cut) && inSec(o.created_time, q.min_ts, q.max_ts));
      const page = pageOf(orders, q.cursor, q.limit);
      return { orders: page.items.map(presentOrder), cursor: page.cursor, has_next: page.has_next };
    },

    getHistoricalPositions: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { ticker?: string; event_ticker?: string; subaccount?: number; limit?: number; cursor?: string };
      const sub = subaccountOf(ctx, q.subaccount, 0);
      const cut = reads.cutoffs(ctx.nowMs);
      const engine = reads.engine();
      const positions = engine
        .getPositions(c.userId, {
          settled: true,
          ...(sub !== undefined ? { subaccount: sub } : {}),
          ...(q.ticker !== undefined ? { ticker: q.ticker } : {}),
          ...(q.event_ticker !== undefined ? { eventTicker: q.event_ticker } : {}),
        })
        .filter((p) => !isLivePosition(engine, p, cut))
        .sort((a, b) => b.last_updated_ms - a.last_updated_ms || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
      const page = pageOf(positions, q.cursor, q.limit);
      return {
        market_positions: page.items.map(presentPosition),
        event_positions: presentEventPositions(page.items),
        cursor: page.cursor,
        has_next: page.has_next,
      };
    },
  };
}
