// Every process a bench starts is stopped however the bench ends, and no wait depends on the
// machine's speed.
//  - `own(child)`: the child is killed when this process exits (normally, by process.exit, by an
//    uncaught error, or on SIGINT/SIGTERM/SIGHUP). Children that can die with us on their own
//    should also get an IPC channel (`stdio: [..., 'ipc']`): the web host and the exchange exit
//    when it closes, which also covers this process being SIGKILLed.
//  - `dieWithParent()`: a bench (or the feed) whose parent is gone (SIGKILLed: its channel closed
//    or this process was re-parented) kills what it owns and exits.
//  - `waitFor(what, check, opts)`: polls a condition without a deadline while progress is seen,
//    printing how long it has waited; fails only when the process it waits on died, or when
//    nothing moved for `stallMs` (default 10 minutes).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const owned = new Set<ChildProcess>();
let hooked = false;

function killOwned(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const c of owned) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        c.kill(signal);
      } catch {
        // already gone
      }
    }
  }
  owned.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => killOwned());
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      console.error(`\n${sig}: stopping ${owned.size} child process(es)`);
      killOwned();
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
  process.on('uncaughtException', (e) => {
    console.error(e);
    killOwned();
    process.exit(1);
  });
  process.on('unhandledRejection', (e) => {
    console.error(e);
    killOwned();
    process.exit(1);
  });
}

/** Kill `child` when this process ends, whichever way it ends. Returns it. */
export function own<T extends ChildProcess>(child: T): T {
  hook();
  owned.add(child);
  child.once('exit', () => owned.delete(child));
  return child;
}

/** Stop a child: SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

let watching = false;
/** Exit (killing what we own) when our parent is gone: its IPC channel closed, or we were re-parented. */
export function dieWithParent(): void {
  if (watching) return;
  watching = true;
  hook();
  const parent = process.ppid;
  const gone = (why: string) => {
    console.error(`${why}: stopping`);
    killOwned();
    process.exit(1);
  };
  if (process.connected) {
    process.on('disconnect', () => gone('parent closed its channel'));
    // the channel only watches: it must not keep a finished bench alive
    process.channel?.unref();
  }
  setInterval(() => {
    if (process.ppid !== parent) gone(`parent ${parent} is gone`);
  }, 500).unref();
}

export interface WaitOptions {
  /** a process whose exit means the wait can never succeed */
  child?: ChildProcess;
  /** something that changes while the wait makes progress (log lines seen, bytes read...) */
  progress?: () => unknown;
  /** what to print beside the elapsed time */
  status?: () => string;
  /** how long nothing may move before the wait fails (default 10 minutes) */
  stallMs?: number;
  pollMs?: number;
  reportEveryMs?: number;
}

/** Polls `check` until it returns a value other than undefined/false, printing progress. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, opts: WaitOptions = {}): Promise<T> {
  const t0 = Date.now();
  const stallMs = opts.stallMs ?? 600_000;
  let lastProgress = opts.progress?.();
  let movedAt = t0;
  let reportedAt = t0;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    const c = opts.child;
    if (c && (c.exitCode !== null || c.signalCode !== null)) throw new Error(`${what}: the process exited (${c.exitCode ?? c.signalCode}) while waited on${opts.status ? `; ${opts.status()}` : ''}`);
    const now = Date.now();
    const p = opts.progress?.();
    if (p !== lastProgress) {
      lastProgress = p;
      movedAt = now;
    }
    if (now - movedAt > stallMs) throw new Error(`${what}: nothing moved for ${Math.round(stallMs / 1000)} s${opts.status ? `; ${opts.status()}` : ''}`);
    if (now - reportedAt >= (opts.reportEveryMs ?? 10_000)) {
      reportedAt = now;
      console.log(`  ... still waiting for ${what} (${Math.round((now - t0) / 1000)} s${opts.status ? `; ${opts.status()}` : ''})`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the bundles a bench serves or spawns: the renderer (out/renderer) and, with `host`, the
 * web host (out/host). BENCH_BUILT=1 says they are fresh from this tree (`npm test` built them
 * for e2e moments before its bench stage; `bench/run.ts` builds them once before the first bench
 * that calls this): a bench then uses them as they are.
 */
export async function buildBundles(opts: { host: boolean }): Promise<void> {
  if (process.env.BENCH_BUILT === '1') {
    console.log('  bundles: as npm test built them for this run (BENCH_BUILT=1), not built again');
    return;
  }
  const run = (args: string[], what: string) =>
    new Promise<void>((resolve, reject) => {
      const r = own(spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }));
      r.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} build failed (${code})`))));
    });
  await run([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn'], 'renderer');
  if (opts.host) await run([path.join(root, 'scripts', 'build-host.mjs')], 'web host');
}
