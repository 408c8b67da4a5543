// A key the trader deleted (or rotated away, or revoked) is never adopted again from the embedded
// exchange's credentials on the next start; a key imported by hand on purpose comes back.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfilesService } from './profiles-service';
import { FileKeyBox } from '../vault/secret-box';

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const embedded = (accounts: { name: string; api_key_id: string; private_key_pem: string; fcm: boolean }[]) => ({ baseUrl: 'http://127.0.0.1:9/trade-api/v2', wsUrl: 'ws://127.0.0.1:9/trade-api/ws/v2', accounts });

describe('retired keys', () => {
  it('a deleted provisioned key stays deleted across restarts; a hand import brings it back', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'retired-'));
    const accounts = [
      { name: 'trader', api_key_id: 'key-trader', private_key_pem: pem(), fcm: false },
      { name: 'counterparty', api_key_id: 'key-counter', private_key_pem: pem(), fcm: false },
    ];
    const open = () => new ProfilesService({ dataDir, box: new FileKeyBox(dataDir), embedded: embedded(accounts), emit: () => {} });
    const keysOf = (s: ProfilesService) => s.profiles.get('embedded')!.keys.map((k) => k.apiKeyId).sort();

    const first = open();
    expect(keysOf(first)).toEqual(['key-counter', 'key-trader']);
    await first.deleteKey({ profileId: 'embedded', apiKeyId: 'key-counter' });
    expect(keysOf(first)).toEqual(['key-trader']);

    // the exchange's credentials still list it: the next start does not adopt it again
    const second = open();
    expect(keysOf(second)).toEqual(['key-trader']);
    expect(second.profiles.get('embedded')!.retiredKeyIds).toEqual(['key-counter']);

    // an explicit import is the trader's word: back, and no longer retired
    await second.importKey({ profileId: 'embedded', apiKeyId: 'key-counter', privateKeyPem: accounts[1]!.private_key_pem });
    const third = open();
    expect(keysOf(third)).toEqual(['key-counter', 'key-trader']);
    expect(third.profiles.get('embedded')!.retiredKeyIds).toEqual([]);
  });
});

describe('provisioned keys after credentials.json is stripped', () => {
  it('re-creates a deleted embedded profile from the vault copy; a key in neither place is reported, not invented', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'provisioned-'));
    const withPem = [
      { name: 'trader', api_key_id: 'key-trader', private_key_pem: pem(), fcm: false },
      { name: 'counterparty', api_key_id: 'key-counter', private_key_pem: pem(), fcm: false },
    ];
    const first = new ProfilesService({ dataDir, box: new FileKeyBox(dataDir), embedded: embedded(withPem), emit: () => {} });
    expect(first.holdsProvisionedKey('key-trader')).toBe(true);
    // the profile disappears (deleted by hand, a lost profiles file); credentials.json has no keys now
    first.profiles.remove('embedded');
    const stripped = withPem.map(({ private_key_pem: _p, ...a }) => a);
    const logs: string[] = [];
    const stranger = { name: 'stranger', api_key_id: 'key-unknown', fcm: false };
    const second = new ProfilesService({ dataDir, box: new FileKeyBox(dataDir), embedded: { ...embedded([]), accounts: [...stripped, stranger] }, emit: () => {}, log: (m) => logs.push(m) });
    expect(second.profiles.get('embedded')!.keys.map((k) => k.apiKeyId).sort()).toEqual(['key-counter', 'key-trader']);
    expect(logs.join('\n')).toMatch(/key-unknown.*neither in credentials.json nor in the vault/);
  });
});
