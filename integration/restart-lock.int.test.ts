// The exchange CLI never refuses to start for a stale reason: killed with kill -9 it restarts at
// once on the same data dir, even while the killed PID is still an unreaped zombie, and a LOCK
// naming a PID that now belongs to an unrelated process does not block it. It refuses, with a
// clear message, only when another exchange really runs on that data dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitForOutput } from '../test-support/child';
import { createApiClient } from '../src-main/api/client';
import type { CredentialsFile } from '../src-shared/credentials';
import { probeProcess } from '../src-exchange/journal/process-identity';
import { entryArgs } from '../test-support/entry';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = [...entryArgs('exchange'), '--port', '0', '--no-sim', '--no-rate-limits', '--data-dir'];
const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-lock-'));
const started: ChildProcess[] = [];

afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** An exchange CLI as a plain child of the test (reaped by Node when it dies). */
async function launch(): Promise<{ proc: ChildProcess; origin: string }> {
  const proc = spawn(process.execPath, [...CLI, dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  const m = await waitForOutput(proc, /exchange listening on (http:\/\/127\.0\.0\.1:\d+)/, 'listening line');
  return { proc, origin: m[1]! };
}

/**
 * An exchange CLI whose parent never reaps it: `sh` starts it in the background and then
 * becomes `sleep` (exec), which never calls wait(). Killed, the CLI stays a zombie.
 */
async function launchUnreaped(): Promise<{ parent: ChildProcess; pid: number }> {
  const parent = spawn('sh', ['-c', '"$0" "$@" & echo "child $!"; exec sleep 300', process.execPath, ...CLI, dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(parent);
  const listening = waitForOutput(parent, /exchange listening on/, 'listening line');
  const pid = Number((await waitForOutput(parent, /child (\d+)/, 'child pid'))[1]);
  await listening;
  return { parent, pid };
}

async function signedBalance(origin: string): Promise<string> {
  const creds = JSON.parse(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as CredentialsFile;
  const trader = creds.accounts.find((a) => a.name === 'trader')!;
  const client = createApiClient({
    profile: { kind: 'custom', name: 't', baseUrl: `${origin}/trade-api/v2`, wsUrl: creds.ws_url, headerPrefix: 'SVC-' },
    credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem },
  });
  return (await client.getBalance()).balance_dollars;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// each case starts exchanges, which a busy machine does slowly: the timeout is only a hang guard
describe('exchange start and the data-dir lock', { timeout: 300_000 }, () => {
  it('restarts at once after kill -9 while the killed PID is still a zombie', async () => {
    const { pid } = await launchUnreaped();
    process.kill(pid, 'SIGKILL');
    while (probeProcess(pid).state !== 'gone') await sleep(10); // however slowly the kill lands; the test's timeout is the hang guard
    expect(() => process.kill(pid, 0)).not.toThrow(); // unreaped: the PID still answers signals
    expect(probeProcess(pid)).toEqual({ state: 'gone' });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'journal', 'LOCK'), 'utf8'))).toMatchObject({ pid });

    const again = await launch(); // immediately, same data dir, the zombie still there
    expect(await signedBalance(again.origin)).toMatch(/^\d+\.\d+$/); // the provisioned key still works
    expect(JSON.parse(readFileSync(path.join(dataDir, 'journal', 'LOCK'), 'utf8'))).toMatchObject({ pid: again.proc.pid });
  });

  it('starts over a lock whose PID was reused by an unrelated live process', async () => {
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    started.push(unrelated);
    await new Promise((r) => unrelated.once('spawn', r));
    // as a holder that ran before a reboot would have left it: same PID, another start identity
    writeFileSync(path.join(dataDir, 'journal', 'LOCK'), JSON.stringify({ pid: unrelated.pid, identity: 'linux:earlier-boot:4242' }));
    const ex = await launch();
    expect(await signedBalance(ex.origin)).toMatch(/^\d+\.\d+$/);
  });

  it('refuses, with a clear message, a data dir another live exchange holds', async () => {
    const first = await launch();
    const second = spawn(process.execPath, [...CLI, dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(second);
    let stderr = '';
    second.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => second.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`cannot start: journal .* is locked by running process ${first.proc.pid} since .*another exchange is using this data dir`));
    expect(stderr).not.toMatch(/\n\s+at /); // a refusal, not a stack trace
    expect(await signedBalance(first.origin)).toMatch(/^\d+\.\d+$/); // the holder is untouched
  });
});
