// The embedded exchange writes its accounts' private keys to credentials.json on its first start;
// once the terminal has sealed them in its vault, the file keeps only ids. Restarts still trade
// with those keys, and a standalone exchange restarted on the stripped file still starts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { startExchange } from '../../src-exchange/server';
import { entryArgs } from '../../test-support/entry';

let terminal: RunningTerminal | null = null;
afterAll(async () => {
  await terminal?.stop();
});

const boot = (dataDir: string) =>
  startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: () => {},
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 3, sim: false },
  });

async function call(method: string, ...args: unknown[]): Promise<unknown> {
  const r = await terminal!.door(method, args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

describe('embedded credentials.json', () => {
  it('keeps no private key once the terminal holds them; restarts still sign with them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'creds-'));
    const file = path.join(dataDir, 'exchange', 'credentials.json');
    terminal = await boot(dataDir);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/PRIVATE KEY/);
    const creds = JSON.parse(text) as { accounts: { name: string; api_key_id: string; private_key_pem?: string; private_key?: string }[] };
    expect(creds.accounts.map((a) => a.name).sort()).toEqual(['counterparty', 'fcm', 'trader']);
    for (const a of creds.accounts) {
      expect(a.private_key_pem).toBeUndefined();
      expect(a.private_key).toMatch(/vault/);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.tmp`)).toBe(false);
    const balance = async () => (await call('request', { id: 'getBalance' })) as { balance_dollars?: string; balance?: unknown };
    const before = await balance();
    expect(before).toBeTruthy();
    await terminal.stop();
    terminal = null;

    // a restart: the exchange starts on the stripped file, the terminal signs with its vault's keys
    terminal = await boot(dataDir);
    const state = (await call('getAppState')) as { profiles: { id: string; keys: unknown[] }[] };
    expect(state.profiles.find((p) => p.id === 'embedded')!.keys).toHaveLength(3);
    expect(await balance()).toEqual(before);
    expect(readFileSync(file, 'utf8')).not.toMatch(/PRIVATE KEY/);
    await terminal.stop();
    terminal = null;

    // the exchange alone (npm run exchange) also starts on the stripped file, and says what is missing
    const ex = await startExchange({ dataDir: path.join(dataDir, 'exchange'), port: 0, sim: false });
    try {
      expect(ex.credentials.accounts).toHaveLength(3);
      const { withKeys } = await import('../../src-shared/credentials');
      expect(() => withKeys(ex.credentials)).toThrow(/sealed them in its own vault/);
    } finally {
      await ex.close();
    }
  }, 120_000);
});
