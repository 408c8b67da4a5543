import { readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files run side by side in forked workers. Vitest's default on a run is one worker per core less
// one: a single worker on the 2-core CI machine, so every file waited for the one before, though
// most of an integration file's time is spent waiting on servers and sockets, not on the CPU.
// One more worker than cores keeps the cores busy (VITEST_MAX_WORKERS overrides it).
const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;

// The files that take longest start first, so none of them starts last and runs alone at the end.
// Vitest orders by its cache of earlier runs' times, which a fresh clone (CI) does not have: it then
// kept the glob's order, and the 1-3 minute files under src-main and src-renderer started late.
// Without a cache these go first, in this order (the slowest of the last runs), then the rest by size.
const SLOWEST = [
  'src-renderer/app/intent-contract.spec.test.tsx',
  'src-main/chaos/chaos.int.test.ts',
  'src-main/strategies/untrusted.int.test.ts',
  'src-main/risk/add-a-risk-limit.recipe.test.ts',
  'integration/crash.int.test.ts',
  'src-main/ipc/add-an-ipc-method.recipe.test.ts',
  'src-main/session/session.int.test.ts',
  'src-exchange/engine/engine.property.test.ts',
  'integration/sim.int.test.ts',
  'src-main/app/gate-concurrency.property.test.ts',
  'src-renderer/features/ladder/LadderPanel.spec.test.tsx',
  'src-main/api/add-an-endpoint.recipe.test.ts',
  'integration/restart-lock.int.test.ts',
  'scripts/orphans.int.test.ts',
];
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path.relative(this.ctx.config.root, f.moduleId)}`));
    if (cached) return super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join('/'));
      return i < 0 ? SLOWEST.length : i;
    };
    const size = (f: TestSpecification) => {
      try {
        return statSync(f.moduleId).size;
      } catch {
        return 0;
      }
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

const root = path.dirname(fileURLToPath(import.meta.url));
const NODE_DIRS = ['src-exchange', 'src-main', 'src-shared', 'integration', 'test-support', 'scripts', 'e2e/truth'];
const NODE_SIDE = NODE_DIRS.map((d) => `${d}/**/*.test.ts`);
/** the test files under `dir`, relative to the root */
const testFiles = (dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : testFiles(`${dir}/${e.name}`)) : e.name.endsWith('.test.ts') ? [`${dir}/${e.name}`] : [],
  );
/** the renderer's files, and every other file that replaces modules (read from the files themselves) */
const ISOLATED = [
  'src-renderer/**/*.test.ts',
  'src-renderer/**/*.test.tsx',
  ...NODE_DIRS.flatMap(testFiles).filter((f) => /\bvi\.(do)?[mM]ock\(|\bvi\.resetModules\(/.test(readFileSync(path.join(root, f), 'utf8'))),
];

export default defineConfig({
  test: {
    environment: 'node',
    // Two projects. The renderer's files (jsdom, React, module-level stores and query caches) and
    // any file that replaces modules (`vi.mock`: a module already imported by an earlier file in
    // the worker would not see it) each start from fresh modules, as vitest does by default. The
    // rest (exchange, main, shared, the integration files and scripts) share a worker's module
    // cache from one file to the next (`isolate: false`): the same modules were imported again in
    // a fresh process for each of some 200 files, a fifth of the stage's CPU; these files hold
    // their state in the servers, directories and instances they make. The fresh-module files run
    // in vitest's vmForks pool: each file gets its own VM context (its own modules and globals,
    // jsdom built in it) inside a worker process that lives on, instead of a new process per file
    // that loaded vitest, jsdom and React again (that project alone, 70 files on two cores:
    // 121 -> 73 s, 234 -> 136 s of CPU; jsdom's setup 82 -> 10 s of the files' time).
    projects: [
      { extends: true, test: { name: 'node', include: NODE_SIDE, exclude: [...ISOLATED, '**/node_modules/**'], isolate: false, setupFiles: ['test-support/reset-stream-settings.ts'] } },
      { extends: true, test: { name: 'isolated', include: ISOLATED, pool: 'vmForks', setupFiles: ['src-renderer/test/setup-waits.ts'] } },
    ],
    pool: 'forks',
    maxWorkers: cores + 1,
    testTimeout: 30_000,
    // a failed assertion's message shows the values (chai's default cuts past 40 characters to
    // "[ Array(1) ]"): npm test's summary and CI's log keep only the message, not the diff below it
    chaiConfig: { truncateThreshold: 800 },
    hookTimeout: 180_000,
    reporters: ['default'],
    sequence: { sequencer: SlowestFirst },
    // exchanges that tests start (in process or as CLIs, which inherit it) provision their accounts
    // with test key pairs instead of generating RSA keys on every first start (src-exchange/provision.ts)
    env: { EXCHANGE_PROVISION_KEYS: path.join(root, 'test-support/exchange/provision-keys.json') },
  },
});
