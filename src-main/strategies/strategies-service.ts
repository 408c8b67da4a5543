// Strategies behind TerminalApi: the examples, strategies running live on the active profile
// (their orders through the risk gate), stopping them, and backtests over recordings. Strategies
// are untrusted code: each one, and each backtest, runs in a worker thread of its own (live.ts,
// backtest-host.ts), never on main's event loop. A strategy is bound to the session it started on:
// a profile switch stops it (services.ts calls sessionEnding before the session goes), with its
// orders canceled or left resting as the trader chose at start. The kill switch stops every
// strategy (services.ts calls stopAll when it engages); their resting orders are canceled by the
// kill switch itself and by each strategy as it stops. Stopped and faulted strategies keep only a
// small view (their threads are gone), and only the newest MAX_FINISHED of them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChannelImpl, ParsedArgs } from '../../src-shared/ipc/contract';
import type { BacktestView, ReproducedBacktest, StrategiesView, SweepView } from '../../src-shared/ipc/strategies';
import type { TradeView } from '../../src-shared/ipc/contract';
import type { TradingPort as TradingService } from '../session/active-session';
import type { ActiveSession } from '../session/active-session';
import { StateError } from '../base/errors';
import type { Recorder } from '../recorder/recorder';
import type { RowBatch } from '../recorder/batch';
import { backtestInThread, sweepInThread, type BacktestJob } from './backtest-host';
import { differences, SavedBacktests } from './backtest-saved';
import { figuresOf } from './report';
import { LiveStrategy } from './live';
import { DEFAULT_BUDGET, type StrategyBudget } from './protocol';

const EXAMPLES = ['market-maker.js', 'take-profit-follower.js'];

/** stopped and faulted strategies kept for their view */
const MAX_FINISHED = 20;
/** running strategies at once */
const MAX_RUNNING = 20;
/** backtests at once (each has a thread and the recording in it) */
const MAX_BACKTESTS = 2;
/** how long a profile switch waits for a stopping strategy's acks and cancels, ms */
const SWITCH_SETTLE_MS = 5_000;

export interface StrategiesServiceOptions {
  trading: TradingService;
  recorder: Recorder;
  active: () => ActiveSession | null;
  log?: (m: string) => void;
  /** the bounds strategies run within (tests and the benchmark narrow them) */
  budget?: Partial<StrategyBudget>;
  /** a backtest's thread: its heap (MiB) and how long it may be silent (ms) */
  backtest?: { heapMb?: number; silentMs?: number };
  /** where backtest reports are saved (default: `backtests/` in the recordings' folder) */
  savedDir?: string;
}

export class StrategiesService implements ChannelImpl<'strategies'> {
  private readonly strategies = new Map<string, LiveStrategy>();
  private nextId = 1;
  private backtests = 0;
  private readonly budget: StrategyBudget;
  private readonly saved: SavedBacktests;

  constructor(private readonly opts: StrategiesServiceOptions) {
    this.budget = { ...DEFAULT_BUDGET, ...opts.budget, limits: { ...DEFAULT_BUDGET.limits, ...opts.budget?.limits } };
    this.saved = new SavedBacktests(opts.savedDir ?? path.join(opts.recorder.dir, 'backtests'));
  }

  private log(m: string): void {
    this.opts.log?.(m);
  }

  async getStrategies(): Promise<StrategiesView> {
    // beside the source, or beside the bundle (a chunk of it may sit one folder down)
    const here = path.dirname(fileURLToPath(import.meta.url));
    const read = async (name: string) => (await readFile(path.join(here, 'examples', name), 'utf8').catch(() => '')) || (await readFile(path.join(here, '..', 'examples', name), 'utf8').catch(() => ''));
    const examples = await Promise.all(EXAMPLES.map(async (name) => ({ name, code: await read(name) })));
    return { examples: examples.filter((e) => e.code), running: [...this.strategies.values()].map((s) => s.view()) };
  }

  /** Strategies whose threads are alive (starting or running). */
  runningCount(): number {
    let n = 0;
    for (const s of this.strategies.values()) if (s.running) n++;
    return n;
  }

  async startStrategy(input: ParsedArgs<'startStrategy'>[0]): Promise<StrategiesView> {
    const active = this.opts.active();
    if (!active) throw new StateError('no connected profile: a strategy runs on the active profile');
    if (this.runningCount() >= MAX_RUNNING) throw new StateError(`${MAX_RUNNING} strategies are running already: stop one first`);
    const id = `st-${this.nextId++}`;
    const s = new LiveStrategy({
      id,
      name: input.name,
      code: input.code,
      params: input.params,
      budget: this.budget,
      onSwitch: input.onProfileSwitch ?? 'cancel',
      trading: this.opts.trading,
      active: this.opts.active,
      bound: active,
      log: (m) => this.log(m),
      changed: () => this.changed(),
    });
    this.strategies.set(id, s);
    s.log.push(`started on profile ${active.profileId}; on a profile switch its orders are ${(input.onProfileSwitch ?? 'cancel') === 'cancel' ? 'canceled' : 'left resting'}`);
    // a strategy that faults while it loads shows as faulted (its thread is gone)
    await s.start(Date.now());
    await this.pin();
    return this.getStrategies();
  }

  async stopStrategy(input: ParsedArgs<'stopStrategy'>[0]): Promise<StrategiesView> {
    const s = this.strategies.get(input.id);
    if (!s) throw new StateError(`no strategy ${input.id}`);
    s.end('stopped by the trader', false);
    await this.pin();
    return this.getStrategies();
  }

  /** Stops every strategy (the kill switch). */
  stopAll(why: string): void {
    for (const s of this.strategies.values()) s.end(why, false);
  }

  /**
   * The active session is about to end (a profile switch, another key, the terminal stopping):
   * the strategies bound to it stop, their orders canceled or left as each was started with, and
   * the session waits (a few seconds at most) for those cancels, which go to it and to no other.
   */
  async sessionEnding(old: ActiveSession): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const s of this.strategies.values()) {
      if (!s.running || !s.boundTo(old)) continue;
      const cancel = s.onSwitch === 'cancel';
      this.log(`[strategies] ${s.id} stops: its profile ${old.profileId} is no longer active`);
      s.end(`the profile it was started on (${old.profileId}) is no longer active`, false, cancel);
      if (cancel) stopping.push(s.settle(SWITCH_SETTLE_MS));
    }
    await Promise.all(stopping);
  }

  /** A new session (or none): anything still bound elsewhere stops (it can never send there). */
  onSession(active: ActiveSession | null): void {
    for (const s of this.strategies.values()) if (s.running && (!active || !s.boundTo(active))) s.end('the profile it was started on is no longer active', false, false);
  }

  private changed(): void {
    // the newest finished entries only; the others are forgotten whole
    const finished = [...this.strategies.values()].filter((s) => !s.running);
    for (const s of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) this.strategies.delete(s.id);
    void this.pin();
  }

  /** The markets running strategies watch are streamed whatever the panels show. */
  private async pin(): Promise<void> {
    const s = this.opts.active()?.session;
    if (!s) return;
    const markets = new Set<string>();
    for (const r of this.strategies.values()) if (r.running && r.boundTo(this.opts.active()!)) for (const t of r.watched ?? []) markets.add(t);
    await s.pin('strategies', [...markets]).catch((e: unknown) => this.log(`[strategies] could not stream: ${(e as Error).message}`));
  }

  // ------------------------------------------------------------------ the session's stream

  books(tickers: string[]): void {
    const s = this.opts.active()?.session;
    if (!s) return;
    for (const r of this.strategies.values()) if (r.running) r.onBooks(s, tickers);
  }

  trade(t: TradeView): void {
    for (const r of this.strategies.values()) if (r.running) r.onTrade(t);
  }

  fill(f: Record<string, unknown>): void {
    for (const r of this.strategies.values()) r.onFill(f);
  }

  // ------------------------------------------------------------------ backtests

  /** A backtest over a recording in a thread of its own; the report is saved with what it was made of. */
  async backtestStrategy(input: ParsedArgs<'backtestStrategy'>[0]): Promise<BacktestView> {
    const run = await this.inThread(input.recordingId, Infinity, (job) => backtestInThread({ ...job, code: input.code, params: input.params }));
    const saved = await this.saved.save({ code: input.code, params: input.params, recordingId: input.recordingId, rows: run.rows, view: run.result });
    return { ...run.result, saved };
  }

  /** A parameter sweep (and walk-forward): every backtest of it in one thread, never on main's loop. */
  async sweepStrategy(input: ParsedArgs<'sweepStrategy'>[0]): Promise<SweepView> {
    const sweep = { by: input.by, ...(input.grid ? { grid: input.grid } : {}), ...(input.windows ? { windows: input.windows } : {}) };
    return (await this.inThread(input.recordingId, Infinity, (job) => sweepInThread({ ...job, code: input.code, params: input.params, sweep }))).result;
  }

  /** Runs a saved report again from its id (its source, parameters and the same rows) and compares the figures. */
  async reproduceBacktest(input: ParsedArgs<'reproduceBacktest'>[0]): Promise<ReproducedBacktest> {
    const s = await this.saved.load(input.id);
    const run = await this.inThread(s.info.recordingId, s.info.rows, (job) => backtestInThread({ ...job, code: s.code, params: s.info.params }));
    if (run.rows !== s.info.rows) throw new StateError(`recording ${s.info.recordingId} has ${run.rows} rows where the saved report read ${s.info.rows}`);
    const rerun = figuresOf(run.result);
    return { saved: s.info, figures: s.figures, rerun, differences: differences(s.figures, rerun) };
  }

  /** Streams up to `maxRows` of a recording to a backtest thread started by `start`; answers with its result and the rows sent. */
  private async inThread<T>(recordingId: string, maxRows: number, start: (job: Omit<BacktestJob, 'code' | 'params'>) => Promise<T>): Promise<{ result: T; rows: number }> {
    if (this.backtests >= MAX_BACKTESTS) throw new StateError(`${MAX_BACKTESTS} backtests are running already: wait for one to finish`);
    const rec = this.opts.recorder;
    await rec.read(recordingId, 0, 1); // an unknown recording is refused here, before a thread starts
    let rows = 0;
    async function* pages(): AsyncGenerator<RowBatch> {
      for (let from = 0; rows < maxRows; ) {
        const page = await rec.read(recordingId, from, Math.min(200_000, maxRows - rows));
        if (page.n.length === 0) return;
        rows += page.n.length;
        yield page;
        from = page.n[page.n.length - 1]! + 1;
      }
    }
    this.backtests++;
    try {
      const result = await start({ limits: this.budget.limits, pages: pages(), heapMb: this.opts.backtest?.heapMb ?? 1024, silentMs: this.opts.backtest?.silentMs ?? 30_000 });
      return { result, rows };
    } finally {
      this.backtests--;
    }
  }
}
