// Starts the embedded exchange as a child process on a free loopback port and waits for it to
// say where it listens; then reads the credentials it provisioned. The terminal connects to it
// like any remote exchange. The child dies with us: it watches its IPC channel (which closes
// however we end, SIGKILL included), and we kill it on our own exit besides. A slow start is
// waited for with progress in the log; only a start that never comes (10 minutes by default) or
// a child that exits fails, and the child is killed then too.
//
// It imports no schema library: the web host starts it before loading anything else
// (src-main/host/cli.ts), and the credentials file's reader (zod) is loaded once the child runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { StoredCredentialsFile } from '../../src-shared/credentials';
import { simArgs, type SimSettings } from '../../src-shared/cli-args';

/** What we need of a child: a Node child process or an Electron utility process. */
export interface ChildLike {
  stdout: NodeJS.ReadableStream | null;
  stderr: NodeJS.ReadableStream | null;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
  kill(signal?: NodeJS.Signals): boolean | void;
}

export interface EmbeddedExchange {
  port: number;
  baseUrl: string;
  wsUrl: string;
  accounts: StoredCredentialsFile['accounts'];
  /** its FIX gateway from credentials.json (fix_host, fix_port); null when the file names none */
  fix: { host: string; port: number } | null;
  child: ChildLike;
  stop(): Promise<void>;
}

export interface LaunchOptions extends SimSettings {
  /** the program and arguments that run src-exchange/cli (tsx in development, the bundle in a package) */
  command: string;
  args: string[];
  /** how to start it; a Node child process by default (Electron passes a utility process) */
  spawnChild?: (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildLike;
  dataDir: string;
  seed?: number;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** how long a start may take before it is given up (and the child killed); 10 minutes by default */
  timeoutMs?: number;
}

/** How a terminal runs its embedded exchange (the rest of LaunchOptions follows from its data directory). */
export type EmbeddedOptions = Pick<LaunchOptions, 'command' | 'args' | 'env' | 'spawnChild'> & { seed?: number } & SimSettings;

/** Starts the embedded exchange of the terminal whose data directory is `terminalDataDir` (its own: `exchange` in it). */
export function launchEmbedded(terminalDataDir: string, exchange: EmbeddedOptions, log?: (line: string) => void): Promise<EmbeddedExchange> {
  return launchExchange({ ...exchange, dataDir: path.join(terminalDataDir, 'exchange'), ...(log ? { log } : {}) });
}

const START_TIMEOUT_MS = 600_000;
const PROGRESS_EVERY_MS = 10_000;

export async function launchExchange(opts: LaunchOptions): Promise<EmbeddedExchange> {
  const args = [...opts.args, '--port', '0', '--data-dir', opts.dataDir, '--seed', String(opts.seed ?? 1), ...simArgs(opts)];
  const env = { ...process.env, ...opts.env };
  let exited = false;
  const child: ChildLike = opts.spawnChild ? opts.spawnChild(opts.command, args, env) : spawn(opts.command, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env });
  // our own end (process.exit, an uncaught error) takes the child with it
  const killOnExit = () => {
    if (!exited) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  const timeoutMs = opts.timeoutMs ?? START_TIMEOUT_MS;
  const t0 = Date.now();
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    const done = () => {
      clearTimeout(timer);
      clearInterval(progress);
    };
    const timer = setTimeout(() => {
      done();
      child.kill('SIGKILL');
      reject(new Error(`the embedded exchange did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    // a slow machine is waited for, and says so
    const progress = setInterval(() => opts.log?.(`[exchange] still starting (${Math.round((Date.now() - t0) / 1000)} s)`), PROGRESS_EVERY_MS);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      buf += d;
      for (;;) {
        const nl = buf.indexOf('\n');
        if (nl < 0) break;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        opts.log?.(`[exchange] ${line}`);
        const m = /exchange listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (m) {
          done();
          resolve(Number(m[1]));
        }
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => opts.log?.(`[exchange] ${d.trimEnd()}`));
    child.once('exit', (code) => {
      done();
      reject(new Error(`the embedded exchange exited (code ${code}) before listening`));
    });
  });
  const { credentialsOf } = await import('./credentials-file');
  const creds = credentialsOf(opts.dataDir);
  return {
    port,
    baseUrl: creds.base_url,
    wsUrl: creds.ws_url,
    accounts: creds.accounts,
    fix: typeof creds.fix_host === 'string' && Number.isSafeInteger(creds.fix_port) ? { host: creds.fix_host, port: creds.fix_port as number } : null,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
