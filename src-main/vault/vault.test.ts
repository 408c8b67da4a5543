import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileKeyBox, PassphraseBox, vaultBox, vaultHasPassphrase } from './secret-box';
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

describe('vault passphrase', () => {
  const fresh = () => mkdtempSync(path.join(tmpdir(), 'vault-pass-'));

  it('seals under the passphrase and the inner box: the key file alone opens nothing readable', () => {
    const dir = fresh();
    const v = new Vault(path.join(dir, 'keys'), new PassphraseBox(new FileKeyBox(dir), dir, 'correct horse battery'));
    v.put('p', 'k', PEM);
    const sealed = readFileSync(path.join(dir, 'keys', 'p', 'k.key'));
    const innerOnly = new FileKeyBox(dir).open(sealed);
    expect(innerOnly.includes(Buffer.from('PRIVATE KEY'))).toBe(false);
    expect(innerOnly.subarray(0, 4).toString()).toBe('ETP1');
    // a restart with the same passphrase opens it
    expect(new Vault(path.join(dir, 'keys'), vaultBox(new FileKeyBox(dir), dir, 'correct horse battery')).get('p', 'k')).toBe(PEM);
    expect(statSync(path.join(dir, 'vault.salt')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'vault.check')).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong passphrase, a missing one and a short one, before any key is opened', () => {
    const dir = fresh();
    new PassphraseBox(new FileKeyBox(dir), dir, 'correct horse battery');
    expect(vaultHasPassphrase(dir)).toBe(true);
    expect(() => vaultBox(new FileKeyBox(dir), dir, 'correct horse batterY')).toThrow(/wrong vault passphrase/);
    expect(() => vaultBox(new FileKeyBox(dir), dir, undefined)).toThrow(/locked with a passphrase/);
    expect(() => vaultBox(new FileKeyBox(fresh()), fresh(), 'short')).toThrow(/at least 8/);
    // a vault without a passphrase stays the inner box
    const plainDir = fresh();
    const inner = new FileKeyBox(plainDir);
    expect(vaultBox(inner, plainDir, undefined)).toBe(inner);
  });

  it('moves keys stored before the passphrase under it, atomically, and only once', () => {
    const dir = fresh();
    const before = new Vault(path.join(dir, 'keys'), new FileKeyBox(dir));
    before.put('p', 'a', PEM);
    before.put('q', 'b', PEM + 'b');
    const box = new PassphraseBox(new FileKeyBox(dir), dir, 'correct horse battery');
    const after = new Vault(path.join(dir, 'keys'), box);
    // the old entries still open before the move
    expect(after.get('p', 'a')).toBe(PEM);
    expect(after.reseal()).toBe(2);
    expect(after.reseal()).toBe(0);
    expect(after.get('q', 'b')).toBe(PEM + 'b');
    expect(readdirSync(path.join(dir, 'keys', 'p'))).toEqual(['a.key']);
    expect(new FileKeyBox(dir).open(readFileSync(path.join(dir, 'keys', 'p', 'a.key'))).includes(Buffer.from('PRIVATE KEY'))).toBe(false);
    // the inner box alone no longer yields the key
    expect(() => new Vault(path.join(dir, 'keys'), vaultBox(new FileKeyBox(dir), dir, undefined))).toThrow(/locked/);
  });

  it('names how keys are sealed, and warns about a key file beside the keys', () => {
    const dir = fresh();
    expect(new FileKeyBox(dir).warning).toMatch(/--passphrase/);
    const box = new PassphraseBox(new FileKeyBox(dir), dir, 'correct horse battery');
    expect(box.kind).toMatch(/passphrase/);
    expect(box.warning).toBeNull();
  });
});
