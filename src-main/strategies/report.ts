// The backtest report: every order decided and every fill, the trade list (round trips, each with
// its P&L, fees and slippage against the mid), the equity curve (P&L marked to the replayed
// books' mid), risk-adjusted figures and exposure; as numbers for the panel and as CSV.
// Money is integers here (micro-dollars; a slippage or a mark at a half tick can leave half a
// micro-dollar) and leaves as decimal strings through decimal.js, never through a float's print.
//
// The figures, stated (README "Backtest report" says the same):
// - The P&L series: the curve's equity (cash plus positions marked to the replayed mid) read at
//   the end of each bucket of `bucketMs` of recording time (default 1 s) from the first event;
//   r_k = equity(k) - equity(k-1), in dollars. Sharpe and Sortino are ratios of those dollar
//   changes, so they do not depend on a capital base (returns on any fixed capital C are r_k / C
//   and the ratio is the same).
// - Sharpe = mean(r) / sd(r), sd the sample standard deviation (n - 1). Per bucket, NOT
//   annualised (recordings are minutes to hours; multiply by sqrt(buckets per period) to scale,
//   which assumes independent buckets). Null with fewer than 2 buckets or no variation.
// - Sortino = mean(r) / sqrt(sum(min(r, 0)^2) / n). Per bucket, not annualised. Null when no
//   bucket lost money.
// - Max drawdown: the largest fall of equity from a running peak, dollars. Its duration: the
//   longest time equity stayed below a running peak (from the peak to the first bucket back at
//   or above it, or to the end), ms of recording time.
// - Exposure: capital at risk, sum over markets of |position| x (mark for YES held, 1 - mark for
//   NO held), averaged over the buckets and its maximum; the largest position held in contracts;
//   the share of time any position was held.
// - Trades: a round trip per market from flat to flat (a fill that turns the position over
//   closes the trade and opens the next with the rest); its P&L against the average entry price,
//   its fees, and its slippage: for each fill, (price - mid) x count for a buy and (mid - price) x
//   count for a sell, the mid being the replayed book's at the fill (a maker fill inside the
//   spread has negative slippage: it earned part of the spread). A trade still open at the end
//   is marked to the last mid. Win rate: closed trades with net P&L above zero over those above
//   or below zero.
import Decimal from 'decimal.js';
import type { BacktestFigures, BacktestTradeView, BacktestView } from '../../src-shared/ipc/strategies';
import type { StrategyFill, StrategyOrder, StrategyRunner } from './runner';

/** One round trip of the trade list, and a report's figures: declared once, in the IPC contract. */
export type TradeRow = BacktestTradeView;
export type ReportFigures = BacktestFigures;

export interface BacktestReport extends ReportFigures {
  orders: StrategyOrder[];
  fills: StrategyFill[];
  tradeList: TradeRow[];
  /** P&L against the start, dollars as decimal strings, at recording times (ms) */
  curve: { t: number; pnl: string }[];
  events: number;
  eventsPerSec: number;
  fault: string | null;
  log: string[];
}

export interface CurvePoint {
  t: number;
  equityMicro: number;
  exposureMicro: number;
}

export const usd = (micro: number | Decimal, dp = 2): string => new Decimal(micro).div(1e6).toFixed(dp);
const px = (ticks: number): string => new Decimal(ticks).div(10_000).toFixed(4);
const cts = (centi: number): string => new Decimal(centi).div(100).toFixed(2);

/** Slippage of one fill against the mid at it, micro-dollars (a cost when positive); 0 without a mid. */
export function slippageMicro(f: StrategyFill): number {
  if (f.mid === undefined || f.mid === null) return 0;
  return f.side === 'bid' ? (f.price - f.mid) * f.count : (f.mid - f.price) * f.count;
}

interface OpenTrade {
  row: TradeRow;
  pos: number;
  /** signed cost of what is held, ticks x centi */
  cost: number;
  entryQty: number;
  entrySum: number;
  exitQty: number;
  exitSum: number;
  maxAbs: number;
  grossMicro: number;
  feeMicro: number;
  slipMicro: number;
}

function openTrade(f: StrategyFill, signed: number): OpenTrade {
  const row: TradeRow = { ticker: f.ticker, direction: signed > 0 ? 'long' : 'short', entryT: f.ts, exitT: null, entryPrice: '', exitPrice: null, contracts: '', fills: 0, gross: '', fees: '', slippage: '', net: '', open: true };
  return { row, pos: 0, cost: 0, entryQty: 0, entrySum: 0, exitQty: 0, exitSum: 0, maxAbs: 0, grossMicro: 0, feeMicro: 0, slipMicro: 0 };
}

function finish(t: OpenTrade, markMid: number | null): TradeRow {
  let gross = t.grossMicro;
  if (t.pos !== 0 && markMid !== null) gross += (markMid - t.cost / t.pos) * t.pos;
  const r = t.row;
  r.entryPrice = px(t.entrySum / Math.max(1, t.entryQty));
  r.exitPrice = t.exitQty ? px(t.exitSum / t.exitQty) : null;
  r.contracts = cts(t.maxAbs);
  r.gross = usd(gross);
  r.fees = usd(t.feeMicro);
  r.slippage = usd(t.slipMicro);
  r.net = usd(gross - t.feeMicro);
  return r;
}

/** One fill into its market's open trade; returns the trade it closed, if any. */
function applyFill(t: OpenTrade, f: StrategyFill, qty: number, share: number): void {
  const signed = f.side === 'bid' ? qty : -qty;
  t.row.fills++;
  t.feeMicro += f.fee * share;
  t.slipMicro += slippageMicro(f) * share;
  if (t.pos === 0 || Math.sign(signed) === Math.sign(t.pos)) {
    t.pos += signed;
    t.cost += signed * f.price;
    t.entryQty += qty;
    t.entrySum += qty * f.price;
  } else {
    const avg = t.cost / t.pos;
    t.grossMicro += (f.price - avg) * -signed;
    t.pos += signed;
    t.cost = avg * t.pos;
    t.exitQty += qty;
    t.exitSum += qty * f.price;
  }
  t.maxAbs = Math.max(t.maxAbs, Math.abs(t.pos));
}

/** The fills as round trips per market, flat to flat; open ones marked to `marks` (YES mid, ticks). */
export function tradeList(fills: readonly StrategyFill[], marks: ReadonlyMap<string, number | null>): TradeRow[] {
  const out: TradeRow[] = [];
  const open = new Map<string, OpenTrade>();
  for (const f of fills) {
    let left = f.count;
    while (left > 0) {
      const signed = f.side === 'bid' ? left : -left;
      let t = open.get(f.ticker);
      if (!t) open.set(f.ticker, (t = openTrade(f, signed)));
      // what closes the position goes into this trade; the rest opens the next one
      const qty = t.pos !== 0 && Math.sign(signed) !== Math.sign(t.pos) ? Math.min(left, Math.abs(t.pos)) : left;
      applyFill(t, f, qty, qty / f.count);
      left -= qty;
      if (t.pos === 0) {
        t.row.exitT = f.ts;
        t.row.open = false;
        out.push(finish(t, null));
        open.delete(f.ticker);
      }
    }
  }
  for (const [ticker, t] of open) out.push(finish(t, marks.get(ticker) ?? null));
  return out.sort((a, b) => a.entryT - b.entryT);
}

/** Equity at the end of each bucket of `bucketMs` from `startMs` (the last point at or before it). */
export function bucketEquity(curve: readonly CurvePoint[], startMs: number, endMs: number, bucketMs: number): CurvePoint[] {
  const out: CurvePoint[] = [];
  if (curve.length === 0) return out;
  let i = 0;
  for (let b = startMs; ; b += bucketMs) {
    const edge = Math.min(b, endMs);
    while (i + 1 < curve.length && curve[i + 1]!.t <= edge) i++;
    out.push({ ...curve[i]!, t: edge });
    if (edge >= endMs) return out;
  }
}

/** Sharpe and Sortino of the per-bucket changes (see the header: per bucket, not annualised). */
export function riskRatios(equity: readonly number[]): { sharpe: number | null; sortino: number | null } {
  const r: number[] = [];
  for (let k = 1; k < equity.length; k++) r.push((equity[k]! - equity[k - 1]!) / 1e6);
  if (r.length < 2) return { sharpe: null, sortino: null };
  const mean = r.reduce((a, b) => a + b, 0) / r.length;
  const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1));
  const down = Math.sqrt(r.reduce((a, b) => a + Math.min(b, 0) ** 2, 0) / r.length);
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return { sharpe: sd > 0 ? round(mean / sd) : null, sortino: down > 0 ? round(mean / down) : null };
}

/** The largest fall from a running peak (micro) and the longest time below one (ms: from the peak to the first point back at or above it, or to the last point). */
export function drawdown(points: readonly { t: number; equityMicro: number }[]): { maxMicro: number; longestMs: number } {
  let peak = -Infinity;
  let peakT = 0;
  let maxMicro = 0;
  let longestMs = 0;
  for (const p of points) {
    if (p.equityMicro >= peak) {
      if (peak > -Infinity) longestMs = Math.max(longestMs, p.t - peakT);
      peak = p.equityMicro;
      peakT = p.t;
    } else maxMicro = Math.max(maxMicro, peak - p.equityMicro);
  }
  const last = points[points.length - 1];
  if (last && last.equityMicro < peak) longestMs = Math.max(longestMs, last.t - peakT);
  return { maxMicro, longestMs };
}

export interface ReportInput {
  runner: StrategyRunner;
  curve: CurvePoint[];
  startMs: number;
  endMs: number;
  inMarketMs: number;
  events: number;
  wallMs: number;
  fault: string | null;
  /** YES mid per market at the end (ticks), for trades still open */
  marks: ReadonlyMap<string, number | null>;
  bucketMs?: number;
}

export function buildReport(x: ReportInput): BacktestReport {
  const bucketMs = x.bucketMs ?? 1000;
  const base = x.curve[0]?.equityMicro ?? 0;
  const buckets = bucketEquity(x.curve, x.startMs, x.endMs, bucketMs);
  const dd = drawdown(buckets.length > 1 ? buckets : x.curve);
  const ratios = riskRatios(buckets.map((b) => b.equityMicro));
  const trades = tradeList(x.runner.fills, x.marks);
  const closed = trades.filter((t) => !t.open);
  const wins = closed.filter((t) => new Decimal(t.net).gt(0)).length;
  const losses = closed.filter((t) => new Decimal(t.net).lt(0)).length;
  let maxContracts = 0;
  const pos = new Map<string, number>();
  for (const f of x.runner.fills) {
    const p = (pos.get(f.ticker) ?? 0) + (f.side === 'bid' ? f.count : -f.count);
    pos.set(f.ticker, p);
    maxContracts = Math.max(maxContracts, Math.abs(p));
  }
  const exposures = buckets.map((b) => b.exposureMicro);
  const span = Math.max(1, x.endMs - x.startMs);
  const last = x.curve[x.curve.length - 1]?.equityMicro ?? base;
  return {
    orders: [...x.runner.orders.values()],
    fills: x.runner.fills,
    tradeList: trades,
    curve: x.curve.map((c) => ({ t: c.t, pnl: usd(c.equityMicro - base) })),
    pnl: usd(last - base),
    fees: usd(x.runner.fees),
    slippage: usd(x.runner.fills.reduce((a, f) => a + slippageMicro(f), 0)),
    maxDrawdown: usd(dd.maxMicro),
    maxDrawdownMs: dd.longestMs,
    ...ratios,
    bucketMs,
    buckets: Math.max(0, buckets.length - 1),
    trades: trades.length,
    wins,
    losses,
    winRate: wins + losses ? wins / (wins + losses) : null,
    timeInMarketPct: Math.round((1000 * x.inMarketMs) / span) / 10,
    avgExposure: usd(exposures.length ? exposures.reduce((a, b) => a + b, 0) / exposures.length : 0),
    maxExposure: usd(exposures.length ? Math.max(...exposures) : 0),
    maxContracts: cts(maxContracts),
    events: x.events,
    eventsPerSec: Math.round(x.events / Math.max(1e-3, x.wallMs / 1000)),
    fault: x.fault,
    log: [...x.runner.log],
  };
}

/** The figures alone (what a sweep compares and a saved report is reproduced by). */
export function figuresOf(r: ReportFigures): ReportFigures {
  const { pnl, fees, slippage, maxDrawdown, maxDrawdownMs, sharpe, sortino, bucketMs, buckets, trades, wins, losses, winRate, timeInMarketPct, avgExposure, maxExposure, maxContracts } = r;
  return { pnl, fees, slippage, maxDrawdown, maxDrawdownMs, sharpe, sortino, bucketMs, buckets, trades, wins, losses, winRate, timeInMarketPct, avgExposure, maxExposure, maxContracts };
}

/** The report as CSV: a summary block, then one row per trade, per fill and per curve point. */
export function reportCsv(r: BacktestReport): string {
  const f = figuresOf(r);
  const iso = (t: number | null) => (t === null ? '' : new Date(t).toISOString());
  const lines = [
    'section,key,value',
    ...Object.entries(f).map(([k, v]) => `summary,${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)},${v === null ? '' : String(v)}`),
    `summary,orders,${r.orders.length}`,
    `summary,fills,${r.fills.length}`,
    '',
    'trade,entry_time,exit_time,ticker,direction,entry_price,exit_price,contracts,fills,gross,fees,slippage,net,open',
    ...r.tradeList.map((t) => `trade,${iso(t.entryT)},${iso(t.exitT)},${t.ticker},${t.direction},${t.entryPrice},${t.exitPrice ?? ''},${t.contracts},${t.fills},${t.gross},${t.fees},${t.slippage},${t.net},${t.open}`),
    '',
    'fill,time,order_id,ticker,side,price,count,maker,fee,mid',
    ...r.fills.map((x) => `fill,${iso(x.ts)},${x.orderId},${x.ticker},${x.side},${px(x.price)},${cts(x.count)},${x.maker},${usd(x.fee, 6)},${x.mid === undefined || x.mid === null ? '' : px(x.mid)}`),
    '',
    'curve,time,pnl',
    ...r.curve.map((c) => `curve,${iso(c.t)},${c.pnl}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The report as the panel gets it (lists capped, prices and counts as decimal strings). */
export function reportView(r: BacktestReport): BacktestView {
  return {
    ...figuresOf(r),
    events: r.events,
    eventsPerSec: r.eventsPerSec,
    fault: r.fault,
    orders: r.orders.length,
    fills: r.fills.slice(0, 5000).map((f) => ({ t: f.ts, ticker: f.ticker, side: f.side, price: px(f.price), count: cts(f.count), maker: f.maker, fee: usd(f.fee, 6), mid: f.mid === undefined || f.mid === null ? null : px(f.mid) })),
    tradeList: r.tradeList.slice(0, 5000),
    curve: r.curve,
    log: r.log.slice(-200),
    csv: reportCsv(r),
  };
}
