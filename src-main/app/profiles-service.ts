// Profiles and keys: where the terminal trades and with which key, and the one trading session
// of the active profile and key. Private keys enter through importKey/generateKey, live sealed
// in the vault, and never leave main. A key is bound to its profile's host: while a profile
// holds keys, its kind, URLs and header prefix cannot change (the Electron shell may ask the
// trader natively; the web host refuses), so a saved key can never sign for another host.
// Profile, key and session changes run one at a time (a queue: a call fired in the same tick as
// a switch waits for it), and a key is minted or revoked only through the session of the profile
// it belongs to, checked against that profile's host right before the exchange is asked.
import type { KeyView, ProfileInput, ProfileView, ChannelImpl } from '../../src-shared/ipc/contract';
import { type Profile } from '../api/profiles';
import type { ActiveSession, ConfirmInMain } from '../session/active-session';
import { MAX_PROFILES, type StoredProfile } from './profiles-store';
import { StateError } from '../base/errors';
import { BINDING, EMBEDDED_ID } from './profiles-options';
import { ProfileKeys } from './profiles-keys';

export { EMBEDDED_ID, OFFLINE, PROVISIONED_VAULT_ID, type EmbeddedExchangeInfo, type ProfilesServiceOptions } from './profiles-options';
// (declared on the session floor, which recorder, fix and strategies may import; app/ keeps importing them from here)
export type { ActiveSession, ConfirmInMain };

export class ProfilesService extends ProfileKeys implements ChannelImpl<'profiles'> {
  // ------------------------------------------------------------------ profiles

  profileView(p: StoredProfile): ProfileView {
    let resolved: Profile | undefined;
    try {
      resolved = this.resolved(p);
    } catch {
      resolved = undefined;
    }
    return {
      id: p.id,
      name: p.name,
      kind: p.kind,
      baseUrl: resolved?.baseUrl ?? p.baseUrl ?? '',
      wsUrl: resolved?.wsUrl ?? p.wsUrl ?? '',
      headerPrefix: resolved?.headerPrefix ?? p.headerPrefix ?? '',
      active: this.profiles.activeProfileId === p.id,
      keys: p.keys.map((k): KeyView => ({ ...k, active: p.activeKeyId === k.apiKeyId })),
    };
  }

  saveProfile(input: ProfileInput): Promise<ProfileView> {
    return this.one(() => this.saveProfileNow(input));
  }

  private async saveProfileNow(input: ProfileInput): Promise<ProfileView> {
    const id = input.id ?? (input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || `profile-${Date.now()}`);
    const existing = this.profiles.get(id);
    if (id === EMBEDDED_ID || existing?.kind === 'embedded') throw new StateError('the embedded profile is managed by the terminal');
    if (input.kind === 'embedded') throw new StateError('only the terminal creates the embedded profile');
    if (!existing && this.profiles.list().length >= MAX_PROFILES) throw new StateError(`at most ${MAX_PROFILES} profiles: delete one first; nothing saved`);
    const next: StoredProfile = {
      id,
      name: input.name,
      kind: input.kind,
      ...(input.kind === 'custom' && input.baseUrl ? { baseUrl: input.baseUrl } : {}),
      ...(input.kind === 'custom' && input.wsUrl ? { wsUrl: input.wsUrl } : {}),
      ...(input.kind === 'custom' && input.headerPrefix ? { headerPrefix: input.headerPrefix } : {}),
      keys: existing?.keys ?? [],
      activeKeyId: existing?.activeKeyId ?? null,
      ...(existing?.retiredKeyIds ? { retiredKeyIds: existing.retiredKeyIds } : {}),
      ...(existing?.fix ? { fix: existing.fix } : {}),
    };
    const resolved = this.resolved(next); // throws a ProfileError with every problem; nothing saved
    if (existing && existing.keys.length > 0) await this.checkRebind(existing, resolved);
    this.profiles.upsert(next);
    if (this.profiles.activeProfileId === id) await this.restart();
    return this.profileView(next);
  }

  /** A key-holding profile keeps where it signs for, unless the trader allows the change natively. */
  private async checkRebind(existing: StoredProfile, next: Profile): Promise<void> {
    const before = this.resolved(existing);
    const changed = BINDING.filter((k) => before[k] !== next[k]);
    if (changed.length === 0) return;
    const what = changed.map((k) => `${k} ${JSON.stringify(before[k])} -> ${JSON.stringify(next[k])}`).join(', ');
    const question = `Profile "${existing.name}" holds ${existing.keys.length} key(s). Changing ${what} would send those keys' signatures to a different place. Allow it?`;
    const allowed = this.opts.confirmInMain ? await this.opts.confirmInMain({ title: 'Move keys to another host?', message: question, allow: 'Allow' }) : false;
    if (!allowed) {
      throw new StateError(`profile "${existing.name}" holds keys, so its ${changed.join(', ')} cannot change (its keys sign only for ${before.baseUrl}); delete its keys first or make a new profile`);
    }
  }

  deleteProfile(id: string): Promise<void> {
    return this.one(async () => {
      if (id === EMBEDDED_ID) throw new StateError('the embedded profile cannot be deleted');
      if (!this.profiles.get(id)) throw new StateError(`no profile ${id}`);
      this.profiles.remove(id);
      this.vault.deleteProfile(id);
      await this.restart();
    });
  }

  activate(id: string): Promise<void> {
    return this.one(async () => {
      if (!this.profiles.get(id)) throw new StateError(`no profile ${id}`);
      this.profiles.setActive(id);
      await this.restart();
    });
  }

}
