// End-to-end fixture: a real web host (same main services, built renderer) with its embedded
// exchange, started fresh per spec in its own data dir; a page opened on its tokened URL.
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageAtFailure, recordSaid } from './said';
import { entryArgs } from '../test-support/entry';
import { simArgs, type SimSettings } from '../src-shared/cli-args';

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

/**
 * How a process starts: from the source under tsx, or, when `npm test` has bundled the web host
 * for this run (E2E_HOST_BUNDLE=1, scripts/build-host.mjs into out/host), from the bundles, as
 * `npm run start:web` runs it; the bundled host then runs the bundled exchange too. The bundles
 * skip tsx's compilation of a few hundred modules in each of a spec's three processes.
 */
const entry = (what: 'host' | 'exchange'): string[] => entryArgs(what, process.env.E2E_HOST_BUNDLE === '1');

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
    spawn(process.execPath, [...entry('exchange'), '--port', '0', '--data-dir', exchangeDir, '--seed', String(seed), '--no-sim'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // the accounts' key pairs from the test set, as vitest's exchanges (vitest.config.ts), instead
      // of three RSA key generations per worker; the keys spec generates and imports its own
      env: { ...process.env, EXCHANGE_PROVISION_KEYS: path.join(root, 'test-support/exchange/provision-keys.json') },
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

/**
 * One provisioned exchange per seed in this worker, copied for each terminal: provisioning (a
 * first start: the seeded catalog, three accounts, the first snapshot) costs seconds, a copy
 * of its directory a few milliseconds. Each terminal still gets its own exchange directory,
 * as if its exchange had been provisioned, stopped and started again (what the fixture did before).
 */
const templates = new Map<number, Promise<{ dir: string; creds: Credentials }>>();
const templateRoots: string[] = [];
process.on('exit', () => templateRoots.forEach((d) => rmSync(d, { recursive: true, force: true })));
async function provisionedCopy(exchangeDir: string, seed: number): Promise<Credentials> {
  let t = templates.get(seed);
  if (!t) {
    const home = mkdtempSync(path.join(tmpdir(), 'e2e-exchange-template-'));
    templateRoots.push(home);
    const dir = path.join(home, 'exchange');
    t = provisionExchange(dir, seed).then((creds) => ({ dir, creds }));
    templates.set(seed, t);
    t.catch(() => templates.delete(seed)); // a failed provisioning is tried again by the next terminal
  }
  const { dir, creds } = await t;
  cpSync(dir, exchangeDir, { recursive: true });
  return creds;
}

export async function startTerminal(opts: SimSettings & { seed?: number } = {}): Promise<{ terminal: Terminal; child: ChildProcess; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-terminal-'));
  const provisioned = await provisionedCopy(path.join(dataDir, 'exchange'), opts.seed ?? 7);
  const args = [...entry('host'), '--port', '0', '--data-dir', dataDir, '--seed', String(opts.seed ?? 7), ...simArgs(opts)];
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

/** The page, recording what it says; a failed test's report ends with what it said (e2e/said.ts). */
export async function sayingPage(page: Page, use: (p: Page) => Promise<void>, testInfo: TestInfo): Promise<void> {
  await page.addInitScript(recordSaid);
  await use(page);
  if (testInfo.status !== testInfo.expectedStatus) console.log(await pageAtFailure(page));
}

/** The page's console problems, as a fixture. */
async function problemsOf({ page }: { page: Page }, use: (p: string[]) => Promise<void>): Promise<void> {
  await use(watchConsole(page));
}

/** A fresh terminal per test on an embedded exchange with these options, and the page's console problems. */
export function terminalTest(opts: Parameters<typeof startTerminal>[0]) {
  return base.extend<{ terminal: Terminal; problems: string[] }>({
    // the page depends on the terminal, so it is torn down first: a failure's report reads the
    // page while its host still runs
    page: async ({ page, terminal }, use, testInfo) => {
      void terminal;
      await sayingPage(page, use, testInfo);
    },
    // Playwright reads fixture dependencies from the destructuring pattern, even an empty one.
    terminal: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use, testInfo) => {
        const t = await startTerminal(opts);
        await use(t.terminal);
        // a failed spec shows how the host ended (a host that died mid-spec says why here)
        if (testInfo.status !== testInfo.expectedStatus) {
          console.log(`e2e: the web host's last lines (exit ${t.child.exitCode ?? t.child.signalCode ?? 'still running'}):\n${t.terminal.logs.slice(-40).join('\n')}`);
        }
        await t.stop();
      },
      // a slow machine's start (provisioning signs with RSA) is not the test's time
      { timeout: 600_000 },
    ],
    problems: problemsOf,
  });
}

/** For specs that start their own terminal: a page that says what it showed when its test fails, and its console problems. */
export const pageTest = base.extend<{ problems: string[] }>({
  page: async ({ page }, use, testInfo) => sayingPage(page, use, testInfo),
  problems: problemsOf,
});

/**
 * A market that moves, at the pace the specs were written for: an order that joins the bid rests
 * long enough to be amended (the lively default fills it within seconds). Without the
 * simulation's random pauses of a quoted market (one every 2 minutes on average, for 20 s): the
 * market a spec trades in would refuse its orders for a while, at random (seen: the FCM spec's
 * quote confirmed while its market was paused).
 */
export const test = terminalTest({ sim: true, simRate: 40, simPauseMinutes: 0 });
/** Still markets: nothing trades but what the spec does. */
export const quietTest = terminalTest({ sim: false });

export { expect };
