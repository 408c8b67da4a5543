// Main's side of the recorder's store thread: requests with answers, and batches posted without
// waiting (their commits come back as `committed` notes).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { spawnWorkerThread } from '../../src-exchange/for-main';
import type { RowBatch } from './batch';
import type { FromStore, RecordingStats, ToStore } from './store-protocol';

/** The thread's script: the source under tsx and tests, the bundle's sibling in a build. */
function storeScript(): URL {
  const candidates = [
    new URL('./store-thread.ts', import.meta.url),
    new URL('./recorder-store-thread.js', import.meta.url),
    new URL('../recorder-store-thread.js', import.meta.url),
  ].flatMap((u) => [new URL(u.href.replace('/app.asar/', '/app.asar.unpacked/')), u]);
  const found = candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u)));
  if (!found) throw new Error('the recorder store thread script is missing from this build');
  return found;
}

type Omit2<T> = T extends unknown ? Omit<T, 'req'> : never;

export class RecorderStore {
  private worker: Worker | null = null;
  private nextReq = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; progress?: (pct: number) => void }>();
  /** every batch committed: recording id, rows in it now, the last row number committed */
  onCommitted: (id: string, rows: number, lastN: number) => void = () => undefined;
  onError: (message: string) => void = () => undefined;

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = spawnWorkerThread(storeScript(), null);
    w.unref();
    w.on('message', (m: FromStore) => this.onMessage(m));
    w.on('error', (e) => this.failAll(e));
    w.on('exit', (code) => {
      this.worker = null;
      this.failAll(new Error(`recorder store thread exited (${code})`));
    });
    this.worker = w;
    return w;
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  private onMessage(m: FromStore): void {
    if (m.type === 'committed') {
      this.onCommitted(m.id, m.rows, m.lastN);
      return;
    }
    if (m.type === 'progress') {
      this.waiting.get(m.req)?.progress?.(m.pct);
      return;
    }
    const w = this.waiting.get(m.req);
    if (!w) {
      if (m.type === 'error') this.onError(m.message);
      return;
    }
    this.waiting.delete(m.req);
    if (m.type === 'error') w.reject(new Error(m.message));
    else w.resolve(m.result);
  }

  private call<T>(msg: Omit2<ToStore>, progress?: (pct: number) => void): Promise<T> {
    const w = this.ensure();
    const req = this.nextReq++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(req, { resolve: resolve as (v: unknown) => void, reject, ...(progress ? { progress } : {}) });
      w.postMessage({ ...msg, req });
    });
  }

  open(id: string, file: string): Promise<void> {
    return this.call({ type: 'open', id, file });
  }

  /** Posted, not awaited: the hot path never waits for the store. */
  append(id: string, batch: RowBatch): void {
    this.ensure().postMessage({ type: 'rows', req: -1, id, batch } satisfies ToStore);
  }

  close(id: string): Promise<void> {
    return this.call({ type: 'close', id });
  }

  stats(id: string, file: string): Promise<RecordingStats> {
    return this.call({ type: 'stats', id, file });
  }

  /** `progress` hears DuckDB's progress of the COPY, 0..100 */
  export(id: string, file: string, format: 'parquet' | 'csv', out: string, progress?: (pct: number) => void): Promise<void> {
    return this.call({ type: 'export', id, file, format, out }, progress);
  }

  read(id: string, file: string, fromN: number, limit: number): Promise<RowBatch> {
    return this.call({ type: 'read', id, file, fromN, limit });
  }

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
