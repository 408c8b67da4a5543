// The web host's port, kept from one start to the next on a data directory. The browser keeps a
// page's local storage by its origin (scheme, host and port): the selected market, the link
// groups' markets and the watchlist live there. A new port at every start was a new origin, so
// each day's start forgot them (and the first ladder waited for the markets list to pick one).
// With no --port, a start listens on the port of the last start on this data directory; if
// something else holds it now, on a new one (said on the console), which is remembered instead.
// An explicit --port (0 included: tests, benches) is used as given and remembered by no one.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PORT_FILE = 'web-host.json';

/** The port the last start on `dataDir` listened on, or null (none yet, or a file that does not hold one: said, and ignored). */
function rememberedPort(dataDir: string, log: (m: string) => void): number | null {
  const file = path.join(dataDir, PORT_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null; // no start yet on this directory
  }
  try {
    const port = (JSON.parse(text) as { port?: unknown }).port;
    if (typeof port === 'number' && Number.isInteger(port) && port >= 1024 && port <= 65535) return port;
    log(`${file} holds no port between 1024 and 65535: listening on a new one`);
  } catch (e) {
    log(`${file} is not JSON (${(e as Error).message}): listening on a new one`);
  }
  return null;
}

/** Keeps `port` for the next start on `dataDir` (written whole: a crash leaves the old file or the new one). */
function rememberPort(dataDir: string, port: number): void {
  const file = path.join(dataDir, PORT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ port })}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Listens through `listen`: on `asked` when given (as given, nothing remembered); else on the
 * remembered port, or a new one when there is none or another process holds it; the port it got
 * is remembered.
 */
export async function listenRemembering<T extends { port: number }>(
  dataDir: string,
  asked: number | undefined,
  listen: (port: number) => Promise<T>,
  log: (m: string) => void,
): Promise<T> {
  if (asked !== undefined) return listen(asked);
  const last = rememberedPort(dataDir, log);
  let got: T;
  if (last === null) got = await listen(0);
  else {
    try {
      got = await listen(last);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw e;
      log(`port ${last} (the last start's) is taken by another process: listening on a new port; this page's remembered market, link groups and watchlist start empty`);
      got = await listen(0);
    }
  }
  rememberPort(dataDir, got.port);
  return got;
}
