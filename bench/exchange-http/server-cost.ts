// Section 2 (the targets, as deployed): the realistic mix (mix.ts) against the exchange in its
// own process, run from its bundle as the terminal runs it (bundle.ts; exchange-child.ts:
// default settings, snapshots on, every SNAPSHOT_EVERY commands here, so several fall inside
// each measured run). Measured: the exchange's own CPU
// time per request, throughput with 64 in flight, p99 at the target rate (open loop), and the
// tail at a rate this machine sustains. BENCH_CHILD_PROF=<dir> profiles that process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, fmtRate, median, percentile } from '../lib';
import { own } from '../procs';
import type { ProvisionedAccount } from '../../src-shared/credentials';
import { CREATES_PER_RUN, paced, run, RUNS, CONCURRENCY, TARGET_RATE, undiciRequester, type Op } from './load';
import { childBundle } from './bundle';
import { MIX_ACCOUNTS, mixAccountsOf, mixOp, type MixTally } from './mix';
import type { ExchangeChildSettings } from './exchange-child';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const SNAPSHOT_EVERY = Number(process.env.BENCH_SNAPSHOT_EVERY ?? 5_000);

type Reply = Record<string, unknown>;

type Child = { hello: Reply; ask(m: string): Promise<Reply>; exit(): Promise<void> };

/** The exchange process: its hello (port, accounts), a question answered by its next message, and its end. */
async function startExchangeChild(dataDir: string): Promise<Child> {
  const settings: ExchangeChildSettings = { dataDir, snapshotEvery: SNAPSHOT_EVERY, accounts: Array.from({ length: MIX_ACCOUNTS }, (_, k) => ({ name: `mix${k + 1}`, fcm: false })) };
  return startChild('exchange-child.ts', JSON.stringify(settings));
}

/** A bench child process (its file in this folder, run from its bundle, one argument) speaking hello / ask / exit over IPC. */
async function startChild(file: string, arg: string): Promise<Child> {
  // BENCH_CHILD_PROF=<dir>: profile the exchange process (node --cpu-prof) to see where its time goes
  // BENCH_CHILD_FLAGS='--trace-gc ...': more node flags for the exchange process (what its collector does)
  const prof = [
    ...(process.env.BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CHILD_PROF}`] : []),
    ...(process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const child = own(spawn(process.execPath, [...(file === 'exchange-child.ts' ? prof : []), await childBundle(file), arg], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const replies: ((m: Reply) => void)[] = [];
  child.on('message', (m) => replies.shift()?.(m as Reply));
  const next = () => new Promise<Reply>((resolve) => replies.push(resolve));
  const ask = (m: string) => {
    const p = next();
    child.send(m);
    return p;
  };
  const hello = await next();
  const exit = async () => {
    child.send('exit');
    await new Promise((r) => child.on('exit', r));
  };
  return { hello, ask, exit };
}

const cpuOf = (m: Reply) => {
  const c = m.cpu as { user: number; system: number };
  return c.user + c.system;
};

/** Closed loop, RUNS times: the exchange's CPU time per request and the throughput. */
async function throughputRuns(op: Op, ask: (m: string) => Promise<Reply>, cancelAllOrders: () => Promise<void>) {
  const perOpUs: number[] = [];
  const rates: number[] = [];
  let errors = 0;
  for (let r = 0; r < RUNS; r++) {
    const before = cpuOf(await ask('cpu'));
    const res = await run(op, CREATES_PER_RUN);
    const after = cpuOf(await ask('cpu'));
    perOpUs.push((after - before) / CREATES_PER_RUN);
    rates.push(res.opsPerSec);
    errors += res.errors;
    await cancelAllOrders();
  }
  return { perOpUs, rates, errors };
}

/** Open loop at the target rate, RUNS times: p99 from each scheduled send; snapshots on. */
async function latencyRuns(op: Op, ask: (m: string) => Promise<Reply>, cancelAllOrders: () => Promise<void>) {
  const pacedP99s: number[] = [];
  const snapshotsIn: number[] = [];
  /** per run: the longest event-loop delay in the exchange and in this generator, ms */
  const stalls: string[] = [];
  /** per run: cores busy in the exchange (its worker included) / in this generator */
  const cores: string[] = [];
  let errors = 0;
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
    const ownCpu = process.cpuUsage(own0);
    stalls.push(`${(st.lagMaxMs as number).toFixed(0)}/${(ownLag.max / 1e6).toFixed(0)}/${(st.flushMs as number).toFixed(0)}`);
    cores.push(`${((cpuOf(st) - cpuOf(st0)) / wallUs).toFixed(2)}/${((ownCpu.user + ownCpu.system) / wallUs).toFixed(2)}`);
    snapshotsIn.push((st.snapshots as number) - s0);
    mode = String(st.mode);
    pacedP99s.push(percentile(res.latenciesMs, 99));
    errors += res.errors;
    await cancelAllOrders();
  }
  ownLag.disable();
  return { pacedP99s, snapshotsIn, stalls, cores, mode, errors };
}

/**
 * The same at a rate this machine sustains (60% of the measured throughput): what is left of
 * the tail is the exchange's own, snapshots included, not queueing behind an overloaded core.
 */
async function sustainableRun(op: Op, ask: (m: string) => Promise<Reply>, cancelAllOrders: () => Promise<void>, rates: number[]) {
  const sustainable = Math.round(0.6 * median(rates));
  const s0 = (await ask('cpu')).snapshots as number;
  const atSustainable = await paced(op, sustainable, Math.max(CREATES_PER_RUN, sustainable * 4));
  const afterSustainable = await ask('cpu');
  const sustainableSnapshots = (afterSustainable.snapshots as number) - s0;
  const sustainableLag = `exchange event-loop delay p99 ${(afterSustainable.lagP99Ms as number).toFixed(1)} ms, max ${(afterSustainable.lagMaxMs as number).toFixed(1)} ms`;
  await cancelAllOrders();
  return { sustainable, atSustainable, sustainableSnapshots, sustainableLag };
}

/**
 * The peer, in the same run: the same mix against a bare fastify server that verifies the same
 * signatures and answers a fixed body (bare-fastify.ts): throughput with CONCURRENCY in flight
 * and p99 at TARGET_RATE offered, RUNS times each.
 */
async function bareFastifyPeer(accounts: ProvisionedAccount[]): Promise<{ rate: number; p99: number; errors: number }> {
  const bare = await startChild('bare-fastify.ts', JSON.stringify(accounts));
  const signer = mixAccountsOf(accounts);
  const t = undiciRequester(`http://127.0.0.1:${bare.hello.port as number}`);
  const tally: MixTally = { counts: { create: 0, cancel: 0, cancelGone: 0, ioc: 0 }, unexpected: new Map() };
  const op = mixOp(t.request, signer.accounts, tally);
  const forget = () => {
    for (const a of signer.accounts) a.resting.length = 0;
  };
  await run(op, 3_000);
  forget();
  const rates: number[] = [];
  const p99s: number[] = [];
  let errors = 0;
  for (let r = 0; r < RUNS; r++) {
    const res = await run(op, CREATES_PER_RUN);
    rates.push(res.opsPerSec);
    errors += res.errors;
    forget();
  }
  for (let r = 0; r < RUNS; r++) {
    const res = await paced(op, TARGET_RATE, CREATES_PER_RUN);
    p99s.push(percentile(res.latenciesMs, 99));
    errors += res.errors;
    forget();
  }
  signer.stop();
  await t.close();
  await bare.exit();
  console.log(`  peer, bare fastify (verifies every signature, fixed body): throughput median ${fmtRate(median(rates))} (runs: ${rates.map(fmtRate).join(', ')}); at ${fmtRate(TARGET_RATE)} offered p99 median ${median(p99s).toFixed(2)} ms (runs: ${p99s.map((v) => v.toFixed(1)).join(', ')}); unexpected answers: ${errors}`);
  return { rate: median(rates), p99: median(p99s), errors };
}

export async function serverCost(): Promise<{ p99: number; rate: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-child-'));
  const child = await startExchangeChild(dataDir);
  const { ask } = child;
  const signer = mixAccountsOf(child.hello.accounts as ProvisionedAccount[]);
  const t = undiciRequester(`http://127.0.0.1:${child.hello.port as number}`);
  const tally: MixTally = { counts: { create: 0, cancel: 0, cancelGone: 0, ioc: 0 }, unexpected: new Map() };
  const op = mixOp(t.request, signer.accounts, tally);
  const cancelAllOrders = async () => {
    await ask('cancel');
    for (const a of signer.accounts) a.resting.length = 0;
  };
  await run(op, 3_000);
  await cancelAllOrders();
  const closed = await throughputRuns(op, ask, cancelAllOrders);
  const open = await latencyRuns(op, ask, cancelAllOrders);
  const s = await sustainableRun(op, ask, cancelAllOrders, closed.rates);
  const errors = closed.errors + open.errors + s.atSustainable.errors;
  signer.stop();
  await t.close();
  await child.exit();
  rmSync(dataDir, { recursive: true, force: true });
  const { perOpUs, rates } = closed;
  const { pacedP99s, snapshotsIn, stalls, cores, mode } = open;
  const { sustainable, atSustainable, sustainableSnapshots, sustainableLag } = s;
  const total = tally.counts.create + tally.counts.cancel + tally.counts.ioc;
  const pct = (n: number) => `${((100 * n) / total).toFixed(0)}%`;
  console.log(`\n## the realistic mix, exchange in its own process as the terminal runs it (${CREATES_PER_RUN} requests per run, ${RUNS} runs)`);
  console.log(`  mix sent: ${pct(tally.counts.create)} resting creates, ${pct(tally.counts.cancel)} cancels of own orders (${tally.counts.cancelGone} already filled: 404), ${pct(tally.counts.ioc)} crossing IOC; ${MIX_ACCOUNTS} accounts`);
  console.log('  signatures: a create signature is reused for up to 100 ms per account (the exchange verifies each request); every cancel is signed afresh');
  console.log(`  exchange CPU per request: median ${median(perOpUs).toFixed(1)} us (runs: ${perOpUs.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  throughput, ${CONCURRENCY} in flight: median ${fmtRate(median(rates))} (runs: ${rates.map(fmtRate).join(', ')})`);
  console.log(`  at ${fmtRate(TARGET_RATE)} offered (open loop): p99 median ${median(pacedP99s).toFixed(2)} ms (runs: ${pacedP99s.map((v) => v.toFixed(1)).join(', ')}); snapshots taken during those runs: ${snapshotsIn.join(', ')} (every ${SNAPSHOT_EVERY} commands, ${mode}); longest event-loop delay in the exchange / in the generator / longest journal group commit, ms: ${stalls.join(', ')}; cores busy, exchange/generator: ${cores.join(', ')}`);
  console.log(`  at ${fmtRate(sustainable)} offered (60% of the measured throughput): p50 ${percentile(atSustainable.latenciesMs, 50).toFixed(2)} ms, p99 ${percentile(atSustainable.latenciesMs, 99).toFixed(2)} ms, max ${Math.max(...atSustainable.latenciesMs).toFixed(1)} ms; snapshots taken during it: ${sustainableSnapshots}; ${sustainableLag}`);
  // Overloaded (5,000/s offered where the machine serves less) a request can wait in the
  // generator's queue past the 5 s window of the create signature it carries: a 401
  // header_timestamp_expired is the generator's backlog, printed; a 5xx is the exchange's fault.
  const by = [...tally.unexpected].map(([st, n]) => `${n} x ${st}`).join(', ');
  console.log(`  unexpected answers: ${errors}${by ? ` (${by}; 401 = a create signature older than 5 s by the time an overloaded generator sent it)` : ''}`);
  if ([...tally.unexpected.keys()].some((st) => st >= 500)) throw new Error(`the exchange answered 5xx to the mix: ${by}`);
  const peer = await bareFastifyPeer(child.hello.accounts as ProvisionedAccount[]);
  const rateRatio = median(rates) / peer.rate;
  const p99Ratio = median(pacedP99s) / peer.p99;
  console.log(`  exchange / bare fastify: throughput ${rateRatio.toFixed(2)} (goal >= 0.5), p99 at ${fmtRate(TARGET_RATE)} ${p99Ratio.toFixed(2)}x the bare server's`);
  figure('http_orders_per_s', median(rates), 'requests/s (70/20/10 mix)', peer.rate, rateRatio);
  figure('http_orders_vs_bare_fastify', rateRatio, 'x (exchange / bare fastify, same mix and signatures; goal >= 0.5)', peer.rate, rateRatio);
  figure('http_order_p99_ms', median(pacedP99s), 'ms at 5,000/s, snapshots on (peer: the bare fastify server)', peer.p99, p99Ratio);
  figure('exchange_cpu_per_request_us', median(perOpUs), 'us');
  return { p99: median(pacedP99s), rate: median(rates) };
}
