// Encryption at rest for private keys. Electron uses the OS keychain (safeStorage, adapted in
// src-main/electron); plain Node (the web host) uses AES-256-GCM with a random key kept in a
// 0600 file beside the data. Either way, a private key on disk is never plaintext.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SecretBox {
  readonly kind: string;
  seal(plain: Buffer): Buffer;
  open(sealed: Buffer): Buffer;
}

const MAGIC = Buffer.from('ETV1');

export class FileKeyBox implements SecretBox {
  readonly kind = 'aes-256-gcm (key file)';
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
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain), c.final()]);
    return Buffer.concat([MAGIC, iv, c.getAuthTag(), body]);
  }

  open(sealed: Buffer): Buffer {
    if (!sealed.subarray(0, 4).equals(MAGIC)) throw new Error('not a sealed vault entry');
    const iv = sealed.subarray(4, 16);
    const tag = sealed.subarray(16, 32);
    const d = createDecipheriv('aes-256-gcm', this.key, iv);
    d.setAuthTag(tag);
    return Buffer.concat([d.update(sealed.subarray(32)), d.final()]);
  }
}
