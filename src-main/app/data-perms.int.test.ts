// What the terminal leaves on disk is its owner's alone: the data directory (tightened to 0700
// even when it existed looser), every directory under it 0700, and every file 0600: sealed keys,
// the web host's vault key, profiles, settings, the audit journal. Through the real door.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';

let terminal: RunningTerminal | null = null;
afterAll(async () => {
  await terminal?.stop();
});

function walk(dir: string, out: { dirs: string[]; files: string[] }) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      out.dirs.push(p);
      walk(p, out);
    } else out.files.push(p);
  }
  return out;
}

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

describe.skipIf(process.platform === 'win32')('data on disk', () => {
  it('is 0700 for directories and 0600 for files, the data directory tightened if it existed looser', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'perms-')), 'terminal');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    terminal = await startTerminal({ dataDir, box: new FileKeyBox(dataDir), shell: 'web', emit: () => {} });
    const call = async (method: string, ...args: unknown[]) => {
      const r = await terminal!.door(method, args);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value;
    };
    const profile = (await call('saveProfile', { id: 'p1', name: 'Perms', kind: 'custom', baseUrl: 'http://127.0.0.1:9/trade-api/v2', wsUrl: 'ws://127.0.0.1:9/trade-api/ws/v2', headerPrefix: 'SVC-' })) as { id: string };
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await call('importKey', { profileId: profile.id, apiKeyId: 'perm-key', privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    await call('saveLayout', { profileId: profile.id, layout: { panels: [] } });
    expect(mode(dataDir)).toBe('700');
    const { dirs, files } = walk(dataDir, { dirs: [], files: [] });
    expect(files.length).toBeGreaterThanOrEqual(3); // vault key, a sealed key, profiles at least
    expect(files.some((f) => f.endsWith('vault.key'))).toBe(true);
    for (const d of dirs) expect(`${path.relative(dataDir, d)} ${mode(d)}`).toBe(`${path.relative(dataDir, d)} 700`);
    for (const f of files) expect(`${path.relative(dataDir, f)} ${mode(f)}`).toBe(`${path.relative(dataDir, f)} 600`);
  });
});
