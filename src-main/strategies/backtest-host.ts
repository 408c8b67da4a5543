// A backtest off main's event loop: main streams the recording's rows to a worker thread of its
// own (strategy-thread.ts), which decodes them, replays the strategy over them and answers with
// the report. Main only reads pages from the recorder and forwards them, so it keeps answering
// (the kill switch, the page) however slow the strategy is. A watchdog terminates a thread that
// stops reporting progress; the thread is terminated when it has answered, and its memory with it.
import type { BacktestView, SweepBy, SweepView } from '../../src-shared/ipc/strategies';
import type { RowBatch } from '../recorder/batch';
import type { FromWorker, ToWorker } from './protocol';
import type { SandboxLimits } from './sandbox';
import { spawnStrategyThread } from './thread';

export interface BacktestJob {
  code: string;
  params: Record<string, unknown>;
  limits: SandboxLimits;
  /** the recording, page by page */
  pages: AsyncIterable<RowBatch>;
  /** the thread's V8 heap, MiB */
  heapMb: number;
  /** a thread silent for this long (no progress) is terminated, ms */
  silentMs: number;
}

export interface SweepJob extends BacktestJob {
  sweep: { grid?: Record<string, (string | number | boolean)[]>; by: SweepBy; windows?: number };
}

export function backtestInThread(job: BacktestJob): Promise<BacktestView> {
  return inThread<BacktestView>(job);
}

/** A parameter sweep (and walk-forward) in a thread of its own: every backtest of it runs there. */
export function sweepInThread(job: SweepJob): Promise<SweepView> {
  return inThread<SweepView>(job);
}

function inThread<T>(job: BacktestJob & { sweep?: SweepJob['sweep'] }): Promise<T> {
  const w = spawnStrategyThread(job.heapMb);
  w.unref();
  let heard = performance.now();
  let settled = false;
  return new Promise<T>((resolve, reject) => {
    const finish = (err: Error | null, view?: T) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      w.removeAllListeners('message');
      void w.terminate().catch(() => undefined);
      if (err) reject(err);
      else resolve(view!);
    };
    const watchdog = setInterval(() => {
      if (performance.now() - heard > job.silentMs) finish(new Error(`the backtest stopped answering for ${Math.round(job.silentMs / 1000)} s and was stopped`));
    }, 250);
    watchdog.unref();
    w.on('message', (m: FromWorker) => {
      heard = performance.now();
      if (m.type === 'report' || m.type === 'sweep') finish(null, m.view as T);
      else if (m.type === 'failed') finish(new Error(`the backtest failed: ${m.message}`));
    });
    w.on('error', (e) => finish(new Error(`the backtest's thread failed: ${e.message}${/memory/i.test(e.message) ? ` (past its heap of ${job.heapMb} MiB)` : ''}`)));
    w.on('exit', (code) => finish(new Error(`the backtest's thread exited (code ${code})`)));
    const post = (m: ToWorker) => w.postMessage(m);
    void (async () => {
      post({ type: 'backtest', code: job.code, params: job.params, limits: job.limits, ...(job.sweep ? { sweep: job.sweep } : {}) });
      for await (const page of job.pages) {
        if (settled) return;
        heard = performance.now();
        post({ type: 'rows', batch: { ts: page.ts, kind: page.kind, market: page.market, side: page.side, price: page.price, size: page.size } });
      }
      post({ type: 'run' });
    })().catch((e: unknown) => finish(e instanceof Error ? e : new Error(String(e))));
  });
}
