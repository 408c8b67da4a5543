// `npm test`: everything CI runs, in order, stopping at the first red stage:
// typecheck, lint, unit + integration (vitest), end to end (Playwright on Debian Chromium), and
// the quick benchmark run once to prove every bench still runs and writes its figures (its
// targets are reported, never asserted here: a target is judged by `npm run bench`).
// Ends with one plain line "N passed, N failed, N skipped" summed over the test stages.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
mkdirSync(path.join(root, 'test-results'), { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();

function stage(name, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${[path.basename(cmd), ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.log(`=== ${name}: FAILED (exit ${r.status ?? r.signal}) after ${secs}s`);
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

if (want('typecheck') && !stage('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'])) finish(false);
if (want('lint') && !stage('lint', bin('eslint'), ['--max-warnings', '0', '.'])) finish(false);

if (want('unit')) {
  const out = path.join(root, 'test-results', 'vitest.json');
  const ok = stage('unit + integration', bin('vitest'), ['run', '--config', 'vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile=${out}`]);
  addVitest(out);
  if (!ok) finish(false);
}

if (want('e2e')) {
  const specs = existsSync(path.join(root, 'e2e')) ? readdirSync(path.join(root, 'e2e')).filter((f) => f.endsWith('.spec.ts')) : [];
  if (specs.length === 0) {
    console.log('\n=== e2e: no end-to-end specs exist yet (the terminal UI is issue 5); nothing run');
  } else {
    if (!stage('build renderer', bin('vite'), ['build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn'])) finish(false);
    const out = path.join(root, 'test-results', 'playwright.json');
    const ok = stage('e2e', bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    addPlaywright(out);
    if (!ok) finish(false);
  }
}
if (want('bench')) {
  const file = path.join(root, 'bench', 'results.quick.json');
  const t0 = Date.now();
  console.log('\n=== bench (quick, figures only): tsx bench/run.ts --quick');
  const r = spawnSync(bin('tsx'), ['bench/run.ts', '--quick'], { cwd: root, stdio: 'inherit' });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  // exit 0: all targets met; 1: a bench crashed; the file must be fresh with the named figures
  const figures = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  const fresh = figures && Date.parse(figures.date) >= t0 - 1000;
  const names = fresh ? Object.keys(figures.figures) : [];
  const need = ['engine_ops_per_s', 'book_deltas_per_s', 'frames_to_book_per_s', 'http_orders_per_s', 'event_loop_lag_p99_ms', 'sign_vs_raw_crypto'];
  const missing = need.filter((n) => !names.includes(n));
  if (r.status === 1 || r.status === null || !fresh || missing.length) {
    console.log(`=== bench: FAILED after ${secs}s (${r.status === 1 ? 'a bench crashed' : !fresh ? 'no fresh results.quick.json' : `figures missing: ${missing.join(', ')}`})`);
    totals.failed += 1;
    finish(false);
  }
  totals.passed += 1;
  console.log(`=== bench: ok in ${secs}s (${names.length} figures in bench/results.quick.json)`);
}

finish(true);
