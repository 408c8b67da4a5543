import { statSync } from 'node:fs';
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

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'integration/**/*.test.ts', 'test-support/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/truth/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: cores + 1,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    reporters: ['default'],
    sequence: { sequencer: SlowestFirst },
    // exchanges that tests start (in process or as CLIs, which inherit it) provision their accounts
    // with test key pairs instead of generating RSA keys on every first start (src-exchange/provision.ts)
    env: { EXCHANGE_PROVISION_KEYS: path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'test-support/exchange/provision-keys.json') },
  },
});
