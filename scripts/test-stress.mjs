// `npm run test:stress`: the unit + integration stage (vitest) run on a machine made busy on purpose,
// to find the tests that pass only on a fast one. Beside each run, as many busy loops as there
// are cores compete for them (child processes this script starts and always stops: on its end,
// on a signal, and, should it be SIGKILLed, each loop notices its parent is gone and exits, and
// a watchdog, group-reaper.mjs, kills the vitest run).
// Runs the stage N times (default 3) and reports, after each run, which tests failed in it, then
// a summary of every run; exits 1 if any run had a failure.
//
//   npm run test:stress                                   # 3 runs of the whole stage
//   npm run test:stress -- --runs 5 --load 4              # 5 runs, 4 busy loops
//   npm run test:stress -- --runs 2 src-exchange/core     # only the test files matching a filter
//
// Everything after the options is passed to vitest as file filters. A run's report is kept in
// test-results/stress-<n>.json.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReaper } from './group-reaper.mjs';
import { stageTmp } from './stage-tmp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const resultsDir = path.join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

function usage(msg) {
  console.error(`test:stress: ${msg}\nusage: npm run test:stress -- [--runs N] [--load N] [vitest file filters...]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let runs = 3;
let load = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const filters = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--runs' || a === '--load') {
    const v = Number(args[++i]);
    if (!Number.isSafeInteger(v) || v < (a === '--runs' ? 1 : 0)) usage(`${a} needs a whole number${a === '--runs' ? ' of at least 1' : ''}, got ${args[i]}`);
    if (a === '--runs') runs = v;
    else load = v;
  } else if (a === '--') {
    continue;
  } else if (a.startsWith('--')) {
    usage(`unknown option ${a}`);
  } else {
    filters.push(a);
  }
}

// A busy loop in slices, so it can notice its parent is gone (IPC closed, or reparented) and exit.
const BUSY = `
  const parent = process.ppid;
  process.on('disconnect', () => process.exit(0));
  const spin = () => {
    const end = Date.now() + 50;
    while (Date.now() < end);
    if (process.ppid !== parent) process.exit(0);
    setImmediate(spin);
  };
  spin();`;

/** process groups this script started (busy loops and the vitest run) */
const groups = new Set();
/** kills the vitest run's group should we be SIGKILLed (the busy loops notice on their own) */
const reaper = startReaper();
function killGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
  } catch {
    // gone
  }
}
function stopAll(sig = 'SIGKILL') {
  for (const pid of groups) killGroup(pid, sig);
}
process.on('exit', () => stopAll());
let stopping = null;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (!stopping) console.log(`\ntest:stress: ${sig}, stopping`);
    stopping = sig;
    stopAll(sig);
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}

function startBusy() {
  const pids = [];
  for (let i = 0; i < load; i++) {
    const c = spawn(process.execPath, ['-e', BUSY], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
    c.unref();
    c.channel?.unref();
    groups.add(c.pid);
    pids.push(c.pid);
  }
  return pids;
}

function stopBusy(pids) {
  for (const pid of pids) {
    killGroup(pid, 'SIGKILL');
    groups.delete(pid);
  }
}

function vitest(report) {
  return new Promise((resolve) => {
    // the run's own temporary directory, removed when it ends (by the watchdog if we are killed)
    const tmp = stageTmp('stress');
    const child = spawn(
      path.join(root, 'node_modules', '.bin', 'vitest'),
      ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...filters],
      { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], detached: true, env: { ...process.env, ...tmp.env } },
    );
    groups.add(child.pid);
    if (child.pid) reaper.add(child.pid, tmp.dir);
    child.once('error', (e) => {
      console.log(`test:stress: cannot run vitest: ${e.message}`);
      tmp.remove();
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      killGroup(child.pid, 'SIGKILL'); // whatever a test left running
      groups.delete(child.pid);
      reaper.remove(child.pid);
      tmp.remove();
      resolve(code ?? signal);
    });
  });
}

/** The failed tests of a vitest JSON report (a file that failed outside any test counts once). */
function failuresOf(report) {
  let r;
  try {
    r = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return { counts: null, failed: ['(no report: vitest did not finish)'] };
  }
  const failed = [];
  for (const f of r.testResults ?? []) {
    const rel = path.relative(root, f.name ?? '');
    const tests = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) failed.push(`${rel} > ${t.fullName ?? t.title}${t.failureMessages?.[0] ? `\n      ${String(t.failureMessages[0]).split('\n')[0]}` : ''}`);
    if (f.status === 'failed' && tests.length === 0) failed.push(`${rel} (the file failed: ${String(f.message ?? '').split('\n')[0]})`);
  }
  return { counts: { passed: r.numPassedTests ?? 0, failed: r.numFailedTests ?? 0, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) }, failed };
}

// reports of an earlier stress run are not this one's
for (const f of readdirSync(resultsDir)) if (/^stress-\d+\.json$/.test(f)) rmSync(path.join(resultsDir, f), { force: true });

console.log(`test:stress: ${runs} run(s) of the unit + integration stage${filters.length ? ` (files matching ${filters.join(' ')})` : ''}, beside ${load} busy loop(s) on ${os.cpus().length} core(s)`);
const summary = [];
for (let n = 1; n <= runs && !stopping; n++) {
  const report = path.join(resultsDir, `stress-${n}.json`);
  const busy = startBusy();
  const t0 = Date.now();
  console.log(`\n=== stress run ${n}/${runs}`);
  const status = await vitest(report);
  stopBusy(busy);
  const secs = (Date.now() - t0) / 1000;
  const { counts, failed } = failuresOf(report);
  const ok = status === 0 && failed.length === 0;
  console.log(`\n=== stress run ${n}/${runs}: ${ok ? 'green' : 'FAILED'} in ${secs.toFixed(0)}s${counts ? ` (${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped)` : ''}`);
  if (!ok && failed.length === 0) failed.push(`(vitest exited ${status} with no failed test in its report)`);
  for (const f of failed) console.log(`  failed: ${f}`);
  summary.push({ n, ok, secs, failed });
}

console.log('\n=== stress summary');
for (const s of summary) console.log(`run ${s.n}: ${s.ok ? 'green' : `${s.failed.length} failure(s)`} in ${s.secs.toFixed(0)}s${s.ok ? '' : `: ${s.failed.map((f) => f.split('\n')[0]).join('; ')}`}`);
if (stopping) console.log(`stopped by ${stopping} after ${summary.length} of ${runs} run(s)`);
const green = summary.filter((s) => s.ok).length;
console.log(`${green} of ${summary.length} run(s) green`);
process.exit(green === runs ? 0 : 1);
