// `npm test`: everything CI runs, in order, every stage even after one fails:
// typecheck, lint, unit + integration (vitest), end to end (Playwright on Debian Chromium), and
// a smoke run of the benchmarks (`bench/run.ts --smoke`: quick mode cut further where a bench
// waits for samples) to prove every bench still runs and writes its figures (their values judge
// nothing here: a target is judged by `npm run bench`, and `npm run bench -- --quick` for a first look).
// Ends with a table of every stage's result and time, the 20 slowest tests (from vitest's and
// Playwright's JSON reports in test-results/), and one plain last line
// "N passed, N failed, N skipped" summed over the test stages; exits 1 if any stage failed.
// Nothing here depends on the machine's speed: a bench figure that misses its target is printed,
// a slow bench is waited for (it prints its own progress), and only a crash or missing figures
// fail the bench stage.
// No process outlives it: each stage runs in its own process group, which is killed whole when
// the stage ends (whatever a test left behind goes with it, and is named); signals (Ctrl-C,
// SIGTERM, SIGHUP) are forwarded to the running stage's group, no further stage starts, and a
// group still there at exit is SIGKILLed; if we are SIGKILLed, a watchdog (group-reaper.mjs)
// kills the running stage's group. Each stage has its own temporary directory (TMPDIR), removed
// when it ends, so whatever its tests left in os.tmpdir() goes too (scripts/stage-tmp.mjs).
//
// `node scripts/test-all.mjs <stage>` runs one stage (typecheck, lint, unit, e2e, bench).
// TEST_ALL_FAKE="name:pass,name:fail,name:hang" replaces the stages with tiny fake ones (for
// scripts/test-all.test.ts): each leaves a grandchild running and writes a vitest-style report;
// TEST_ALL_FAKE_PIDS names a file each appends its and its grandchild's pid to (and, to that name
// + ".tmp", the directory it leaves in its temporary directory).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { startReaper } from './group-reaper.mjs';
import { removeTmp, stageTmp } from './stage-tmp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
/** nice(1), where there is one (Linux, macOS) */
const NICE = ['/usr/bin/nice', '/bin/nice'].find((f) => existsSync(f)) ?? null;
const resultsDir = path.join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
/** every failed test with its error's text, printed last */
const failures = [];
const started = Date.now();
/** every stage's row of the summary table */
const rows = [];
/** each stage's place in the run, for the summary's order (stages side by side end in any order) */
let seq = 0;
/** every test's time: { name, ms } */
const timings = [];
/** the vitest reports' files with their time, for the slowest files */
const fileTimes = [];
let stopping = null;

/** running stage processes (each the leader of its own process group) */
const running = new Set();
/** each running stage's temporary directory, by its process */
const tmpOf = new Map();
/** kills the running stage's group should we be SIGKILLed */
const reaper = startReaper();

function killGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false; // the group is gone
  }
}

/** Pids of the process group `pgid` still alive (Linux /proc; elsewhere none are listed). */
function groupMembers(pgid) {
  let names;
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid && f[0] !== 'Z') out.push(`${n} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

process.on('exit', () => {
  for (const c of running) killGroup(c.pid, 'SIGKILL');
  for (const d of tmpOf.values()) removeTmp(d);
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (!stopping) console.log(`\nnpm test: ${sig}, stopping the running stage; no further stage starts`);
    stopping ??= sig;
    for (const c of running) killGroup(c.pid, sig);
    // a stage that ignores it is killed when we exit
    setTimeout(() => {
      console.log('npm test: the stage did not stop within 10 s; killing it');
      process.exit(1);
    }, 10_000).unref();
  });
}

/**
 * Runs a stage's process to its end in its own process group; resolves with its exit status (a
 * signal's name if killed). Whatever the group still holds then (a server or worker a test left
 * running) is named and killed.
 */
function run(cmd, args, env = {}, ipc = false, held = null, low = false) {
  return new Promise((resolve) => {
    const out = held ? 'pipe' : 'inherit';
    // low: started under nice(1), so the process and every thread and child it makes yield the
    // cores to the other stages and take only the time they leave idle
    const niced = low && NICE !== null;
    const tmp = stageTmp(path.basename(args[0] ?? cmd));
    const child = spawn(niced ? NICE : cmd, niced ? ['-n', '19', cmd, ...args] : args, {
      cwd: root,
      // stdin is not passed: a stage in its own group must not read the terminal
      stdio: ['ignore', out, out, ...(ipc ? ['ipc'] : [])],
      env: { ...process.env, ...tmp.env, ...env },
      detached: true,
    });
    tmpOf.set(child, tmp.dir);
    if (held) {
      child.stdout.on('data', (d) => held.push(d));
      child.stderr.on('data', (d) => held.push(d));
    }
    running.add(child);
    if (child.pid) reaper.add(child.pid, tmp.dir);
    // The stage leads a new session (detached), and where the kernel groups a session's processes
    // for scheduling (Linux's autogroup) the cores are shared between sessions, whatever each
    // process's nice: the session's own weight is lowered too.
    if (niced && child.pid) {
      try {
        writeFileSync(`/proc/${child.pid}/autogroup`, '19');
      } catch {
        // no autogroup here (or not Linux): the processes' nice is what counts
      }
    }
    child.once('error', (e) => {
      running.delete(child);
      tmpOf.delete(child);
      tmp.remove();
      console.log(`cannot run ${cmd}: ${e.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      const left = groupMembers(child.pid);
      if (left.length) console.log(`npm test: ${path.basename(cmd)} left ${left.length} process(es) running, killed: ${left.join(', ')}`);
      killGroup(child.pid, 'SIGKILL');
      reaper.remove(child.pid);
      running.delete(child);
      tmpOf.delete(child);
      tmp.remove();
      resolve(code ?? signal);
    });
  });
}

const secsSince = (t0) => (Date.now() - t0) / 1000;

/**
 * Runs one stage unless a signal stopped us; records its row. Returns true if it passed. With
 * `held`, the stage's output is held and printed whole when it ends (stages side by side).
 */
async function stage(name, cmd, args, env = {}, held = false, low = false) {
  const at = seq++;
  if (stopping) {
    rows.push({ name, result: `not run (${stopping})`, secs: 0, ok: false, seq: at });
    return false;
  }
  const t0 = Date.now();
  const what = [path.basename(cmd), ...args].join(' ');
  console.log(`\n=== ${name}: ${what}${held ? ` (beside other stages${low && NICE ? ', at the lowest priority' : ''}; its output follows when it ends)` : ''}`);
  const chunks = held ? [] : null;
  const status = await run(cmd, args, env, false, chunks, low);
  const secs = secsSince(t0);
  const ok = status === 0;
  if (chunks?.length) {
    console.log(`\n--- ${name}'s output:`);
    process.stdout.write(Buffer.concat(chunks));
  }
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${status})`} in ${secs.toFixed(1)}s`);
  rows.push({ name, result: ok ? 'ok' : `FAILED (exit ${status})`, secs, ok, seq: at });
  return ok;
}

/**
 * Runs stages side by side (each in its own process group, its output held until it ends): the
 * checks that only read the tree (typecheck, lint, the builds) fill the cores while another stage
 * waits on sockets and timers. Resolves with each one's result, in order.
 */
function together(...stages) {
  return Promise.all(stages.map((s) => s()));
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function addVitest(file) {
  const r = readJson(file);
  if (!r) return;
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const f of r.testResults ?? []) {
    const rel = path.relative(root, f.name ?? '');
    if (f.startTime && f.endTime) fileTimes.push({ name: rel, ms: f.endTime - f.startTime });
    for (const t of f.assertionResults ?? []) {
      if (typeof t.duration === 'number') timings.push({ name: `${rel} > ${t.fullName ?? t.title}`, ms: t.duration });
      if (t.status === 'failed') failures.push({ name: `${rel} > ${t.fullName ?? t.title}`, text: (t.failureMessages ?? []).join('\n') });
    }
    if (f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push({ name: rel, text: f.message ?? 'the file failed outside any test' });
    }
  }
}

function addPlaywright(file) {
  const r = readJson(file);
  if (!r) return;
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  const walk = (suite, titles) => {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const ms = (t.results ?? []).reduce((sum, res) => sum + (res.duration ?? 0), 0);
        const last = (t.results ?? []).at(-1);
        if (last && last.status !== 'passed' && last.status !== 'skipped') {
          const errs = (last.errors ?? [last.error]).filter(Boolean).map((e) => e.message ?? String(e));
          // what the fixture printed about the page at failure (e2e/fixtures.ts: pageAtFailure)
          const said = (last.stdout ?? []).map((o) => o.text ?? '').join('').split('\n').filter((l) => /^e2e: (the page at failure|status bar|toasts and alerts| {2})/.test(l));
          failures.push({ name: `e2e: ${[...here, spec.title].join(' > ')}${t.projectName ? ` [${t.projectName}]` : ''}`, text: errs.join('\n') || last.status, said });
        }
        timings.push({ name: `e2e: ${[...here, spec.title].join(' > ')}${t.projectName ? ` [${t.projectName}]` : ''}`, ms });
      }
    }
    for (const sub of suite.suites ?? []) walk(sub, here);
  };
  for (const suite of r.suites ?? []) walk(suite, []);
}

/** A fresh report only: a stage that died before writing one must not count an older run's. */
function freshReport(file) {
  rmSync(file, { force: true });
  return file;
}

function finish() {
  rows.sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  const ok = rows.length > 0 && rows.every((r) => r.ok) && !stopping;
  const width = Math.max(5, ...rows.map((r) => r.name.length));
  console.log('\n=== summary');
  console.log(`${'stage'.padEnd(width)}  ${'result'.padEnd(24)}  time`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.result.padEnd(24)}  ${r.secs.toFixed(1).padStart(6)}s`);
  if (fileTimes.length) {
    console.log('\nslowest test files (vitest, each file\'s own time; files run side by side):');
    for (const f of fileTimes.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`${(f.ms / 1000).toFixed(1).padStart(7)}s  ${f.name}`);
  }
  if (timings.length) {
    console.log('\n20 slowest tests:');
    for (const t of timings.sort((a, b) => b.ms - a.ms).slice(0, 20)) console.log(`${(t.ms / 1000).toFixed(1).padStart(7)}s  ${t.name}`);
  }
  if (failures.length) {
    // Last before the totals, so a log cut to its tail (CI's) still says what failed and why.
    console.log(`\n${failures.length} failed test(s), each with the first lines of its error:`);
    for (const f of failures) {
      console.log(`  ✗ ${f.name}`);
      const lines = stripVTControlCharacters(f.text).split('\n').filter((l) => l.trim()).slice(0, 24);
      for (const l of lines) console.log(`      ${l.slice(0, 240)}`);
      for (const l of (f.said ?? []).slice(-30)) console.log(`      ${l.slice(0, 240)}`);
    }
  }
  console.log(`\nnpm test ${ok ? 'passed' : 'FAILED'} in ${secsSince(started).toFixed(0)}s`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

const fake = process.env.TEST_ALL_FAKE;
const only = process.argv[2];
const want = (s) => !only || only === s;

if (fake) {
  // the fake stage: a grandchild that would run forever, a report, then pass, fail or hang
  const script = `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    const [behaviour, report, pids] = process.argv.slice(1);
    const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    g.unref();
    // what a test leaves in the temporary directory: its path, for the runner's test to look for
    const left = fs.mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'left-'));
    fs.writeFileSync(left + '/file', 'x');
    if (pids) fs.appendFileSync(pids + '.tmp', left + '\\n');
    const ok = behaviour !== 'fail' && behaviour !== 'pwfail';
    if (behaviour === 'pwfail') fs.writeFileSync(report, JSON.stringify({ stats: { expected: 0, unexpected: 1, skipped: 0 },
      suites: [{ title: 'fake.spec.ts', specs: [{ title: 'pwfail', tests: [{ projectName: 'p', results: [{ status: 'failed', duration: 10,
        errors: [{ message: 'Error: expected 1, received 0' }],
        stdout: [{ text: 'e2e: still waiting for the web host to start (10 s)\\ne2e: the page at failure: focus on body\\n' }, { text: 'e2e: toasts and alerts the page showed (newest last):\\ne2e:   1.5 s  Refused by your risk limits\\n' }] }] }] }] }] }));
    else fs.writeFileSync(report, JSON.stringify({ numPassedTests: ok ? 1 : 0, numFailedTests: ok ? 0 : 1, numPendingTests: 0,
      testResults: [{ name: 'fake.test.ts', startTime: 1, endTime: 11, assertionResults: [{ fullName: behaviour, duration: 10, status: ok ? 'passed' : 'failed',
        failureMessages: ok ? [] : ['AssertionError: expected 1 to be 2\\n    at fake.test.ts:3:5'] }] }] }));
    console.log('fake stage: ' + behaviour);
    // the pids last: a test that waits for them to stop a stage in the middle finds its report
    // written (under load a SIGINT sent between the two found no report: 0 passed)
    if (pids) fs.appendFileSync(pids, process.pid + ' ' + g.pid + '\\n');
    if (behaviour === 'hang') setInterval(() => {}, 1000);
    else process.exitCode = ok ? 0 : 1;`;
  // "a:pass+b:fail,c:pass": a and b side by side (as typecheck, lint and the unit stage run), then c
  const fakeStage = (spec, held) => async () => {
    const [name, behaviour = 'pass'] = spec.split(':');
    const report = freshReport(path.join(resultsDir, `fake-${process.pid}-${name}.json`));
    await stage(name, process.execPath, ['-e', script, behaviour, report, process.env.TEST_ALL_FAKE_PIDS ?? ''], {}, held);
    if (behaviour === 'pwfail') addPlaywright(report);
    else addVitest(report);
    rmSync(report, { force: true });
  };
  for (const group of fake.split(',').filter(Boolean)) {
    const specs = group.split('+');
    await together(...specs.map((spec) => fakeStage(spec, specs.length > 1)));
  }
  finish();
}

// The checks that only read the tree (typecheck, lint) run beside the other stages from the start,
// at the lowest priority: they take only the CPU the unit + integration stage and the
// side-by-side e2e specs leave idle (both wait on servers, sockets and pages at times), instead of
// a third of the cores the unit stage's files would use. They must be done before the specs
// that need the machine alone start. The builds e2e needs run beside the unit + integration
// stage; the tests must pass on a busy machine anyway (`npm run test:stress`). Each prints its
// output and its own time when it ends. TEST_ALL_SERIAL=1 runs them one after another instead (to
// time each stage alone).
const serial = process.env.TEST_ALL_SERIAL === '1';
const e2eSpecs = want('e2e') && existsSync(path.join(root, 'e2e')) ? readdirSync(path.join(root, 'e2e')).filter((f) => f.endsWith('.spec.ts')) : [];
const held = !serial && !only;
const checks = [];
const early = [];
// Both at once: one process over one TypeScript program (scripts/typecheck-lint.mjs), so the
// type-aware lint rules do not build and check the whole project a second time.
if (want('typecheck') && want('lint')) checks.push(() => stage('typecheck + lint', process.execPath, ['scripts/typecheck-lint.mjs'], {}, held, held));
else if (want('typecheck')) checks.push(() => stage('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], {}, held, held));
else if (want('lint')) checks.push(() => stage('lint', bin('eslint'), ['--max-warnings', '0', '.'], {}, held, held));
// The web host's bundles (out/host: the host and the exchange, under a second with esbuild) are built
// first, before the unit + integration stage: its tests then start the exchange and the host from
// them (TEST_BUNDLES=1, test-support/entry.ts) instead of compiling the source under tsx on each
// of some dozens of starts. If that build fails, the tests start the source and e2e does not run.
// e2e also serves the built renderer, built beside the unit stage.
const hostBuilt = want('unit') || e2eSpecs.length ? await stage('build web host', process.execPath, ['scripts/build-host.mjs']) : false;
let built = Promise.resolve(false);
if (e2eSpecs.length) {
  built = new Promise((resolve) => {
    early.push(async () => resolve(hostBuilt && (await stage('build renderer', bin('vite'), ['build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn'], {}, held))));
  });
}
const unitStage = async () => {
  const out = freshReport(path.join(resultsDir, 'vitest.json'));
  await stage('unit + integration', bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${out}`], hostBuilt ? { TEST_BUNDLES: '1' } : {});
  addVitest(out);
};
let checking = Promise.resolve();
if (serial) {
  for (const s of [...checks, ...early]) await s();
  if (want('unit')) await unitStage();
} else {
  checking = together(...checks);
  await together(...early, ...(want('unit') ? [unitStage] : []));
}

if (want('e2e')) {
  if (e2eSpecs.length === 0) {
    console.log('\n=== e2e: no end-to-end specs exist yet; nothing run');
  } else if (await built) {
    // the specs that share the machine, two at a time, then the ones that need it alone
    // (e2e/playwright.config.ts), once the typecheck and lint are done; the second runs whatever
    // the first did
    // Playwright's compiled specs, kept where it keeps them by default (the stages' own temporary
    // directories go when each ends), so the second stage reuses the first's
    const pwCache = process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ?? path.join(tmpdir(), `playwright-transform-cache-${process.getuid?.() ?? 0}`);
    for (const [name, project] of [['e2e', 'side-by-side'], ['e2e (alone)', 'alone']]) {
      if (project === 'alone') await checking;
      const out = freshReport(path.join(resultsDir, `playwright-${project}.json`));
      await stage(name, bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts', '--project', project], { PLAYWRIGHT_JSON_OUTPUT_NAME: out, E2E_HOST_BUNDLE: '1', PLAYWRIGHT_TRANSFORM_CACHE_DIR: pwCache });
      addPlaywright(out);
    }
  } else {
    rows.push({ name: 'e2e', result: 'not run (build failed)', secs: 0, ok: false, seq: seq++ });
  }
}

await checking;
// The smoke bench runs after the e2e specs, not beside them even at the lowest priority: tried
// (its browsers too), the side-by-side specs took 380 s instead of 298 s; they wait on one
// another's processes, and a process woken on a core a low-priority one holds still waits.
if (want('bench')) {
  if (stopping) {
    rows.push({ name: 'bench (smoke)', result: `not run (${stopping})`, secs: 0, ok: false });
  } else {
    const file = path.join(root, 'bench', 'results.smoke.json');
    const t0 = Date.now();
    console.log('\n=== bench (smoke: every bench runs and writes its figures; their values judge nothing): node --import tsx bench/run.ts --smoke');
    // the renderer and web host bundles this run built for e2e, from this tree: the benches that
    // serve them use them as they are instead of building them twice more
    const status = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke'], (await built) ? { BENCH_BUILT: '1' } : {}, true);
    const secs = secsSince(t0);
    // exit 0: all targets met; 2: some missed (a figure, not a failure); 1 or a signal: a bench
    // crashed; the file must be fresh with the named figures
    const figures = readJson(file);
    const fresh = figures && Date.parse(figures.date) >= t0 - 1000;
    const names = fresh ? Object.keys(figures.figures) : [];
    // every figure the committed full run has (a bench that stopped writing one fails here)
    const committed = Object.keys(readJson(path.join(root, 'bench', 'results.json'))?.figures ?? {});
    const need = [...new Set(['engine_ops_per_s', 'book_deltas_per_s', 'frames_to_book_per_s', 'http_orders_per_s', 'event_loop_lag_p99_ms', 'sign_vs_raw_crypto', ...committed])];
    const missing = need.filter((n) => !names.includes(n));
    const crashed = status !== 0 && status !== 2;
    if (crashed || !fresh || missing.length) {
      const why = crashed ? `a bench crashed (exit ${status})` : !fresh ? 'no fresh results.smoke.json' : `figures missing: ${missing.join(', ')}`;
      console.log(`=== bench: FAILED after ${secs.toFixed(1)}s (${why})`);
      totals.failed += 1;
      rows.push({ name: 'bench (smoke)', result: 'FAILED', secs, ok: false });
    } else {
      totals.passed += 1;
      console.log(`=== bench: ok in ${secs.toFixed(1)}s (${names.length} figures in bench/results.smoke.json; a smoke run's "MISSED" judges nothing)`);
      rows.push({ name: 'bench (smoke)', result: 'ok', secs, ok: true });
    }
  }
}

if (rows.length === 0) console.log(`npm test: no stage named ${only} (typecheck, lint, unit, e2e, bench)`);
finish();
