// Profiles and keys: where the terminal trades and with which key, and the one trading session
// of the active profile and key. Private keys enter through importKey/generateKey, live sealed
// in the vault, and never leave main. A key is bound to its profile's host: while a profile
// holds keys, its kind, URLs and header prefix cannot change (the Electron shell may ask the
// trader natively; the web host refuses), so a saved key can never sign for another host.
// Profile, key and session changes run one at a time (a queue: a call fired in the same tick as
// a switch waits for it), and a key is minted or revoked only through the session of the profile
// it belongs to, checked against that profile's host right before the exchange is asked.
import path from 'node:path';
import type { z } from 'zod';
import type { DeleteKeyInput, GenerateKeyInput, ImportKeyInput, KeyRef, UseKeyInput, KeyStatus, KeyView, ProfileInput, ProfileView, ChannelImpl, ConnectionView } from '../../src-shared/ipc/contract';
import { loadPrivateKey } from '../api/signer';
import { createApiClient, type ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { resolveProfile, type Profile } from '../api/profiles';
import { Vault } from '../vault/vault';
import type { SecretBox } from '../vault/secret-box';
import { TradingSession, type SessionOptions } from '../session/session';
import type { ActiveSession, ConfirmInMain } from '../session/active-session';
import type { SessionObserver } from '../session/observer';
import { MAX_PROFILES, ProfilesStore, type StoredProfile } from './profiles-store';
import { StateError } from '../base/errors';
import { checkKeyRoom } from './key-limits';
import { AccountView, narrower, scopeOfKey, scopeText, type AccountReader, type KeyScope } from '../risk/account-view';

export const EMBEDDED_ID = 'embedded';

export const OFFLINE: ConnectionView = {
  phase: 'idle',
  detail: 'no active key',
  latencyMs: null,
  reconnects: 0,
  limits: null,
  exchange: null,
  userId: null,
  isFcmMember: false,
  clockOffsetMs: null,
};

export interface EmbeddedExchangeInfo {
  baseUrl: string;
  wsUrl: string;
  /** private_key_pem is absent once the terminal holds it (credentials.json is stripped after import) */
  accounts: { name: string; api_key_id: string; private_key_pem?: string | undefined; fcm: boolean }[];
  /** its FIX gateway (credentials.json's fix_host and fix_port), when it has one */
  fix?: { host: string; port: number } | undefined;
}

/**
 * The vault's sealed copy of what the embedded exchange provisioned, kept apart from any profile:
 * credentials.json loses its plaintext keys once they are here, and a deleted embedded profile
 * can still be re-created from them. Never a profile id (profile ids are UUIDs or `embedded`).
 */
export const PROVISIONED_VAULT_ID = 'embedded-provisioned';

/**
 * A confirmation the page cannot give: a native dialog in main (Electron), or on the web host a
 * one-time code printed on its console that the page must send back (`code`, as the page gave it).
 * `change` is the exact change the answer allows (every new value, the profile it applies to): a
 * console code is bound to it, and the dialog shows it; the caller applies that change only, and
 * only if nothing changed while the trader was asked.
 */
export type { ConfirmInMain };

export interface ProfilesServiceOptions {
  dataDir: string;
  box: SecretBox;
  embedded?: EmbeddedExchangeInfo;
  emit: SessionOptions['emit'];
  log?: (msg: string) => void;
  sessionOptions?: Pick<SessionOptions, 'frameMs' | 'streamOptions'>;
  /**
   * Asks the trader to allow a change of where a key-holding profile sends its signatures. The
   * Electron shell shows a native dialog in main; without it (the web host) the change is refused.
   */
  confirmInMain?: ConfirmInMain;
  /**
   * Asked before the profile's key changes to one that sees less of the account (a key scoped to
   * one subaccount after an account-wide one): a loosening, asked as a loosened limit is (the
   * native dialog, or the web host's console code). Absent: allowed, as for the limits.
   */
  confirmLoosening?: ConfirmInMain;
  /** main's own consumers of the session's stream (alerts, local orders) */
  observer?: SessionObserver;
  /** called after every session change (null: no session) */
  onSession?: (active: ActiveSession | null) => Promise<void> | void;
  /** called while a session is still the active one, just before it ends (strategies bound to it stop and cancel there) */
  sessionEnding?: (old: ActiveSession) => Promise<void>;
}

// (declared on the session floor, which recorder, fix and strategies may import; app/ keeps importing it from here)
export type { ActiveSession };

type Out<T extends z.ZodType> = z.output<T>;

/** The fields that decide where a profile's signatures go. */
const BINDING = ['kind', 'baseUrl', 'wsUrl', 'headerPrefix'] as const;

export class ProfilesService implements ChannelImpl<'profiles'> {
  readonly profiles: ProfilesStore;
  private readonly vault: Vault;
  private current: ActiveSession | null = null;
  private currentKey: string | null = null;
  /** the tail of the queue of profile, key and session changes */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: ProfilesServiceOptions) {
    this.profiles = new ProfilesStore(opts.dataDir);
    this.vault = new Vault(path.join(opts.dataDir, 'keys'), opts.box);
    // keys stored before a passphrase was set move under it on the first start with one
    this.vault.reseal();
    if (opts.embedded) this.adoptEmbedded(opts.embedded);
  }

  /** true once the vault holds the embedded exchange's provisioned key (its plaintext copy may go) */
  holdsProvisionedKey(apiKeyId: string): boolean {
    return this.vault.has(PROVISIONED_VAULT_ID, apiKeyId);
  }

  /** The embedded exchange's provisioned accounts become keys of the `embedded` profile. */
  private adoptEmbedded(info: EmbeddedExchangeInfo): void {
    const existing = this.profiles.get(EMBEDDED_ID);
    const keys = existing?.keys ?? [];
    const retired = new Set(existing?.retiredKeyIds ?? []);
    for (const a of info.accounts) {
      if (a.private_key_pem !== undefined && !this.vault.has(PROVISIONED_VAULT_ID, a.api_key_id)) this.vault.put(PROVISIONED_VAULT_ID, a.api_key_id, a.private_key_pem);
      // a key the trader deleted or rotated away stays gone, whatever the exchange's file still lists
      if (retired.has(a.api_key_id)) continue;
      if (!keys.some((k) => k.apiKeyId === a.api_key_id)) {
        const pem = a.private_key_pem ?? this.vault.get(PROVISIONED_VAULT_ID, a.api_key_id);
        if (pem === undefined) {
          this.opts.log?.(`the embedded account ${a.name}'s key (${a.api_key_id}) is neither in credentials.json nor in the vault: import it again to trade as ${a.name}`);
          continue;
        }
        this.vault.put(EMBEDDED_ID, a.api_key_id, pem);
        keys.push({ apiKeyId: a.api_key_id, name: a.name, source: 'provisioned', createdAt: Date.now() });
      }
    }
    const trader = info.accounts.find((a) => a.name === 'trader') ?? info.accounts[0];
    this.profiles.upsert({
      id: EMBEDDED_ID,
      name: 'Embedded exchange',
      kind: 'embedded',
      baseUrl: info.baseUrl,
      wsUrl: info.wsUrl,
      headerPrefix: 'SVC-',
      keys,
      activeKeyId:
        existing?.activeKeyId && keys.some((k) => k.apiKeyId === existing.activeKeyId)
          ? existing.activeKeyId
          : trader && !retired.has(trader.api_key_id)
            ? trader.api_key_id
            : (keys[0]?.apiKeyId ?? null),
      ...(existing?.retiredKeyIds ? { retiredKeyIds: existing.retiredKeyIds } : {}),
      ...(existing?.fix ? { fix: existing.fix } : {}),
    });
    if (!this.profiles.activeProfileId) this.profiles.setActive(EMBEDDED_ID);
  }

  resolved(p: StoredProfile): Profile {
    if (p.kind === 'demo' || p.kind === 'production') return resolveProfile({ kind: p.kind, name: p.name });
    return resolveProfile({ kind: p.kind, name: p.name, baseUrl: p.baseUrl, wsUrl: p.wsUrl, headerPrefix: p.headerPrefix ?? 'SVC-' });
  }

  active(): ActiveSession | null {
    return this.current;
  }

  /** The active session, or a clear refusal. */
  need(): ActiveSession {
    if (!this.current) throw new StateError('no active session: choose a profile and a key in Account');
    return this.current;
  }

  /**
   * Runs one profile, key or session change after every change queued before it, so none sees
   * another half done (a profile marked active whose old session is still stopping).
   */
  private one<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(change, change);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Start (or restart) the session of the active profile and key. */
  start(): Promise<void> {
    return this.one(() => this.restart());
  }

  private async restart(): Promise<void> {
    const id = this.profiles.activeProfileId;
    const p = id ? this.profiles.get(id) : undefined;
    const key = p?.activeKeyId ?? null;
    const sessionKey = p && key ? `${p.id}/${key}/${p.baseUrl ?? ''}/${p.wsUrl ?? ''}/${p.headerPrefix ?? ''}/${p.kind}` : null;
    if (sessionKey === this.currentKey && this.current) return;
    if (this.current) await this.ending(this.current);
    // the old session is no one's from here on, even while it stops
    const old = this.current;
    this.current = null;
    this.currentKey = null;
    old?.account?.stop();
    await old?.session.stop();
    this.currentKey = sessionKey;
    if (!p || !key) {
      this.opts.emit('connection', OFFLINE);
      await this.opts.onSession?.(null);
      return;
    }
    const pem = this.vault.get(p.id, key);
    if (!pem) {
      this.opts.emit('connection', { ...OFFLINE, phase: 'unauthorized', detail: `the key ${key} is not in the vault; import it again` });
      await this.opts.onSession?.(null);
      return;
    }
    const profile = this.resolved(p);
    const session = new TradingSession({
      profile,
      credentials: { keyId: key, privateKeyPem: pem },
      emit: this.opts.emit,
      ...(this.opts.log ? { log: this.opts.log } : {}),
      ...(this.opts.sessionOptions ?? {}),
      ...(this.opts.observer ? { observer: this.opts.observer } : {}),
    });
    const account = new AccountView({ keyId: key, resolve: () => this.accountOf(p.id, key, session), log: (m) => this.opts.log?.(m) });
    const current: ActiveSession = { session, profileId: p.id, keyId: key, profile, account };
    this.current = current;
    try {
      await session.start();
    } catch (e) {
      this.opts.log?.(`session start failed: ${(e as Error).message}`);
    }
    // the gate sees the account before the session is handed out (a scoped key: its other subaccounts too)
    await account.start();
    if (this.current !== current) account.stop();
    await this.opts.onSession?.(this.current);
  }

  private async ending(old: ActiveSession): Promise<void> {
    await this.opts.sessionEnding?.(old).catch((e: unknown) => this.opts.log?.(`before the session ended: ${(e as Error).message}`));
  }

  stop(): Promise<void> {
    return this.one(async () => {
      if (this.current) await this.ending(this.current);
      const old = this.current;
      this.current = null;
      this.currentKey = null;
      old?.account?.stop();
      await old?.session.stop();
    });
  }

  /**
   * The scope of the session's key and, when it sees only part of the account, an account-wide
   * key of the same profile and the same user to read (and sweep) the rest with.
   */
  private async accountOf(profileId: string, keyId: string, session: TradingSession): Promise<{ scope: KeyScope; reader: AccountReader | null }> {
    const scope = await scopeOfKey(session.client, keyId);
    if (scope.kind === 'account') return { scope, reader: null };
    const p = this.profiles.get(profileId);
    if (!p) return { scope, reader: null };
    const userId = session.userId ?? ((await session.client.getCommunicationsId()) as { user_id?: string }).user_id ?? null;
    for (const k of p.keys) {
      if (k.apiKeyId === keyId) continue;
      try {
        // the same user's rate buckets: paced by the session's limiter, with the session's own requests
        const client = this.clientOfKey(p, k.apiKeyId, session.limiter);
        if ((await scopeOfKey(client, k.apiKeyId)).kind !== 'account') continue;
        const theirs = ((await client.getCommunicationsId()) as { user_id?: string }).user_id ?? null;
        if (userId !== null && theirs === userId) return { scope, reader: { keyId: k.apiKeyId, client } };
      } catch {
        /* not usable to read the account: the next one */
      }
    }
    return { scope, reader: null };
  }

  /** What key `apiKeyId` of `p` sees of its account, asked with the key itself; null when it cannot be told. */
  private async scopeOf(p: StoredProfile, apiKeyId: string): Promise<{ scope: KeyScope | null; why: string | null }> {
    const cur = this.current;
    if (cur && cur.profileId === p.id && cur.keyId === apiKeyId && cur.account?.scope) return { scope: cur.account.scope, why: null };
    try {
      return { scope: await scopeOfKey(this.clientOfKey(p, apiKeyId), apiKeyId), why: null };
    } catch (e) {
      return { scope: null, why: (e as Error).message };
    }
  }

  /**
   * The running session of profile `p`, signing where `p` points now, or a refusal: a key
   * operation named for one profile never rides another profile's session (or a session started
   * before `p` was re-pointed).
   */
  private sessionOf(p: StoredProfile, doing: string): ActiveSession {
    const cur = this.current;
    if (!cur || this.profiles.activeProfileId !== p.id || cur.profileId !== p.id) {
      throw new StateError(`${doing} on the active profile with a live session (managing keys needs a working key of that profile)`);
    }
    const now = this.resolved(p);
    if (BINDING.some((k) => cur.profile[k] !== now[k]) || cur.keyId !== p.activeKeyId) {
      throw new StateError(`${doing}: the session of ${p.name} is restarting; try again once it is live`);
    }
    return cur;
  }

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

  /**
   * Signing with a key that sees less of the account than the one in use (scoped to one
   * subaccount or subtrader, or whose scope cannot be read) is a loosening: asked as one.
   */
  private async checkNarrowing(p: StoredProfile, fromKey: string, toKey: string, code: string | undefined): Promise<void> {
    const [from, to] = await Promise.all([this.scopeOf(p, fromKey), this.scopeOf(p, toKey)]);
    if (!narrower(from.scope, to.scope)) return;
    const change = `key of profile "${p.name}" ${fromKey} (${scopeText(from.scope)}) -> ${toKey} (${to.scope ? scopeText(to.scope) : `scope unknown: ${to.why ?? 'not readable'}`})`;
    const message = `Sign with ${change}? The new key sees less of the account: the gate and the kill switch then reach the rest of it only through an account-wide key of this profile, and refuse orders that add exposure while they cannot.`;
    const ok = this.opts.confirmLoosening ? await this.opts.confirmLoosening({ title: 'Switch to a narrower key?', message, allow: 'Switch', code }) : true;
    if (!ok) throw new StateError(`switching to a narrower key was not confirmed in the terminal (${change}); the profile keeps signing with ${fromKey}`);
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

  // ------------------------------------------------------------------ keys

  private profileOrThrow(id: string): StoredProfile {
    const p = this.profiles.get(id);
    if (!p) throw new StateError(`no profile ${id}`);
    return p;
  }

  importKey(input: Out<typeof ImportKeyInput>): Promise<KeyView> {
    return this.one(() => this.importKeyNow(input));
  }

  private async importKeyNow(input: Out<typeof ImportKeyInput>): Promise<KeyView> {
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

  private async generateKeyNow(input: Out<typeof GenerateKeyInput>): Promise<KeyView> {
    const p = this.profileOrThrow(input.profileId);
    const { session } = this.sessionOf(p, 'generate keys');
    const r = await session.client.generateApiKey({
      body: { name: input.name, ...(input.scopes ? { scopes: input.scopes } : {}), ...(input.subaccount !== undefined ? { subaccount: input.subaccount } : {}) },
    });
    this.vault.put(p.id, r.api_key_id, r.private_key);
    const meta = { apiKeyId: r.api_key_id, name: input.name, source: 'generated' as const, createdAt: Date.now() };
    this.profiles.upsert({ ...this.profileOrThrow(p.id), keys: [...this.profileOrThrow(p.id).keys, meta] });
    return { ...meta, active: false };
  }

  /** `p` without key `apiKeyId`, which is remembered as retired (never adopted again). */
  private withoutKey(p: StoredProfile, apiKeyId: string): StoredProfile {
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

  /**
   * A client signed by one stored key, for its own profile's exchange only (the profile's host is
   * where the key belongs: see the class comment). Used to ask whether the key still signs and to
   * let it revoke itself.
   */
  private clientOfKey(p: StoredProfile, apiKeyId: string, limiter?: TradingSession['limiter']): ApiClient {
    const pem = this.vault.get(p.id, apiKeyId);
    if (pem === undefined) throw new StateError(`the key ${apiKeyId} is not in the vault`);
    return createApiClient({ profile: this.resolved(p), credentials: { keyId: apiKeyId, privateKeyPem: pem }, ...(limiter ? { limiter } : {}) });
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

  private async deleteKeyNow(input: DeleteKeyInput): Promise<{ revoked: boolean }> {
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

  private async useKeyNow(ref: Out<typeof UseKeyInput>): Promise<void> {
    const p = this.profileOrThrow(ref.profileId);
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    if (p.activeKeyId && p.activeKeyId !== ref.apiKeyId) await this.checkNarrowing(p, p.activeKeyId, ref.apiKeyId, ref.consoleCode);
    this.profiles.upsert({ ...p, activeKeyId: ref.apiKeyId });
    if (this.profiles.activeProfileId === p.id) await this.restart();
  }
}
