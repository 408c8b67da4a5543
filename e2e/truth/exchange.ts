// The exchange's own state, read over its REST with the provisioned credentials: the books and
// markets with one account (public data), the trader's orders, positions and balance with the
// trader's. Every read of a snapshot runs at once, so a snapshot is one short moment.
import type { ApiClient } from '../../src-main/api/client';
import { Decimal } from '../../src-shared/money';
import type { PriceRange } from '../../src-shared/price-ranges';

export interface ExchangeSnapshot {
  /** when the snapshot's reads were sent, and when they had all answered */
  startedAt: number;
  at: number;
  /** YES bids and NO bids per ticker, [price dollars, count] */
  books: Map<string, { yes: [string, string][]; no: [string, string][] }>;
  markets: Map<string, { bid: string; ask: string; last: string }>;
  /** each market's price grid, as the exchange publishes it (price_ranges) */
  ranges: Map<string, PriceRange[]>;
  /** the newest trades per ticker, newest first */
  trades: Map<string, { id: string; price: string; count: string; taker: string; time: string }[]>;
  resting: Map<string, { ticker: string; price: string; remaining: string }>;
  positions: Map<string, { position: string; cost: string; realized: string; fees: string }>;
  /** cash balance, dollars */
  balance: string;
}

async function allPages<T>(read: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string | null }>, max = 5): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < max; i++) {
    const page = await read(cursor);
    out.push(...page.items);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  return out;
}

export async function readExchange(pub: ApiClient, trader: ApiClient, tickers: { books: string[]; trades: string[]; markets: string[] }): Promise<ExchangeSnapshot> {
  const startedAt = Date.now();
  const [books, markets, trades, orders, positions, balance] = await Promise.all([
    tickers.books.length ? pub.getOrderbooks({ query: { tickers: tickers.books } }) : Promise.resolve({ orderbooks: [] }),
    // the markets on screen (a read of every market is slow enough to blur the moment)
    tickers.markets.length ? pub.getMarkets({ query: { tickers: tickers.markets.slice(0, 100), limit: 100 } }).then((r) => r.markets) : Promise.resolve([]),
    Promise.all(tickers.trades.map(async (t) => [t, (await pub.getTrades({ query: { ticker: t, limit: 12 } })).trades] as const)),
    allPages(async (cursor) => {
      const r = await trader.getOrders({ query: { status: 'resting', limit: 1000, ...(cursor ? { cursor } : {}) } });
      return { items: r.orders, cursor: r.cursor };
    }),
    trader.getPositions({ query: { limit: 1000 } }),
    trader.getBalance(),
  ]);
  const snap: ExchangeSnapshot = { startedAt, at: Date.now(), books: new Map(), markets: new Map(), ranges: new Map(), trades: new Map(), resting: new Map(), positions: new Map(), balance: new Decimal(balance.balance).div(100).toFixed(2) };
  for (const b of books.orderbooks) {
    snap.books.set(b.market_ticker, { yes: (b.orderbook_fp.yes_dollars ?? []).map(([p, c]) => [String(p), String(c)]), no: (b.orderbook_fp.no_dollars ?? []).map(([p, c]) => [String(p), String(c)]) });
  }
  for (const m of markets) {
    snap.markets.set(m.ticker, { bid: String(m.yes_bid_dollars ?? ''), ask: String(m.yes_ask_dollars ?? ''), last: String(m.last_price_dollars ?? '') });
    if (m.price_ranges) snap.ranges.set(m.ticker, m.price_ranges.map((r) => ({ start: String(r.start), end: String(r.end), step: String(r.step) })));
  }
  for (const [t, list] of trades) snap.trades.set(t, list.map((x) => ({ id: x.trade_id, price: String(x.yes_price_dollars), count: String(x.count_fp), taker: String(x.taker_side ?? ''), time: String(x.created_time ?? '') })));
  for (const o of orders) if (o.status === 'resting') snap.resting.set(o.order_id, { ticker: o.ticker, price: String(o.yes_price_dollars ?? ''), remaining: String(o.remaining_count_fp) });
  for (const p of positions.market_positions ?? []) {
    snap.positions.set(p.ticker, { position: String(p.position_fp), cost: String(p.market_exposure_dollars), realized: String(p.realized_pnl_dollars), fees: String(p.fees_paid_dollars) });
  }
  return snap;
}
