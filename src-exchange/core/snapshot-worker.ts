// Snapshots off the event loop. Serialising the whole exchange state takes tens to hundreds of
// milliseconds; under sustained flow there is no quiet moment, so doing it on the exchange's
// event loop stalls every request behind it. Instead a worker thread keeps a replica of the core
// that follows the journal's files (it reads what the journal already wrote, so the event loop
// does nothing extra per command), serialises snapshots and writes them durably under the
// journal's temp name; the exchange only renames the finished file into place. See
// snapshot-worker-thread.ts for the replica.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export type ToSnapshotWorker = { type: 'snapshot'; id: number; throughSeq: number };
export type FromSnapshotWorker =
  | { type: 'snapshot'; id: number; throughSeq: number }
  | { type: 'failed'; message: string };

/** The thread's script: the source under tsx and tests, the bundle's sibling in a build. */
export function snapshotWorkerScript(): URL | null {
  const candidates = [
    new URL('./snapshot-worker-thread.ts', import.meta.url),
    new URL('./snapshot-worker-thread.js', import.meta.url),
    new URL('../snapshot-worker-thread.js', import.meta.url),
  ].flatMap((u) => [new URL(u.href.replace('/app.asar/', '/app.asar.unpacked/')), u]); // packaged: unpacked first
  return candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u))) ?? null;
}

/** A worker thread from a script, `.ts` included under tsx and tests (the recorder's store uses it too). */
export function spawnWorkerThread(script: URL, workerData: unknown): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { workerData });
  // Source run (tsx, vitest): Node will not start a worker from a .ts file, so the thread first
  // registers tsx's loader, then imports the script.
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(code, { eval: true, workerData });
}

/** What the worker needs of the journal: how far it is on disk. */
interface Followed {
  readonly durableSeq: number;
}

export class SnapshotWorker {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: { throughSeq: number }) => void; reject: (e: Error) => void }>();
  private failure: Error | null = null;
  /** closed on purpose: not a failure worth a log line */
  closing = false;

  /** Start following `journal` (stored in `dir`); null when the thread's script is not there. */
  static start(journal: Followed, dir: string): SnapshotWorker | null {
    const script = snapshotWorkerScript();
    return script ? new SnapshotWorker(journal, dir, script) : null;
  }

  private constructor(
    private readonly journal: Followed,
    dir: string,
    script: URL,
  ) {
    this.worker = spawnWorkerThread(script, { dir });
    this.worker.unref();
    this.worker.on('message', (msg: FromSnapshotWorker) => {
      if (msg.type === 'failed') this.fail(new Error(`snapshot worker: ${msg.message}`));
      else if (msg.type === 'snapshot') {
        const w = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        w?.resolve({ throughSeq: msg.throughSeq });
      }
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`snapshot worker exited (code ${code})`)));
  }

  /** Why it stopped, if it did: snapshots then fall back to the event loop. */
  get failed(): Error | null {
    return this.failure;
  }

  /**
   * A snapshot of the state through the journal's durable seq (all on disk), encoded and written
   * durably by the thread at the journal's temp path for that seq, for `Journal.adoptSnapshotFile`.
   */
  snapshot(): Promise<{ throughSeq: number }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'snapshot', id, throughSeq: this.journal.durableSeq } satisfies ToSnapshotWorker);
    });
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
    void this.worker.terminate();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.fail(new Error('snapshot worker closed'));
    await this.worker.terminate();
  }
}
