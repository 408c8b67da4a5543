// What the market-data, historical and live-data handlers share: the engine and catalog of the
// running node, the trade tapes (one cache per exchange), the historical cutoffs, market
// lookups that honour the archive, and keyset cursors for trade pages.
import type { Engine } from '../engine/engine';
import type { MarketView, TradeView } from '../engine/types';
import { invalidParameters, notFound } from '../core/errors';
import { catalogOf } from '../core/catalog-module';
import { cutoffsAt, isArchivedMarket, type CatalogState, type Cutoffs } from '../state/catalog';
import { users, type Services } from '../core/services';
import { indexAfter, TradeTapes } from './tape';

export interface Reads {
  engine(): Engine;
  cat(): CatalogState;
  tapes: TradeTapes;
  cutoffs(nowMs: number): Cutoffs;
  /** A market of the live endpoints: 404 when unknown or archived. */
  liveMarket(ticker: string, nowMs: number): MarketView;
  /** A market of the historical endpoints: 404 unless archived. */
  archivedMarket(ticker: string, nowMs: number): MarketView;
}

const cache = new WeakMap<Services, Reads>();

/** One Reads per exchange (handler families share the tape cache). Lazy: nothing touches the node until a request. */
export function readsOf(svc: Services): Reads {
  const hit = cache.get(svc);
  if (hit) return hit;
  const engine = () => svc.node.core.engine;
  const r: Reads = {
    engine,
    cat: () => catalogOf(svc.node.core),
    tapes: new TradeTapes(engine, () => Object.keys(users(svc).users)),
    cutoffs: cutoffsAt,
    liveMarket(ticker, nowMs) {
      const m = engine().getMarket(ticker);
      if (!m) throw notFound(`market ${ticker}`);
      if (isArchivedMarket(m, cutoffsAt(nowMs))) {
        throw notFound(`market ${ticker} (settled before the historical cutoff: GET /historical/markets/${ticker})`);
      }
      return m;
    },
    archivedMarket(ticker, nowMs) {
      const m = engine().getMarket(ticker);
      if (!m) throw notFound(`market ${ticker}`);
      if (!isArchivedMarket(m, cutoffsAt(nowMs))) throw notFound(`historical market ${ticker} (it is live: GET /markets/${ticker})`);
      return m;
    },
  };
  cache.set(svc, r);
  return r;
}

// ---- trade pages: newest first, keyset cursor (stable while new trades arrive) ------------------

interface TradeCursor {
  t: number;
  id: string;
}

function encodeTradeCursor(t: TradeView): string {
  return Buffer.from(JSON.stringify({ t: t.created_time, id: t.trade_id })).toString('base64url');
}

function decodeTradeCursor(cursor: string | undefined): TradeCursor | undefined {
  if (!cursor) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<TradeCursor>;
    if (typeof v.t === 'number' && Number.isSafeInteger(v.t) && typeof v.id === 'string') return { t: v.t, id: v.id };
  } catch {
    /* fall through */
  }
  throw invalidParameters('cursor is not one this exchange issued');
}

/** Newest first: later time, then the larger id. */
const before = (a: TradeView, b: TradeCursor) => a.created_time < b.t || (a.created_time === b.t && a.trade_id < b.id);
const newestFirst = (a: TradeView, b: TradeView) => b.created_time - a.created_time || (a.trade_id < b.trade_id ? 1 : a.trade_id > b.trade_id ? -1 : 0);

export interface TradeQuery {
  ticker?: string | undefined;
  /** inclusive bounds in ms */
  minMs: number;
  maxMs: number;
  isBlockTrade?: boolean | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One page of public trades from the tapes, newest first. */
export function tradePage(reads: Reads, q: TradeQuery): { trades: TradeView[]; cursor: string; has_next: boolean } {
  const limit = q.limit ?? 100;
  const after = decodeTradeCursor(q.cursor);
  const tickers = q.ticker !== undefined ? (reads.engine().getMarket(q.ticker) ? [q.ticker] : []) : reads.engine().listMarkets().map((m) => m.ticker);
  const candidates: TradeView[] = [];
  if (q.minMs <= q.maxMs) {
    for (const ticker of tickers) {
      const trades = reads.tapes.tape(ticker).trades;
      // newest eligible first; at most limit + 1 from each tape can make the page
      let taken = 0;
      for (let i = indexAfter(trades, q.maxMs) - 1; i >= 0 && taken <= limit; i--) {
        if (trades.timeAt(i) < q.minMs) break;
        if (q.isBlockTrade !== undefined && trades.blockAt(i) !== q.isBlockTrade) continue;
        const t = trades.get(i);
        if (after && !before(t, after)) continue;
        candidates.push(t);
        taken++;
      }
    }
  }
  candidates.sort(newestFirst);
  const page = candidates.slice(0, limit);
  const has_next = candidates.length > limit;
  return { trades: page, cursor: has_next ? encodeTradeCursor(page[page.length - 1]!) : '', has_next };
}

