// FIX for the active profile: its settings (kept on the profile in profiles.json), the order
// entry session the trading service routes through after the risk gate, and the drop copy it
// compares with the private store. Sessions follow the trading session: a new session (profile,
// key or endpoint change) stops the old FIX sessions and starts the ones the profile asks for.
// Where each session connects:
// - embedded: credentials.json's fix_host/fix_port (plain TCP on 127.0.0.1; one port, the
//   TargetCompID picks the session);
// - production: fix.elections.kalshi.com, TLS, 8228 (KalshiNR) and 8229 (KalshiDC)
//   (docs.kalshi.com/fix/connectivity);
// - custom on this computer: the REST host, the port the settings give;
// - demo and other custom hosts: not offered (the pages name no demo FIX host).
// A key is bound to where its profile signs, FIX included: the FIX host of a key-holding profile
// is its REST host (locked in profiles-service), and its FIX port changes only when the trader
// confirms that very change (`confirm`, asked like a loosening: a native dialog, or the web
// host's console code bound to the change). Each initiator signs its Logon only when it is
// connected to the destination the profile's key is bound to at that moment (`boundEndpoint`).
import type { FixSettings, FixSettingsInput, FixView } from '../../src-shared/ipc/fix';
import type { ChannelImpl, StreamName, StreamPayloads } from '../../src-shared/ipc/contract';
import { isLoopbackHost } from '../api/profiles';
import type { ProfileKind } from '../../src-shared/ipc/contract';
import type { ActiveSession, ConfirmInMain } from '../session/active-session';
import { StateError } from '../base/errors';
import { DropCopy } from './drop-copy';
import type { FixEndpoint } from './initiator';
import { FixOrderEntry } from './order-entry';

export const PRODUCTION_FIX = { host: 'fix.elections.kalshi.com', orderEntryPort: 8228, dropCopyPort: 8229 } as const;

/** A profile as FIX reads and saves it (app/profiles-store's StoredProfile has these fields and more). */
export interface FixProfile {
  id: string;
  name: string;
  keys: readonly { apiKeyId: string }[];
  kind: ProfileKind;
  baseUrl?: string | undefined;
  fix?: FixSettings | undefined;
}

/** What FIX needs of app/'s ProfilesService (a lower floor never imports app/: app passes its own). */
export interface FixProfiles {
  readonly profiles: { readonly activeProfileId: string | null; get(id: string): FixProfile | undefined; upsert(p: FixProfile): void };
  active(): ActiveSession | null;
}

export interface FixServiceOptions {
  profiles: FixProfiles;
  /** the embedded exchange's gateway, from its credentials.json */
  embeddedFix?: { host: string; port: number } | undefined;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (m: string) => void;
  /**
   * Asks the trader to allow moving a key-holding profile's FIX destination (the same path as a
   * loosening of the limits); absent: such a move is refused.
   */
  confirm?: ConfirmInMain;
}

interface Running {
  active: ActiveSession;
  orderEntry: FixOrderEntry | null;
  dropCopy: DropCopy | null;
  endpoints: { orderEntry: FixEndpoint | null; dropCopy: FixEndpoint | null };
  /** stops the nudges from the session's REST answers (onExchangeAnswer) */
  offAnswer?: () => void;
}

const show = (e: FixEndpoint | null) => (e ? `${e.host}:${e.port}${e.tls ? ' (TLS)' : ''}` : '');

export class FixService implements ChannelImpl<'fix'> {
  private running: Running | null = null;
  /** the tail of session changes: one at a time */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: FixServiceOptions) {}

  /** Where the profile's sessions connect, or why FIX is not offered there. */
  endpoints(active: Pick<ActiveSession, 'profile'>, s: FixSettings): { orderEntry: FixEndpoint; dropCopy: FixEndpoint } | string {
    const p = active.profile;
    if (p.kind === 'embedded') {
      const e = this.opts.embeddedFix;
      if (!e) return 'the embedded exchange names no FIX port in its credentials.json';
      // the embedded exchange's gateway is the one its credentials.json names, never another port
      return { orderEntry: { host: e.host, port: e.port }, dropCopy: { host: e.host, port: e.port } };
    }
    if (p.kind === 'production') {
      return { orderEntry: { host: PRODUCTION_FIX.host, port: PRODUCTION_FIX.orderEntryPort, tls: true }, dropCopy: { host: PRODUCTION_FIX.host, port: PRODUCTION_FIX.dropCopyPort, tls: true } };
    }
    const host = new URL(p.baseUrl).hostname.replace(/^\[|\]$/g, '');
    if (p.kind === 'custom' && isLoopbackHost(host)) {
      if (s.port === undefined) return 'a FIX port is needed for a profile on this computer';
      return { orderEntry: { host, port: s.port }, dropCopy: { host, port: s.port } };
    }
    return `FIX is offered on the embedded exchange, production (${PRODUCTION_FIX.host}) and profiles on this computer; the service's pages name no FIX host for ${p.kind === 'demo' ? 'demo' : host}`;
  }

  private settingsOf(profileId: string): FixSettings | null {
    return this.opts.profiles.profiles.get(profileId)?.fix ?? null;
  }

  /** The order entry session to send through, when the active profile routes over FIX (up or not). */
  route(active: ActiveSession): FixOrderEntry | null {
    const r = this.running;
    return r && r.active === active ? r.orderEntry : null;
  }

  onSession(active: ActiveSession | null): Promise<void> {
    const run = this.queue.then(() => this.restart(active));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async restart(active: ActiveSession | null): Promise<void> {
    const old = this.running;
    this.running = null;
    old?.offAnswer?.();
    await Promise.all([old?.orderEntry?.stop(), old?.dropCopy?.stop()]);
    const s = active ? this.settingsOf(active.profileId) : null;
    if (active && s && (s.orderEntry || s.dropCopy)) {
      const ends = this.endpoints(active, s);
      const signer = active.session.client.signer;
      if (typeof ends === 'string') this.opts.log?.(`[fix] not started: ${ends}`);
      else if (!signer) this.opts.log?.('[fix] not started: the session has no key to sign the Logon');
      else {
        const now = () => active.session.client.clock.now();
        const store = active.session.store;
        const running: Running = { active, orderEntry: null, dropCopy: null, endpoints: { orderEntry: s.orderEntry ? ends.orderEntry : null, dropCopy: s.dropCopy ? ends.dropCopy : null } };
        if (s.orderEntry) {
          running.orderEntry = new FixOrderEntry({
            endpoint: ends.orderEntry,
            bound: () => this.boundEndpoint(active, 'orderEntry'),
            signer,
            now,
            store,
            changed: () => active.session.storeChanged(),
            onPhase: (phase, detail) => {
              this.opts.log?.(`[fix] order entry ${phase}: ${detail}`);
              this.push();
            },
          });
        }
        if (s.dropCopy) {
          running.dropCopy = new DropCopy({ endpoint: ends.dropCopy, bound: () => this.boundEndpoint(active, 'dropCopy'), signer, now, storeOrders: () => store.orders, onChange: () => this.push() });
        }
        // a REST answer says the exchange is up: a session waiting to reconnect tries now
        running.offAnswer = active.session.onExchangeAnswer(() => {
          running.orderEntry?.session.nudge();
          running.dropCopy?.session.nudge();
        });
        this.running = running;
        running.orderEntry?.start();
        running.dropCopy?.start();
      }
    }
    this.push();
  }

  /**
   * Where `active`'s key may sign a Logon now, read from the stored profile (its confirmed FIX
   * settings) at the moment of signing, or why nowhere: the session is no longer the profile's
   * live one, or the profile no longer routes that session.
   */
  boundEndpoint(active: ActiveSession, which: 'orderEntry' | 'dropCopy'): FixEndpoint | string {
    if (this.opts.profiles.active() !== active) return 'the trading session that started this FIX session has ended';
    const s = this.settingsOf(active.profileId);
    if (!s || !s[which]) return `profile ${active.profileId} no longer asks for this FIX session`;
    const ends = this.endpoints(active, s);
    return typeof ends === 'string' ? ends : ends[which];
  }

  stop(): Promise<void> {
    return this.onSession(null);
  }

  view(): FixView {
    const profileId = this.opts.profiles.profiles.activeProfileId;
    const active = this.opts.profiles.active();
    const settings = profileId ? this.settingsOf(profileId) : null;
    const ends = active && active.profileId === profileId ? this.endpoints(active, settings ?? { orderEntry: false, dropCopy: false }) : null;
    const r = this.running;
    const oe = r?.orderEntry;
    const dc = r?.dropCopy;
    return {
      profileId,
      settings,
      unavailable: !profileId ? 'no active profile' : !active ? 'no session: choose a profile and a key in Account' : typeof ends === 'string' ? ends : null,
      orderEntry: oe ? { phase: oe.session.phase, detail: oe.session.detail, endpoint: show(r.endpoints.orderEntry) } : null,
      dropCopy: dc ? { ...dc.view(), endpoint: show(r.endpoints.dropCopy) } : null,
    };
  }

  private push(): void {
    this.opts.emit('fix', this.view());
  }

  async getFix(): Promise<FixView> {
    return this.view();
  }

  /** Saves a profile's FIX settings; the active profile's sessions restart with them. */
  async saveFixSettings(input: FixSettingsInput): Promise<FixView> {
    const store = this.opts.profiles.profiles;
    const p = store.get(input.profileId);
    if (!p) throw new StateError(`no profile ${input.profileId}; nothing saved`);
    const active = this.opts.profiles.active();
    if (active && active.profileId === p.id && (input.settings.orderEntry || input.settings.dropCopy)) {
      const ends = this.endpoints(active, input.settings);
      if (typeof ends === 'string') throw new StateError(`${ends}; nothing saved`);
    }
    // a signed Logon goes only to the key's own service: the embedded exchange's port is its
    // credentials.json's, so only a loopback custom profile (whose host the trader set) names one
    if (input.settings.port !== undefined && !(p.kind === 'custom' && p.baseUrl && isLoopbackHost(new URL(p.baseUrl).hostname))) {
      throw new StateError('a FIX port can be set only for a custom profile on this computer (the embedded exchange uses the port in its credentials.json); nothing saved');
    }
    await this.checkMove(p, input);
    store.upsert({ ...p, fix: input.settings });
    // the session as it is now (a confirmation may have been asked meanwhile)
    const now = this.opts.profiles.active();
    if (now && now.profileId === p.id) await this.onSession(now);
    return this.view();
  }

  /**
   * A key-holding profile's FIX destination is bound like its REST base: moving its port asks the
   * trader (bound to this very move), and goes ahead only if the profile is as it was when asked.
   */
  private async checkMove(p: FixProfile, input: FixSettingsInput): Promise<void> {
    const from = p.fix?.port;
    const to = input.settings.port;
    if (p.keys.length === 0 || to === undefined || to === from) return;
    const host = new URL(p.baseUrl ?? '').hostname.replace(/^\[|\]$/g, '');
    const where = (port: number | undefined) => (port === undefined ? 'no FIX port' : `${host}:${port}`);
    const change = `FIX destination of profile ${p.id}: ${where(from)} -> ${where(to)} (the keys ${p.keys.map((k) => k.apiKeyId).join(', ')} will sign FIX Logons for ${where(to)})`;
    const question = `Profile "${p.name}" holds ${p.keys.length} key(s). Moving its FIX port from ${where(from)} to ${where(to)} sends those keys' signed Logons there; whoever listens there can trade as you. Allow it?`;
    const allowed = this.opts.confirm ? await this.opts.confirm({ title: 'Move where the keys sign FIX Logons?', message: question, allow: 'Allow', code: input.consoleCode, change }) : false;
    if (!allowed) {
      throw new StateError(`profile "${p.name}" holds keys, so its FIX port cannot move from ${where(from)} to ${where(to)} unless the trader confirms it in the terminal; nothing saved`);
    }
    const now = this.opts.profiles.profiles.get(p.id);
    if (!now || JSON.stringify(now) !== JSON.stringify(p)) {
      throw new StateError(`profile "${p.name}" changed while the move of its FIX port was being confirmed: that answer was for the profile as it was; nothing saved, save again`);
    }
  }
}
