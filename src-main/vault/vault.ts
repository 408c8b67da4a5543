// Private keys by profile and key id, sealed at rest. Only main reads them back, to sign;
// nothing here returns a key to a caller that would pass it to the renderer.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    writeFileSync(f, this.box.seal(Buffer.from(privateKeyPem, 'utf8')), { mode: 0o600 });
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
