// Signed order creates over keep-alive HTTP against the embedded exchange.
//
// Section 1 (targets): the exchange runs in this process (`startExchange`, no simulation, no
// rate limits) and a load generator in the same process sends signed creates on loopback
// keep-alive connections (undici Pool or node:http keepAlive Agent, whichever a short
// calibration finds faster). Each create is a real command: authenticated (RSA-PSS), validated,
// matched, journaled with fdatasync (group commit) and answered once durable. Orders alternate
// between two accounts, bids and asks around 50c, so about half of them cross and fill;
// between runs the resting ones are cancelled (not timed) to keep the book bounded.
//   - throughput: a closed loop with 64 creates in flight (as fast as the exchange answers).
//     Target >= 5,000 creates/s. Its latency is mostly queueing (64 / throughput).
//   - latency: an open loop offering exactly 5,000 creates/s, each latency measured from the
//     create's scheduled send time (a stall is charged to every create it delays).
//     Target p99 < 10 ms.
//   Three configurations, the targets judged on A: A as configured; B with the exchange's
//   verified-signature cache off; C as A with snapshots deferred (isolates their stall).
//
// The generator's optimisation (not the exchange's): an RSA signature costs ~1 ms, which would
// make the generator, not the exchange, the bottleneck. The signature covers only
// `timestamp + method + path`, so the generator signs that once per account and refreshes it
// every 500 ms from a timer; every create sent in the meantime reuses it. The exchange checks
// every request's signature: in A and C a repeat of an already verified (key, timestamp,
// method, path, signature) within the 5 s window is recognised from its cache of verified
// signatures (src-exchange/auth/verify.ts); B runs a full RSA verification for every request,
// which is what clients that sign each request with a fresh timestamp cost it.
//
// Section 2: the exchange's server-side cost per request: the same closed-loop load against the
// exchange in a child process, whose own CPU time (user + system) is divided by the creates it
// served. BENCH_CHILD_PROF=<dir> profiles that process (node --cpu-prof).
//
// Section 3 (no target): client round trip, ours vs kalshi-typescript: the terminal's REST
// client (src-main/api/client.ts createOrder) and the official SDK (OrdersApi.createOrderV2,
// KALSHI- headers, which the exchange accepts), each signing every request itself, drive the
// same number of creates; the ratio is printed.
//
// Env: BENCH_CREATES (per run, default 10,000), BENCH_RUNS (default 5), BENCH_CLIENT_CREATES
// (default 1,000), BENCH_SECTIONS (target,server,clients; `profile` = one steady-state run).
// Exit 0 when the section 1 targets are met, 2 when missed.
import { spawn } from 'node:child_process';
import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { Configuration, OrdersApi } from 'kalshi-typescript';
import { figure, fmtRate, median, percentile, QUICK } from './lib';
import { own } from './procs';
import { startExchange, type RunningExchange } from '../src-exchange/server';
import { setVerifiedSignatureCache } from '../src-exchange/auth/verify';
import { createApiClient } from '../src-main/api/client';
import { API_PREFIX } from '../src-shared/endpoints';
import { withKeys, type ProvisionedAccount } from '../src-shared/credentials';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const CREATE_PATH = `${API_PREFIX}/portfolio/events/orders`;
const TICKER = 'BENCH-HTTP';
const CONCURRENCY = 64;
const CREATES_PER_RUN = Number(process.env.BENCH_CREATES ?? (QUICK ? 3_000 : 10_000));
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 2 : 5));
const TARGET_RATE = 5_000;
const TARGET_P99_MS = 10;

// ---- signatures, refreshed by a timer (the generator's optimisation) ------------------------

interface Account {
  keyId: string;
  key: KeyObject;
  headers: Record<string, string>;
}

function signHeaders(a: { keyId: string; key: KeyObject }, nowMs: number): Record<string, string> {
  const signature = sign('sha256', Buffer.from(`${nowMs}POST${CREATE_PATH}`), {
    key: a.key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
  return {
    'content-type': 'application/json',
    'SVC-ACCESS-KEY': a.keyId,
    'SVC-ACCESS-TIMESTAMP': String(nowMs),
    'SVC-ACCESS-SIGNATURE': signature,
  };
}

function accountsOf(list: readonly ProvisionedAccount[]): { accounts: Account[]; stop(): void } {
  const accounts = ['trader', 'counterparty'].map((name) => {
    const p = list.find((a) => a.name === name);
    if (!p) throw new Error(`no ${name} account`);
    const key = createPrivateKey(p.private_key_pem);
    return { keyId: p.api_key_id, key, headers: signHeaders({ keyId: p.api_key_id, key }, Date.now()) };
  });
  const timer = setInterval(() => {
    for (const a of accounts) a.headers = signHeaders(a, Date.now());
  }, 500);
  return { accounts, stop: () => clearInterval(timer) };
}

/** The i-th create: accounts alternate; bids and asks around 50c so about half cross. */
function createBody(i: number): string {
  const side = i % 2 === 0 ? 'bid' : 'ask';
  const offset = ((i * 7919) % 5) - 2; // -2..2 cents
  const price = (50 + offset).toString().padStart(2, '0');
  return `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"0.${price}"}`;
}

// ---- transports ------------------------------------------------------------------------------

type Send = (account: Account, body: string) => Promise<number>;

function undiciTransport(origin: string): { send: Send; close(): Promise<void> } {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 60_000 });
  return {
    send: async (a, body) => {
      const res = await pool.request({ path: CREATE_PATH, method: 'POST', headers: a.headers, body });
      await res.body.dump();
      return res.statusCode;
    },
    close: () => pool.close(),
  };
}

function nodeHttpTransport(port: number): { send: Send; close(): Promise<void> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  return {
    send: (a, body) =>
      new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: CREATE_PATH, method: 'POST', agent, headers: { ...a.headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      }),
    close: async () => agent.destroy(),
  };
}

// ---- one run ---------------------------------------------------------------------------------

interface RunResult {
  opsPerSec: number;
  latenciesMs: number[];
  errors: number;
}

/** One request of a load: resolves true when answered as expected. */
type Op = (i: number) => Promise<boolean>;

async function run(op: Op, count: number, concurrency = CONCURRENCY): Promise<RunResult> {
  const latenciesMs: number[] = new Array(count);
  let next = 0;
  let errors = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const t0 = performance.now();
      const ok = await op(i);
      latenciesMs[i] = performance.now() - t0;
      if (!ok) errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return { opsPerSec: count / seconds, latenciesMs, errors };
}

/**
 * Open loop: requests are scheduled at a fixed rate (whatever is in flight); each latency is
 * measured from its scheduled send time, so a stall is charged to every request it delayed.
 */
async function paced(op: Op, rate: number, count: number): Promise<RunResult> {
  const latenciesMs: number[] = new Array(count);
  let sent = 0;
  let done = 0;
  let errors = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < due) {
        const i = sent++;
        const scheduled = t0 + (i * 1000) / rate;
        op(i).then((ok) => {
          latenciesMs[i] = performance.now() - scheduled;
          if (!ok) errors++;
          if (++done === count) resolve();
        }, reject);
      }
      if (sent < count) setTimeout(tick, 1);
    };
    tick();
  });
  return { opsPerSec: count / ((performance.now() - t0) / 1000), latenciesMs, errors };
}

/** Section 1's load: signed creates only, accounts alternating. */
const createsOf =
  (send: Send, accounts: Account[]): Op =>
  async (i) =>
    (await send(accounts[i % accounts.length]!, createBody(i))) === 201;

async function openBenchMarket(ex: RunningExchange, ids: string[]): Promise<void> {
  const node = ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', ticker: TICKER, eventTicker: 'BENCH', seriesTicker: 'BENCH', title: 'HTTP benchmark market' },
    { type: 'openMarket', ticker: TICKER },
    ...ids.map((userId) => ({ type: 'deposit', userId, amountMicro: 100_000_000 * 1_000_000 })),
  ]) {
    const r = await node.submit({ ...cmd, nowMs: node.now() });
    if (!r.ok) throw new Error(`${cmd.type}: ${JSON.stringify(r.result)}`);
  }
}

async function cancelAll(ex: RunningExchange, ids: string[]): Promise<void> {
  const node = ex.svc.node;
  for (const userId of ids) await node.submit({ type: 'cancelAllOrders', nowMs: node.now(), userId });
}

function userIds(list: readonly ProvisionedAccount[]): string[] {
  return ['trader', 'counterparty'].map((n) => list.find((a) => a.name === n)!.user_id);
}

// ---- section 1 -------------------------------------------------------------------------------

interface Section1 {
  rate: number;
  rates: number[];
  closedP50: number;
  closedP99: number;
  pacedP50: number;
  pacedP99: number;
  pacedP999: number;
  pacedMax: number;
  pacedP99s: number[];
  errors: number;
  cpuPerCreateUs: number;
}

async function section1(cacheOn: boolean, snapshotEvery?: number): Promise<Section1 & { calib: Record<string, number>; used: string; journal: string }> {
  setVerifiedSignatureCache(cacheOn);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-'));
  const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false, ...(snapshotEvery ? { snapshotEvery } : {}) });
  const ids = userIds(withKeys(ex.credentials).accounts);
  await openBenchMarket(ex, ids);
  const signer = accountsOf(withKeys(ex.credentials).accounts);
  const transports = {
    'undici Pool': undiciTransport(`http://127.0.0.1:${ex.port}`),
    'node:http keepAlive Agent': nodeHttpTransport(ex.port),
  };

  // pick the faster transport on a short calibration
  const calib: Record<string, number> = {};
  for (const [name, t] of Object.entries(transports)) {
    await run(createsOf(t.send, signer.accounts), 2_000);
    calib[name] = (await run(createsOf(t.send, signer.accounts), 5_000)).opsPerSec;
    await cancelAll(ex, ids);
  }
  const [used] = Object.entries(calib).sort((a, b) => b[1] - a[1])[0]!;
  const best = transports[used as keyof typeof transports];

  const rates: number[] = [];
  const closedP50: number[] = [];
  const closedP99: number[] = [];
  const pacedAll: number[] = [];
  const pacedP99s: number[] = [];
  let errors = 0;
  let served = 0;
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < RUNS; r++) {
    // saturation: 64 in flight, as fast as the exchange answers
    const closed = await run(createsOf(best.send, signer.accounts), CREATES_PER_RUN);
    rates.push(closed.opsPerSec);
    closedP50.push(percentile(closed.latenciesMs, 50));
    closedP99.push(percentile(closed.latenciesMs, 99));
    errors += closed.errors;
    await cancelAll(ex, ids);
    // latency at the target rate
    const open = await paced(createsOf(best.send, signer.accounts), TARGET_RATE, CREATES_PER_RUN);
    pacedAll.push(...open.latenciesMs);
    pacedP99s.push(percentile(open.latenciesMs, 99));
    errors += open.errors;
    await cancelAll(ex, ids);
    served += 2 * CREATES_PER_RUN;
  }
  const cpu = process.cpuUsage(cpu0);
  const st = ex.svc.node.journalStats;
  signer.stop();
  for (const t of Object.values(transports)) await t.close();
  await ex.close();
  rmSync(dataDir, { recursive: true, force: true });
  setVerifiedSignatureCache(true);
  return {
    calib,
    used,
    journal: `${st.appends} appends in ${st.fsyncs} fdatasyncs (${(st.appends / Math.max(1, st.fsyncs)).toFixed(1)} per sync), ${st.snapshotsWritten} snapshots`,
    rate: median(rates),
    rates,
    closedP50: median(closedP50),
    closedP99: median(closedP99),
    pacedP50: percentile(pacedAll, 50),
    pacedP99: median(pacedP99s),
    pacedP999: percentile(pacedAll, 99.9),
    pacedMax: Math.max(...pacedAll),
    pacedP99s,
    errors,
    cpuPerCreateUs: (cpu.user + cpu.system) / served,
  };
}

async function inProcess(): Promise<boolean> {
  const asConfigured = await section1(true);
  const cacheOff = await section1(false);
  const noSnapshots = await section1(true, 1_000_000_000);
  console.log(`\n## signed order creates over keep-alive HTTP, exchange in process (${CREATES_PER_RUN} creates per run, ${RUNS} runs per configuration)`);
  for (const [name, v] of Object.entries(asConfigured.calib)) console.log(`  transport calibration: ${name.padEnd(26)} ${fmtRate(v)}${name === asConfigured.used ? '  (used)' : ''}`);
  const show = (label: string, r: Section1 & { journal: string }) => {
    console.log(`  ${label}`);
    console.log(`    saturation, ${CONCURRENCY} in flight: median ${fmtRate(r.rate)} (min ${fmtRate(Math.min(...r.rates))}, max ${fmtRate(Math.max(...r.rates))}); latency p50 ${r.closedP50.toFixed(2)} ms, p99 ${r.closedP99.toFixed(2)} ms (mostly queueing: ${CONCURRENCY} / throughput)`);
    console.log(`    at ${fmtRate(TARGET_RATE)} offered (open loop): p50 ${r.pacedP50.toFixed(2)} ms, p99 median ${r.pacedP99.toFixed(2)} ms (runs: ${r.pacedP99s.map((v) => v.toFixed(1)).join(', ')}), p99.9 ${r.pacedP999.toFixed(1)} ms, max ${r.pacedMax.toFixed(1)} ms`);
    console.log(`    process CPU per create (exchange + generator): ${r.cpuPerCreateUs.toFixed(0)} us; non-201 answers: ${r.errors}; journal: ${r.journal}`);
  };
  show('A. as configured (snapshot every 20,000 commands; verified-signature cache on, the generator repeats a signature for 500 ms)', asConfigured);
  show('B. verified-signature cache off (an RSA verify per request, as for clients that sign every request)', cacheOff);
  show('C. as A with snapshots deferred (isolates the event-loop stall of a snapshot)', noSnapshots);
  const errors = asConfigured.errors + cacheOff.errors + noSnapshots.errors;
  const rateOk = asConfigured.rate >= TARGET_RATE && errors === 0;
  const latOk = asConfigured.pacedP99 < TARGET_P99_MS;
  console.log(`  target >= ${fmtRate(TARGET_RATE)} at ${CONCURRENCY} in flight (A): ${rateOk ? 'met' : 'MISSED'} (A ${fmtRate(asConfigured.rate)}, B ${fmtRate(cacheOff.rate)}, C ${fmtRate(noSnapshots.rate)})`);
  console.log(`  target p99 < ${TARGET_P99_MS} ms at ${fmtRate(TARGET_RATE)} (A): ${latOk ? 'met' : 'MISSED'} (A ${asConfigured.pacedP99.toFixed(2)} ms, B ${cacheOff.pacedP99.toFixed(2)} ms, C ${noSnapshots.pacedP99.toFixed(2)} ms)`);
  return rateOk && latOk;
}

// ---- section 2: the realistic mix against the exchange in its own process (the targets) ------
//
// As a separate client sees the exchange the terminal runs (its own process, default settings,
// snapshots on: every SNAPSHOT_EVERY commands here, so several fall inside each measured run):
// 70% resting creates, 20% cancels of the sender's own resting orders, 10% IOC orders that cross
// the book, spread over MIX_ACCOUNTS accounts. Creates reuse a signature for up to 100 ms per
// account (the path is the same; the exchange still verifies each request, from its cache of
// verified signatures); every cancel is signed afresh for its own path (off the generator's
// event loop, in libuv's thread pool), so the exchange runs a full RSA-PSS verification for it.

const MIX_ACCOUNTS = 4;
// BENCH_MIX=creates,cancels,iocs in tenths (default 7,2,1), to see what each kind costs
const MIX_TENTHS = (process.env.BENCH_MIX ?? '7,2,1').split(',').map(Number);
if (MIX_TENTHS.length !== 3 || MIX_TENTHS.some((n) => !Number.isInteger(n) || n < 0) || MIX_TENTHS[0]! + MIX_TENTHS[1]! + MIX_TENTHS[2]! !== 10) {
  throw new Error('BENCH_MIX must be three whole tenths adding up to 10, e.g. 7,2,1');
}
const MIX_SPLIT = [MIX_TENTHS[0]!, MIX_TENTHS[0]! + MIX_TENTHS[1]!] as const;
const SNAPSHOT_EVERY = Number(process.env.BENCH_SNAPSHOT_EVERY ?? 5_000);
const ORDER_PATH = (id: string) => `${API_PREFIX}/portfolio/events/orders/${id}`;

interface MixAccount extends Account {
  /** this account's resting orders, oldest first (an IOC may have filled some: cancel says 404) */
  resting: string[];
}

function signAsync(key: KeyObject, message: string): Promise<string> {
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(message), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, (err, sig) =>
      err ? reject(err) : resolve(sig.toString('base64')),
    ),
  );
}

function mixAccountsOf(list: readonly ProvisionedAccount[]): { accounts: MixAccount[]; stop(): void } {
  const accounts = list
    .filter((a) => a.name.startsWith('mix'))
    .map((p) => {
      const key = createPrivateKey(p.private_key_pem);
      return { keyId: p.api_key_id, key, headers: signHeaders({ keyId: p.api_key_id, key }, Date.now()), resting: [] as string[] };
    });
  if (accounts.length !== MIX_ACCOUNTS) throw new Error(`expected ${MIX_ACCOUNTS} mix accounts, got ${accounts.length}`);
  const timer = setInterval(() => {
    for (const a of accounts) a.headers = signHeaders(a, Date.now());
  }, 100);
  return { accounts, stop: () => clearInterval(timer) };
}

type Requester = (method: string, path: string, headers: Record<string, string>, body: string | null) => Promise<{ status: number; body: string }>;

function undiciRequester(origin: string): { request: Requester; close(): Promise<void> } {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 60_000 });
  return {
    request: async (method, path, headers, body) => {
      const res = await pool.request({ path, method: method as 'POST', headers, body });
      return { status: res.statusCode, body: await res.body.text() };
    },
    close: () => pool.close(),
  };
}

const mixCounts = { create: 0, cancel: 0, cancelGone: 0, ioc: 0 };
/** statuses that were not the expected answer, by status */
const mixUnexpected = new Map<number, number>();
function tally(status: number, ...expected: number[]): boolean {
  if (expected.includes(status)) return true;
  mixUnexpected.set(status, (mixUnexpected.get(status) ?? 0) + 1);
  return false;
}

/** The i-th request of the mix: 7 in 10 resting creates, 2 cancels, 1 crossing IOC. */
function mixOp(request: Requester, accounts: MixAccount[]): Op {
  return async (i) => {
    const a = accounts[i % accounts.length]!;
    const kind = (i * 3) % 10; // 0..9, spread over the accounts
    if (kind >= MIX_SPLIT[1]) {
      mixCounts.ioc++;
      const side = i % 2 === 0 ? 'ask' : 'bid';
      const body = `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"${side === 'ask' ? '0.01' : '0.99'}","time_in_force":"immediate_or_cancel"}`;
      return tally((await request('POST', CREATE_PATH, a.headers, body)).status, 201);
    }
    if (kind >= MIX_SPLIT[0] && a.resting.length > 0) {
      mixCounts.cancel++;
      const path = ORDER_PATH(a.resting.shift()!);
      const ts = Date.now();
      const headers = { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': String(ts), 'SVC-ACCESS-SIGNATURE': await signAsync(a.key, `${ts}DELETE${path}`) };
      const { status } = await request('DELETE', path, headers, null);
      if (status === 404) mixCounts.cancelGone++;
      return tally(status, 200, 404);
    }
    mixCounts.create++;
    // resting: bids 20-38c, asks 62-80c, never crossing each other
    const side = i % 2 === 0 ? 'bid' : 'ask';
    const price = side === 'bid' ? 20 + (i % 19) : 62 + (i % 19);
    const res = await request('POST', CREATE_PATH, a.headers, `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"0.${price}"}`);
    if (!tally(res.status, 201)) return false;
    a.resting.push((JSON.parse(res.body) as { order_id: string }).order_id);
    return true;
  };
}

async function serverCost(): Promise<{ p99: number; rate: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-child-'));
  const server = path.join(ROOT, 'src-exchange/server.ts');
  const plans = Array.from({ length: MIX_ACCOUNTS }, (_, k) => ({ name: `mix${k + 1}`, fcm: false }));
  const script = `
    const { startExchange } = await import(${JSON.stringify(server)});
    const ex = await startExchange({ dataDir: ${JSON.stringify(dataDir)}, port: 0, sim: false, rateLimits: false, snapshotEvery: ${SNAPSHOT_EVERY}, accounts: ${JSON.stringify(plans)} });
    const node = ex.svc.node;
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const ids = ex.credentials.accounts.map((a) => a.user_id);
    for (const cmd of [
      { type: 'addMarket', ticker: ${JSON.stringify(TICKER)}, eventTicker: 'BENCH', seriesTicker: 'BENCH', title: 'HTTP benchmark market' },
      { type: 'openMarket', ticker: ${JSON.stringify(TICKER)} },
      ...ids.map((userId) => ({ type: 'deposit', userId, amountMicro: 100000000 * 1000000 })),
    ]) await node.submit({ ...cmd, nowMs: node.now() });
    process.on('message', async (m) => {
      if (m === 'cpu') { process.send({ cpu: process.cpuUsage(), snapshots: node.journalStats.snapshotsWritten, mode: node.snapshotMode, lagMaxMs: lag.max / 1e6, lagP99Ms: lag.percentile(99) / 1e6, flushMs: node.journalStats.slowestFlushMs }); lag.reset(); node.journalStats.slowestFlushMs = 0; }
      if (m === 'cancel') { for (const userId of ids) await node.submit({ type: 'cancelAllOrders', nowMs: node.now(), userId }); process.send({ canceled: true }); }
      if (m === 'exit') { await ex.close(); process.exit(0); }
    });
    // this bench dying (SIGKILL included) closes the channel: the exchange goes with it
    process.on('disconnect', () => process.exit(0));
    process.send({ port: ex.port, accounts: ex.credentials.accounts });
  `;
  // BENCH_CHILD_PROF=<dir>: profile the exchange process (node --cpu-prof) to see where its time goes
  // BENCH_CHILD_FLAGS='--trace-gc ...': more node flags for the exchange process (what its collector does)
  const prof = [
    ...(process.env.BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`] : []),
    ...(process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const child = own(spawn(process.execPath, [...prof, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const replies: ((m: Record<string, unknown>) => void)[] = [];
  child.on('message', (m) => replies.shift()?.(m as Record<string, unknown>));
  const next = () => new Promise<Record<string, unknown>>((resolve) => replies.push(resolve));
  const ask = (m: string) => {
    const p = next();
    child.send(m);
    return p;
  };
  const hello = await next();
  const port = hello.port as number;
  const signer = mixAccountsOf(hello.accounts as ProvisionedAccount[]);
  const t = undiciRequester(`http://127.0.0.1:${port}`);
  const op = mixOp(t.request, signer.accounts);
  const cancelAllOrders = async () => {
    await ask('cancel');
    for (const a of signer.accounts) a.resting.length = 0;
  };
  await run(op, 3_000);
  await cancelAllOrders();
  const perOpUs: number[] = [];
  const rates: number[] = [];
  let errors = 0;
  const cpuOf = (m: Record<string, unknown>) => {
    const c = m.cpu as { user: number; system: number };
    return c.user + c.system;
  };
  for (let r = 0; r < RUNS; r++) {
    const before = cpuOf(await ask('cpu'));
    const res = await run(op, CREATES_PER_RUN);
    const after = cpuOf(await ask('cpu'));
    perOpUs.push((after - before) / CREATES_PER_RUN);
    rates.push(res.opsPerSec);
    errors += res.errors;
    await cancelAllOrders();
  }
  // Latency: open loop at the target rate, p99 from each scheduled send; snapshots on.
  const pacedP99s: number[] = [];
  const snapshotsIn: number[] = [];
  /** per run: the longest event-loop delay in the exchange and in this generator, ms */
  const stalls: string[] = [];
  /** per run: cores busy in the exchange (its worker included) / in this generator */
  const cores: string[] = [];
  const ownLag = monitorEventLoopDelay({ resolution: 5 });
  ownLag.enable();
  let mode = '';
  for (let r = 0; r < RUNS; r++) {
    const st0 = await ask('cpu');
    const s0 = st0.snapshots as number;
    ownLag.reset();
    const own0 = process.cpuUsage();
    const w0 = performance.now();
    const res = await paced(op, TARGET_RATE, CREATES_PER_RUN);
    const st = await ask('cpu');
    const wallUs = (performance.now() - w0) * 1000;
    const own = process.cpuUsage(own0);
    stalls.push(`${(st.lagMaxMs as number).toFixed(0)}/${(ownLag.max / 1e6).toFixed(0)}/${(st.flushMs as number).toFixed(0)}`);
    cores.push(`${((cpuOf(st) - cpuOf(st0)) / wallUs).toFixed(2)}/${((own.user + own.system) / wallUs).toFixed(2)}`);
    snapshotsIn.push((st.snapshots as number) - s0);
    mode = String(st.mode);
    pacedP99s.push(percentile(res.latenciesMs, 99));
    errors += res.errors;
    await cancelAllOrders();
  }
  ownLag.disable();
  // The same at a rate this machine sustains (60% of the measured throughput): what is left of
  // the tail is the exchange's own, snapshots included, not queueing behind an overloaded core.
  const sustainable = Math.round(0.6 * median(rates));
  const s0 = (await ask('cpu')).snapshots as number;
  const atSustainable = await paced(op, sustainable, Math.max(CREATES_PER_RUN, sustainable * 4));
  const afterSustainable = await ask('cpu');
  const sustainableSnapshots = (afterSustainable.snapshots as number) - s0;
  const sustainableLag = `exchange event-loop delay p99 ${(afterSustainable.lagP99Ms as number).toFixed(1)} ms, max ${(afterSustainable.lagMaxMs as number).toFixed(1)} ms`;
  errors += atSustainable.errors;
  await cancelAllOrders();
  signer.stop();
  await t.close();
  child.send('exit');
  await new Promise((r) => child.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  const total = mixCounts.create + mixCounts.cancel + mixCounts.ioc;
  const pct = (n: number) => `${((100 * n) / total).toFixed(0)}%`;
  console.log(`\n## the realistic mix, exchange in its own process as the terminal runs it (${CREATES_PER_RUN} requests per run, ${RUNS} runs)`);
  console.log(`  mix sent: ${pct(mixCounts.create)} resting creates, ${pct(mixCounts.cancel)} cancels of own orders (${mixCounts.cancelGone} already filled: 404), ${pct(mixCounts.ioc)} crossing IOC; ${MIX_ACCOUNTS} accounts`);
  console.log('  signatures: a create signature is reused for up to 100 ms per account (the exchange verifies each request); every cancel is signed afresh');
  console.log(`  exchange CPU per request: median ${median(perOpUs).toFixed(1)} us (runs: ${perOpUs.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  throughput, ${CONCURRENCY} in flight: median ${fmtRate(median(rates))} (runs: ${rates.map(fmtRate).join(', ')})`);
  console.log(`  at ${fmtRate(TARGET_RATE)} offered (open loop): p99 median ${median(pacedP99s).toFixed(2)} ms (runs: ${pacedP99s.map((v) => v.toFixed(1)).join(', ')}); snapshots taken during those runs: ${snapshotsIn.join(', ')} (every ${SNAPSHOT_EVERY} commands, ${mode}); longest event-loop delay in the exchange / in the generator / longest journal group commit, ms: ${stalls.join(', ')}; cores busy, exchange/generator: ${cores.join(', ')}`);
  console.log(`  at ${fmtRate(sustainable)} offered (60% of the measured throughput): p50 ${percentile(atSustainable.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(atSustainable.latenciesMs, 99).toFixed(2)} ms, max ${Math.max(...atSustainable.latenciesMs).toFixed(1)} ms; snapshots taken during it: ${sustainableSnapshots}; ${sustainableLag}`);
  // Overloaded (5,000/s offered where the machine serves less) a request can wait in the
  // generator's queue past the 5 s window of the create signature it carries: a 401
  // header_timestamp_expired is the generator's backlog, printed; a 5xx is the exchange's fault.
  const by = [...mixUnexpected].map(([st, n]) => `${n} x ${st}`).join(', ');
  console.log(`  unexpected answers: ${errors}${by ? ` (${by}; 401 = a create signature older than 5 s by the time an overloaded generator sent it)` : ''}`);
  if ([...mixUnexpected.keys()].some((st) => st >= 500)) throw new Error(`the exchange answered 5xx to the mix: ${by}`);
  figure('http_orders_per_s', median(rates), 'requests/s (70/20/10 mix)');
  figure('http_order_p99_ms', median(pacedP99s), 'ms at 5,000/s, snapshots on');
  figure('exchange_cpu_per_request_us', median(perOpUs), 'us');
  return { p99: median(pacedP99s), rate: median(rates) };
}

// ---- section 3: client round trip, ours vs kalshi-typescript ----------------------------------

async function clientRoundTrip(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-clients-'));
  const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false });
  const ids = userIds(withKeys(ex.credentials).accounts);
  await openBenchMarket(ex, ids);
  const trader = withKeys(ex.credentials).accounts.find((a) => a.name === 'trader')!;
  const ours = createApiClient({
    profile: { kind: 'custom', name: 'bench', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' },
    credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem },
  });
  const sdk = new OrdersApi(new Configuration({ basePath: ex.baseUrl, apiKey: trader.api_key_id, privateKeyPem: trader.private_key_pem }));
  const N = Number(process.env.BENCH_CLIENT_CREATES ?? (QUICK ? 400 : 1_000));
  const C = 16;
  const price = (i: number) => `0.${(40 + (i % 5)).toString()}`;
  const drive = async (one: (i: number) => Promise<unknown>) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: C }, async () => {
        for (;;) {
          const i = next++;
          if (i >= N) return;
          await one(i);
        }
      }),
    );
    return N / ((performance.now() - t0) / 1000);
  };
  const oursOne = (i: number) => ours.createOrder({ body: { ticker: TICKER, side: 'bid', count: '1', price: price(i) } });
  const sdkOne = (i: number) =>
    sdk.createOrderV2({ ticker: TICKER, side: 'bid', count: '1', price: price(i), time_in_force: 'good_till_canceled', self_trade_prevention_type: 'taker_at_cross' });
  // both answer the same thing: check once
  const a = (await oursOne(0)) as { order_id: string };
  const b = (await sdkOne(1)).data as { order_id?: string };
  if (!a.order_id || !b.order_id) throw new Error('a client did not get an order id');
  const oursRates: number[] = [];
  const sdkRates: number[] = [];
  await drive(oursOne);
  await drive(sdkOne);
  for (let r = 0; r < RUNS; r++) {
    oursRates.push(await drive(oursOne));
    await cancelAll(ex, ids);
    sdkRates.push(await drive(sdkOne));
    await cancelAll(ex, ids);
  }
  await ex.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\n## client round trip: ours vs kalshi-typescript (${N} signed creates x ${RUNS} runs, ${C} in flight, each client signs every request)`);
  console.log(`  ours (src-main/api/client.ts createOrder)   median ${fmtRate(median(oursRates)).padStart(10)}  (min ${fmtRate(Math.min(...oursRates))}, max ${fmtRate(Math.max(...oursRates))})`);
  console.log(`  kalshi-typescript OrdersApi.createOrderV2   median ${fmtRate(median(sdkRates)).padStart(10)}  (min ${fmtRate(Math.min(...sdkRates))}, max ${fmtRate(Math.max(...sdkRates))})`);
  console.log(`  ratio ours / kalshi-typescript: ${(median(oursRates) / median(sdkRates)).toFixed(2)}x (rate)`);
  // the target is stated in round-trip time: ours / the SDK's (lower is better)
  const timeRatio = median(sdkRates) / median(oursRates);
  figure('order_roundtrip_vs_sdk', 1000 / median(oursRates), 'ms per create at 16 in flight', 1000 / median(sdkRates), timeRatio);
}

const sections = (process.env.BENCH_SECTIONS ?? (QUICK ? 'server,clients' : 'target,server,clients')).split(',');
if (sections.includes('profile')) {
  // steady state for `node --cpu-prof`: cache on, snapshots out of the way
  const r = await section1(true, 1_000_000_000);
  console.log(`profile run: ${fmtRate(r.rate)}, paced p99 ${r.pacedP99.toFixed(2)} ms, CPU/create ${r.cpuPerCreateUs.toFixed(0)} us`);
}
let ok = true;
let inProcessOk = true;
if (sections.includes('target')) inProcessOk = await inProcess();
if (sections.includes('server')) {
  const deployed = await serverCost();
  // The targets are judged on the deployed shape (exchange in its own process); the in-process
  // figures above are printed for comparison (one core shared by generator and exchange).
  const met = deployed.rate >= TARGET_RATE && deployed.p99 < TARGET_P99_MS;
  console.log(`  targets as deployed (>= ${fmtRate(TARGET_RATE)}, p99 < ${TARGET_P99_MS} ms at ${fmtRate(TARGET_RATE)}): ${met ? 'met' : 'MISSED'}${inProcessOk ? '' : ' (in-process configuration A missed; see above)'}`);
  ok = met;
} else ok = inProcessOk;
if (sections.includes('clients')) await clientRoundTrip();
process.exit(ok ? 0 : 2);
