// What crosses between main and a strategy's worker thread (strategy-thread.ts). Plain data only:
// main sends the strategy its events, the worker answers each with the decisions the strategy
// made while handling it (orders to place, orders to cancel), its log lines and a small summary.
// Main never runs the strategy's code; the worker never reaches the exchange.
import type { RowBatch } from '../recorder/batch';
import type { BacktestView, SweepBy, SweepView } from '../../src-shared/ipc/strategies';
import type { SandboxLimits } from './sandbox';
import type { BookTop, StrategyFill, StrategyOrder } from './runner';

/** The bounds a strategy runs within. */
export interface StrategyBudget {
  /** the sandbox's own: heap, stack, CPU per event and for loading */
  limits: SandboxLimits;
  /** CPU its handlers may take in any wall-clock second, ms (the worker stops it past this) */
  cpuPerSecondMs: number;
  /** how long main waits for the worker to answer an event before it terminates it, ms */
  answerMs: number;
  /** how long main waits for the worker to load the strategy, ms (the thread starts, then the sandbox loads) */
  startMs: number;
  /** the worker's V8 heap, MiB (its Worker resourceLimits) */
  heapMb: number;
  /** output caps */
  maxOrdersPerSec: number;
  maxLogLinesPerSec: number;
  /** events main lets queue at the worker before it stops the strategy as unable to keep up */
  maxQueued: number;
}

export const DEFAULT_BUDGET: StrategyBudget = {
  limits: { memoryBytes: 32 * 1024 * 1024, cpuMs: 100, loadMs: 2_000, stackBytes: 512 * 1024 },
  cpuPerSecondMs: 500,
  answerMs: 3_000,
  startMs: 60_000,
  heapMb: 96,
  maxOrdersPerSec: 20,
  maxLogLinesPerSec: 50,
  maxQueued: 2_000,
};

/** An event for a live strategy. */
export type LiveEvent =
  | { kind: 'book'; now: number; top: BookTop }
  | { kind: 'trade'; now: number; trade: { ticker: string; price: number; count: number; takerSide: 'yes' | 'no' } }
  | { kind: 'fill'; now: number; fill: StrategyFill }
  | { kind: 'order'; now: number; id: string; status: StrategyOrder['status']; reason: string }
  | { kind: 'timer'; now: number };

export type ToWorker =
  | { type: 'start'; code: string; params: Record<string, unknown>; now: number; budget: StrategyBudget }
  | { type: 'event'; seq: number; event: LiveEvent }
  | { type: 'backtest'; code: string; params: Record<string, unknown>; limits: SandboxLimits; sweep?: { grid?: Record<string, (string | number | boolean)[]>; by: SweepBy; windows?: number } }
  | { type: 'rows'; batch: Pick<RowBatch, 'ts' | 'kind' | 'market' | 'side' | 'price' | 'size'> }
  | { type: 'run' };

/** What a strategy did while it handled one event (or loaded). */
export interface Decisions {
  places: StrategyOrder[];
  cancels: string[];
  logs: string[];
  /** set when it changed */
  watched?: string[] | null;
  timerMs?: number;
  summary: { fills: number; fees: number; positions: [string, number][] };
  /** the strategy stopped on a fault while handling it */
  fault: string | null;
}

export type FromWorker =
  | ({ type: 'started' } & Decisions)
  | ({ type: 'done'; seq: number } & Decisions)
  | { type: 'progress'; events: number; of: number }
  | { type: 'report'; view: BacktestView }
  | { type: 'sweep'; view: SweepView }
  | { type: 'failed'; message: string };
