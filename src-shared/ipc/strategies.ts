// Strategies over IPC: what main's door parses before a strategy starts live, stops, or is
// backtested over a recording, and the views it answers with. The code is the strategy's own
// text; main runs it only inside its sandbox (src-main/strategies/sandbox.ts).
import { z } from 'zod';
import { RecordingId } from './recordings';

const Code = z.string().min(1).max(200_000);
const Params = z.record(z.string().max(60), z.union([z.string().max(200), z.number().finite(), z.boolean()]));

/**
 * A strategy is bound to the profile it starts on; when the trader activates another profile it
 * stops, and its orders are canceled (`cancel`, the default) or left resting (`leave`).
 */
export const OnProfileSwitch = z.enum(['cancel', 'leave']);
export const StartStrategyInput = z.object({ name: z.string().trim().min(1).max(60), code: Code, params: Params, onProfileSwitch: OnProfileSwitch.optional() }).strict();
export const StrategyRef = z.object({ id: z.string().regex(/^st-\d{1,9}$/) }).strict();
export const BacktestInput = z.object({ code: Code, params: Params, recordingId: RecordingId }).strict();

/** The figure a sweep ranks by (maxDrawdown: the smallest is best). */
export const SweepBy = z.enum(['pnl', 'sharpe', 'sortino', 'maxDrawdown', 'winRate']);
export type SweepBy = z.infer<typeof SweepBy>;
const GridValues = z.array(z.union([z.string().max(200), z.number().finite(), z.boolean()])).min(1).max(20);
/**
 * A parameter sweep over a recording: every combination of `grid` (absent or empty: the grid the
 * strategy declares as `module.exports.params`) over `params`, ranked by `by`; with `windows`,
 * walk-forward over that many equal spans of the recording (fit on one, test on the next).
 */
export const SweepInput = z
  .object({ code: Code, params: Params, recordingId: RecordingId, grid: z.record(z.string().max(60), GridValues).optional(), by: SweepBy, windows: z.number().int().min(2).max(10).optional() })
  .strict();
/** A saved backtest report (its id as `backtestStrategy` answered it). */
export const SavedBacktestRef = z.object({ id: z.string().regex(/^bt-[0-9a-z-]{1,60}$/) }).strict();

/** A report's figures: money as decimal strings (dollars); Sharpe and Sortino per bucket of `bucketMs`, not annualised. */
export interface BacktestFigures {
  pnl: string;
  fees: string;
  /** against the replayed mid at each fill (a cost when positive) */
  slippage: string;
  maxDrawdown: string;
  /** the longest time below a running peak, recording ms */
  maxDrawdownMs: number;
  sharpe: number | null;
  sortino: number | null;
  bucketMs: number;
  buckets: number;
  /** round trips, flat to flat */
  trades: number;
  wins: number;
  losses: number;
  winRate: number | null;
  timeInMarketPct: number;
  /** capital at risk: time-average and maximum, dollars; the largest position, contracts */
  avgExposure: string;
  maxExposure: string;
  maxContracts: string;
}

/** One round trip of the trade list. */
export interface BacktestTradeView {
  ticker: string;
  direction: 'long' | 'short';
  entryT: number;
  /** null while open at the end */
  exitT: number | null;
  /** average YES prices, dollars */
  entryPrice: string;
  exitPrice: string | null;
  /** the most contracts held in it */
  contracts: string;
  fills: number;
  /** dollars: P&L before fees, fees, slippage against the mid, P&L after fees */
  gross: string;
  fees: string;
  slippage: string;
  net: string;
  open: boolean;
}

export type SweepRow = BacktestFigures & { params: Record<string, string | number | boolean>; fault: string | null };
export interface WalkForwardFold {
  /** recording ms */
  fitFrom: number;
  fitTo: number;
  testFrom: number;
  testTo: number;
  /** the best parameters on the fit span (null: none ranked) */
  params: Record<string, string | number | boolean> | null;
  fit: SweepRow | null;
  test: SweepRow | null;
}
export interface SweepView {
  grid: Record<string, (string | number | boolean)[]>;
  by: SweepBy;
  rows: SweepRow[];
  /** index into rows; null when none ranked */
  best: number | null;
  walkForward: { windows: number; folds: WalkForwardFold[]; testPnl: string } | null;
}

/** What a saved report was made of: enough to run it again and get the same figures. */
export interface SavedBacktestInfo {
  id: string;
  savedAt: number;
  /** sha256 of the strategy's source, hex */
  codeHash: string;
  recordingId: string;
  /** the recording's rows the backtest read (a re-run reads the same) */
  rows: number;
  params: Record<string, string | number | boolean>;
}

export interface ReproducedBacktest {
  saved: SavedBacktestInfo;
  figures: BacktestFigures;
  rerun: BacktestFigures;
  /** the figures that differ (none: reproduced) */
  differences: string[];
}

export interface StrategyRunView {
  id: string;
  name: string;
  status: 'running' | 'stopped' | 'faulted';
  fault: string | null;
  log: string[];
  orders: { id: string; ticker: string; side: string; price: string; count: string; filled: string; status: string; reason: string }[];
  fills: number;
  /** YES contracts per market */
  positions: Record<string, string>;
  fees: string;
}

export interface StrategiesView {
  examples: { name: string; code: string }[];
  running: StrategyRunView[];
}

export interface BacktestView extends BacktestFigures {
  events: number;
  eventsPerSec: number;
  fault: string | null;
  orders: number;
  /** the fills (at most 5,000), YES prices and counts as decimal strings */
  fills: { t: number; ticker: string; side: string; price: string; count: string; maker: boolean; fee: string; mid: string | null }[];
  /** the round trips (at most 5,000) */
  tradeList: BacktestTradeView[];
  /** where it was saved (absent: not saved, e.g. a backtest inside a test) */
  saved?: SavedBacktestInfo;
  curve: { t: number; pnl: string }[];
  log: string[];
  csv: string;
}
