import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileKeyBox } from './secret-box';
import { Vault } from './vault';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIE...secret...\n-----END PRIVATE KEY-----\n';

describe('vault', () => {
  it('seals keys at rest and opens them back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vault-'));
    const v = new Vault(path.join(dir, 'keys'), new FileKeyBox(dir));
    v.put('embedded', 'key-1', PEM);
    const file = path.join(dir, 'keys', 'embedded', 'key-1.key');
    expect(readFileSync(file).includes(Buffer.from('secret'))).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(v.get('embedded', 'key-1')).toBe(PEM);
    // a new box over the same key file opens it too (restart)
    expect(new Vault(path.join(dir, 'keys'), new FileKeyBox(dir)).get('embedded', 'key-1')).toBe(PEM);
  });

  it('refuses a tampered entry', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vault-'));
    const box = new FileKeyBox(dir);
    const sealed = box.seal(Buffer.from(PEM));
    sealed.writeUInt8(sealed.readUInt8(sealed.length - 1) ^ 1, sealed.length - 1);
    expect(() => box.open(sealed)).toThrow();
  });

  it('deletes and rejects path tricks', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vault-'));
    const v = new Vault(path.join(dir, 'keys'), new FileKeyBox(dir));
    v.put('p', 'k', PEM);
    v.delete('p', 'k');
    expect(v.get('p', 'k')).toBeUndefined();
    expect(() => v.put('../x', 'k', PEM)).toThrow(/plain identifiers/);
    expect(readdirSync(dir)).toContain('vault.key');
  });
});
