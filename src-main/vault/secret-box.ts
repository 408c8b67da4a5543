// Encryption at rest for private keys. Electron uses the OS keychain (safeStorage, adapted in
// src-main/electron); plain Node (the web host) uses AES-256-GCM with a random key kept in a
// 0600 file beside the data. Either way, a private key on disk is never plaintext.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SecretBox {
  readonly kind: string;
  /** what a trader should know about how strong this sealing is (null: nothing to say) */
  readonly warning?: string | null;
  seal(plain: Buffer): Buffer;
  open(sealed: Buffer): Buffer;
  /** true when an entry opens but was sealed a weaker way than this box seals now */
  needsReseal?(sealed: Buffer): boolean;
}

const MAGIC = Buffer.from('ETV1');

export class FileKeyBox implements SecretBox {
  readonly kind = 'aes-256-gcm (key file)';
  /** the web host's sealing key sits beside the sealed keys, protected by file permissions only */
  readonly warning =
    'Keys are sealed with a key file kept in the same data directory (readable only by your user account): anyone who can read that directory as you can unseal them. Start with --passphrase (or --passphrase-file <file>) to seal them with a passphrase too, or use the desktop app (OS keychain).';
  private readonly key: Buffer;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'vault.key');
    if (existsSync(file)) {
      this.key = readFileSync(file);
      if (this.key.length !== 32) throw new Error(`${file} is not a 32-byte vault key; remove it only if you can re-import your keys`);
    } else {
      this.key = randomBytes(32);
      writeFileSync(file, this.key, { mode: 0o600 });
    }
  }

  seal(plain: Buffer): Buffer {
    return gcmSeal(MAGIC, this.key, plain);
  }

  open(sealed: Buffer): Buffer {
    return gcmOpen(MAGIC, this.key, sealed);
  }
}

function gcmSeal(magic: Buffer, key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([magic, iv, c.getAuthTag(), body]);
}

function gcmOpen(magic: Buffer, key: Buffer, sealed: Buffer): Buffer {
  if (!sealed.subarray(0, 4).equals(magic)) throw new Error('not a sealed vault entry');
  const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(4, 16));
  d.setAuthTag(sealed.subarray(16, 32));
  return Buffer.concat([d.update(sealed.subarray(32)), d.final()]);
}

const PASS_MAGIC = Buffer.from('ETP1');
const CHECK_TEXT = Buffer.from('event-terminal vault passphrase check v1');
/** scrypt cost: about 100 ms here, once per start */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** Where a vault keeps its passphrase salt and check: present means the vault is locked by one. */
export function passphraseFiles(dir: string): { salt: string; check: string } {
  return { salt: path.join(dir, 'vault.salt'), check: path.join(dir, 'vault.check') };
}

export function vaultHasPassphrase(dir: string): boolean {
  return existsSync(passphraseFiles(dir).check);
}

/**
 * A passphrase on top of another box (the key file, or an OS keychain that is only a fixed
 * password): entries are sealed with a key derived from the passphrase (scrypt), then by the inner
 * box. The first start with a passphrase writes a salt and a check; a later start with a different
 * passphrase is refused before any key is touched. Entries sealed before the passphrase existed
 * still open (Vault.reseal moves them under it).
 */
export class PassphraseBox implements SecretBox {
  readonly kind: string;
  readonly warning = null;
  private readonly key: Buffer;

  constructor(
    private readonly inner: SecretBox,
    dir: string,
    passphrase: string,
  ) {
    if (passphrase.length < 8) throw new Error('the vault passphrase must be at least 8 characters');
    this.kind = `passphrase (scrypt) + ${inner.kind}`;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const files = passphraseFiles(dir);
    const first = !existsSync(files.check);
    let salt: Buffer;
    if (existsSync(files.salt) && !first) salt = readFileSync(files.salt);
    else {
      salt = randomBytes(16);
      writeFileSync(files.salt, salt, { mode: 0o600 });
    }
    this.key = scryptSync(passphrase.normalize('NFC'), salt, 32, SCRYPT);
    if (first) {
      writeFileSync(files.check, gcmSeal(PASS_MAGIC, this.key, CHECK_TEXT), { mode: 0o600 });
    } else {
      let ok = false;
      try {
        ok = gcmOpen(PASS_MAGIC, this.key, readFileSync(files.check)).equals(CHECK_TEXT);
      } catch {
        ok = false;
      }
      if (!ok) throw new Error('wrong vault passphrase: no key was opened');
    }
  }

  seal(plain: Buffer): Buffer {
    return this.inner.seal(gcmSeal(PASS_MAGIC, this.key, plain));
  }

  open(sealed: Buffer): Buffer {
    const inner = this.inner.open(sealed);
    return inner.subarray(0, 4).equals(PASS_MAGIC) ? gcmOpen(PASS_MAGIC, this.key, inner) : inner;
  }

  needsReseal(sealed: Buffer): boolean {
    return !this.inner.open(sealed).subarray(0, 4).equals(PASS_MAGIC);
  }
}

/**
 * The box a start uses: the platform's box alone, or with the trader's passphrase on top. A vault
 * once locked by a passphrase never silently opens without one.
 */
export function vaultBox(inner: SecretBox, dir: string, passphrase: string | undefined): SecretBox {
  if (passphrase !== undefined) return new PassphraseBox(inner, dir, passphrase);
  if (vaultHasPassphrase(dir)) throw new Error('this vault is locked with a passphrase: start with --passphrase (asks for it) or --passphrase-file <file>');
  return inner;
}
