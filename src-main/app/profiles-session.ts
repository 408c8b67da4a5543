// The profiles service's bottom layer: the store and the vault, the embedded exchange's keys
// adopted as the `embedded` profile, the queue every profile, key and session change runs in,
// and the lifecycle of the one trading session of the active profile and key (start, restart,
// stop, the account view its gate reads). Keys build on it in profiles-keys.ts, profiles in
// profiles-service.ts.
import path from 'node:path';
import { createApiClient, type ApiClient } from '../api/client';
import { resolveProfile, type Profile } from '../api/profiles';
import { Vault } from '../vault/vault';
import { TradingSession } from '../session/session';
import type { ActiveSession } from '../session/active-session';
import { ProfilesStore, type StoredProfile } from './profiles-store';
import { StateError } from '../base/errors';
import { AccountView, scopeOfKey, type AccountReader, type KeyScope } from '../risk/account-view';
import { BINDING, EMBEDDED_ID, OFFLINE, PROVISIONED_VAULT_ID, type EmbeddedExchangeInfo, type ProfilesServiceOptions } from './profiles-options';

export class ProfileSessions {
  readonly profiles: ProfilesStore;
  protected readonly vault: Vault;
  protected current: ActiveSession | null = null;
  protected currentKey: string | null = null;
  /** the tail of the queue of profile, key and session changes */
  protected queue: Promise<unknown> = Promise.resolve();

  constructor(protected readonly opts: ProfilesServiceOptions) {
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
  protected adoptEmbedded(info: EmbeddedExchangeInfo): void {
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
  protected one<T>(change: () => Promise<T>): Promise<T> {
    const run = this.queue.then(change, change);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Start (or restart) the session of the active profile and key. */
  start(): Promise<void> {
    return this.one(() => this.restart());
  }

  protected async restart(): Promise<void> {
    const id = this.profiles.activeProfileId;
    const p = id ? this.profiles.get(id) : undefined;
    const key = p?.activeKeyId ?? null;
    const sessionKey = p && key ? `${p.id}/${key}/${p.baseUrl ?? ''}/${p.wsUrl ?? ''}/${p.headerPrefix ?? ''}/${p.kind}` : null;
    if (sessionKey === this.currentKey && this.current) return;
    await this.endCurrent();
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

  protected async ending(old: ActiveSession): Promise<void> {
    await this.opts.sessionEnding?.(old).catch((e: unknown) => this.opts.log?.(`before the session ended: ${(e as Error).message}`));
  }

  /** Ends the current session (its strategies first): it is no one's from here on, even while it stops. */
  private async endCurrent(): Promise<void> {
    if (this.current) await this.ending(this.current);
    const old = this.current;
    this.current = null;
    this.currentKey = null;
    old?.account?.stop();
    await old?.session.stop();
  }

  stop(): Promise<void> {
    return this.one(() => this.endCurrent());
  }

  /**
   * The scope of the session's key and, when it sees only part of the account, an account-wide
   * key of the same profile and the same user to read (and sweep) the rest with.
   */
  protected async accountOf(profileId: string, keyId: string, session: TradingSession): Promise<{ scope: KeyScope; reader: AccountReader | null }> {
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
  protected async scopeOf(p: StoredProfile, apiKeyId: string): Promise<{ scope: KeyScope | null; why: string | null }> {
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
  protected sessionOf(p: StoredProfile, doing: string): ActiveSession {
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

  protected profileOrThrow(id: string): StoredProfile {
    const p = this.profiles.get(id);
    if (!p) throw new StateError(`no profile ${id}`);
    return p;
  }

  /**
   * A client signed by one stored key, for its own profile's exchange only (the profile's host is
   * where the key belongs: see the class comment). Used to ask whether the key still signs and to
   * let it revoke itself.
   */
  protected clientOfKey(p: StoredProfile, apiKeyId: string, limiter?: TradingSession['limiter']): ApiClient {
    const pem = this.vault.get(p.id, apiKeyId);
    if (pem === undefined) throw new StateError(`the key ${apiKeyId} is not in the vault`);
    return createApiClient({ profile: this.resolved(p), credentials: { keyId: apiKeyId, privateKeyPem: pem }, ...(limiter ? { limiter } : {}) });
  }

}
