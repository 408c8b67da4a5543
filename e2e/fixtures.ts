// End-to-end fixture: a real web host (same main services, built renderer) with its embedded
// exchange, started fresh per spec in its own data dir; a page opened on its tokened URL.
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const artifacts = path.join(root, 'e2e', 'artifacts');
mkdirSync(artifacts, { recursive: true });

export interface Terminal {
  url: string;
  dataDir: string;
  logs: string[];
  /** credentials the embedded exchange provisioned (for a second party acting over REST; kept from before the terminal stripped the file) */
  credentials(): { base_url: string; ws_url: string; accounts: { name: string; api_key_id: string; private_key_pem: string; user_id: string; fcm: boolean }[] };
}

type Credentials = ReturnType<Terminal['credentials']>;

// Every process the fixture starts goes when this worker goes: each has an IPC channel (the host
// and the exchange exit when it closes, SIGKILL of the worker included) and is killed on exit.
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));
function owned(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A start is waited for as long as it takes (the test's own timeout bounds it); a slow one says so. */
function slowStart(what: string): { done: () => void } {
  const t0 = Date.now();
  const timer = setInterval(() => console.log(`e2e: still waiting for ${what} to start (${Math.round((Date.now() - t0) / 1000)} s)`), 10_000);
  return { done: () => clearInterval(timer) };
}

/**
 * The second party's keys: the terminal strips private keys from the embedded exchange's
 * credentials.json once its vault holds them, so the fixture provisions the exchange's data
 * directory first (the exchange alone, as `npm run exchange` would) and keeps what it wrote.
 */
async function provisionExchange(exchangeDir: string, seed: number): Promise<Credentials> {
  const child = owned(
    spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src-exchange/cli.ts'), '--port', '0', '--data-dir', exchangeDir, '--seed', String(seed), '--no-sim'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    }),
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const progress = slowStart('the exchange (provisioning)');
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/exchange listening on/.test(out)) {
        progress.done();
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      progress.done();
      reject(new Error(`the exchange exited with ${code}:\n${out}`));
    });
  });
  const creds = JSON.parse(readFileSync(path.join(exchangeDir, 'credentials.json'), 'utf8')) as Credentials;
  await new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return creds;
}

export async function startTerminal(opts: { sim?: boolean; seed?: number; simRate?: number } = {}): Promise<{ terminal: Terminal; child: ChildProcess; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-terminal-'));
  const provisioned = await provisionExchange(path.join(dataDir, 'exchange'), opts.seed ?? 7);
  const args = ['--import', 'tsx', path.join(root, 'src-main/host/cli.ts'), '--port', '0', '--data-dir', dataDir, '--seed', String(opts.seed ?? 7)];
  if (opts.sim === false) args.push('--no-sim');
  if (opts.simRate !== undefined) args.push('--sim-rate', String(opts.simRate));
  const child = owned(spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  const logs: string[] = [];
  // The host prints its URL at once (the page may load while the exchange starts) and
  // "terminal ready" once the services are up: the specs start from a ready terminal.
  const url = await new Promise<string>((resolve, reject) => {
    const progress = slowStart('the web host');
    let at: string | null = null;
    const onLine = (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (!line) continue;
        logs.push(line);
        const m = /terminal at (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(line);
        if (m) at = m[1]!;
        if (at && /^terminal ready/.test(line)) {
          progress.done();
          resolve(at);
        }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => {
      progress.done();
      reject(new Error(`web host exited with ${code}:\n${logs.join('\n')}`));
    });
  });
  const terminal: Terminal = {
    url,
    dataDir,
    logs,
    // the addresses as the running exchange wrote them, the keys as it provisioned them
    credentials: () => {
      const now = JSON.parse(readFileSync(path.join(dataDir, 'exchange', 'credentials.json'), 'utf8')) as Credentials;
      return { ...now, accounts: provisioned.accounts };
    },
  };
  return {
    terminal,
    child,
    stop: async () => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fails the test on any console error or warning: normal use must be quiet. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** A fresh terminal per test on an embedded exchange with these options, and the page's console problems. */
export function terminalTest(opts: Parameters<typeof startTerminal>[0]) {
  return base.extend<{ terminal: Terminal; problems: string[] }>({
    // Playwright reads fixture dependencies from the destructuring pattern, even an empty one.
    terminal: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const t = await startTerminal(opts);
        await use(t.terminal);
        await t.stop();
      },
      // a slow machine's start (provisioning signs with RSA) is not the test's time
      { timeout: 600_000 },
    ],
    problems: async ({ page }, use) => {
      await use(watchConsole(page));
    },
  });
}

/**
 * A market that moves, at the pace the specs were written for: an order that joins the bid rests
 * long enough to be amended (the lively default fills it within seconds).
 */
export const test = terminalTest({ sim: true, simRate: 40 });
/** Still markets: nothing trades but what the spec does. */
export const quietTest = terminalTest({ sim: false });

export { expect };
