import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. Flags keep it off the (closed) network.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Specs that must have the machine to themselves: display truth judges values within two frames
// at 1,500 commands/s, and the Electron shell rebuilds out/renderer, which the others serve.
// `npm test` (and `npm run test:e2e`) runs `--project side-by-side`, then `--project alone`; a
// project dependency would do the same but skips the second after a failure in the first, and
// runs every spec of the first even when one file is named.
const ALONE = [/truth\.spec\.ts$/, /electron\.spec\.ts$/];

// A failed test's Playwright trace (test-results/e2e/<test>/trace.zip: each action with the
// page's DOM before and after and a film of the screen) is for a person debugging on their own
// machine. Recording it costs every test, passed or not: its film copies and encodes every frame
// the page draws, its DOM snapshots serialize the page at each action (tools + keyboard specs, one
// worker: 151 s of CPU with it, 96 s without; 36% of the e2e stage's CPU). On CI, where nobody
// opens it (a failure's report there carries the page's last words and the host's last lines,
// e2e/said.ts and fixtures.ts), it is off. E2E_TRACE=1 records it on CI too, E2E_TRACE=0 nowhere.
const TRACE = process.env.E2E_TRACE === '1' || (process.env.E2E_TRACE !== '0' && !process.env.CI);

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Each test, not each file, is handed to the next free worker: every test starts its own
  // terminal (the `terminal` fixture is per test) and no spec shares state between its tests. By
  // file, a long file that came up last ran alone on one core (ladder-pro.spec's 7 tests, 85 s,
  // or whatever was slowest at the alphabet's end) while the other worker had nothing left.
  fullyParallel: true,
  // Each spec starts its own terminal and exchange (ports 0, own data dirs), so spec files run two
  // at a time: one at a time left a quarter of two cores idle (76.7% busy against 94.6%). Two
  // have passed whole e2e stages on an idle machine and beside a unit stress run (vitest plus two
  // busy loops on the same two cores: 41 passed in 15.5 minutes); a spec that judged a speed
  // (markets.spec's one second) was fixed, not given a longer deadline. E2E_WORKERS=1 runs them
  // one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: 'side-by-side', testIgnore: ALONE },
    { name: 'alone', testMatch: ALONE, workers: 1 },
  ],
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    viewport: { width: 1600, height: 960 },
    trace: TRACE ? 'retain-on-failure' : 'off',
  },
});
