// The terminal's main-side services, by concern: profiles and keys (with the one trading
// session), trading (orders behind the risk gate, the passthrough, the kill switch, the audit
// journal) and preferences (settings and layouts). `methods` is the door's table, derived from
// the contract's channels: each channel's service implements `ChannelImpl<channel>`, so a
// method the contract declares and no service implements fails the type check.
import type { AppState, ChannelImpl, ServiceMethods, StreamName, StreamPayloads, TerminalError } from '../../src-shared/ipc/contract';
import { serveChannels } from '../ipc/door';
import type { SecretBox } from '../vault/secret-box';
import type { SessionOptions } from '../session/session';
import { OFFLINE, ProfilesService, type ConfirmInMain, type EmbeddedExchangeInfo } from './profiles-service';
import { PreferencesService } from './preferences-service';
import { TradingService } from './trading-service';
import { ToolsService } from './tools-service';
import { RecorderService } from '../recorder/recorder-service';
import { StrategiesService } from '../strategies/strategies-service';
import { FixService } from '../fix/fix-service';
import { ReplayService } from '../replay/replay-service';
import type { SessionObserver } from '../session/observer';
import path from 'node:path';

export { StateError } from '../base/errors';
export type { EmbeddedExchangeInfo } from './profiles-service';

export interface ServicesOptions {
  dataDir: string;
  box: SecretBox;
  shell: 'electron' | 'web';
  embedded?: EmbeddedExchangeInfo;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (msg: string) => void;
  sessionOptions?: Pick<SessionOptions, 'frameMs' | 'streamOptions'>;
  /**
   * A question only the trader can answer, asked by main itself (the Electron shell's native
   * dialog), never by the page: re-pointing a key-holding profile (absent: refused), loosening a
   * risk limit or releasing the kill switch (absent: allowed; the web host passes confirmRisk).
   */
  confirmInMain?: ConfirmInMain;
  /**
   * For the risk questions only (loosening a limit, releasing the kill switch), when they are
   * asked another way than confirmInMain: the web host's code printed on its console.
   */
  confirmRisk?: ConfirmInMain;
  /** turns an error into a TerminalError (the door's mapping), for the audit journal */
  describeError: (err: unknown) => TerminalError;
}

export class TerminalServices {
  readonly profiles: ProfilesService;
  readonly trading: TradingService;
  readonly preferences: PreferencesService;
  readonly tools: ToolsService;
  readonly recorder: RecorderService;
  readonly strategies: StrategiesService;
  readonly fix: FixService;
  readonly replay: ReplayService;
  readonly methods: ServiceMethods;

  constructor(private readonly opts: ServicesOptions) {
    this.preferences = new PreferencesService(opts.dataDir, (id) => this.profiles.profiles.get(id) !== undefined);
    this.profiles = new ProfilesService({
      dataDir: opts.dataDir,
      box: opts.box,
      emit: opts.emit,
      ...(opts.embedded ? { embedded: opts.embedded } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.sessionOptions ? { sessionOptions: opts.sessionOptions } : {}),
      ...(opts.confirmInMain ? { confirmInMain: opts.confirmInMain } : {}),
      // a narrower key is a loosening: asked where a loosened limit is
      ...(opts.confirmRisk ? { confirmLoosening: opts.confirmRisk } : opts.confirmInMain ? { confirmLoosening: opts.confirmInMain } : {}),
      onSession: async (active) => {
        await this.trading.onSession(active);
        await this.fix.onSession(active);
        await this.tools.onSession(active);
        await this.recorder.onSession(active);
        this.strategies.onSession(active);
      },
      // a strategy is bound to its session: it stops before the session goes (orders canceled there, or left)
      sessionEnding: (old) => this.strategies.sessionEnding(old),
      observer: this.sessionObserver(),
    });
    // moving a key-holding profile's FIX port asks like a loosening (the web host: its console code)
    const confirmFix = opts.confirmRisk ?? opts.confirmInMain;
    this.fix = new FixService({ profiles: this.profiles, embeddedFix: opts.embedded?.fix, emit: opts.emit, ...(opts.log ? { log: opts.log } : {}), ...(confirmFix ? { confirm: confirmFix } : {}) });
    this.trading = new TradingService({
      fix: this.fix,
      dataDir: opts.dataDir,
      profiles: this.profiles,
      // the kill switch, once engaged, stops every strategy and holds every local order too
      emit: (stream, payload) => {
        const risk = stream === 'risk' ? (payload as StreamPayloads['risk']) : null;
        if (risk?.killSwitch.engaged) {
          (this.strategies as StrategiesService | undefined)?.stopAll('the kill switch is engaged');
          (this.tools as ToolsService | undefined)?.holdForKillSwitch(risk.profileId);
        }
        opts.emit(stream, payload);
      },
      describeError: opts.describeError,
      replaySubaccount: () => (this.replay as ReplayService | undefined)?.subaccount ?? null,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.confirmRisk ? { confirmInMain: opts.confirmRisk } : opts.confirmInMain ? { confirmInMain: opts.confirmInMain } : {}),
    });
    this.tools = new ToolsService({
      dataDir: opts.dataDir,
      profiles: this.profiles,
      trading: this.trading,
      emit: opts.emit,
      describeError: opts.describeError,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.recorder = new RecorderService({ dataDir: opts.dataDir, active: () => this.profiles.active(), ...(opts.log ? { log: opts.log } : {}) });
    this.strategies = new StrategiesService({ trading: this.trading, recorder: this.recorder.recorder, active: () => this.profiles.active(), ...(opts.log ? { log: opts.log } : {}) });
    this.replay = new ReplayService({
      baseUrl: opts.embedded ? () => opts.embedded?.baseUrl : undefined,
      exchangeDataDir: path.join(opts.dataDir, 'exchange'),
      recorder: this.recorder,
      // a replay trades in its own subaccount of the trader's account, never the live one
      account: () => this.profiles.active()?.session.userId,
      ...(opts.log ? { log: opts.log } : {}),
    });
    // the app channel spans services; every other channel is its service itself
    this.methods = serveChannels({
      app: this.appChannel(),
      profiles: this.profiles,
      trading: this.trading,
      preferences: this.preferences,
      tools: this.tools,
      recorder: this.recorder,
      strategies: this.strategies,
      fix: this.fix,
      replay: this.replay,
    });
  }

  /** What the trading session sees, handed on to the services that follow it. */
  private sessionObserver(): SessionObserver {
    return {
      trade: (t) => {
        this.tools.observer.trade?.(t);
        this.strategies.trade(t);
      },
      ticker: (t) => this.tools.observer.ticker?.(t),
      books: (t) => {
        this.tools.observer.books?.(t);
        this.strategies.books(t);
        this.trading.marksMoved(); // today's P&L follows the marks (throttled)
      },
      lifecycle: (t, e) => {
        this.tools.observer.lifecycle?.(t, e);
        this.trading.marksMoved();
      },
      fill: (f) => {
        this.tools.observer.fill?.(f);
        this.strategies.fill(f);
        this.trading.marksMoved();
      },
      order: (o) => this.tools.observer.order?.(o),
      message: (m) => this.recorder.message(m),
    };
  }

  /** The app channel, which spans services. */
  private appChannel(): ChannelImpl<'app'> {
    return {
      getAppState: () => this.getAppState(),
      deleteProfile: async (id) => {
        await this.profiles.deleteProfile(id);
        this.preferences.forgetLayout(id);
      },
      activateProfile: async (id) => {
        await this.profiles.activate(id);
        return this.getAppState();
      },
    };
  }

  async start(): Promise<void> {
    await this.recorder.start();
    await this.profiles.start();
  }

  async stop(): Promise<void> {
    await this.fix.stop();
    await this.profiles.stop();
    await this.recorder.stop();
  }

  async getAppState(): Promise<AppState> {
    const profiles = this.profiles.profiles;
    return {
      profiles: profiles.list().map((x) => this.profiles.profileView(x)),
      activeProfileId: profiles.activeProfileId,
      connection: this.profiles.active()?.session.connectionView() ?? OFFLINE,
      settings: this.preferences.current(),
      risk: this.trading.riskView(),
      shell: this.opts.shell,
      keysAtRest: { kind: this.opts.box.kind, warning: this.opts.box.warning ?? null },
    };
  }
}
