// `npm run soak [-- --minutes 30] [--warmup 5] [--every 30] [--sim-rate <commands/s>]`: the web host
// from its bundles (as `npm run start:web` runs it) at the lively default simulation rate (or
// --sim-rate), a Chromium page on it, and
// a trader placing and canceling an order every few seconds over the host's door, for --minutes.
// Every --every seconds: main's and the exchange's RSS (/proc) and the renderer's JS heap after a
// forced GC (CDP). At the end: growth from the first samples after --warmup minutes to the last
// ones (medians of three), and every error line the host logged, every console error of the page
// and every unhandled rejection. Exits 1 when a process grew 10% or more, or anything was logged.
// `--heapsnap <prefix>`: the renderer's heap snapshots (after a GC) at the end of the warm-up and
// at the end (<prefix>-warm.heapsnapshot, <prefix>-end.heapsnapshot), and main's (the host
// process's, node's --heapsnapshot-signal: <prefix>-main-warm.heapsnapshot, -main-end), to see
// what grew. Main's snapshot holds whatever main holds, its keys included: the soak's are the
// embedded exchange's throwaway accounts; never point it at a data dir with real keys. Writing it
// raises main's RSS for the rest of the run (about 70 MB here): judge RSS from a run without it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectDoor } from '../src-main/host/door-client';
import { childPids, rssBytes, writePageHeapSnapshot } from './lib';
import { dieWithParent, stopChild } from './procs';
import { spawnHost } from './spawn-host';
import { chromium } from 'playwright';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
dieWithParent();
const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, warmup: { type: 'string', default: '5' }, every: { type: 'string', default: '30' }, out: { type: 'string', default: path.join(root, 'bench', 'soak.json') }, heapsnap: { type: 'string' }, 'sim-rate': { type: 'string' } },
  strict: true,
});
const MINUTES = Number(values.minutes);
const WARMUP = Number(values.warmup);
const EVERY = Number(values.every);
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--js-flags=--expose-gc', '--enable-precise-memory-info'];

for (const [cmd, args] of [
  ['npx', ['vite', 'build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn']],
  ['node', ['scripts/build-host.mjs']],
] as const) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

const rssOf = (pid: number) => rssBytes(pid) / 1048576;
const childrenOf = childPids;

const dataDir = mkdtempSync(path.join(tmpdir(), 'soak-'));
// the host has an IPC channel and is owned: it (and its exchange) go with this process however it ends
const spawned = spawnHost(['--port', '0', '--data-dir', dataDir, ...(values['sim-rate'] ? ['--sim-rate', values['sim-rate']] : [])], {
  nodeArgs: ['--enable-source-maps', ...(values.heapsnap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dataDir}`] : [])],
});
const host = spawned.child;
const errors: string[] = [];
const onHostData = (d: Buffer) => {
  for (const line of d.toString().split('\n')) if (/error|unhandled|uncaught|exception/i.test(line)) errors.push(`host: ${line.slice(0, 300)}`);
};
host.stdout!.on('data', onHostData);
host.stderr!.on('data', onHostData);
const url = await spawned.url();
await spawned.ready();

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
page.on('console', (m) => {
  if (m.type() === 'error') errors.push(`page console: ${m.text().slice(0, 300)}`);
});
page.on('pageerror', (e) => errors.push(`page error: ${e.message.slice(0, 300)}`));
await page.goto(url, { waitUntil: 'load' });
await page.waitForFunction(() => [...document.querySelectorAll('[data-panel="ladder"] [data-cell="bid"] .qty')].some((q) => (q.textContent ?? '') !== ''), undefined, { timeout: 0 });
const cdp = await page.context().newCDPSession(page);
await cdp.send('HeapProfiler.enable');
await cdp.send('Performance.enable');

// the trader: an order far from the touch and its cancel, every few seconds, over the host's door
const door = await connectDoor(url);
const call = door.answer;
const markets = ((await call('request', { id: 'getMarkets', query: { status: 'open', limit: 5 } })).value as { markets: { ticker: string }[] }).markets.map((m) => m.ticker);
await call('watchMarkets', markets);
let orders = 0;
let refused = 0;
/** why each refused order was refused (the door's error message), to tell the market closing under the simulation from anything worse */
const refusals: string[] = [];
const trader = setInterval(() => {
  void (async () => {
    const ticker = markets[orders % markets.length]!;
    const r = await call('placeOrder', { ticker, side: 'bid', price: (0.01 + (orders % 5) / 100).toFixed(4), count: String(1 + (orders % 3)), origin: 'api' });
    orders += 1;
    if (!r.ok) {
      refused += 1;
      refusals.push(`${ticker}: ${JSON.stringify((r as { error?: unknown }).error ?? r).slice(0, 200)}`);
      return;
    }
    await new Promise((res) => setTimeout(res, 1500));
    await call('cancelOrder', { order_id: (r.value as { order_id: string }).order_id, ticker, origin: 'api' });
  })();
}, 4000);

interface Sample {
  atMin: number;
  mainMb: number;
  exchangeMb: number;
  rendererHeapMb: number;
  domNodes: number;
}
const samples: Sample[] = [];
async function heapSnapshot(which: string): Promise<void> {
  if (!values.heapsnap) return;
  await writePageHeapSnapshot(cdp, `${values.heapsnap}-${which}.heapsnapshot`);
  // main's: node writes it (after a GC) into the diagnostic dir when signalled; wait for the file
  // to be complete (its name appears when node starts writing, so wait until its size holds)
  const before = new Set(readdirSync(dataDir));
  process.kill(host.pid!, 'SIGUSR2');
  let file: string | undefined;
  for (let size = -1, same = 0; same < 3; ) {
    await new Promise((r) => setTimeout(r, 500));
    if (host.exitCode !== null || host.signalCode !== null) throw new Error(`the host ended (${host.exitCode ?? host.signalCode}) before writing its heap snapshot`);
    file ??= readdirSync(dataDir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const now = statSync(path.join(dataDir, file)).size;
    same = now === size && now > 0 ? same + 1 : 0;
    size = now;
  }
  renameSync(path.join(dataDir, file!), `${values.heapsnap}-main-${which}.heapsnapshot`);
  console.log(`  main's heap snapshot written to ${values.heapsnap}-main-${which}.heapsnapshot`);
}
let warmSnap = false;
const start = Date.now();
console.log(`soak: ${MINUTES} min at ${values['sim-rate'] ? `${values['sim-rate']} commands/s` : 'the default simulation rate'}, a sample every ${EVERY} s, warm-up ${WARMUP} min`);
while (Date.now() - start < MINUTES * 60_000) {
  await new Promise((r) => setTimeout(r, EVERY * 1000));
  await cdp.send('HeapProfiler.collectGarbage');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  const s: Sample = {
    atMin: Math.round((Date.now() - start) / 6000) / 10,
    mainMb: Math.round(rssOf(host.pid!) * 10) / 10,
    exchangeMb: Math.round(childrenOf(host.pid!).reduce((a, p) => a + rssOf(p), 0) * 10) / 10,
    rendererHeapMb: Math.round((m('JSHeapUsedSize') / 1048576) * 10) / 10,
    domNodes: m('Nodes'),
  };
  samples.push(s);
  if (!warmSnap && s.atMin >= WARMUP) {
    warmSnap = true;
    await heapSnapshot('warm');
  }
  console.log(`  ${s.atMin.toFixed(1).padStart(5)} min  main ${s.mainMb} MB  exchange ${s.exchangeMb} MB  renderer heap ${s.rendererHeapMb} MB  DOM nodes ${s.domNodes}  orders ${orders} (${refused} refused)`);
}
clearInterval(trader);
await heapSnapshot('end');
door.ws.close();
await browser.close();
await stopChild(host);

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const after = samples.filter((s) => s.atMin >= WARMUP);
const first = after.slice(0, 3);
const last = samples.slice(-3);
const growth = (k: 'mainMb' | 'exchangeMb' | 'rendererHeapMb') => {
  const a = med(first.map((s) => s[k]));
  const b = med(last.map((s) => s[k]));
  return { afterWarmup: a, atEnd: b, growthPct: Math.round(((b - a) / a) * 1000) / 10 };
};
const result = {
  minutes: MINUTES,
  warmupMinutes: WARMUP,
  orders,
  refused,
  refusals,
  main: growth('mainMb'),
  exchange: growth('exchangeMb'),
  renderer: growth('rendererHeapMb'),
  errors,
  samples,
};
writeFileSync(values.out, JSON.stringify(result, null, 1) + '\n');
console.log(`\nsoak over ${MINUTES} min (growth from the first samples after ${WARMUP} min to the last, medians of three):`);
for (const k of ['main', 'exchange', 'renderer'] as const) console.log(`  ${k.padEnd(9)} ${result[k].afterWarmup} MB -> ${result[k].atEnd} MB  (${result[k].growthPct}%)`);
console.log(`  orders placed and canceled: ${orders} (${refused} refused); errors logged: ${errors.length}`);
for (const r of refusals) console.log(`    refused ${r}`);
for (const e of errors.slice(0, 20)) console.log(`    ${e}`);
rmSync(dataDir, { recursive: true, force: true });
const ok = errors.length === 0 && [result.main, result.exchange, result.renderer].every((g) => g.growthPct < 10);
console.log(ok ? 'soak: ok' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
