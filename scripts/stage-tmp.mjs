// Each stage of `npm test` and each run of `npm run test:stress` gets its own temporary directory
// (TMPDIR, TMP and TEMP point at it, so os.tmpdir() in every process of the stage does), removed
// with everything in it when the stage ends, however its tests ended: a test that creates a
// directory in os.tmpdir() and never removes it (a journal, a vault, a recording, a browser's
// profile) leaves nothing in the machine's /tmp. Short (under the system's own temporary
// directory, not the checkout), so Unix socket paths made under it stay within their limit.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh directory for the stage `name`, the environment that points at it, and its removal. */
export function stageTmp(name) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `npm-test-${name.replace(/[^a-z0-9]+/gi, '-')}-`));
  return {
    dir,
    env: { TMPDIR: dir, TMP: dir, TEMP: dir },
    remove: () => removeTmp(dir),
  };
}

/** Removes a stage's directory (a process still writing into it may leave a file: retried). */
export function removeTmp(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  } catch {
    // still in use (another platform's lock): left for the system's own cleaning
  }
}
