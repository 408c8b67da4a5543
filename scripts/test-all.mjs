// `npm test`: everything CI runs, in order, stopping at the first red stage:
// typecheck, lint, unit + integration (vitest), end to end (Playwright on Debian Chromium), and
// the quick benchmark run once to prove every bench still runs and writes its figures (its
// targets are reported, never asserted here: a target is judged by `npm run bench`).
// Ends with one plain line "N passed, N failed, N skipped" summed over the test stages.
// Nothing here depends on the machine's speed: a bench figure that misses its target is printed,
// a slow bench is waited for (it prints its own progress), and only a crash or missing figures
// fail the bench stage. Every stage's process is stopped however this script ends (Ctrl-C,
// SIGTERM, an error): signals are forwarded and a stage still running at exit is killed; the
// bench runner also dies with us if we are SIGKILLed (its IPC channel closes).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
mkdirSync(path.join(root, 'test-results'), { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();

const running = new Set();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.log(`\nnpm test: ${sig}, stopping the running stage`);
    for (const c of running) c.kill(sig);
    // a stage that ignores it is killed when we exit
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}

/** Runs a stage's process to its end; resolves with its exit status (a signal's name if killed). */
function run(cmd, args, env = {}, ipc = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['inherit', 'inherit', 'inherit', ...(ipc ? ['ipc'] : [])], env: { ...process.env, ...env } });
    running.add(child);
    child.once('error', (e) => {
      running.delete(child);
      console.log(`cannot run ${cmd}: ${e.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    });
  });
}

async function stage(name, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}`);
  const status = await run(cmd, args, env);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (status !== 0) {
    console.log(`=== ${name}: FAILED (exit ${status}) after ${secs}s`);
    return false;
  }
  console.log(`=== ${name}: ok in ${secs}s`);
  return true;
}

function finish(ok) {
  console.log(`\nnpm test ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)}s`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

function addVitest(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += r.numPassedTests ?? 0;
  totals.failed += r.numFailedTests ?? 0;
  totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

function addPlaywright(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const s = r.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
}

const only = process.argv[2];
const want = (s) => !only || only === s;

if (want('typecheck') && !(await stage('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']))) finish(false);
if (want('lint') && !(await stage('lint', bin('eslint'), ['--max-warnings', '0', '.']))) finish(false);

if (want('unit')) {
  const out = path.join(root, 'test-results', 'vitest.json');
  const ok = await stage('unit + integration', bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  addVitest(out);
  if (!ok) finish(false);
}

if (want('e2e')) {
  const specs = existsSync(path.join(root, 'e2e')) ? readdirSync(path.join(root, 'e2e')).filter((f) => f.endsWith('.spec.ts')) : [];
  if (specs.length === 0) {
    console.log('\n=== e2e: no end-to-end specs exist yet (the terminal UI is issue 5); nothing run');
  } else {
    if (!(await stage('build renderer', bin('vite'), ['build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn']))) finish(false);
    const out = path.join(root, 'test-results', 'playwright.json');
    const ok = await stage('e2e', bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    addPlaywright(out);
    if (!ok) finish(false);
  }
}
if (want('bench')) {
  const file = path.join(root, 'bench', 'results.quick.json');
  const t0 = Date.now();
  console.log('\n=== bench (quick, figures only; targets are printed, not asserted): node --import tsx bench/run.ts --quick');
  const status = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick'], {}, true);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  // exit 0: all targets met; 2: some missed (a figure, not a failure); 1 or a signal: a bench
  // crashed; the file must be fresh with the named figures
  const figures = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  const fresh = figures && Date.parse(figures.date) >= t0 - 1000;
  const names = fresh ? Object.keys(figures.figures) : [];
  const need = ['engine_ops_per_s', 'book_deltas_per_s', 'frames_to_book_per_s', 'http_orders_per_s', 'event_loop_lag_p99_ms', 'sign_vs_raw_crypto'];
  const missing = need.filter((n) => !names.includes(n));
  const crashed = status !== 0 && status !== 2;
  if (crashed || !fresh || missing.length) {
    console.log(`=== bench: FAILED after ${secs}s (${crashed ? `a bench crashed (exit ${status})` : !fresh ? 'no fresh results.quick.json' : `figures missing: ${missing.join(', ')}`})`);
    totals.failed += 1;
    finish(false);
  }
  totals.passed += 1;
  console.log(`=== bench: ok in ${secs}s (${names.length} figures in bench/results.quick.json${status === 2 ? '; some targets missed on this machine, see above' : ''})`);
}

finish(true);
