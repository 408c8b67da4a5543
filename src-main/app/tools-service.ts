// Alerts and local conditional orders, held in main so they work with every panel closed. Both
// watch the active session's stream (main pins their markets so books and trades flow whatever
// the renderer shows), are kept per profile on disk, and speak to the trader through notices
// (native notifications in Electron, toasts in the browser). A triggered local order is written
// to disk as `triggered` before it is sent, and goes through TradingService.placeOrder: the same
// risk gate and audit journal as any order. After a restart, armed local orders wait for the
// trader's choice (keep armed or disarm); one whose trigger was reached meanwhile asks first.
// Its parts: the quotes it judges by (tools-quotes.ts), the sending of what local orders decide
// and the fills of what they sent (tools-sending.ts), its files (tools-files.ts).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { ChannelImpl, StreamName, StreamPayloads, TerminalError, TickerView, TradeView } from '../../src-shared/ipc/contract';
import {
  type AlertActionInput,
  type AlertInput,
  type AlertsView,
  type BracketInput,
  type LocalActionInput,
  type LocalKillReleaseInput,
  type LocalMoveInput,
  type LocalOrdersInput,
  type LocalOrdersView,
  type LocalResumeInput,
} from '../../src-shared/ipc/tools';
import { Decimal } from '../../src-shared/money';
import { AlertEngine, type AlertRule, type Firing } from '../alerts/engine';
import { LocalOrderEngine, LocalRuleError, viewOf, type LocalAction, type Quote } from '../conditional/engine';
import type { SessionObserver } from '../session/observer';
import { writeJsonFile } from '../base/json-file';
import { AlertsFile, fromRecord, LocalFile, readOrMoveAside, toRecord } from './tools-files';
import { plural } from '../../src-shared/text';
import { ToolQuotes } from './tools-quotes';
import { LocalSender } from './tools-sending';
import { StateError } from '../base/errors';
import type { ActiveSession, ProfilesService } from './profiles-service';
import type { TradingService } from './trading-service';

export interface ToolsServiceOptions {
  dataDir: string;
  profiles: ProfilesService;
  trading: TradingService;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  describeError: (err: unknown) => TerminalError;
  log?: (m: string) => void;
}

const D = (s: string) => new Decimal(s);

export class ToolsService implements ChannelImpl<'tools'> {
  private alerts = new AlertEngine(() => randomUUID());
  private local = new LocalOrderEngine(() => randomUUID());
  private profileId: string | null = null;
  private session: ActiveSession | null = null;
  private readonly quotes = new ToolQuotes(() => this.session?.session);
  private readonly sender: LocalSender;
  /** markets pinned for the tools; `interested` runs on every ticker message of every market */
  private pinned = new Set<string>();

  constructor(private readonly opts: ToolsServiceOptions) {
    this.sender = new LocalSender({
      local: () => this.local,
      trading: opts.trading,
      emit: opts.emit,
      describeError: opts.describeError,
      changed: () => {
        this.saveLocal();
        this.opts.emit('local', this.localView());
      },
      repin: () => this.repin(),
    });
  }

  /** What the session calls as its stream flows. */
  readonly observer: SessionObserver = {
    trade: (t) => this.onTrade(t),
    ticker: (t) => this.onTicker(t),
    books: (tickers) => {
      for (const t of tickers) if (this.interested(t)) this.onBook(t);
    },
    lifecycle: (ticker, type) => this.notifyAll(this.alerts.lifecycle(ticker, type)),
    fill: (f) => this.onFill(f),
    order: (o) => this.onOrder(o),
  };

  // ------------------------------------------------------------------ session and files

  async onSession(active: ActiveSession | null): Promise<void> {
    this.session = active;
    const id = active?.profileId ?? null;
    if (id !== this.profileId) {
      this.profileId = id;
      this.quotes.clear();
      this.alerts = new AlertEngine(() => randomUUID());
      this.local = new LocalOrderEngine(() => randomUUID());
      this.pinned = new Set();
      if (id) this.load(id);
    }
    if (id && this.killEngaged()) this.holdForKillSwitch(id); // engaged before this start: nothing restored may fire
    this.pushAll();
    await this.repin();
  }

  private file(kind: 'alerts' | 'conditional', profileId: string): string {
    return path.join(this.opts.dataDir, kind, `${profileId}.json`);
  }

  private problem(m: string): void {
    this.opts.log?.(`[tools] ${m}`);
    this.opts.emit('notices', { level: 'error', title: 'A saved file could not be read', body: m, ts: Date.now() });
  }

  private load(profileId: string): void {
    const a = readOrMoveAside(this.file('alerts', profileId), AlertsFile, { version: 1 as const, alerts: [], history: [] }, (m) => this.problem(m));
    for (const r of a.alerts) this.alerts.rules.set(r.id, r as AlertRule);
    this.alerts.history = a.history;
    const l = readOrMoveAside(this.file('conditional', profileId), LocalFile, { version: 1 as const, orders: [] }, (m) => this.problem(m));
    this.local.restore(l.orders.map(fromRecord));
    this.local.prune(Date.now());
    if (this.local.awaitingChoice) {
      const n = [...this.local.orders.values()].filter((o) => o.state === 'held').length;
      this.opts.emit('notices', { level: 'warning', title: `${plural(n, 'local order')} restored`, body: 'They are not armed yet: keep them armed or disarm them (Orders → Local).', ts: Date.now(), source: 'local' });
    }
  }

  private saveAlerts(): void {
    if (!this.profileId) return;
    writeJsonFile(this.file('alerts', this.profileId), { version: 1, alerts: [...this.alerts.rules.values()], history: this.alerts.history });
  }

  private saveLocal(): void {
    this.local.prune(Date.now()); // what is saved and pushed stays bounded (MAX_DONE_LOCAL)
    if (!this.profileId) return;
    writeJsonFile(this.file('conditional', this.profileId), { version: 1, orders: [...this.local.orders.values()].map(toRecord) });
  }

  private alertsView(): AlertsView {
    return { alerts: [...this.alerts.rules.values()].map((r) => this.alerts.view(r)), history: this.alerts.history };
  }

  private localView(): LocalOrdersView {
    return {
      orders: [...this.local.orders.values()].map(viewOf).sort((a, b) => b.createdAt - a.createdAt),
      awaitingChoice: this.local.awaitingChoice,
      live: !!this.session?.session.isLive,
    };
  }

  private pushAll(): void {
    this.opts.emit('alerts', this.alertsView());
    this.opts.emit('local', this.localView());
  }

  private async repin(): Promise<void> {
    const s = this.session?.session;
    if (!s) return;
    const list = [...new Set([...this.alerts.markets(), ...this.local.markets()])].slice(0, 50);
    if (list.length === this.pinned.size && list.every((t) => this.pinned.has(t))) return;
    this.pinned = new Set(list);
    await s.pin('tools', list).catch((e: unknown) => this.opts.log?.(`[tools] could not stream ${list.join(',')}: ${(e as Error).message}`));
  }

  private need(): ActiveSession {
    if (!this.session || !this.profileId) throw new StateError('no active session: alerts and local orders belong to a profile with a key');
    return this.session;
  }

  // ------------------------------------------------------------------ the stream

  private interested(ticker: string): boolean {
    return this.pinned.has(ticker);
  }

  private onTrade(t: TradeView): void {
    if (!this.interested(t.ticker)) return;
    const q = this.quotes.trade(t);
    this.alerts.trade(t.ticker, D(t.count_fp), Date.now());
    this.evaluate(t.ticker, q);
  }

  private onTicker(t: TickerView): void {
    if (!this.interested(t.ticker)) return;
    this.evaluate(t.ticker, this.quotes.ticker(t));
  }

  private onBook(ticker: string): void {
    this.evaluate(ticker, this.quotes.quote(ticker));
  }

  private evaluate(ticker: string, q: Quote): void {
    const fired = this.alerts.observe(ticker, q);
    if (fired.length) this.notifyAll(fired);
    if (!this.session?.session.isLive) return; // local orders never trigger on a stream that is not live
    const actions = this.local.observe(ticker, q);
    if (this.local.takeChanged()) {
      this.saveLocal(); // `triggered` is on disk before anything is sent
      this.opts.emit('local', this.localView());
    }
    if (actions.length) void this.sender.run(actions);
  }

  private notifyAll(fired: Firing[]): void {
    if (!fired.length) return;
    for (const f of fired) {
      if (f.notify) this.opts.emit('notices', { level: 'warning', title: f.title, body: f.body, ts: f.ts, source: 'alert', ...(f.sound ? { sound: true } : {}) });
    }
    const held = this.alerts.takeHeldBack();
    if (held > 0 && fired.some((f) => f.notify)) {
      this.opts.emit('notices', { level: 'info', title: `${held} more alert(s)`, body: 'Held back so as not to flood the screen; see the Alerts panel history.', ts: Date.now(), source: 'alert' });
    }
    this.saveAlerts();
    this.opts.emit('alerts', this.alertsView());
  }

  // ------------------------------------------------------------------ my orders and fills

  private onFill(f: Record<string, unknown>): void {
    const orderId = typeof f.order_id === 'string' ? f.order_id : null;
    const tradeId = typeof f.trade_id === 'string' ? f.trade_id : typeof f.fill_id === 'string' ? f.fill_id : null;
    const ticker = String(f.market_ticker ?? f.ticker ?? '');
    const count = new Decimal(String(f.count_fp ?? '0'));
    this.notifyAll(
      this.alerts.orderEvent({ ticker, when: 'filled', orderId: orderId ?? '', text: `${String(f.action ?? '')} ${count.toString()} ${String(f.side ?? '').toUpperCase()} ${ticker} at ${String(f.yes_price_dollars ?? '')}`.trim() }),
    );
    if (orderId && tradeId) this.sender.fill(orderId, tradeId, count);
  }

  private onOrder(o: Record<string, unknown>): void {
    const status = String(o.status ?? '');
    const orderId = String(o.order_id ?? '');
    if (status === 'canceled' || status === 'cancelled') {
      const ticker = String(o.ticker ?? o.market_ticker ?? '');
      this.notifyAll(this.alerts.orderEvent({ ticker, when: 'canceled', orderId, text: `order ${orderId.slice(0, 8)} in ${ticker} canceled` }));
      this.local.onOrderDone(orderId, status);
      this.saveLocal();
      this.opts.emit('local', this.localView());
    }
  }

  // ------------------------------------------------------------------ the kill switch

  private killEngaged(): boolean {
    return this.opts.trading.riskView().killSwitch.engaged;
  }

  /**
   * The kill switch engaged (services.ts calls this on its risk push): every local order that
   * could fire by itself is held, on disk, before the cancel-all is even answered. Again while it
   * stays engaged: nothing more to hold.
   */
  holdForKillSwitch(profileId: string | null): void {
    // the push of another profile's risk (a profile switch under way) is not this profile's
    if (!this.profileId || profileId !== this.profileId) return;
    const held = this.local.holdForKill();
    const n = Object.values(held).reduce((a, b) => a + b, 0);
    if (!n) return;
    this.saveLocal();
    this.opts.emit('local', this.localView());
    this.opts.log?.(`[tools] kill switch: held ${n} local order(s)`);
  }

  private refuseWhileKilled(what: string): void {
    if (this.killEngaged()) throw new StateError(`the kill switch is engaged: ${what}. Release it first (its release asks which local orders to arm again)`);
  }

  /** After the release: the held kinds the trader chose watch again, the rest are disarmed. */
  async releaseKillHeldLocal(input: z.output<typeof LocalKillReleaseInput>): Promise<LocalOrdersView> {
    this.need();
    this.refuseWhileKilled('local orders it holds stay held');
    const r = this.local.releaseKillHeld(new Set(input.rearm));
    this.saveLocal();
    await this.repin();
    this.opts.emit('local', this.localView());
    this.opts.log?.(`[tools] kill switch released: ${r.rearmed} local order(s) armed again, ${r.disarmed} disarmed`);
    // re-armed orders read the market now: a trigger passed while they were held turns `missed`, never sent
    if (r.rearmed && this.session?.session.isLive) for (const t of this.local.markets()) this.evaluate(t, this.quotes.quote(t));
    return this.localView();
  }

  // ------------------------------------------------------------------ methods

  async getAlerts(): Promise<AlertsView> {
    return this.alertsView();
  }

  async saveAlert(input: AlertInput): Promise<AlertsView> {
    this.need();
    let rule: AlertRule;
    try {
      rule = this.alerts.upsert(input);
    } catch (e) {
      throw new StateError((e as Error).message);
    }
    this.saveAlerts();
    await this.repin();
    const t = 'ticker' in rule.condition ? rule.condition.ticker : undefined;
    if (t) this.evaluateNow(t);
    this.opts.emit('alerts', this.alertsView());
    return this.alertsView();
  }

  /** A new or edited alert reads the current value at once, so its first crossing counts. */
  private evaluateNow(ticker: string): void {
    const q = this.quotes.quote(ticker);
    this.notifyAll(this.alerts.observe(ticker, q));
  }

  async alertAction(input: z.output<typeof AlertActionInput>): Promise<AlertsView> {
    this.need();
    try {
      this.alerts.act(input.id, input.action);
    } catch (e) {
      throw new StateError((e as Error).message);
    }
    this.saveAlerts();
    await this.repin();
    this.opts.emit('alerts', this.alertsView());
    return this.alertsView();
  }

  async getLocalOrders(): Promise<LocalOrdersView> {
    return this.localView();
  }

  /** The market's quote before a local order is judged against it: streamed from now on, then fresh. */
  private async freshQuote(ticker: string): Promise<Quote> {
    const s = this.need().session;
    await this.pinNow(ticker);
    return this.quotes.fresh(s, ticker);
  }

  /** Streams a market before its first local order needs it (its book may not be held yet). */
  private async pinNow(ticker: string): Promise<void> {
    if (this.interested(ticker)) return;
    this.pinned.add(ticker);
    await this.need().session.pin('tools', [...this.pinned]);
  }

  private rule<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof LocalRuleError) throw new StateError(e.message);
      throw e;
    }
  }

  async placeLocalOrders(input: LocalOrdersInput): Promise<LocalOrdersView> {
    const active = this.need();
    const first = input.orders[0]!;
    this.refuseWhileKilled('no local order is set up');
    if (!active.session.isLive) throw new StateError('the stream is not live: a local order needs this terminal connected to watch its market');
    const ref = first.kind === 'trailing_stop' ? null : D(first.trigger);
    const q = await this.freshQuote(first.ticker);
    const tick = await this.quotes.tickAt(this.need().session, first.ticker, ref ?? q.last ?? q.bid ?? D('0.5'));
    // what each would send passes the risk gate's static limits now, not only when it fires
    for (const o of input.orders) {
      const price = o.limit.kind === 'price' ? o.limit.price : o.kind === 'trailing_stop' ? (q.last ?? D('0.5')).toFixed(4) : o.trigger;
      this.opts.trading.precheck({ ticker: o.ticker, side: o.side, price, count: o.count, confirmed: input.confirmed === true });
    }
    const made = this.rule(() => this.local.add(input.orders, input.oco, tick, q));
    if (input.confirmed) for (const m of made) m.confirmed = true;
    this.saveLocal();
    await this.repin();
    this.opts.emit('local', this.localView());
    return this.localView();
  }

  async placeBracket(b: BracketInput): Promise<LocalOrdersView> {
    const active = this.need();
    this.refuseWhileKilled('no bracket is set up');
    if (!active.session.isLive) throw new StateError('the stream is not live: a bracket needs this terminal connected to follow its entry');
    const price = D(b.price);
    const tick = await this.quotes.tickAt(this.need().session, b.ticker, price);
    if (!price.div(tick).isInteger()) throw new StateError(`price ${b.price} is not on ${b.ticker}'s price step ${tick.toString()}`);
    await this.pinNow(b.ticker);
    // the bracket is checked before the entry goes, so an entry is never left without one
    const plan = this.rule(() => {
      const probe = new LocalOrderEngine(() => 'probe');
      return probe.addBracket({ ticker: b.ticker, side: b.side, price, entryOrderId: 'probe', targetTicks: b.targetTicks, stopTicks: b.stopTicks, stopThroughTicks: b.stopThroughTicks, stopSource: b.stopSource, tick, subaccount: b.subaccount });
    });
    this.opts.trading.precheck({ ticker: b.ticker, side: plan.target.side, price: plan.target.trigger!.toFixed(4), count: b.count, confirmed: b.confirmed === true });
    this.rule(() => this.local.roomFor(2));
    const ack = await this.opts.trading.placeOrder({
      ticker: b.ticker,
      side: b.side,
      price: b.price,
      count: b.count,
      ...(b.subaccount !== undefined ? { subaccount: b.subaccount } : {}),
      origin: 'ticket',
      ...(b.confirmed ? { confirmed: true } : {}),
    });
    const made = this.local.addBracket({ ticker: b.ticker, side: b.side, price, entryOrderId: ack.order_id, targetTicks: b.targetTicks, stopTicks: b.stopTicks, stopThroughTicks: b.stopThroughTicks, stopSource: b.stopSource, tick, subaccount: b.subaccount });
    if (b.confirmed) for (const m of [made.target, made.stop]) m.confirmed = true;
    this.saveLocal();
    this.sender.replayFills(ack.order_id);
    await this.repin();
    this.opts.emit('local', this.localView());
    return this.localView();
  }

  async localOrderAction(input: z.output<typeof LocalActionInput>): Promise<LocalOrdersView> {
    this.need();
    const o = this.rule(() => this.local.need(input.id));
    let actions: LocalAction[] = [];
    if (input.action === 'cancel') actions = this.rule(() => this.local.cancel(input.id));
    else if (input.action === 'arm') {
      this.refuseWhileKilled('no local order is armed');
      this.rule(() => this.local.arm(input.id, this.quotes.quote(o.ticker)));
    }
    else {
      if (!this.need().session.isLive) throw new StateError('the stream is not live: nothing is sent on an old price');
      if (input.confirmed) o.confirmed = true;
      actions = this.rule(() => this.local.fireMissed(input.id, this.quotes.quote(o.ticker)));
    }
    this.saveLocal();
    this.opts.emit('local', this.localView());
    if (actions.length) await this.sender.run(actions);
    await this.repin();
    return this.localView();
  }

  async moveLocalOrder(input: z.output<typeof LocalMoveInput>): Promise<LocalOrdersView> {
    this.need();
    const o = this.rule(() => this.local.need(input.id));
    this.rule(() => this.local.move(input.id, D(input.trigger), this.quotes.quote(o.ticker)));
    this.saveLocal();
    this.opts.emit('local', this.localView());
    return this.localView();
  }

  async resumeLocalOrders(input: z.output<typeof LocalResumeInput>): Promise<LocalOrdersView> {
    this.need();
    if (input.keep) this.refuseWhileKilled('restored local orders are not armed');
    this.local.resume(input.keep);
    this.saveLocal();
    await this.repin();
    this.opts.emit('local', this.localView());
    // kept orders read the market now: a trigger passed meanwhile turns `missed`, never sent
    if (input.keep) for (const t of this.local.markets()) if (this.session?.session.isLive) this.evaluate(t, this.quotes.quote(t));
    return this.localView();
  }
}
