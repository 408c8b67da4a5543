// The web host keeps its port from one start to the next on a data directory (the page's local
// storage, its selected market, link groups and watchlist, is kept by origin): real hosts on
// 127.0.0.1, a real process holding the remembered port, and a damaged file.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from './server';
import { listenRemembering, PORT_FILE } from './port-memory';

const dirs: string[] = [];
const hosts: RunningHost[] = [];
let blocker: Server | null = null;
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  await new Promise<void>((r) => (blocker ? blocker.close(() => r()) : r()));
  blocker = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'port-memory-'));
  dirs.push(d);
  return d;
}

/** one start: a real host listening through listenRemembering, what it logged */
async function start(dir: string, asked?: number): Promise<{ host: RunningHost; said: string[] }> {
  const said: string[] = [];
  const staticDir = dataDir();
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const host = await listenRemembering(dir, asked, (port) => startHost({ port, staticDir, door: async () => ({ ok: true, value: null }) }), (m) => said.push(m));
  hosts.push(host);
  return { host, said };
}

const stored = (dir: string) => JSON.parse(readFileSync(path.join(dir, PORT_FILE), 'utf8')) as { port: number };

describe('the web host port, remembered per data directory', () => {
  it('a start with no --port listens where the last one did', async () => {
    const dir = dataDir();
    const first = await start(dir);
    expect(first.host.port).toBeGreaterThan(0);
    expect(stored(dir)).toEqual({ port: first.host.port });
    const port = first.host.port;
    await hosts.pop()!.close();
    const again = await start(dir);
    expect(again.host.port).toBe(port);
    expect(again.said).toEqual([]);
  });

  it('the remembered port held by another process: a new port, said, and remembered instead', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const port = first.host.port;
    await hosts.pop()!.close();
    blocker = createServer();
    await new Promise<void>((r) => blocker!.listen(port, '127.0.0.1', () => r()));
    const again = await start(dir);
    expect(again.host.port).not.toBe(port);
    expect(again.said.join('\n')).toMatch(new RegExp(`port ${port} .*taken by another process`));
    expect(stored(dir)).toEqual({ port: again.host.port });
  });

  it('a damaged or out-of-range file is said and ignored; the start listens and rewrites it', async () => {
    for (const text of ['{not json', JSON.stringify({ port: 80 }), JSON.stringify({ port: '8080' }), JSON.stringify([1])]) {
      const dir = dataDir();
      writeFileSync(path.join(dir, PORT_FILE), text);
      const s = await start(dir);
      expect(s.host.port).toBeGreaterThan(0);
      expect(s.said.join('\n')).toMatch(/listening on a new one/);
      expect(stored(dir)).toEqual({ port: s.host.port });
    }
  });

  it('an explicit --port (0 too) is used as given and neither read nor remembered', async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, PORT_FILE), '{not json');
    const s = await start(dir, 0);
    expect(s.said).toEqual([]);
    expect(readFileSync(path.join(dir, PORT_FILE), 'utf8')).toBe('{not json');
  });
});
