// `npm run chaos [-- --minutes <n>] [--kill-minutes <n>] [--storm <calls>] [--seed <n>] [--quick]`
// Runs every chaos scenario against real processes and prints each report, then a summary; exits
// 1 when the referee found a problem (a failing run prints its seed: run it again with --seed).
//   1. trading through the fault proxy (drops, delays, reorders, cuts) for --minutes (default 10)
//   2. kill -9 of the exchange every 20 s during an order burst of --kill-minutes (default 2)
//   3. a rate-limit storm of --storm calls from the terminal (default 1,000)
//   4. kill -9 of the web host mid-session (open orders, local orders, the kill switch)
//   5. concurrent orders while the kill switch engages (nothing created or filled after it answers)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startWorld } from './world';
import { rateLimitStorm, tradeThroughFaults } from './run';
import { hostKillScenario } from './host-kill';
import { killUnderFire } from './kill-under-fire';
import type { FaultRates } from './fault-proxy';

/** the kill run's only fault is the kill: a clean, slightly slow pipe */
const KILL_ONLY: FaultRates = { refuse: 0, cut: 0, cutWithinMs: 0, blackhole: 0, blackholeMs: 0, delayMs: 20, cutOneEveryMs: 0 };

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'kill-minutes': { type: 'string', default: '2' },
    storm: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
  strict: true,
});
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Date.now() % 1_000_000);
const quick = values.quick;
const faultMs = quick ? 20_000 : Number(values.minutes) * 60_000;
const killMs = quick ? 15_000 : Number(values['kill-minutes']) * 60_000;
const stormCalls = quick ? 200 : Number(values.storm);
if (![faultMs, killMs, stormCalls, seed].every((n) => Number.isFinite(n) && n >= 0)) {
  console.error('chaos: --minutes, --kill-minutes, --storm and --seed take non-negative numbers');
  process.exit(2);
}

const log = (m: string) => console.log(`  ${m}`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'chaos-'));
console.log(`chaos seed ${seed} (repeat with --seed ${seed}), data in ${dataDir}`);
let failed = false;
const summary: string[] = [];
const world = await startWorld({ dataDir: path.join(dataDir, 'world'), seed, faults: null, log });
try {
  console.log(`1. trading through the fault proxy for ${Math.round(faultMs / 1000)} s`);
  const a = await tradeThroughFaults(world, { seed, durationMs: faultMs });
  console.log(JSON.stringify(a, null, 1));
  summary.push(`fault proxy: ${a.seconds} s, ${a.trader.calls} terminal calls, ${a.trader.acked} acknowledged, ${a.proxy.cut} cuts, ${a.proxy.refused} refused, ${a.proxy.blackholed} black-holed, settled in ${a.verdict.settleMs} ms: ${a.verdict.ok ? 'ok' : 'FAILED'}`);
  failed ||= !a.verdict.ok;

  console.log(`2. kill -9 of the exchange every 20 s during ${Math.round(killMs / 1000)} s of orders`);
  const b = await tradeThroughFaults(world, { seed: seed + 1, durationMs: killMs, killEveryMs: quick ? 6_000 : 20_000, faults: KILL_ONLY });
  console.log(JSON.stringify(b, null, 1));
  summary.push(`kill -9 exchange: ${b.exchangeRestarts} restarts, ${b.trader.acked} acknowledged, settled in ${b.verdict.settleMs} ms: ${b.verdict.ok ? 'ok' : 'FAILED'}`);
  failed ||= !b.verdict.ok;

  console.log(`3. a rate-limit storm of ${stormCalls} calls`);
  const c = await rateLimitStorm(world, stormCalls);
  console.log(JSON.stringify(c, null, 1));
  const stormOk = c.tooManyRequests === 0 && c.ok === c.calls;
  summary.push(`storm: ${c.calls} calls in ${c.seconds} s, ${c.ok} ok, ${c.tooManyRequests} x 429 to the trader: ${stormOk ? 'ok' : 'FAILED'}`);
  failed ||= !stormOk;

  console.log('5. concurrent orders while the kill switch engages');
  const e = await killUnderFire(world, { seed: seed + 2, orders: quick ? 40 : 80 });
  console.log(JSON.stringify(e, null, 1));
  const killOk = e.problems.length === 0 && e.verdict.ok;
  summary.push(`kill switch under fire: ${e.orders} orders, ${e.acked} acknowledged, ${e.stoppedByKillSwitch} stopped, engage answered in ${e.engageMs} ms, ${e.createdAfterSince} created after since (on the wire), ${e.createdAfterAnswer} created / ${e.fillsAfterAnswer} filled after it answered, ${e.restingAfterAnswer} resting: ${killOk ? 'ok' : 'FAILED'}`);
  failed ||= !killOk;
} finally {
  await world.close();
}
console.log('4. kill -9 of the web host mid-session');
const d = await hostKillScenario(path.join(dataDir, 'host'), log);
console.log(JSON.stringify(d, null, 1));
summary.push(`kill -9 web host: restarts ${d.restartMs.join(' / ')} ms, ${d.openOrdersAfter}/${d.openOrdersBefore} open orders, ${d.localOrdersAfter}/${d.localOrdersBefore} local orders, kill switch ${d.killSwitchAfter ? 'engaged' : 'released'}: ${d.problems.length === 0 ? 'ok' : 'FAILED'}`);
failed ||= d.problems.length > 0;

console.log(`\nchaos seed ${seed}`);
for (const s of summary) console.log(`  ${s}`);
if (!failed) rmSync(dataDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
