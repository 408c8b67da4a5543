// Trading: every order action the renderer can ask for, behind the one risk gate and into the
// audit journal. Anything that can create or enlarge exposure (placeOrder, placeOrders, an amend
// up, the passthrough's 'exposure' rows: orders, RFQ quotes and their acceptance, block trades)
// is turned into YES-leg intents and checked against the profile's limits and what main knows
// before a byte goes to the exchange. Cancels and decreases only ever reduce; they are audited,
// not gated, and work while the kill switch is engaged.
// The parts, each in its own module: the gate and its reservations (trading-gate.ts), the audit
// journal (trading-audit.ts), the kill switch (trading-kill-switch.ts), the FIX or REST route of
// an order (trading-route.ts) and the REST passthrough (trading-passthrough.ts).
import type { BookPush } from '../../src-shared/ipc/book-stream';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';
import type {
  AmendInput,
  AuditEntry,
  AuditFilter,
  BatchCancelInput,
  CancelAllInput,
  CancelInput,
  ChannelImpl,
  DecreaseInput,
  FromMain,
  OrderAck,
  OrderDraft,
  RestCallInput,
  RiskLimits,
  RiskView,
  StreamName,
  StreamPayloads,
  TerminalError,
} from '../../src-shared/ipc/contract';
import { DEFAULT_RISK_LIMITS } from '../../src-shared/ipc/risk';
import { describeBatchCancel, type BatchCancelResult } from '../../src-shared/ipc/batch-cancel';
import type { AuditJournal } from '../audit/journal';
import { loosenedLimits, type OrderIntent } from '../risk/gate';
import type { Reservation, Reservations } from '../risk/reservations';
import type { FixService } from '../fix/fix-service';
import { RiskStore } from '../risk/store';
import type { AnsweredOrder } from '../session/private-sync';
import * as orders from '../session/orders';
import { ackTrace } from '../session/ack-trace';
import type { TradingPort } from '../session/active-session';
import { StateError } from '../base/errors';
import type { ActiveSession, ConfirmInMain, ProfilesService } from './profiles-service';
import { ackSummary, errorSummary, TradingAudit, type AuditBase } from './trading-audit';
import { canonicalLimits, limitsChange } from './confirm-change';
import { draftIntent, RiskGate } from './trading-gate';
import { KillSwitch } from './trading-kill-switch';
import { passthrough } from './trading-passthrough';
import { sendOrder } from './trading-route';
import { PriceGrids } from './price-grids';

type Out<T extends z.ZodType> = z.output<T>;
/** A door input as main's own services may also send it: with main's origins (a strategy, a local order's trigger, FIX) and an origin id. */
type In<T extends z.ZodType> = FromMain<Out<T>>;

/** today's P&L is pushed again at most this often while the marks and fills move it */
export const PNL_PUSH_MS = 250;

export interface TradingServiceOptions {
  dataDir: string;
  profiles: ProfilesService;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (m: string) => void;
  /** turns a thrown error into what the audit journal records */
  describeError: (err: unknown) => TerminalError;
  /** asked before a limit is loosened or the kill switch released; absent (web host): allowed */
  confirmInMain?: ConfirmInMain;
  /** order entry over FIX where the profile asks for it (after the gate; REST when it is down) */
  fix?: FixService;
  /** while a replay is loaded, its own subaccount: orders without one go there, not to the live account */
  replaySubaccount?: () => number | null;
}

export class TradingService implements ChannelImpl<'trading'>, TradingPort {
  private readonly risk: RiskStore;
  private readonly auditing: TradingAudit;
  private readonly gate: RiskGate;
  private readonly kill: KillSwitch;
  readonly audit: AuditJournal;
  /** what passed the gate and is not yet accounted for in the session's stores */
  readonly reservations: Reservations;
  /** the markets' price grids: a price the market does not take is refused before it is sent */
  readonly prices = new PriceGrids();

  constructor(private readonly opts: TradingServiceOptions) {
    const log = (m: string) => this.opts.log?.(m);
    this.risk = new RiskStore(path.join(opts.dataDir, 'risk'));
    this.auditing = new TradingAudit(path.join(opts.dataDir, 'audit'), opts.describeError, log);
    this.audit = this.auditing.journal;
    this.gate = new RiskGate(this.risk, this.auditing);
    this.reservations = this.gate.reservations;
    this.kill = new KillSwitch({
      risk: this.risk,
      audit: this.auditing,
      active: () => this.profiles.active(),
      changed: () => this.pushRisk(),
      confirmed: (title, message, allow, code, change) => this.confirmed(title, message, allow, code, change),
      log,
    });
  }

  private get profiles(): ProfilesService {
    return this.opts.profiles;
  }

  // ------------------------------------------------------------------ risk state

  riskView(): RiskView {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) return { profileId: null, limits: DEFAULT_RISK_LIMITS, killSwitch: { engaged: false, since: null, detail: '' }, dailyPnl: null };
    const active = this.profiles.active();
    return {
      profileId,
      limits: this.risk.limits(profileId),
      killSwitch: this.risk.killSwitch(profileId),
      dailyPnl: active && active.profileId === profileId ? active.session.dailyPnl().toFixed(2) : null,
    };
  }

  private pushRisk(): void {
    const v = this.riskView();
    this.pnlShown = v.dailyPnl;
    this.opts.emit('risk', v);
  }

  private pnlTimer: ReturnType<typeof setTimeout> | null = null;
  private pnlPushedAt = 0;
  private pnlShown: string | null = null;

  /**
   * The books, a fill or a market's result moved: today's P&L is pushed again when it changed, at
   * most every PNL_PUSH_MS (the Risk panel's figure follows the marks, not only risk events).
   */
  marksMoved(): void {
    if (this.pnlTimer) return;
    this.pnlTimer = setTimeout(
      () => {
        this.pnlTimer = null;
        this.pnlPushedAt = Date.now();
        const v = this.riskView();
        if (v.dailyPnl === this.pnlShown) return;
        this.pnlShown = v.dailyPnl;
        this.opts.emit('risk', v);
      },
      Math.max(0, PNL_PUSH_MS - (Date.now() - this.pnlPushedAt)),
    );
    this.pnlTimer.unref?.();
  }

  /** After every session change: an engaged kill switch cancels again whatever rests. */
  async onSession(active: ActiveSession | null): Promise<void> {
    this.gate.forgetRecent();
    for (const p of this.risk.problems.splice(0)) this.opts.log?.(`[risk] ${p}`);
    this.pushRisk();
    if (active) await this.kill.sweepAtStart(active);
  }

  /**
   * Would this order pass the gate now? For what main will send later by itself (a local
   * order's trigger, a bracket's target); see RiskGate.precheck.
   */
  precheck(o: { ticker: string; side: 'bid' | 'ask'; price: string; count: string; confirmed: boolean }): void {
    this.gate.precheck(this.profiles.need(), o);
  }

  /**
   * An order answered: the gate's reservation follows it; one answered after the kill switch
   * engaged (its send was already on the wire) is canceled at once.
   */
  private settle(active: ActiveSession, r: Reservation, a: AnsweredOrder): Promise<void> {
    return this.gate.answered(r, a) ? this.kill.sweepLate(active, r.ticker, a.ack) : Promise.resolve();
  }

  // ------------------------------------------------------------------ orders

  /** While a replay is loaded an order without a subaccount goes to the replay's own (its fills never land in the live account). */
  private inReplay<D extends { subaccount?: number | undefined }>(d: D): D {
    const sub = this.opts.replaySubaccount?.() ?? null;
    return sub === null || d.subaccount !== undefined ? d : { ...d, subaccount: sub };
  }

  async placeOrder(draft: FromMain<OrderDraft>): Promise<OrderAck> {
    ackTrace.mark('door');
    const active = this.profiles.need();
    const { origin, originId, confirmed, ...order } = this.inReplay(draft);
    await this.prices.check(active.session.client, draft.ticker, draft.price);
    const intent = draftIntent(draft);
    const base: AuditBase = { action: 'place', origin, originId, ticker: draft.ticker, asked: { ...order }, gate: 'passed' };
    const [r] = this.gate.pass(active, [intent], base, confirmed);
    ackTrace.mark('gated');
    const clientOrderId = randomUUID();
    const route = { via: 'REST' };
    // from the gate to the settlement, followed by the kill switch (an engagement waits for it)
    const a = await this.kill.follow(
      active.profileId,
      (async () => {
        let answered: AnsweredOrder;
        try {
          answered = await this.auditing.audited(active, { ...base, clientOrderId }, () => sendOrder(this.opts.fix, active, order, clientOrderId, this.kill.guard(active.profileId), route), (x) => ackSummary(x.ack), route);
        } catch (e) {
          this.gate.failed(active, r!, e);
          throw e;
        }
        await this.settle(active, r!, answered);
        return answered;
      })(),
    );
    ackTrace.mark('settled');
    return a.ack;
  }

  /**
   * Each order is gated on its own (a refused one is reported in its slot); the rest go in the
   * exchange's batch create, as many per request as the write bucket holds.
   */
  async placeOrders(input: { orders: FromMain<OrderDraft>[] }): Promise<{ results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[] }> {
    const active = this.profiles.need();
    const results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[] = new Array(input.orders.length);
    const going: { slot: number; r: Reservation; base: AuditBase; entry: { draft: Omit<OrderDraft, 'origin' | 'confirmed'>; clientOrderId: string } }[] = [];
    const offTick = await Promise.all(input.orders.map((d) => this.prices.check(active.session.client, d.ticker, d.price).then(() => null, (e: unknown) => e)));
    input.orders.forEach((d, slot) => {
      if (offTick[slot]) {
        results[slot] = { ok: false, error: this.opts.describeError(offTick[slot]) };
        return;
      }
      const { origin, originId, confirmed, ...order } = this.inReplay(d);
      const base: AuditBase = { action: 'place', origin, originId, ticker: d.ticker, asked: { ...order, batch: true }, gate: 'passed' };
      try {
        const [r] = this.gate.pass(active, [draftIntent(d)], base, confirmed);
        const clientOrderId = randomUUID();
        going.push({ slot, r: r!, base: { ...base, clientOrderId }, entry: { draft: order, clientOrderId } });
      } catch (e) {
        results[slot] = { ok: false, error: this.opts.describeError(e) };
      }
    });
    if (going.length) await this.kill.follow(active.profileId, this.sendBatch(active, going, results));
    return { results };
  }

  /** The batch's sends and their settlements (late cancels included), each answer in its slot. */
  private async sendBatch(active: ActiveSession, going: { slot: number; r: Reservation; base: AuditBase; entry: { draft: Omit<OrderDraft, 'origin' | 'confirmed'>; clientOrderId: string } }[], results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[]): Promise<void> {
    const t0 = performance.now();
    let slots: Awaited<ReturnType<typeof orders.placeBatch>>;
    try {
      slots = await orders.placeBatch(
        active.session,
        going.map((g) => g.entry),
        this.kill.guard(active.profileId),
      );
    } catch (e) {
      slots = going.map(() => ({ ok: false as const, error: e }));
    }
    const ms = Math.round(performance.now() - t0);
    const late: Promise<void>[] = [];
    going.forEach((g, i) => {
      const out = slots[i]!;
      if (out.ok) {
        this.auditing.record(active, g.base, 'ok', ackSummary(out.answered.ack), ms);
        late.push(this.settle(active, g.r, out.answered));
        results[g.slot] = { ok: true, ack: out.answered.ack };
      } else {
        const err = this.opts.describeError(out.error);
        this.auditing.record(active, g.base, 'error', errorSummary(err), ms);
        this.gate.failed(active, g.r, out.error);
        results[g.slot] = { ok: false, error: err };
      }
    });
    await Promise.all(late);
  }

  async amendOrder(a: In<typeof AmendInput>): Promise<unknown> {
    const active = this.profiles.need();
    const { order_id, subaccount, origin, originId, confirmed, ...body } = a;
    await this.prices.check(active.session.client, a.ticker, a.price);
    const previous = await orders.restingOrder(active.session, order_id);
    if (!previous) throw new StateError(`order ${order_id} is not resting: nothing to amend`);
    const intent: OrderIntent = { ...draftIntent(a, 'amend'), previous: { side: previous.side, price: previous.price, count: previous.remaining } };
    const base: AuditBase = { action: 'amend', origin, originId, ticker: a.ticker, asked: { order_id, ...body }, gate: 'passed' };
    const held = this.gate.pass(active, [intent], base, confirmed);
    try {
      return await this.auditing.audited(
        active,
        base,
        () => orders.amendOrder(active.session, order_id, subaccount, body, this.kill.guard(active.profileId)),
        () => `amended ${order_id}`,
      );
    } finally {
      // the amended order is in the store (from the answer, or read back) before its reservation goes
      this.gate.release(held);
    }
  }

  async decreaseOrder(d: In<typeof DecreaseInput>): Promise<unknown> {
    const active = this.profiles.need();
    const { order_id, subaccount, ticker, origin, originId, reduce_by, reduce_to } = d;
    const body = { market_ticker: ticker, ...(reduce_by !== undefined ? { reduce_by } : { reduce_to: reduce_to! }) };
    const base: AuditBase = { action: 'decrease', origin, originId, ticker, asked: { order_id, ...body }, gate: 'not gated (reduces)' };
    return this.auditing.audited(active, base, () => orders.decreaseOrder(active.session, order_id, subaccount, body), () => `decreased ${order_id}`);
  }

  async cancelOrder(c: In<typeof CancelInput>): Promise<{ reduced_by: string; ts_ms: number }> {
    const active = this.profiles.need();
    const base: AuditBase = { action: 'cancel', origin: c.origin, originId: c.originId, ticker: c.ticker ?? null, asked: { order_id: c.order_id, ...(c.subaccount !== undefined ? { subaccount: c.subaccount } : {}) }, gate: 'not gated (reduces)' };
    return this.auditing.audited(active, base, () => orders.cancelOrder(active.session, c.order_id, c.subaccount), (x) => `canceled ${c.order_id}: ${x.reduced_by}`);
  }

  /** In batches the write bucket can take; each batch's result (canceled, which failed and why) in the answer. */
  async batchCancel(b: In<typeof BatchCancelInput>): Promise<BatchCancelResult> {
    const active = this.profiles.need();
    const list = b.orders.map((o) => ({ order_id: o.order_id, ...(o.subaccount !== undefined ? { subaccount: o.subaccount } : {}), ...(o.ticker ? { market_ticker: o.ticker } : {}) }));
    const base: AuditBase = { action: 'batch_cancel', origin: b.origin, originId: b.originId, ticker: null, asked: { orders: list.map((o) => o.order_id) }, gate: 'not gated (reduces)' };
    return this.auditing.audited(active, base, () => orders.batchCancel(active.session, list), describeBatchCancel);
  }

  /** With a ticker: batch-cancel my resting orders there; without: the exchange's cancel-all. */
  async cancelAll(c: In<typeof CancelAllInput>): Promise<{ canceled: number }> {
    const active = this.profiles.need();
    const base: AuditBase = { action: 'cancel_all', origin: c.origin, originId: c.originId, ticker: c.ticker ?? null, asked: { ...(c.subaccount !== undefined ? { subaccount: c.subaccount } : {}) }, gate: 'not gated (reduces)' };
    return this.auditing.audited(active, base, () => orders.cancelAll(active.session, c.ticker, c.subaccount), (r) => `${r.canceled} canceled`);
  }

  async watchMarkets(tickers: string[]): Promise<void> {
    await this.profiles.need().session.watchMarkets(tickers);
  }

  async bookSnapshots(tickers: string[]): Promise<BookPush[]> {
    return this.profiles.need().session.bookSnapshots(tickers);
  }

  /** The REST passthrough (trading-passthrough.ts): reads and harmless writes go; exposure goes through the gate; the rest never. */
  async request(input: Out<typeof RestCallInput>): Promise<unknown> {
    const answer = await passthrough(input, { need: () => this.profiles.need(), gate: this.gate, audit: this.auditing, guard: (id) => this.kill.guard(id) });
    this.prices.note(answer); // market rows teach main their price grids
    return answer;
  }

  // ------------------------------------------------------------------ limits, kill switch, audit

  async getRisk(): Promise<RiskView> {
    return this.riskView();
  }

  async saveRiskLimits(limits: RiskLimits, outOfBand?: { consoleCode?: string | undefined }): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile: limits are kept per profile');
    const before = this.risk.limits(profileId);
    const looser = loosenedLimits(before, limits);
    if (looser.length) {
      // the answer (a console code, a dialog) confirms this very change, from these limits
      if (!(await this.confirmed('Loosen the risk limits?', `Loosen ${looser.join(', ')}?`, 'Loosen', outOfBand?.consoleCode, limitsChange(profileId, before, limits)))) {
        throw new StateError(`loosening the risk limits was not confirmed in the terminal (${looser.join(', ')}); nothing changed`);
      }
      if (canonicalLimits(this.risk.limits(profileId)) !== canonicalLimits(before)) {
        throw new StateError('the risk limits changed while the loosening was being confirmed: that answer was for the limits as they were; nothing changed, save again');
      }
    }
    this.risk.setLimits(profileId, limits);
    this.pushRisk();
    return this.riskView();
  }

  /** Engages it and cancels everything (trading-kill-switch.ts); answers once the cancel-all is answered. */
  async engageKillSwitch(): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile');
    await this.kill.engage(profileId);
    return this.riskView();
  }

  async releaseKillSwitch(input?: { consoleCode?: string | undefined }): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile');
    await this.kill.release(profileId, input?.consoleCode);
    return this.riskView();
  }

  /** The shell's own confirmation, when it has one; the page cannot answer it (on the web host it sends the console's code). */
  private async confirmed(title: string, message: string, allow: string, code: string | undefined, change: string): Promise<boolean> {
    return this.opts.confirmInMain ? this.opts.confirmInMain({ title, message, allow, code, change }) : true;
  }

  async getAuditLog(filter: AuditFilter): Promise<AuditEntry[]> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) return [];
    return this.audit.read(profileId, filter);
  }
}
