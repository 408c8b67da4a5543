// The vault passphrase through the real entry point: `start:web` (the host's bundles, as
// `npm run start:web` runs them, built once for this file by scripts/build-host.mjs) with a
// passphrase file, then restarts without one, with a wrong one, and with one typed on stdin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectDoor } from './door-client';
import { FileKeyBox } from '../vault/secret-box';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Run {
  code: number | null;
  out: string;
  err: string;
  url: string | null;
}

// a private build (out/host may be rebuilt meanwhile by another run); inside the repository, so
// the bundles find node_modules. Each start then runs plain JavaScript instead of tsx compiling
// main's few hundred modules (and the exchange's) again.
const bundleDir = path.join('out', `test-host-${process.pid}-${Date.now().toString(36)}`);
beforeAll(async () => {
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [path.join(root, 'scripts/build-host.mjs'), '--outdir', bundleDir], { cwd: root }, (e, _out, err) => (e ? reject(new Error(`${e.message}\n${err}`)) : resolve())),
  );
}, 300_000); // only a hang guard

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(path.join(root, bundleDir), { recursive: true, force: true });
});

/** starts the CLI; when it prints `terminal ready`, runs `whileUp` with its URL, then stops it */
function startWeb(args: string[], opts: { stdin?: string; whileUp?: (url: string) => Promise<void> } = {}): Promise<Run> {
  const staticDir = mkdtempSync(path.join(tmpdir(), 'static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const child = spawn(process.execPath, [path.join(root, bundleDir, 'cli.js'), '--port', '0', '--no-sim', '--static-dir', staticDir, ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
  else child.stdin.end();
  let out = '';
  let err = '';
  let url: string | null = null;
  // no deadline of its own: a start that is slow only ends later, one that fails ends with its exit;
  // a hang is caught by the test's timeout, and afterAll kills what is left
  running.add(child);
  return new Promise((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      url ??= /terminal at (\S+)/.exec(out)?.[1] ?? null;
      if (out.includes('terminal ready') && !out.includes('##stopping')) {
        out += '##stopping';
        void (opts.whileUp ? opts.whileUp(url!) : Promise.resolve()).finally(() => child.kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      running.delete(child);
      resolve({ code, out, err, url });
    });
  });
}

async function appState(url: string): Promise<{ keysAtRest?: { kind: string; warning: string | null } }> {
  const door = await connectDoor(url);
  const state = await door.call<{ keysAtRest?: { kind: string; warning: string | null } }>('getAppState');
  door.ws.close();
  return state;
}

describe('start:web vault passphrase', () => {
  it('seals keys with a passphrase, refuses a start without it or with a wrong one, and takes it typed on stdin', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'webpass-'));
    const dataDir = path.join(base, 'data');
    const passFile = path.join(base, 'pass.txt');
    writeFileSync(passFile, 'a long enough passphrase\n', { mode: 0o600 });

    // a first start on the key file alone: the UI is told why that is weak
    let state: Awaited<ReturnType<typeof appState>> | null = null;
    const plain = await startWeb(['--data-dir', dataDir], { whileUp: async (url) => void (state = await appState(url)) });
    expect(plain.err).toBe('');
    expect(state!.keysAtRest?.kind).toMatch(/key file/);
    expect(state!.keysAtRest?.warning).toMatch(/--passphrase/);
    const keyFiles = () => readdirSync(path.join(dataDir, 'keys', 'embedded')).map((f) => path.join(dataDir, 'keys', 'embedded', f));
    expect(keyFiles().length).toBeGreaterThan(0);

    // the same data with a passphrase: the existing keys move under it, the warning goes
    const locked = await startWeb(['--data-dir', dataDir, '--passphrase-file', passFile], { whileUp: async (url) => void (state = await appState(url)) });
    expect(locked.err).toBe('');
    expect(state!.keysAtRest?.kind).toMatch(/passphrase/);
    expect(state!.keysAtRest?.warning).toBeNull();
    for (const f of keyFiles()) {
      expect(new FileKeyBox(dataDir).open(readFileSync(f)).includes(Buffer.from('PRIVATE KEY'))).toBe(false);
    }

    // without it, or with a wrong one, the start stops with a clear message and nothing changes
    const before = keyFiles().map((f) => readFileSync(f).toString('base64'));
    const none = await startWeb(['--data-dir', dataDir]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/locked with a passphrase/);
    const wrongFile = path.join(base, 'wrong.txt');
    writeFileSync(wrongFile, 'not the passphrase at all\n', { mode: 0o600 });
    const wrong = await startWeb(['--data-dir', dataDir, '--passphrase-file', wrongFile]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/wrong vault passphrase/);
    expect(keyFiles().map((f) => readFileSync(f).toString('base64'))).toEqual(before);

    // a passphrase file others can read is refused
    chmodSync(wrongFile, 0o644);
    const loose = await startWeb(['--data-dir', dataDir, '--passphrase-file', wrongFile]);
    expect(loose.code).toBe(2);
    expect(loose.err).toMatch(/readable by other users/);

    // typed (here piped) on stdin
    const typed = await startWeb(['--data-dir', dataDir, '--passphrase'], { stdin: 'a long enough passphrase\n', whileUp: async (url) => void (state = await appState(url)) });
    expect(typed.err).not.toMatch(/start:web/);
    expect(state!.keysAtRest?.kind).toMatch(/passphrase/);
  }, 600_000); // only a hang guard: five terminal starts
});
