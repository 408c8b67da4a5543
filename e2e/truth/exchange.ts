// The exchange's own state, read over its REST with the provisioned credentials: the books and
// markets with one account (public data), the trader's orders, positions and balance with the
// trader's. Every read of a snapshot runs at once, so a snapshot is one short moment.
import type { ApiClient } from '../../src-main/api/client';
import { Decimal } from '../../src-shared/money';
import type { PriceRange } from '../../src-shared/price-ranges';
import { ledgerOf, type FillRec, type LedgerPosition, type SettlementRec } from './ledger';

export interface ExchangeSnapshot {
  /** when the snapshot's reads were sent, and when they had all answered */
  startedAt: number;
  at: number;
  /** YES bids and NO bids per ticker, [price dollars, count] */
  books: Map<string, { yes: [string, string][]; no: [string, string][] }>;
  markets: Map<string, { bid: string; ask: string; last: string; result: string }>;
  /** each market's price grid, as the exchange publishes it (price_ranges) */
  ranges: Map<string, PriceRange[]>;
  /** the newest trades per ticker, newest first */
  trades: Map<string, { id: string; price: string; count: string; taker: string; time: string }[]>;
  resting: Map<string, { ticker: string; price: string; remaining: string }>;
  /** the exchange's position records, flat and settled ones included */
  positions: Map<string, { position: string; cost: string; realized: string; fees: string }>;
  /** the trader's fills and settlements, and the positions they give (ledger.ts) */
  fills: FillRec[];
  settlements: SettlementRec[];
  ledger: Map<string, LedgerPosition>;
  /** cash balance, dollars */
  balance: string;
}

/**
 * The trader's fills and settlements are read again only when the position records changed
 * (every fill and settlement changes them): two more reads a sample would eat into the trader's
 * rate limit, which the terminal shares.
 */
const history = { key: '', fills: [] as FillRec[], settlements: [] as SettlementRec[] };

type Rec = Record<string, unknown>;
const D = (v: unknown) => new Decimal(String(v ?? 0));

function fillRec(f: Rec, seq: number): FillRec {
  const buysYes = (f.side === 'yes') === (f.action === 'buy');
  const count = D(f.count_fp);
  return { id: String(f.fill_id ?? f.trade_id), ticker: String(f.ticker ?? f.market_ticker), yesDelta: buysYes ? count : count.neg(), yesPrice: D(f.yes_price_dollars), fee: D(f.fee_cost), at: typeof f.ts === 'number' ? f.ts * 1000 : Date.parse(String(f.created_time)), seq };
}

async function readHistory(trader: ApiClient, key: string): Promise<void> {
  if (key === history.key) return;
  const [fills, settlements] = await Promise.all([
    allPages(async (cursor) => {
      const r = await trader.getFills({ query: { limit: 1000, ...(cursor ? { cursor } : {}) } });
      return { items: r.fills as unknown as Rec[], cursor: r.cursor };
    }, 20),
    allPages(async (cursor) => {
      const r = await trader.getSettlements({ query: { limit: 200, ...(cursor ? { cursor } : {}) } });
      return { items: r.settlements as unknown as Rec[], cursor: r.cursor };
    }, 20),
  ]);
  history.key = key;
  // the API lists fills newest first, in the exchange's own order
  history.fills = fills.map((f, i) => fillRec(f, fills.length - i));
  history.settlements = settlements.map((s) => ({ ticker: String(s.ticker), revenue: D(s.revenue), yesCost: D(s.yes_total_cost_dollars), noCost: D(s.no_total_cost_dollars) }));
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
    trader.getPositions({ query: { limit: 1000, count_filter: 'position,total_traded', settlement_status: 'all' } }),
    trader.getBalance(),
  ]);
  await readHistory(trader, JSON.stringify(positions.market_positions ?? []));
  const snap: ExchangeSnapshot = {
    startedAt,
    at: Date.now(),
    books: new Map(),
    markets: new Map(),
    ranges: new Map(),
    trades: new Map(),
    resting: new Map(),
    positions: new Map(),
    fills: history.fills,
    settlements: history.settlements,
    ledger: ledgerOf(history.fills, history.settlements),
    balance: new Decimal(balance.balance).div(100).toFixed(2),
  };
  for (const b of books.orderbooks) {
    snap.books.set(b.market_ticker, { yes: (b.orderbook_fp.yes_dollars ?? []).map(([p, c]) => [String(p), String(c)]), no: (b.orderbook_fp.no_dollars ?? []).map(([p, c]) => [String(p), String(c)]) });
  }
  for (const m of markets) {
    snap.markets.set(m.ticker, { bid: String(m.yes_bid_dollars ?? ''), ask: String(m.yes_ask_dollars ?? ''), last: String(m.last_price_dollars ?? ''), result: String(m.result ?? '') });
    if (m.price_ranges) snap.ranges.set(m.ticker, m.price_ranges.map((r) => ({ start: String(r.start), end: String(r.end), step: String(r.step) })));
  }
  for (const [t, list] of trades) snap.trades.set(t, list.map((x) => ({ id: x.trade_id, price: String(x.yes_price_dollars), count: String(x.count_fp), taker: String(x.taker_side ?? ''), time: String(x.created_time ?? '') })));
  for (const o of orders) if (o.status === 'resting') snap.resting.set(o.order_id, { ticker: o.ticker, price: String(o.yes_price_dollars ?? ''), remaining: String(o.remaining_count_fp) });
  for (const p of positions.market_positions ?? []) {
    snap.positions.set(p.ticker, { position: String(p.position_fp), cost: String(p.market_exposure_dollars), realized: String(p.realized_pnl_dollars), fees: String(p.fees_paid_dollars) });
  }
  return snap;
}
