// `start:web --open`: the browser is handed a file, not the tokened URL, so the token is in no
// command line (other users of the machine can list those); only this user can read the file.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A 0600 page in the 0700 data directory that forwards to `url`; removed after a minute. */
export function writeLauncher(dataDir: string, url: string, removeAfterMs = 60_000): string {
  const file = path.join(dataDir, 'open-terminal.html');
  rmSync(file, { force: true });
  const target = JSON.stringify(url).replace(/</g, '\\u003c');
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Event Terminal</title><script>location.replace(${target})</script>`,
    { mode: 0o600, flag: 'wx' },
  );
  setTimeout(() => rmSync(file, { force: true }), removeAfterMs).unref();
  return file;
}

