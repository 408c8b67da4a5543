// Waiting in integration tests: a pause, and polling a condition until it holds.
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const PROGRESS_EVERY_MS = 30_000;

/**
 * Polls `check` every 50 ms until it holds. Without `ms` it has no deadline of its own: how long
 * a condition takes to come about on a busy machine measures the machine, so the test's timeout
 * is the hang guard (a line every 30 s names what is awaited meanwhile). With `ms` it fails naming
 * `what` after that long: only for a wait whose bound is itself what the test checks.
 */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = Infinity): Promise<void> {
  const started = Date.now();
  let note = started + PROGRESS_EVERY_MS;
  while (Date.now() - started < ms) {
    if (await check()) return;
    if (Date.now() >= note) {
      console.error(`[test] still waiting for ${what} after ${Math.round((Date.now() - started) / 1000)} s`);
      note += PROGRESS_EVERY_MS;
    }
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}
