// Mutation testing (npm run mutation; not part of npm test): StrykerJS with the vitest runner over
// the modules that guard money and orders. scripts/mutation.mjs prints the score per module and
// fails below 80%. One module: npm run mutation -- src-main/api/signer.ts
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: (process.env.MUTATE ?? [
    'src-shared/money.ts',
    'src-renderer/lib/order-check.ts',
    'src-exchange/engine/fees.ts',
    'src-main/api/signer.ts',
    'src-main/api/orders.ts',
    'src-main/market/book.ts',
    'src-main/ipc/door.ts',
    'src-main/session/private-store.ts',
    'src-exchange/engine/matching.ts',
    'src-exchange/journal/journal.ts',
    'src-main/host/server.ts',
  ].join(',')).split(','),
  coverageAnalysis: process.env.MUTATION_COVERAGE ?? 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  ignoreStatic: (process.env.MUTATION_COVERAGE ?? 'perTest') === 'perTest',
  reporters: ['progress', 'clear-text', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
