// No orphans: a parent that starts the web host (as the benches start it, bench/spawn-host.ts) or
// the synthetic feed is SIGKILLed (no handler of its own runs), and everything it started goes:
// the host, the host's exchange child, the feed. Once after the host is ready, once while it is
// still starting; and the host itself SIGKILLed takes its exchange. Waits on conditions only: a
// slow machine takes longer, never fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dirs: string[] = [];
const started: number[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
// whatever a failed assertion leaves is still cleaned up here
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Alive and not a zombie (a zombie has exited; only its parent has yet to read its status). */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Waits for `check` without a deadline of its own (the test's generous timeout ends a hang). */
async function until<T>(check: () => T | undefined | false): Promise<T> {
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A parent process running `script` (ESM, tsx) that prints "pid <role> <n>" lines. */
function parent(script: string): { child: ChildProcess; out: string[]; pid: (role: string) => number | undefined } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child.pid!);
  const out: string[] = [];
  child.stdout!.on('data', (d: Buffer) => out.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => out.push(d.toString()));
  const pid = (role: string) => {
    const m = new RegExp(`pid ${role} (\\d+)`).exec(out.join(''));
    return m ? Number(m[1]) : undefined;
  };
  return { child, out, pid };
}

const hostScript = (dataDir: string, staticDir: string, waitReady: boolean) => `
import { spawnHost } from './bench/spawn-host.ts';
const h = spawnHost(['--port', '0', '--data-dir', ${JSON.stringify(dataDir)}, '--static-dir', ${JSON.stringify(staticDir)}, '--no-sim', '--seed', '5'], { source: true });
console.log('pid host ' + h.child.pid);
${waitReady ? "await h.ready(); console.log('host ready');" : ''}
setInterval(() => undefined, 1000);
`;

describe('a SIGKILLed parent leaves no process behind', () => {
  for (const when of ['ready', 'starting'] as const) {
    it(`the web host and its exchange go with the bench that started them (host ${when})`, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'orphans-'));
      dirs.push(dataDir);
      // the host serves a page (its absence is refused at start); this one is enough
      const staticDir = path.join(dataDir, 'static');
      mkdirSync(staticDir);
      writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
      const p = parent(hostScript(path.join(dataDir, 'data'), staticDir, when === 'ready'));
      const host = await until(() => p.pid('host'));
      started.push(host);
      // the exchange is the host's child; 'starting' kills the parent as soon as it exists
      const exchange = await until(() => {
        if (!alive(host)) throw new Error(`the host exited:\n${p.out.join('')}`);
        return childrenOf(host)[0];
      });
      started.push(exchange);
      if (when === 'ready') await until(() => p.out.join('').includes('host ready'));
      expect(alive(host) && alive(exchange)).toBe(true);
      p.child.kill('SIGKILL');
      await until(() => !alive(host) && !alive(exchange));
      expect([alive(host), alive(exchange)]).toEqual([false, false]);
    }, 600_000);
  }

  it('the exchange goes with a web host that is SIGKILLed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'orphans-'));
    dirs.push(dataDir);
    const staticDir = path.join(dataDir, 'static');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    const p = parent(hostScript(path.join(dataDir, 'data'), staticDir, true));
    const host = await until(() => p.pid('host'));
    started.push(host);
    await until(() => p.out.join('').includes('host ready'));
    const exchange = await until(() => childrenOf(host)[0]);
    started.push(exchange);
    process.kill(host, 'SIGKILL');
    await until(() => !alive(exchange));
    expect(alive(exchange)).toBe(false);
  }, 600_000);

  it('the synthetic feed goes with the bench that started it', async () => {
    const p = parent(`
import { spawn } from 'node:child_process';
import { own } from './bench/procs.ts';
const feed = own(spawn(process.execPath, ['--import', 'tsx', 'bench/feed-server.ts'], { env: { ...process.env, FEED_SECONDS: '3600' }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }));
feed.stdout.on('data', (d) => { if (/feed on/.test(d.toString())) console.log('pid feed ' + feed.pid); });
setInterval(() => undefined, 1000);
`);
    const feed = await until(() => p.pid('feed'));
    started.push(feed);
    expect(alive(feed)).toBe(true);
    p.child.kill('SIGKILL');
    await until(() => !alive(feed));
    expect(alive(feed)).toBe(false);
  }, 600_000);
});
