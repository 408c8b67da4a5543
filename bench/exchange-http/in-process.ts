// Section 1 (the targets' in-process shape): the exchange runs in this process (no simulation,
// no rate limits) and the generator sends signed creates on loopback keep-alive connections, over
// whichever transport a short calibration finds faster. Orders alternate between two accounts,
// bids and asks around 50c, so about half of them cross and fill; between runs the resting ones
// are cancelled (not timed) to keep the book bounded. Each run: a closed loop (64 in flight)
// for throughput, then an open loop at the target rate for latency.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmtRate, median, percentile } from '../lib';
import { startExchange, type RunningExchange } from '../../src-exchange/server';
import { setVerifiedSignatureCache } from '../../src-exchange/auth/verify';
import { withKeys } from '../../src-shared/credentials';
import { cancelAll, openBenchMarket, TICKER } from './market';
import { refreshedSigners, traderAndCounterparty, type Account } from './signing';
import { CONCURRENCY, CREATES_PER_RUN, nodeHttpTransport, paced, run, RUNS, TARGET_P99_MS, TARGET_RATE, undiciTransport, type Op, type Send } from './load';

/** The i-th create: accounts alternate; bids and asks around 50c so about half cross. */
function createBody(i: number): string {
  const side = i % 2 === 0 ? 'bid' : 'ask';
  const offset = ((i * 7919) % 5) - 2; // -2..2 cents
  const price = (50 + offset).toString().padStart(2, '0');
  return `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"0.${price}"}`;
}

/** Section 1's load: signed creates only, accounts alternating. */
const createsOf =
  (send: Send, accounts: Account[]): Op =>
  async (i) =>
    (await send(accounts[i % accounts.length]!, createBody(i))) === 201;

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

type Transports = Record<string, { send: Send; close(): Promise<void> }>;

/** Each transport's rate on a short closed loop (after a warm-up), and the faster one's name. */
async function calibrate(ex: RunningExchange, ids: string[], transports: Transports, accounts: Account[]): Promise<{ calib: Record<string, number>; used: string }> {
  const calib: Record<string, number> = {};
  for (const [name, t] of Object.entries(transports)) {
    await run(createsOf(t.send, accounts), 2_000);
    calib[name] = (await run(createsOf(t.send, accounts), 5_000)).opsPerSec;
    await cancelAll(ex, ids);
  }
  const [used] = Object.entries(calib).sort((a, b) => b[1] - a[1])[0]!;
  return { calib, used };
}

/** RUNS x (saturation, then latency at the target rate), the book emptied after each. */
async function measureRuns(ex: RunningExchange, ids: string[], send: Send, accounts: Account[]) {
  const m = { rates: [] as number[], closedP50: [] as number[], closedP99: [] as number[], pacedAll: [] as number[], pacedP99s: [] as number[], errors: 0, served: 0 };
  for (let r = 0; r < RUNS; r++) {
    // saturation: 64 in flight, as fast as the exchange answers
    const closed = await run(createsOf(send, accounts), CREATES_PER_RUN);
    m.rates.push(closed.opsPerSec);
    m.closedP50.push(percentile(closed.latenciesMs, 50));
    m.closedP99.push(percentile(closed.latenciesMs, 99));
    m.errors += closed.errors;
    await cancelAll(ex, ids);
    // latency at the target rate
    const open = await paced(createsOf(send, accounts), TARGET_RATE, CREATES_PER_RUN);
    m.pacedAll.push(...open.latenciesMs);
    m.pacedP99s.push(percentile(open.latenciesMs, 99));
    m.errors += open.errors;
    await cancelAll(ex, ids);
    m.served += 2 * CREATES_PER_RUN;
  }
  return m;
}

/** One configuration: the verified-signature cache on or off, snapshots every `snapshotEvery` commands (the default when absent). */
export async function section1(cacheOn: boolean, snapshotEvery?: number): Promise<Section1 & { calib: Record<string, number>; used: string; journal: string }> {
  setVerifiedSignatureCache(cacheOn);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-'));
  const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false, ...(snapshotEvery ? { snapshotEvery } : {}) });
  const ids = traderAndCounterparty(withKeys(ex.credentials).accounts).map((a) => a.user_id);
  await openBenchMarket(ex, ids);
  const signer = refreshedSigners(traderAndCounterparty(withKeys(ex.credentials).accounts), 500);
  const transports: Transports = {
    'undici Pool': undiciTransport(`http://127.0.0.1:${ex.port}`),
    'node:http keepAlive Agent': nodeHttpTransport(ex.port),
  };
  const { calib, used } = await calibrate(ex, ids, transports, signer.accounts);
  const cpu0 = process.cpuUsage();
  const m = await measureRuns(ex, ids, transports[used]!.send, signer.accounts);
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
    rate: median(m.rates),
    rates: m.rates,
    closedP50: median(m.closedP50),
    closedP99: median(m.closedP99),
    pacedP50: percentile(m.pacedAll, 50),
    pacedP99: median(m.pacedP99s),
    pacedP999: percentile(m.pacedAll, 99.9),
    pacedMax: Math.max(...m.pacedAll),
    pacedP99s: m.pacedP99s,
    errors: m.errors,
    cpuPerCreateUs: (cpu.user + cpu.system) / m.served,
  };
}

function show(label: string, r: Section1 & { journal: string }): void {
  console.log(`  ${label}`);
  console.log(`    saturation, ${CONCURRENCY} in flight: median ${fmtRate(r.rate)} (min ${fmtRate(Math.min(...r.rates))}, max ${fmtRate(Math.max(...r.rates))}); latency p50 ${r.closedP50.toFixed(2)} ms, p99 ${r.closedP99.toFixed(2)} ms (mostly queueing: ${CONCURRENCY} / throughput)`);
  console.log(`    at ${fmtRate(TARGET_RATE)} offered (open loop): p50 ${r.pacedP50.toFixed(2)} ms, p99 median ${r.pacedP99.toFixed(2)} ms (runs: ${r.pacedP99s.map((v) => v.toFixed(1)).join(', ')}), p99.9 ${r.pacedP999.toFixed(1)} ms, max ${r.pacedMax.toFixed(1)} ms`);
  console.log(`    process CPU per create (exchange + generator): ${r.cpuPerCreateUs.toFixed(0)} us; non-201 answers: ${r.errors}; journal: ${r.journal}`);
}

/** Section 1: configurations A, B and C, printed; true when A meets both targets. */
export async function inProcess(): Promise<boolean> {
  const asConfigured = await section1(true);
  const cacheOff = await section1(false);
  const noSnapshots = await section1(true, 1_000_000_000);
  console.log(`\n## signed order creates over keep-alive HTTP, exchange in process (${CREATES_PER_RUN} creates per run, ${RUNS} runs per configuration)`);
  for (const [name, v] of Object.entries(asConfigured.calib)) console.log(`  transport calibration: ${name.padEnd(26)} ${fmtRate(v)}${name === asConfigured.used ? '  (used)' : ''}`);
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
