// The terminal's main-side services: profiles, the key vault, settings and layouts, and the
// active trading session. Every TerminalApi method lands here after the door has parsed its
// arguments. Private keys enter through importKey/generateKey and never leave main.
import path from 'node:path';
import type { z } from 'zod';
import { endpoints, type EndpointId } from '../../src-shared/endpoints';
import {
  DEFAULT_SETTINGS,
  Settings,
  type AmendInput,
  type AppState,
  type BatchCancelInput,
  type CancelAllInput,
  type CancelInput,
  type DecreaseInput,
  type GenerateKeyInput,
  type ImportKeyInput,
  type KeyRef,
  type KeyView,
  type LayoutInput,
  type OrderAck,
  type OrderDraft,
  type ProfileInput,
  type ProfileView,
  type RestCallInput,
  type StreamName,
  type StreamPayloads,
  type ConnectionView,
} from '../../src-shared/ipc/contract';
import { loadPrivateKey } from '../api/signer';
import { resolveProfile, type Profile } from '../api/profiles';
import { Vault } from '../vault/vault';
import type { SecretBox } from '../vault/secret-box';
import { TradingSession } from '../session/session';
import { ProfilesStore, readJsonFile, writeJsonFile, type StoredProfile } from './profiles-store';
import { z as zod } from 'zod';

export class StateError extends Error {
  override name = 'StateError';
}

export interface EmbeddedExchangeInfo {
  baseUrl: string;
  wsUrl: string;
  accounts: { name: string; api_key_id: string; private_key_pem: string; fcm: boolean }[];
}

export interface ServicesOptions {
  dataDir: string;
  box: SecretBox;
  shell: 'electron' | 'web';
  embedded?: EmbeddedExchangeInfo;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (msg: string) => void;
  sessionOptions?: { frameMs?: number; streamOptions?: { silenceMs?: number; pingMs?: number } };
}

const EMBEDDED_ID = 'embedded';
const OFFLINE: ConnectionView = { phase: 'idle', detail: 'no active key', latencyMs: null, reconnects: 0, limits: null, exchange: null, userId: null, isFcmMember: false };

type Out<T extends z.ZodType> = z.output<T>;

export class TerminalServices {
  private readonly profiles: ProfilesStore;
  private readonly vault: Vault;
  private settings: Settings;
  private session: TradingSession | null = null;
  private sessionKey: string | null = null;

  constructor(private readonly opts: ServicesOptions) {
    this.profiles = new ProfilesStore(opts.dataDir);
    this.vault = new Vault(path.join(opts.dataDir, 'keys'), opts.box);
    this.settings = readJsonFile(path.join(opts.dataDir, 'settings.json'), Settings, () => DEFAULT_SETTINGS);
    if (opts.embedded) this.adoptEmbedded(opts.embedded);
  }

  /** The embedded exchange's provisioned accounts become keys of the `embedded` profile. */
  private adoptEmbedded(info: EmbeddedExchangeInfo): void {
    const existing = this.profiles.get(EMBEDDED_ID);
    const keys = existing?.keys ?? [];
    for (const a of info.accounts) {
      if (!keys.some((k) => k.apiKeyId === a.api_key_id)) {
        this.vault.put(EMBEDDED_ID, a.api_key_id, a.private_key_pem);
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
      activeKeyId: existing?.activeKeyId && keys.some((k) => k.apiKeyId === existing.activeKeyId) ? existing.activeKeyId : (trader?.api_key_id ?? null),
    });
    if (!this.profiles.activeProfileId) this.profiles.setActive(EMBEDDED_ID);
  }

  private resolved(p: StoredProfile): Profile {
    if (p.kind === 'demo' || p.kind === 'production') return resolveProfile({ kind: p.kind, name: p.name });
    return resolveProfile({ kind: p.kind, name: p.name, baseUrl: p.baseUrl, wsUrl: p.wsUrl, headerPrefix: p.headerPrefix ?? 'SVC-' });
  }

  /** Start (or restart) the session of the active profile and key. */
  async start(): Promise<void> {
    const id = this.profiles.activeProfileId;
    const p = id ? this.profiles.get(id) : undefined;
    const key = p?.activeKeyId ?? null;
    const sessionKey = p && key ? `${p.id}/${key}/${p.baseUrl ?? ''}` : null;
    if (sessionKey === this.sessionKey && this.session) return;
    await this.session?.stop();
    this.session = null;
    this.sessionKey = sessionKey;
    if (!p || !key) {
      this.opts.emit('connection', OFFLINE);
      return;
    }
    const pem = this.vault.get(p.id, key);
    if (!pem) {
      this.opts.emit('connection', { ...OFFLINE, phase: 'unauthorized', detail: `the key ${key} is not in the vault; import it again` });
      return;
    }
    const session = new TradingSession({
      profile: this.resolved(p),
      credentials: { keyId: key, privateKeyPem: pem },
      emit: this.opts.emit,
      ...(this.opts.log ? { log: this.opts.log } : {}),
      ...(this.opts.sessionOptions ?? {}),
    });
    this.session = session;
    try {
      await session.start();
    } catch (e) {
      this.opts.log?.(`session start failed: ${(e as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    await this.session?.stop();
    this.session = null;
  }

  private need(): TradingSession {
    if (!this.session) throw new StateError('no active session: choose a profile and a key in Account');
    return this.session;
  }

  // ------------------------------------------------------------------ state & profiles

  private profileView(p: StoredProfile): ProfileView {
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

  async getAppState(): Promise<AppState> {
    return {
      profiles: this.profiles.list().map((p) => this.profileView(p)),
      activeProfileId: this.profiles.activeProfileId,
      connection: this.session?.connectionView() ?? OFFLINE,
      settings: this.settings,
      shell: this.opts.shell,
    };
  }

  async saveProfile(input: ProfileInput): Promise<ProfileView> {
    const id = input.id ?? (input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || `profile-${Date.now()}`);
    if (id === EMBEDDED_ID && input.kind !== 'embedded') throw new StateError('the embedded profile is managed by the terminal');
    const existing = this.profiles.get(id);
    const next: StoredProfile = {
      id,
      name: input.name,
      kind: input.kind,
      ...(input.baseUrl ? { baseUrl: input.baseUrl } : existing?.baseUrl ? { baseUrl: existing.baseUrl } : {}),
      ...(input.wsUrl ? { wsUrl: input.wsUrl } : existing?.wsUrl ? { wsUrl: existing.wsUrl } : {}),
      ...(input.headerPrefix ? { headerPrefix: input.headerPrefix } : {}),
      keys: existing?.keys ?? [],
      activeKeyId: existing?.activeKeyId ?? null,
    };
    this.resolved(next); // throws a ProfileError with every problem; nothing saved
    this.profiles.upsert(next);
    return this.profileView(next);
  }

  async deleteProfile(id: string): Promise<void> {
    if (id === EMBEDDED_ID) throw new StateError('the embedded profile cannot be deleted');
    if (!this.profiles.get(id)) throw new StateError(`no profile ${id}`);
    this.profiles.remove(id);
    this.vault.deleteProfile(id);
    await this.start();
  }

  async activateProfile(id: string): Promise<AppState> {
    this.profiles.setActive(id);
    await this.start();
    return this.getAppState();
  }

  // ------------------------------------------------------------------ keys

  private profileOrThrow(id: string): StoredProfile {
    const p = this.profiles.get(id);
    if (!p) throw new StateError(`no profile ${id}`);
    return p;
  }

  async importKey(input: Out<typeof ImportKeyInput>): Promise<KeyView> {
    const p = this.profileOrThrow(input.profileId);
    loadPrivateKey(input.privateKeyPem); // RSA only, parses: a clear error otherwise, nothing stored
    this.vault.put(p.id, input.apiKeyId, input.privateKeyPem);
    const meta = { apiKeyId: input.apiKeyId, name: input.name ? input.name : input.apiKeyId.slice(0, 8), source: 'imported' as const, createdAt: Date.now() };
    const keys = [...p.keys.filter((k) => k.apiKeyId !== input.apiKeyId), meta];
    this.profiles.upsert({ ...p, keys, activeKeyId: p.activeKeyId ?? input.apiKeyId });
    if (this.profiles.activeProfileId === p.id) await this.start();
    return { ...meta, active: (p.activeKeyId ?? input.apiKeyId) === input.apiKeyId };
  }

  /** Mints a key through the exchange with the active session's key. */
  async generateKey(input: Out<typeof GenerateKeyInput>): Promise<KeyView> {
    const p = this.profileOrThrow(input.profileId);
    if (this.profiles.activeProfileId !== p.id) throw new StateError('generate keys on the active profile (managing keys needs a working key)');
    const s = this.need();
    const r = (await s.client.generateApiKey({
      body: { name: input.name, ...(input.scopes ? { scopes: input.scopes } : {}), ...(input.subaccount !== undefined ? { subaccount: input.subaccount } : {}) },
    })) as { api_key_id: string; private_key: string };
    this.vault.put(p.id, r.api_key_id, r.private_key);
    const meta = { apiKeyId: r.api_key_id, name: input.name, source: 'generated' as const, createdAt: Date.now() };
    this.profiles.upsert({ ...this.profileOrThrow(p.id), keys: [...this.profileOrThrow(p.id).keys, meta] });
    return { ...meta, active: false };
  }

  /** Rotation: generate a replacement, switch to it, then delete the old key on the exchange. */
  async rotateKey(ref: KeyRef): Promise<KeyView> {
    const p = this.profileOrThrow(ref.profileId);
    const old = p.keys.find((k) => k.apiKeyId === ref.apiKeyId);
    if (!old) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    const fresh = await this.generateKey({ profileId: p.id, name: `${old.name} (rotated)` });
    await this.useKey({ profileId: p.id, apiKeyId: fresh.apiKeyId });
    await this.need().client.deleteApiKey({ params: { api_key: old.apiKeyId } });
    this.vault.delete(p.id, old.apiKeyId);
    const cur = this.profileOrThrow(p.id);
    this.profiles.upsert({ ...cur, keys: cur.keys.filter((k) => k.apiKeyId !== old.apiKeyId) });
    return { ...fresh, active: true };
  }

  async deleteKey(ref: KeyRef): Promise<void> {
    const p = this.profileOrThrow(ref.profileId);
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    if (p.activeKeyId === ref.apiKeyId) throw new StateError('switch to another key before deleting the active one');
    if (this.profiles.activeProfileId === p.id && this.session) {
      await this.session.client.deleteApiKey({ params: { api_key: ref.apiKeyId } }).catch((e: unknown) => {
        // already gone on the exchange is fine; anything else is reported
        if ((e as { status?: number }).status !== 404) throw e;
      });
    }
    this.vault.delete(p.id, ref.apiKeyId);
    this.profiles.upsert({ ...p, keys: p.keys.filter((k) => k.apiKeyId !== ref.apiKeyId) });
  }

  async useKey(ref: KeyRef): Promise<void> {
    const p = this.profileOrThrow(ref.profileId);
    if (!p.keys.some((k) => k.apiKeyId === ref.apiKeyId)) throw new StateError(`no key ${ref.apiKeyId} in ${p.name}`);
    this.profiles.upsert({ ...p, activeKeyId: ref.apiKeyId });
    if (this.profiles.activeProfileId === p.id) await this.start();
  }

  // ------------------------------------------------------------------ REST passthrough

  async request(input: Out<typeof RestCallInput>): Promise<unknown> {
    if (!Object.prototype.hasOwnProperty.call(endpoints, input.id)) throw new StateError(`unknown endpoint ${input.id}`);
    const s = this.need();
    const args: Record<string, unknown> = {};
    if (input.params) args.params = input.params;
    if (input.query) args.query = input.query;
    if (input.body !== undefined) args.body = input.body;
    // The client validates every part with the row's schemas before anything is sent.
    return (s.client.call as (id: EndpointId, a: unknown) => Promise<unknown>)(input.id as EndpointId, args);
  }

  // ------------------------------------------------------------------ orders

  async placeOrder(draft: OrderDraft): Promise<OrderAck> {
    return this.need().placeOrder(draft);
  }

  async amendOrder(a: Out<typeof AmendInput>): Promise<unknown> {
    const { order_id, subaccount, ...body } = a;
    return this.need().client.amendOrder({ params: { order_id }, ...(subaccount !== undefined ? { query: { subaccount } } : {}), body });
  }

  async decreaseOrder(d: Out<typeof DecreaseInput>): Promise<unknown> {
    const { order_id, subaccount, ticker, ...rest } = d;
    return this.need().client.decreaseOrder({
      params: { order_id },
      ...(subaccount !== undefined ? { query: { subaccount } } : {}),
      body: { ...rest, market_ticker: ticker },
    } as never);
  }

  async cancelOrder(c: Out<typeof CancelInput>): Promise<{ reduced_by: string; ts_ms: number }> {
    const query: Record<string, unknown> = {};
    if (c.subaccount !== undefined) query.subaccount = c.subaccount;
    const r = (await this.need().client.cancelOrder({ params: { order_id: c.order_id }, query } as never)) as Record<string, unknown>;
    return { reduced_by: String(r.reduced_by ?? r.reduced_by_fp ?? '0'), ts_ms: Number(r.ts_ms ?? Date.now()) };
  }

  async batchCancel(b: Out<typeof BatchCancelInput>): Promise<unknown> {
    return this.need().client.batchCancelOrders({
      body: { orders: b.orders.map((o) => ({ order_id: o.order_id, ...(o.subaccount !== undefined ? { subaccount: o.subaccount } : {}), ...(o.ticker ? { market_ticker: o.ticker } : {}) })) },
    } as never);
  }

  /** With a ticker: batch-cancel my resting orders there; without: the exchange's cancel-all. */
  async cancelAll(c: Out<typeof CancelAllInput>): Promise<{ canceled: number }> {
    const s = this.need();
    if (!c.ticker) {
      const before = s.store.restingOrders().length;
      await s.client.cancelAllOrders(c.subaccount !== undefined ? ({ query: { subaccount: c.subaccount } } as never) : undefined);
      await s.reconcile();
      return { canceled: before };
    }
    const mine = s.store.restingOrders(c.ticker);
    if (mine.length === 0) return { canceled: 0 };
    let canceled = 0;
    for (let i = 0; i < mine.length; i += 100) {
      const chunk = mine.slice(i, i + 100);
      const r = (await s.client.batchCancelOrders({ body: { orders: chunk.map((o) => ({ order_id: String(o.order_id) })) } } as never)) as { orders?: { error?: unknown }[] };
      canceled += (r.orders ?? []).filter((x) => !x.error).length;
    }
    return { canceled };
  }

  async watchMarkets(tickers: string[]): Promise<void> {
    await this.need().watchMarkets(tickers);
  }

  // ------------------------------------------------------------------ settings & layouts

  async getSettings(): Promise<Settings> {
    return this.settings;
  }

  async saveSettings(s: Settings): Promise<void> {
    this.settings = s;
    writeJsonFile(path.join(this.opts.dataDir, 'settings.json'), s);
  }

  async getLayout(profileId: string): Promise<unknown> {
    return readJsonFile(path.join(this.opts.dataDir, 'layouts', `${profileId}.json`), zod.unknown(), () => null);
  }

  async saveLayout(l: Out<typeof LayoutInput>): Promise<void> {
    const text = JSON.stringify(l.layout ?? null);
    if (text.length > 1_000_000) throw new StateError('layout is too large to save');
    writeJsonFile(path.join(this.opts.dataDir, 'layouts', `${l.profileId}.json`), l.layout ?? null);
  }
}
