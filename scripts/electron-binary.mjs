// Where Electron's binary stands on this machine, shared by the install step and `npm start`.
// The `electron` package installs fine from the registry; its binary comes from a separate
// download (GitHub or ELECTRON_MIRROR) that a closed network or CI cannot reach.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

/** `{ ok: true, path }` when the binary is there, else `{ ok: false, why }` in one line. */
export function electronBinary() {
  let pkgDir;
  try {
    pkgDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { ok: false, why: 'the electron package is not installed' };
  }
  let bin;
  try {
    // index.js throws when install.js never finished (no path.txt)
    bin = require(path.join(pkgDir, 'index.js'));
  } catch {
    return { ok: false, why: "Electron's binary was never downloaded" };
  }
  if (typeof bin !== 'string' || !existsSync(bin)) return { ok: false, why: `Electron's binary is missing (${String(bin)})` };
  return { ok: true, path: bin, pkgDir };
}

/** Runs electron's own install.js (the binary download); returns its exit status and last error line. */
export function downloadElectron() {
  const pkgDir = path.dirname(require.resolve('electron/package.json'));
  const r = spawnSync(process.execPath, [path.join(pkgDir, 'install.js')], { cwd: pkgDir, encoding: 'utf8', timeout: 15 * 60_000, env: process.env });
  const lines = `${r.stderr ?? ''}\n${r.stdout ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const reason = lines.find((l) => /error/i.test(l)) ?? lines[0] ?? (r.error ? String(r.error.message) : `exit ${r.status}`);
  return { ok: r.status === 0, reason };
}
