// Deleting a key that still trades at the exchange: the door says so (code key_still_valid) and
// changes nothing; the trader then chooses to revoke it there as well or to forget it here only.
// Through the real door against a real embedded exchange.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { createApiClient, type ApiClient } from '../api/client';
import { resolveProfile } from '../api/profiles';
import { generateRsaKeyPair } from '../../src-exchange/provision';
import { entryArgs } from '../../test-support/entry';

let terminal: RunningTerminal;
let trader: ApiClient;

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };
const call = (method: string, ...args: unknown[]) => terminal.door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}
const keysOf = async (profileId: string) => (await value<{ profiles: { id: string; keys: { apiKeyId: string }[] }[] }>('getAppState')).profiles.find((p) => p.id === profileId)!.keys.map((k) => k.apiKeyId);
const atExchange = async () => (await trader.getApiKeys()).api_keys.map((k) => k.api_key);

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keydel-'));
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
