// One strategy's worker thread: its sandbox and its runner live here, off main's event loop.
// Live, main posts it events one by one and it answers each with what the strategy decided
// (protocol.ts); it never reaches the exchange itself (main's venue sends through the risk gate).
// For a backtest, main streams it the recording's rows; it decodes them, replays, and answers
// with the report, telling main how far it is as it goes (main's watchdog listens for that).
// Budgets enforced here: the sandbox's (heap, stack, CPU per event, through QuickJS's interrupt)
// and CPU per wall-clock second; main enforces the rest (an answer within answerMs, the worker's
// V8 heap, the queue of events), and terminates this thread whenever a bound is passed.
import { parentPort } from 'node:worker_threads';
import { decodeTape } from '../../src-exchange/for-main';
import type { RowBatch } from '../recorder/batch';
import { runBacktest } from './backtest';
import { runSweep } from './backtest-sweep';
import type { Decisions, FromWorker, LiveEvent, StrategyBudget, ToWorker } from './protocol';
import { reportView } from './report';
import { StrategyRunner, type StrategyOrder, type Venue } from './runner';
import { threadCpuMs } from './thread-cpu';

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);

// ------------------------------------------------------------------ live

/** The strategy's venue in its thread: decisions are collected and go to main with the answer. */
class Outbox implements Venue {
  places: StrategyOrder[] = [];
  cancels: string[] = [];
  place(o: StrategyOrder): void {
    this.places.push({ ...o });
  }
  cancel(o: StrategyOrder): void {
    this.cancels.push(o.id);
  }
}

let runner: StrategyRunner | null = null;
let budget: StrategyBudget | null = null;
const outbox = new Outbox();
let logs: string[] = [];
let lastWatched = '';
let lastTimer = 0;
let fault: string | null = null;
/** time spent in handlers in the current wall-clock second, and the thread's CPU time at its start */
const window = { sec: 0, busyMs: 0, cpuAt: null as number | null };

/** the thread's CPU time since the second began (its wall time in handlers where the OS does not say it) */
function cpuThisSecond(): number {
  const now = window.cpuAt === null ? null : threadCpuMs();
  return now === null || window.cpuAt === null ? window.busyMs : now - window.cpuAt;
}

function decisions(): Decisions {
  const r = runner;
  const out: Decisions = { places: outbox.places, cancels: outbox.cancels, logs, summary: { fills: r?.fills.length ?? 0, fees: r?.fees ?? 0, positions: r ? [...r.positions] : [] }, fault };
  outbox.places = [];
  outbox.cancels = [];
  logs = [];
  if (r) {
    const w = r.watched ? JSON.stringify([...r.watched]) : 'null';
    if (w !== lastWatched) {
      lastWatched = w;
      out.watched = r.watched ? [...r.watched] : null;
    }
    if (r.timerMs !== lastTimer) {
      lastTimer = r.timerMs;
      out.timerMs = r.timerMs;
    }
  }
  return out;
}

function stopWith(message: string): void {
  fault = message;
  logs.push(`stopped: ${message}`);
  // the runner stops deciding; main cancels its orders (it does not take the worker's word for them)
  if (runner) runner.stopped = true;
}

function handle(ev: LiveEvent): void {
  const r = runner;
  if (!r || r.stopped || !budget) return;
  r.setTime(ev.now);
  const t0 = performance.now();
  const sec = Math.floor(t0 / 1000);
  if (sec !== window.sec) Object.assign(window, { sec, busyMs: 0, cpuAt: threadCpuMs() });
  switch (ev.kind) {
    case 'book':
      r.book(ev.top);
      break;
    case 'trade':
      r.trade(ev.trade);
      break;
    case 'fill':
      r.fill(ev.fill);
      break;
    case 'order':
      r.orderUpdate(ev.id, ev.status, ev.reason);
      break;
    case 'timer':
      r.timer();
      break;
  }
  const t1 = performance.now();
  if (r.fault && fault === null) fault = r.fault.message;
  window.busyMs += t1 - t0;
  // past the budget in wall time, it is stopped only if the thread also had that much CPU in this
  // second (where the OS says it): a busy machine that kept it waiting does not use its budget
  if (fault === null && window.busyMs > budget.cpuPerSecondMs && cpuThisSecond() > budget.cpuPerSecondMs) stopWith(`the strategy ran past its CPU budget of ${budget.cpuPerSecondMs} ms per second and was stopped`);
}

async function startLive(m: Extract<ToWorker, { type: 'start' }>): Promise<void> {
  budget = m.budget;
  try {
    runner = await StrategyRunner.start(
      {
        code: m.code,
        params: m.params,
        venue: outbox,
        limits: m.budget.limits,
        maxOrdersPerSec: m.budget.maxOrdersPerSec,
        maxLogLinesPerSec: m.budget.maxLogLinesPerSec,
        onLog: (line) => logs.push(line),
      },
      m.now,
    );
    if (runner.fault) fault = runner.fault.message;
  } catch (e) {
    fault = (e as Error).message;
    logs.push(`stopped: ${fault}`);
  }
  post({ type: 'started', ...decisions() });
}

// ------------------------------------------------------------------ backtest

let backtest: (Omit<Extract<ToWorker, { type: 'backtest' }>, 'type'> & { rows: Pick<RowBatch, 'ts' | 'kind' | 'market' | 'side' | 'price' | 'size'>[] }) | null = null;

async function runRecorded(): Promise<void> {
  const b = backtest!;
  const cat = <K extends keyof (typeof b.rows)[number]>(k: K) => b.rows.flatMap((x) => x[k] as unknown[]) as (typeof b.rows)[number][K];
  const tape = decodeTape({ ts: cat('ts'), kind: cat('kind'), market: cat('market'), side: cat('side'), price: cat('price'), size: cat('size') });
  b.rows = [];
  const onProgress = (events: number, of: number) => post({ type: 'progress', events, of });
  if (b.sweep) {
    // a sweep's progress is in backtests done
    const params = b.params as Record<string, string | number | boolean>;
    const view = await runSweep({ tape, code: b.code, params, limits: b.limits, by: b.sweep.by, onProgress, ...(b.sweep.grid ? { grid: b.sweep.grid } : {}), ...(b.sweep.windows ? { windows: b.sweep.windows } : {}) });
    post({ type: 'sweep', view });
    return;
  }
  const r = await runBacktest({ tape, code: b.code, params: b.params, limits: b.limits, onProgress });
  post({ type: 'report', view: reportView(r) });
}

// ------------------------------------------------------------------ messages

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'start':
      void startLive(m);
      return;
    case 'event':
      handle(m.event);
      post({ type: 'done', seq: m.seq, ...decisions() });
      return;
    case 'backtest':
      backtest = { code: m.code, params: m.params, limits: m.limits, ...(m.sweep ? { sweep: m.sweep } : {}), rows: [] };
      return;
    case 'rows':
      backtest?.rows.push(m.batch);
      return;
    case 'run':
      runRecorded().catch((e: unknown) => post({ type: 'failed', message: (e as Error).message }));
      return;
  }
});
