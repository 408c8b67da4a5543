// Private keys by profile and key id, sealed at rest. Only main reads them back, to sign;
// nothing here returns a key to a caller that would pass it to the renderer.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SecretBox } from './secret-box';

const SAFE = /^[A-Za-z0-9._-]{1,200}$/;

export class Vault {
  constructor(
    private readonly dir: string,
    private readonly box: SecretBox,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private file(profileId: string, apiKeyId: string): string {
    if (!SAFE.test(profileId) || !SAFE.test(apiKeyId)) throw new Error('profile and key ids must be plain identifiers');
    return path.join(this.dir, profileId, `${apiKeyId}.key`);
  }

  put(profileId: string, apiKeyId: string, privateKeyPem: string): void {
    const f = this.file(profileId, apiKeyId);
    mkdirSync(path.dirname(f), { recursive: true, mode: 0o700 });
    writeSealed(f, this.box.seal(Buffer.from(privateKeyPem, 'utf8')));
  }

  /**
   * Seals again, the way the box seals now, every entry it reports as sealed a weaker way (keys
   * stored before a passphrase was set). Each file is replaced atomically; returns how many moved.
   */
  reseal(): number {
    if (!this.box.needsReseal) return 0;
    let moved = 0;
    for (const profile of readdirSync(this.dir, { withFileTypes: true })) {
      if (!profile.isDirectory()) continue;
      for (const name of readdirSync(path.join(this.dir, profile.name))) {
        if (!name.endsWith('.key')) continue;
        const f = path.join(this.dir, profile.name, name);
        const sealed = readFileSync(f);
        if (!this.box.needsReseal(sealed)) continue;
        writeSealed(f, this.box.seal(this.box.open(sealed)));
        moved += 1;
      }
    }
    return moved;
  }

  /** For signing in main only. */
  get(profileId: string, apiKeyId: string): string | undefined {
    const f = this.file(profileId, apiKeyId);
    if (!existsSync(f)) return undefined;
    return this.box.open(readFileSync(f)).toString('utf8');
  }

  has(profileId: string, apiKeyId: string): boolean {
    return existsSync(this.file(profileId, apiKeyId));
  }

  delete(profileId: string, apiKeyId: string): void {
    rmSync(this.file(profileId, apiKeyId), { force: true });
  }

  deleteProfile(profileId: string): void {
    if (!SAFE.test(profileId)) return;
    rmSync(path.join(this.dir, profileId), { recursive: true, force: true });
  }
}

/** write-then-rename: a crash mid-write never leaves a key half sealed */
function writeSealed(file: string, sealed: Buffer): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, sealed, { mode: 0o600 });
  renameSync(tmp, file);
}
