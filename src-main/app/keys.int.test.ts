// The keys of a profile through the real door, against a real embedded exchange on 127.0.0.1 (one
// terminal for the file: the deletions first, then the cap, which fills the active profile).
// - Deleting a key that still trades at the exchange: the door says so (code key_still_valid) and
//   changes nothing; the trader then chooses to revoke it there as well or to forget it here only.
// - Keys per profile are capped (MAX_KEYS_PER_PROFILE): importKey and generateKey past it are
//   refused with a clear error, before anything is stored here or minted at the exchange.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { createApiClient, DEFAULT_TIMEOUT_MS, type ApiClient } from '../api/client';
import { resolveProfile } from '../api/profiles';
import { generateRsaKeyPair } from '../../src-exchange/provision';
import { MAX_KEYS_PER_PROFILE } from './key-limits';
import { entryArgs } from '../../test-support/entry';
import { startFaultProxy } from '../chaos/fault-proxy';
import type { DoorAnswer } from '../host/door-client';

let terminal: RunningTerminal;
let trader: ApiClient;
let dataDir: string;

const call = (method: string, ...args: unknown[]) => terminal.door(method, args) as Promise<DoorAnswer>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}
const keysOf = async (profileId: string) => (await value<{ profiles: { id: string; keys: { apiKeyId: string }[] }[] }>('getAppState')).profiles.find((p) => p.id === profileId)!.keys.map((k) => k.apiKeyId);
const atExchange = async () => (await trader.getApiKeys()).api_keys.map((k) => k.api_key);
/** every file under the vault's directory */
const vaultFiles = (): string[] => {
  const dir = path.join(dataDir, 'keys');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'keys-'));
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: () => {},
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 5, sim: false },
  });
  const ex = terminal.exchange!;
  const a = ex.accounts.find((x) => x.name === 'trader')!;
  trader = createApiClient({ profile: resolveProfile({ kind: 'custom', name: 'check', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' }), credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem! } });
  for (let i = 0; i < 100 && (await value<{ connection: { phase: string } }>('getAppState')).connection.phase !== 'live'; i++) await new Promise((r) => setTimeout(r, 100));
}, 120_000);
afterAll(async () => {
  await terminal?.stop();
});

describe('deleting a key', () => {
  it('refuses to forget a key still valid at the exchange without the trader saying what to do; nothing changes', async () => {
    const k = await value<{ apiKeyId: string }>('generateKey', { profileId: 'embedded', name: 'spare' });
    expect(await value('keyStatus', { profileId: 'embedded', apiKeyId: k.apiKeyId })).toMatchObject({ validAtExchange: true });
    const r = await call('deleteKey', { profileId: 'embedded', apiKeyId: k.apiKeyId });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'state', code: 'key_still_valid' });
      expect(r.error.message).toMatch(/still valid at the exchange/);
    }
    expect(await keysOf('embedded')).toContain(k.apiKeyId);
    expect(await atExchange()).toContain(k.apiKeyId);

    // revoke: gone at the exchange and here
    expect(await value('deleteKey', { profileId: 'embedded', apiKeyId: k.apiKeyId, revoke: true })).toEqual({ revoked: true });
    expect(await keysOf('embedded')).not.toContain(k.apiKeyId);
    expect(await atExchange()).not.toContain(k.apiKeyId);
  });

  it('forgets one here only when asked, leaving it valid at the exchange', async () => {
    const k = await value<{ apiKeyId: string }>('generateKey', { profileId: 'embedded', name: 'kept at the exchange' });
    expect(await value('deleteKey', { profileId: 'embedded', apiKeyId: k.apiKeyId, revoke: false })).toEqual({ revoked: false });
    expect(await keysOf('embedded')).not.toContain(k.apiKeyId);
    expect(await atExchange()).toContain(k.apiKeyId);
  });

  it('deletes a key the exchange no longer accepts without asking', async () => {
    const k = await value<{ apiKeyId: string }>('generateKey', { profileId: 'embedded', name: 'revoked elsewhere' });
    await trader.deleteApiKey({ params: { api_key: k.apiKeyId } });
    expect(await value('keyStatus', { profileId: 'embedded', apiKeyId: k.apiKeyId })).toMatchObject({ validAtExchange: false });
    expect(await value('deleteKey', { profileId: 'embedded', apiKeyId: k.apiKeyId })).toEqual({ revoked: false });
    expect(await keysOf('embedded')).not.toContain(k.apiKeyId);
  });

  it('asks a key of an inactive profile itself, at its own host, and lets it revoke itself', async () => {
    const ex = terminal.exchange!;
    const pair = generateRsaKeyPair();
    const created = await trader.createApiKey({ body: { name: 'imported', public_key: pair.publicKeyPem } });
    const id = created.api_key_id ?? created.api_key.api_key;
    await value('saveProfile', { id: 'other', name: 'Other', kind: 'custom', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' });
    await value('importKey', { profileId: 'other', apiKeyId: id, privateKeyPem: pair.privateKeyPem });
    // the profile is not active: its key answers for itself
    expect(await value('keyStatus', { profileId: 'other', apiKeyId: id })).toMatchObject({ validAtExchange: true });
    // a fresh import is the profile's active key: a second one makes it deletable
    const other = generateRsaKeyPair();
    const second = await trader.createApiKey({ body: { name: 'second', public_key: other.publicKeyPem } });
    const secondId = second.api_key_id ?? second.api_key.api_key;
    await value('importKey', { profileId: 'other', apiKeyId: secondId, privateKeyPem: other.privateKeyPem });
    await value('useKey', { profileId: 'other', apiKeyId: secondId });
    const r = await call('deleteKey', { profileId: 'other', apiKeyId: id });
    expect(r.ok ? null : r.error.code).toBe('key_still_valid');
    expect(await value('deleteKey', { profileId: 'other', apiKeyId: id, revoke: true })).toEqual({ revoked: true });
    expect(await atExchange()).not.toContain(id);
    expect(await keysOf('other')).not.toContain(id);
  });

  it('refuses a malformed call at the door', async () => {
    const r = await call('deleteKey', { profileId: 'embedded', apiKeyId: 'x', revoke: 'yes' });
    expect(r.ok ? null : r.error.kind).toBe('validation');
    const s = await call('keyStatus', { profileId: 'embedded', apiKeyId: 'no-such-key' });
    expect(s.ok ? null : s.error.message).toMatch(/no key no-such-key/);
  });
});

describe(`at most ${MAX_KEYS_PER_PROFILE} keys per profile`, () => {
  it('importKey past the cap is refused, naming it, and stores nothing; a key imported again under its own id still is', async () => {
    await value('saveProfile', { id: 'many-keys', name: 'Many keys', kind: 'demo' });
    const { privateKeyPem } = generateRsaKeyPair();
    for (let i = 0; i < MAX_KEYS_PER_PROFILE; i++) await value('importKey', { profileId: 'many-keys', apiKeyId: `imported-${i}`, privateKeyPem });
    expect(await keysOf('many-keys')).toHaveLength(MAX_KEYS_PER_PROFILE);
    const files = vaultFiles();
    const r = await call('importKey', { profileId: 'many-keys', apiKeyId: 'one-too-many', privateKeyPem });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(new RegExp(`holds ${MAX_KEYS_PER_PROFILE} keys, at most ${MAX_KEYS_PER_PROFILE}: delete one first; nothing stored`));
    expect(await keysOf('many-keys')).not.toContain('one-too-many');
    expect(await keysOf('many-keys')).toHaveLength(MAX_KEYS_PER_PROFILE);
    expect(vaultFiles()).toEqual(files);
    // the same id again replaces itself: not a new key
    expect((await call('importKey', { profileId: 'many-keys', apiKeyId: 'imported-3', privateKeyPem, name: 'again' })).ok).toBe(true);
    expect(await keysOf('many-keys')).toHaveLength(MAX_KEYS_PER_PROFILE);
  });

  it('generateKey past the cap is refused before the exchange mints one; rotation, which replaces a key, still works', async () => {
    const start = await keysOf('embedded');
    for (let i = start.length; i < MAX_KEYS_PER_PROFILE; i++) await value('generateKey', { profileId: 'embedded', name: `spare ${i}` });
    const full = await keysOf('embedded');
    expect(full).toHaveLength(MAX_KEYS_PER_PROFILE);
    const minted = await atExchange();
    const r = await call('generateKey', { profileId: 'embedded', name: 'one too many' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(new RegExp(`at most ${MAX_KEYS_PER_PROFILE}: delete one first`));
    expect(await keysOf('embedded')).toEqual(full);
    expect((await atExchange()).sort()).toEqual([...minted].sort());
    // a rotation swaps one key for another: the count stays at the cap
    const spare = full.find((k) => !start.includes(k))!;
    const fresh = await value<{ apiKeyId: string }>('rotateKey', { profileId: 'embedded', apiKeyId: spare });
    const after = await keysOf('embedded');
    expect(after).toHaveLength(MAX_KEYS_PER_PROFILE);
    expect(after).toContain(fresh.apiKeyId);
    expect(after).not.toContain(spare);
  }, 120_000);
});

describe('a slow key generation', () => {
  it(`waits for the exchange's answer past the client's ${DEFAULT_TIMEOUT_MS / 1000} s: the key it mints is kept, not left at the exchange with no one holding it`, async () => {
    const ex = terminal.exchange!;
    const a = ex.accounts.find((x) => x.name === 'trader')!;
    // the same exchange behind a proxy that holds the answer to a key generation past the client's timeout
    const proxy = await startFaultProxy({ upstreamPort: Number(new URL(ex.baseUrl).port), seed: 1, faults: null });
    proxy.setFaults({ refuse: 0, cut: 0, cutWithinMs: 0, blackhole: 0, blackholeMs: 0, delayMs: 0, cutOneEveryMs: 0, holdAnswer: { startsWith: 'POST /trade-api/v2/api_keys/generate ', ms: DEFAULT_TIMEOUT_MS + 1_000 } });
    const via = (u: string) => Object.assign(new URL(u), { port: String(proxy.port) }).toString().replace(/\/$/, '');
    try {
      await value('saveProfile', { id: 'slow', name: 'Slow', kind: 'custom', baseUrl: via(ex.baseUrl), wsUrl: via(ex.wsUrl), headerPrefix: 'SVC-' });
      await value('importKey', { profileId: 'slow', apiKeyId: a.api_key_id, privateKeyPem: a.private_key_pem! });
      await value('activateProfile', 'slow');
      const t0 = Date.now();
      const k = await value<{ apiKeyId: string }>('generateKey', { profileId: 'slow', name: 'minted slowly' });
      expect(proxy.stats.held).toBe(1);
      expect(Date.now() - t0).toBeGreaterThan(DEFAULT_TIMEOUT_MS);
      expect(await keysOf('slow')).toContain(k.apiKeyId);
      expect(await atExchange()).toContain(k.apiKeyId);
    } finally {
      await value('activateProfile', 'embedded');
      await proxy.close();
    }
  }, 120_000);
});
