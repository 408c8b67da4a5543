// The terminal's data directory holds sealed keys, the vault key of the web host, profiles and the
// audit journal: only its owner may enter it.
import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** Makes `dir` (0700), or tightens it to 0700 if it already existed looser. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
