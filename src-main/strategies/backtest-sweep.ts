// Parameter sweeps and walk-forward over one recording, in a backtest's worker thread (never on
// main's event loop). The grid is the strategy's own: it declares its parameters and the values
// to try as `module.exports.params = { maxPosition: { default: 5, grid: [3, 5, 8] } }` (or a plain
// list of values); the trader may narrow or replace it. Every combination is backtested over the
// same tape; the results table keeps each one's figures, and the best is chosen by one figure
// (P&L, Sharpe, Sortino, the smallest drawdown, or the win rate). Walk-forward splits the
// recording into equal spans of recording time: for each span but the last, the sweep is fitted
// on it and its best parameters are then tested, unchanged, on the span that follows, so every
// tested figure comes from data the choice never saw.
import Decimal from 'decimal.js';
import type { Tape } from '../../src-exchange/for-main';
import type { SweepBy, SweepRow, SweepView, WalkForwardFold } from '../../src-shared/ipc/strategies';
import { runBacktest } from './backtest';
import { figuresOf, usd, type BacktestReport } from './report';
import { Sandbox, type SandboxLimits } from './sandbox';

type Value = string | number | boolean;
export type Grid = Record<string, Value[]>;

/** the most combinations one sweep runs (each is a whole backtest) */
export const MAX_COMBINATIONS = 64;
/** the most backtests one walk-forward runs (combinations x fitted windows, plus the tests) */
export const MAX_WALK_RUNS = 256;

/**
 * The declaration's schema, built on first use: zod is loaded only by a sweep, not by every
 * strategy thread that starts (its evaluation cost more than QuickJS's, on each thread).
 */
async function declaredSchema() {
  const { z } = await import('zod');
  const Val = z.union([z.string().max(200), z.number().finite(), z.boolean()]);
  return z.record(z.string().max(60), z.union([z.array(Val).min(1).max(20), z.object({ default: Val.optional(), grid: z.array(Val).min(1).max(20).optional() }).passthrough()]));
}
let Declared: ReturnType<typeof declaredSchema> | null = null;

/** The grid a strategy declares (`module.exports.params`), read in a sandbox of its own. */
export async function declaredGrid(code: string, limits: Partial<SandboxLimits>): Promise<Grid> {
  // the runner's api, doing nothing: only the module's top level runs here
  const stub = Object.fromEntries(['place', 'cancel', 'amend', 'position', 'orders', 'balance', 'book', 'params', 'now', 'watch', 'setTimer', 'log'].map((k) => [k, () => undefined]));
  const sb = await Sandbox.load(code, stub, limits);
  const declared = sb.declared;
  sb.dispose();
  if (declared === null) return {};
  const parsed = (await (Declared ??= declaredSchema())).safeParse(declared);
  if (!parsed.success) throw new Error(`the strategy's params declaration: ${parsed.error.issues[0]?.message ?? 'not understood'} (like params: { maxPosition: { default: 5, grid: [3, 5, 8] } })`);
  const grid: Grid = {};
  for (const [k, v] of Object.entries(parsed.data)) {
    const values = Array.isArray(v) ? v : v.grid;
    if (values) grid[k] = values;
  }
  return grid;
}

/** Every combination of the grid over the base parameters, in a fixed order (keys sorted). */
export function combinations(grid: Grid, base: Record<string, Value>): Record<string, Value>[] {
  let out: Record<string, Value>[] = [{ ...base }];
  for (const key of Object.keys(grid).sort()) out = out.flatMap((p) => grid[key]!.map((v) => ({ ...p, [key]: v })));
  return out;
}

/** A report's figure to rank by, higher is better (drawdown: the smaller the better); null ranks last. */
export function score(r: Pick<BacktestReport, 'pnl' | 'sharpe' | 'sortino' | 'maxDrawdown' | 'winRate' | 'fault'>, by: SweepBy): Decimal | null {
  if (r.fault) return null;
  switch (by) {
    case 'pnl':
      return new Decimal(r.pnl);
    case 'maxDrawdown':
      return new Decimal(r.maxDrawdown).neg();
    case 'sharpe':
    case 'sortino':
    case 'winRate':
      return r[by] === null ? null : new Decimal(r[by]);
  }
}

/** Index of the best row by `by` (the first of equals: the grid's order decides ties); null when none ranks. */
export function bestOf<T extends Parameters<typeof score>[0]>(rows: readonly T[], by: SweepBy): number | null {
  let best: number | null = null;
  let bestScore: Decimal | null = null;
  rows.forEach((r, i) => {
    const s = score(r, by);
    if (s !== null && (bestScore === null || s.gt(bestScore))) {
      best = i;
      bestScore = s;
    }
  });
  return best;
}

const rowOf = (params: Record<string, Value>, r: BacktestReport): SweepRow => ({ params, ...figuresOf(r), fault: r.fault });

export interface SweepOptions {
  tape: Tape;
  code: string;
  params: Record<string, Value>;
  limits: Partial<SandboxLimits>;
  /** the trader's grid; absent: the strategy's declared one */
  grid?: Grid;
  by: SweepBy;
  /** walk-forward over this many equal spans of recording time (2 or more); absent: none */
  windows?: number;
  /** told after each backtest, and as each goes */
  onProgress?: (done: number, of: number) => void;
}

/** Row index where each of `n` equal spans of the tape's recording time begins, and its end. */
export function windowsOf(tape: Tape, n: number): number[] {
  const edges = [0];
  if (tape.length === 0) return [0, 0];
  const t0 = tape.tsUs[0]!;
  const span = tape.tsUs[tape.length - 1]! - t0;
  let i = 0;
  for (let w = 1; w < n; w++) {
    const at = t0 + (span * w) / n;
    while (i < tape.length && tape.tsUs[i]! < at) i++;
    edges.push(i);
  }
  edges.push(tape.length);
  return edges;
}

export async function runSweep(o: SweepOptions): Promise<SweepView> {
  const grid = o.grid && Object.keys(o.grid).length ? o.grid : await declaredGrid(o.code, o.limits);
  const combos = combinations(grid, o.params);
  if (combos.length > MAX_COMBINATIONS) throw new Error(`${combos.length} combinations: at most ${MAX_COMBINATIONS} in one sweep (narrow the grid)`);
  const folds = o.windows ? o.windows - 1 : 0;
  const total = combos.length * (1 + folds) + folds;
  if (total > MAX_WALK_RUNS) throw new Error(`${total} backtests: at most ${MAX_WALK_RUNS} in one sweep with walk-forward (fewer windows or a narrower grid)`);
  let done = 0;
  const one = async (params: Record<string, Value>, from?: number, to?: number) => {
    // told within each backtest too, so main's watchdog hears from a long one
    const r = await runBacktest({ tape: o.tape, code: o.code, params, limits: o.limits, onProgress: () => o.onProgress?.(done, total), ...(from !== undefined ? { from, to } : {}) });
    o.onProgress?.(++done, total);
    return r;
  };
  const rows: SweepRow[] = [];
  for (const p of combos) rows.push(rowOf(p, await one(p)));
  const best = bestOf(rows, o.by);
  let walkForward: SweepView['walkForward'] = null;
  if (o.windows) {
    const edges = windowsOf(o.tape, o.windows);
    const at = (i: number) => Math.floor((o.tape.tsUs[Math.min(i, o.tape.length - 1)] ?? 0) / 1000);
    const list: WalkForwardFold[] = [];
    for (let w = 0; w < folds; w++) {
      const fit: SweepRow[] = [];
      for (const p of combos) fit.push(rowOf(p, await one(p, edges[w]!, edges[w + 1]!)));
      const chosen = bestOf(fit, o.by);
      const test = chosen === null ? null : rowOf(combos[chosen]!, await one(combos[chosen]!, edges[w + 1]!, edges[w + 2]!));
      if (chosen === null) o.onProgress?.(++done, total);
      list.push({ fitFrom: at(edges[w]!), fitTo: at(edges[w + 1]! - 1), testFrom: at(edges[w + 1]!), testTo: at(edges[w + 2]! - 1), params: chosen === null ? null : combos[chosen]!, fit: chosen === null ? null : fit[chosen]!, test });
    }
    const testPnl = list.reduce((a, f) => a.plus(f.test?.pnl ?? 0), new Decimal(0));
    walkForward = { windows: o.windows, folds: list, testPnl: usd(testPnl.mul(1e6)) };
  }
  return { grid, by: o.by, rows, best, walkForward };
}
