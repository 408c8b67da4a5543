// The processes a bench starts, each owned (killed on our exit) and with an IPC channel (it exits
// when this process dies, SIGKILL included): the web host (its exchange child follows it), the
// exchange alone, the synthetic feed. Their starts are waited for without a deadline while they
// print anything (./procs waitFor).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { own, waitFor } from './procs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SpawnedHost {
  child: ChildProcess;
  /** every line it printed (stdout and stderr) */
  lines: string[];
  /** its tokened URL, once printed */
  url(): Promise<string>;
  /** once it printed "terminal ready" (the exchange and services are up) */
  ready(): Promise<void>;
}

/** Starts `out/host/cli.js` (the bundles, as `npm run start:web` runs) or, with `source`, `src-main/host/cli.ts` under tsx. */
export function spawnHost(args: string[], opts: { source?: boolean; nodeArgs?: string[] } = {}): SpawnedHost {
  const entry = opts.source ? ['--import', 'tsx', path.join(root, 'src-main/host/cli.ts')] : [path.join(root, 'out/host/cli.js')];
  const child = own(spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  const lines: string[] = [];
  let at: string | null = null;
  let ready = false;
  const onData = (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (!line) continue;
      lines.push(line);
      const m = /terminal at (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(line);
      if (m) at = m[1]!;
      if (/^terminal ready/.test(line)) ready = true;
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const progress = { child, progress: () => lines.length, status: () => `host printed ${lines.length} line(s), last: ${lines.at(-1) ?? '(none)'}` };
  return {
    child,
    lines,
    url: () => waitFor('the web host to print its URL', () => at ?? undefined, progress),
    ready: () => waitFor('the web host to say "terminal ready"', () => ready || undefined, progress).then(() => undefined),
  };
}

/** The embedded exchange alone (as `npm run exchange` runs it), owned, with an IPC channel; resolves with its REST base once it listens. */
export async function spawnExchange(dataDir: string, args: string[] = []): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = own(spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src-exchange/cli.ts'), '--port', '0', '--data-dir', dataDir, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  const lines: string[] = [];
  const onData = (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  await waitFor('the exchange to listen', () => lines.some((l) => /exchange listening on/.test(l)) || undefined, { child, progress: () => lines.length, status: () => `last: ${lines.at(-1) ?? '(nothing yet)'}` });
  return { child, lines };
}

/** bench/feed-server.ts with these FEED_* settings, owned, with an IPC channel; resolves with its port. */
export async function spawnFeed(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = own(spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'feed-server.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }));
  let port: number | undefined;
  child.stdout!.on('data', (d: Buffer) => {
    const m = /feed on (\d+)/.exec(d.toString());
    if (m) port = Number(m[1]);
  });
  return { child, port: await waitFor('the feed to listen', () => port, { child }) };
}
