// Keys of a profile: import, generate through the exchange, rotate, check, delete (revoked on the
// exchange through the session of the profile they belong to) and use; private keys go straight
// to the vault and never leave main.
import type { DeleteKeyInput, GenerateKeyInput, ImportKeyInput, KeyRef, UseKeyInput, KeyStatus, KeyView } from '../../src-shared/ipc/contract';
import { loadPrivateKey } from '../api/signer';
import { ApiError } from '../api/errors';
import { type StoredProfile } from './profiles-store';
import { StateError } from '../base/errors';
import { checkKeyRoom } from './key-limits';
import { narrower, scopeText } from '../risk/account-view';
import { type Out } from './profiles-options';
import { ProfileSessions } from './profiles-session';

/**
 * How long a key's generation may take at the exchange. It is the exchange's own work, with a long
 * tail (the search for an RSA key's primes), and the private key it answers with is shown only
 * once: a call given up on too early would leave a key minted there that no one holds. The
 * client's 10 s suits everything else; the embedded exchange under load took longer than that.
 */
export const GENERATE_KEY_TIMEOUT_MS = 60_000;

export class ProfileKeys extends ProfileSessions {
  /**
   * Signing with a key that sees less of the account than the one in use (scoped to one
   * subaccount or subtrader, or whose scope cannot be read) is a loosening: asked as one.
   */
  protected async checkNarrowing(p: StoredProfile, fromKey: string, toKey: string, code: string | undefined): Promise<void> {
    const [from, to] = await Promise.all([this.scopeOf(p, fromKey), this.scopeOf(p, toKey)]);
    if (!narrower(from.scope, to.scope)) return;
    const change = `key of profile "${p.name}" ${fromKey} (${scopeText(from.scope)}) -> ${toKey} (${to.scope ? scopeText(to.scope) : `scope unknown: ${to.why ?? 'not readable'}`})`;
    const message = `Sign with ${change}? The new key sees less of the account: the gate and the kill switch then reach the rest of it only through an account-wide key of this profile, and refuse orders that add exposure while they cannot.`;
    const ok = this.opts.confirmLoosening ? await this.opts.confirmLoosening({ title: 'Switch to a narrower key?', message, allow: 'Switch', code }) : true;
    if (!ok) throw new StateError(`switching to a narrower key was not confirmed in the terminal (${change}); the profile keeps signing with ${fromKey}`);
  }



  importKey(input: Out<typeof ImportKeyInput>): Promise<KeyView> {
    return this.one(() => this.importKeyNow(input));
  }

  protected async importKeyNow(input: Out<typeof ImportKeyInput>): Promise<KeyView> {
    const p = this.profileOrThrow(input.profileId);
    checkKeyRoom(p, input.apiKeyId);
    loadPrivateKey(input.privateKeyPem); // RSA only, parses: a clear error otherwise, nothing stored
    this.vault.put(p.id, input.apiKeyId, input.privateKeyPem);
    const meta = { apiKeyId: input.apiKeyId, name: input.name ? input.name : input.apiKeyId.slice(0, 8), source: 'imported' as const, createdAt: Date.now() };
    const keys = [...p.keys.filter((k) => k.apiKeyId !== input.apiKeyId), meta];
    // the trader's own import brings a retired key back on purpose
    const retiredKeyIds = p.retiredKeyIds?.filter((id) => id !== input.apiKeyId);
    this.profiles.upsert({ ...p, keys, activeKeyId: p.activeKeyId ?? input.apiKeyId, ...(retiredKeyIds ? { retiredKeyIds } : {}) });
    if (this.profiles.activeProfileId === p.id) await this.restart();
    return { ...meta, active: (p.activeKeyId ?? input.apiKeyId) === input.apiKeyId };
  }

  /** Mints a key through the exchange with the active session's key; the private key goes straight to the vault. */
  generateKey(input: Out<typeof GenerateKeyInput>): Promise<KeyView> {
    // checked before the exchange mints one (rotation, which replaces a key, is not refused)
    return this.one(async () => {
      checkKeyRoom(this.profileOrThrow(input.profileId));
      return this.generateKeyNow(input);
    });
  }

  protected async generateKeyNow(input: Out<typeof GenerateKeyInput>): Promise<KeyView> {
    const p = this.profileOrThrow(input.profileId);
    const { session } = this.sessionOf(p, 'generate keys');
    const r = await session.client.generateApiKey(
      { body: { name: input.name, ...(input.scopes ? { scopes: input.scopes } : {}), ...(input.subaccount !== undefined ? { subaccount: input.subaccount } : {}) } },
      { timeoutMs: GENERATE_KEY_TIMEOUT_MS },
    );
    this.vault.put(p.id, r.api_key_id, r.private_key);
    const meta = { apiKeyId: r.api_key_id, name: input.name, source: 'generated' as const, createdAt: Date.now() };
    this.profiles.upsert({ ...this.profileOrThrow(p.id), keys: [...this.profileOrThrow(p.id).keys, meta] });
    return { ...meta, active: false };
  }

  /** `p` without key `apiKeyId`, which is remembered as retired (never adopted again). */
  protected withoutKey(p: StoredProfile, apiKeyId: string): StoredProfile {
    const retired = [...(p.retiredKeyIds ?? []).filter((id) => id !== apiKeyId), apiKeyId].slice(-10_000);
    return { ...p, keys: p.keys.filter((k) => k.apiKeyId !== apiKeyId), retiredKeyIds: retired };
  }

  /** Rotation: generate a replacement, switch to it, then delete the old key on the exchange. */
  rotateKey(ref: KeyRef): Promise<KeyView> {
    return this.one(async () => {
      const p = this.profileOrThrow(ref.profileId);
      const old = p.keys.find((k) => k.apiKeyId === ref.apiKeyId);
      if (!old) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
      const fresh = await this.generateKeyNow({ profileId: p.id, name: `${old.name} (rotated)` });
      await this.useKeyNow({ profileId: p.id, apiKeyId: fresh.apiKeyId });
      await this.sessionOf(this.profileOrThrow(p.id), 'rotate keys').session.client.deleteApiKey({ params: { api_key: old.apiKeyId } });
      this.vault.delete(p.id, old.apiKeyId);
      this.profiles.upsert(this.withoutKey(this.profileOrThrow(p.id), old.apiKeyId));
      return { ...fresh, active: true };
    });
  }

  /** Whether a stored key still signs at its profile's exchange, asked with the key itself. */
  async keyStatus(ref: KeyRef): Promise<KeyStatus> {
    const p = this.profileOrThrow(ref.profileId);
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    try {
      await this.clientOfKey(p, ref.apiKeyId).getApiKeys();
      return { apiKeyId: ref.apiKeyId, validAtExchange: true, detail: `${ref.apiKeyId} still signs at ${this.resolved(p).baseUrl}` };
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 404)) {
        return { apiKeyId: ref.apiKeyId, validAtExchange: false, detail: `the exchange no longer accepts ${ref.apiKeyId} (${e.status})` };
      }
      return { apiKeyId: ref.apiKeyId, validAtExchange: null, detail: `could not ask the exchange: ${(e as Error).message}` };
    }
  }

  deleteKey(input: DeleteKeyInput): Promise<{ revoked: boolean }> {
    return this.one(() => this.deleteKeyNow(input));
  }

  protected async deleteKeyNow(input: DeleteKeyInput): Promise<{ revoked: boolean }> {
    const p = this.profileOrThrow(input.profileId);
    const ref = { profileId: input.profileId, apiKeyId: input.apiKeyId };
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    if (p.activeKeyId === ref.apiKeyId) throw new StateError('switch to another key before deleting the active one');
    let revoked = false;
    if (input.revoke === undefined) {
      // forgetting a key that still trades leaves it usable by anyone holding a copy: ask first
      const status = await this.keyStatus(ref);
      if (status.validAtExchange === true) {
        throw new StateError(
          `${ref.apiKeyId} is still valid at the exchange: forgetting it here does not stop a copy of it from trading. Revoke it at the exchange as well, or forget it here only. Nothing changed`,
          'key_still_valid',
        );
      }
    } else if (input.revoke) {
      // the active session's key revokes it when it can; otherwise the key revokes itself
      const client = this.current?.profileId === p.id ? this.sessionOf(p, 'revoke keys').session.client : this.clientOfKey(p, ref.apiKeyId);
      try {
        await client.deleteApiKey({ params: { api_key: ref.apiKeyId } });
        revoked = true;
      } catch (e) {
        // already gone (404), or no longer accepted when it signs for itself (401): nothing left to revoke
        if (!(e instanceof ApiError && (e.status === 404 || e.status === 401))) throw e;
      }
    }
    this.vault.delete(p.id, ref.apiKeyId);
    this.profiles.upsert(this.withoutKey(this.profileOrThrow(p.id), ref.apiKeyId));
    return { revoked };
  }

  /** Revokes a key on the exchange with the active key (never the active key itself); drops it from the vault too. */
  revokeExchangeKey(apiKeyId: string): Promise<void> {
    return this.one(async () => {
      const { profileId, keyId } = this.need();
      const { session } = this.sessionOf(this.profileOrThrow(profileId), 'revoke keys');
      if (apiKeyId === keyId) throw new StateError('the active key cannot revoke itself: switch to another key first');
      await session.client.deleteApiKey({ params: { api_key: apiKeyId } });
      const p = this.profiles.get(profileId);
      if (p?.keys.some((k) => k.apiKeyId === apiKeyId)) {
        this.vault.delete(profileId, apiKeyId);
        this.profiles.upsert(this.withoutKey(p, apiKeyId));
      }
    });
  }

  useKey(ref: Out<typeof UseKeyInput>): Promise<void> {
    return this.one(() => this.useKeyNow(ref));
  }

  protected async useKeyNow(ref: Out<typeof UseKeyInput>): Promise<void> {
    const p = this.profileOrThrow(ref.profileId);
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    if (p.activeKeyId && p.activeKeyId !== ref.apiKeyId) await this.checkNarrowing(p, p.activeKeyId, ref.apiKeyId, ref.consoleCode);
    this.profiles.upsert({ ...p, activeKeyId: ref.apiKeyId });
    if (this.profiles.activeProfileId === p.id) await this.restart();
  }
}
