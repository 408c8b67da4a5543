// The backtest report: every order decided and every fill, the equity curve (P&L marked to the
// replayed books' mid), the largest drawdown, the win rate of closing fills, fees paid and the
// share of time a position was held; as numbers for the panel and as CSV.
import type { StrategyFill, StrategyOrder, StrategyRunner } from './runner';

export interface BacktestReport {
  orders: StrategyOrder[];
  fills: StrategyFill[];
  /** P&L against the start, dollars as decimal strings, at recording times (ms) */
  curve: { t: number; pnl: string }[];
  pnl: string;
  maxDrawdown: string;
  wins: number;
  losses: number;
  /** of closing fills that made or lost money; null when none closed */
  winRate: number | null;
  fees: string;
  timeInMarketPct: number;
  events: number;
  eventsPerSec: number;
  fault: string | null;
  log: string[];
}

const usd = (micro: number) => (micro / 1e6).toFixed(2);

export function buildReport(x: {
  runner: StrategyRunner;
  curve: { t: number; equityMicro: number }[];
  startMs: number;
  endMs: number;
  inMarketMs: number;
  events: number;
  wallMs: number;
  fault: string | null;
}): BacktestReport {
  const base = x.curve[0]?.equityMicro ?? 0;
  let peak = -Infinity;
  let dd = 0;
  for (const c of x.curve) {
    peak = Math.max(peak, c.equityMicro);
    dd = Math.max(dd, peak - c.equityMicro);
  }
  // closing fills against the average cost of the position they reduce
  let wins = 0;
  let losses = 0;
  const book = new Map<string, { pos: number; cost: number }>();
  for (const f of x.runner.fills) {
    const b = book.get(f.ticker) ?? { pos: 0, cost: 0 };
    const signed = f.side === 'bid' ? f.count : -f.count;
    if (b.pos !== 0 && Math.sign(signed) !== Math.sign(b.pos)) {
      const closing = Math.min(Math.abs(signed), Math.abs(b.pos));
      const avg = b.cost / b.pos;
      const pnl = (f.side === 'ask' ? f.price - avg : avg - f.price) * closing - (f.fee * closing) / f.count;
      if (pnl > 0) wins++;
      else if (pnl < 0) losses++;
      b.pos += Math.sign(signed) * closing;
      b.cost = avg * b.pos;
      const rest = Math.abs(signed) - closing;
      if (rest > 0) {
        // the fill turned the position over: the rest opens at its price
        b.pos = Math.sign(signed) * rest;
        b.cost = b.pos * f.price;
      }
    } else {
      b.pos += signed;
      b.cost += signed * f.price;
    }
    book.set(f.ticker, b);
  }
  const span = Math.max(1, x.endMs - x.startMs);
  const last = x.curve[x.curve.length - 1]?.equityMicro ?? base;
  return {
    orders: [...x.runner.orders.values()],
    fills: x.runner.fills,
    curve: x.curve.map((c) => ({ t: c.t, pnl: usd(c.equityMicro - base) })),
    pnl: usd(last - base),
    maxDrawdown: usd(dd),
    wins,
    losses,
    winRate: wins + losses ? wins / (wins + losses) : null,
    fees: usd(x.runner.fees),
    timeInMarketPct: Math.round((1000 * x.inMarketMs) / span) / 10,
    events: x.events,
    eventsPerSec: Math.round(x.events / Math.max(1e-3, x.wallMs / 1000)),
    fault: x.fault,
    log: [...x.runner.log],
  };
}

/** The report as CSV: a summary block, then one row per fill and one per curve point. */
export function reportCsv(r: BacktestReport): string {
  const lines = [
    'section,key,value',
    `summary,pnl,${r.pnl}`,
    `summary,max_drawdown,${r.maxDrawdown}`,
    `summary,win_rate,${r.winRate === null ? '' : r.winRate.toFixed(4)}`,
    `summary,fees,${r.fees}`,
    `summary,time_in_market_pct,${r.timeInMarketPct}`,
    `summary,orders,${r.orders.length}`,
    `summary,fills,${r.fills.length}`,
    '',
    'fill,time,order_id,ticker,side,price,count,maker,fee',
    ...r.fills.map((f) => `fill,${new Date(f.ts).toISOString()},${f.orderId},${f.ticker},${f.side},${(f.price / 10_000).toFixed(4)},${(f.count / 100).toFixed(2)},${f.maker},${(f.fee / 1e6).toFixed(6)}`),
    '',
    'curve,time,pnl',
    ...r.curve.map((c) => `curve,${new Date(c.t).toISOString()},${c.pnl}`),
  ];
  return `${lines.join('\n')}\n`;
}
