// `npm run bench [-- --quick] [-- <name filter>...]`: runs every bench/*.bench.ts in its own
// process (so one bench's JIT state and garbage do not colour the next), summarises which targets
// were met and writes bench/results.json: {"machine", "quick", "date", "figures": {"<name>":
// {"value", "unit", "peer", "ratio"}}}. --quick runs smaller streams and fewer repetitions (the
// whole run in under three minutes) and writes bench/results.quick.json instead, so a quick run
// never replaces the figures of a full one. --smoke (what `npm test` runs) is --quick cut further
// where a bench waits for samples (bench/lib.ts SMOKE): it proves every bench runs and writes its
// figures, into bench/results.smoke.json (git-ignored), whose values judge nothing. Each bench
// runs with an IPC channel and dies with this process (bench/procs.ts), and is killed if this
// process ends first: nothing outlives the run.
// The renderer and web host bundles are built once, before the first bench that serves them
// (not once per such bench; skipped when npm test built them for this run: BENCH_BUILT=1).
// A smoke run runs its benches two at a time (BENCH_JOBS overrides; a measuring run, one at a
// time), each one's output printed whole when it ends, the longest first: its figures judge
// nothing, and the two cores are then both busy (single-threaded benches left one idle).
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { cpus, tmpdir, totalmem, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildBundles, dieWithParent, own } from './procs';

dieWithParent();

const dir = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const quick = smoke || argv.includes('--quick');
const only = argv.filter((a) => a !== '--quick' && a !== '--smoke');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no benchmarks matched');
  process.exit(1);
}
// BENCH_STALL_MS overrides the silence after which a bench counts as hung (default 10 minutes)
const STALL_MS = Number(process.env.BENCH_STALL_MS ?? 600_000);
const figuresFile = path.join(tmpdir(), `bench-figures-${process.pid}.jsonl`);
rmSync(figuresFile, { force: true });
// A smoke run's exchanges take their provisioned accounts' key pairs from the tests' file instead of
// generating RSA keys on each first start (about 1.3 s of CPU an exchange, five or six of them;
// test-support/exchange/provision-keys.json, as the unit and e2e stages do). A measuring run keeps
// generating them: a trader's first start does.
const SMOKE_KEYS = smoke ? { EXCHANGE_PROVISION_KEYS: path.join(dir, '..', 'test-support', 'exchange', 'provision-keys.json') } : {};
const env: NodeJS.ProcessEnv = { ...process.env, BENCH_FIGURES: figuresFile, ...(quick ? { BENCH_QUICK: '1' } : {}), ...(smoke ? { BENCH_SMOKE: '1' } : {}), ...SMOKE_KEYS };
const summary = new Map<string, string>();
const t0 = Date.now();
let failed = false;
const askedJobs = Number(process.env.BENCH_JOBS ?? (smoke ? 2 : 1));
const jobs = Number.isInteger(askedJobs) && askedJobs >= 1 ? askedJobs : 1;
if (process.env.BENCH_BUILT !== '1' && files.some((f) => readFileSync(path.join(dir, f), 'utf8').includes('buildBundles('))) {
  console.log('\n# building the renderer and web host bundles the benches serve');
  await buildBundles({ host: true });
  env.BENCH_BUILT = '1';
}
// side by side, the slowest start first (their smoke times, largest first), then the rest by name
const SLOWEST = ['renderer', 'exchange-http', 'strategies', 'keypress-ack', 'main-feed'];
const rank = (f: string) => {
  const i = SLOWEST.findIndex((n) => f.startsWith(`${n}.`));
  return i < 0 ? SLOWEST.length : i;
};
const queue = jobs > 1 ? [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)) : [...files];

async function runOne(f: string): Promise<void> {
  const title = `\n# ${f}${smoke ? ' (smoke: the figures prove it runs, they judge nothing)' : quick ? ' (quick)' : ''}`;
  // one at a time, the output streams; side by side, each bench's is printed whole when it ends
  const held: Buffer[] | null = jobs > 1 ? [] : null;
  if (held) console.log(`  started ${f}`);
  else console.log(title);
  const started = Date.now();
  const child = own(spawn(process.execPath, ['--import', 'tsx', '--expose-gc', path.join(dir, f)], { stdio: ['inherit', 'pipe', 'pipe', 'ipc'], env }));
  // a bench prints as it goes; one silent for STALL_MS is hung (a wait that can never end), not
  // slow: it is stopped and counted as failed, so a hang costs minutes, not the CI run's hour
  let heard = Date.now();
  child.stdout!.on('data', (b: Buffer) => ((heard = Date.now()), held ? held.push(b) : process.stdout.write(b)));
  child.stderr!.on('data', (b: Buffer) => ((heard = Date.now()), held ? held.push(b) : process.stderr.write(b)));
  let stalled = false;
  const watch = setInterval(() => {
    if (Date.now() - heard < STALL_MS || stalled) return;
    stalled = true;
    console.log(`\n${f}: nothing printed for ${Math.round(STALL_MS / 60_000)} min: stopping it as hung`);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, 1000);
  const status = await new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 1)));
  clearInterval(watch);
  if (held) process.stdout.write(`${title}\n${Buffer.concat(held).toString()}`);
  if (stalled || (status !== 0 && status !== 2)) failed = true;
  const took = `${Math.round((Date.now() - started) / 1000)} s`;
  summary.set(f, `${f} (${took}): ${stalled ? `HUNG (silent ${Math.round(STALL_MS / 60_000)} min, stopped)` : status === 0 ? 'all targets met' : status === 2 ? 'some targets MISSED' : `failed (exit ${status})`}`);
}
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) await runOne(f);
  }),
);
const figures: Record<string, { value: number; unit: string; peer: number | null; ratio: number | null }> = {};
if (existsSync(figuresFile)) {
  for (const line of readFileSync(figuresFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { name, ...rest } = JSON.parse(line) as { name: string; value: number; unit: string; peer: number | null; ratio: number | null };
    figures[name] = rest;
  }
  rmSync(figuresFile, { force: true });
}
const cpu = cpus();
const machine = `${cpu[0]?.model ?? 'unknown CPU'} x${cpu.length}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.versions.node}`;
// a filtered run only adds to what the last full run wrote
const out = path.join(dir, smoke ? 'results.smoke.json' : quick ? 'results.quick.json' : 'results.json');
const previous = only.length && existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as { figures?: typeof figures }).figures ?? {} : {};
writeFileSync(out, `${JSON.stringify({ machine, quick, ...(smoke ? { smoke } : {}), date: new Date().toISOString(), seconds: Math.round((Date.now() - t0) / 1000), figures: { ...previous, ...figures } }, null, 2)}\n`);
console.log('\n# summary');
for (const f of files) console.log(`  ${summary.get(f)}`);
console.log(`  ${Object.keys(figures).length} figures written to ${path.relative(process.cwd(), out)} in ${Math.round((Date.now() - t0) / 1000)} s`);
process.exit(failed ? 1 : 0);
