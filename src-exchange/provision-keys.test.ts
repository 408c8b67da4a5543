// EXCHANGE_PROVISION_KEYS: test runs hand the exchange key pairs for its provisioned accounts
// instead of having every first start generate RSA keys; without it keys are generated.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicKey } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { provisionKeysFromEnv } from './provision';

const dir = mkdtempSync(path.join(tmpdir(), 'provision-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('provisionKeysFromEnv', () => {
  it('is undefined without the variable: keys are generated', () => {
    expect(provisionKeysFromEnv({})).toBeUndefined();
  });

  it('vitest.config.ts points test runs at the committed test pairs, one distinct RSA pair per provisioned account', () => {
    const pairs = provisionKeysFromEnv(process.env)!;
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pairs.map((p) => p.publicKeyPem)).size).toBe(pairs.length);
    for (const p of pairs) expect(createPublicKey(p.privateKeyPem).export({ type: 'spki', format: 'pem' })).toBe(p.publicKeyPem);
  });

  it('refuses a file that is not a list of key pairs', () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ pairs: [{ publicKeyPem: 1 }] }));
    expect(() => provisionKeysFromEnv({ EXCHANGE_PROVISION_KEYS: file })).toThrow(/not a list of key pairs/);
  });
});
