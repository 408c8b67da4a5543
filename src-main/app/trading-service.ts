// Trading: every order action the renderer can ask for, behind the one risk gate and into the
// audit journal. Anything that can create or enlarge exposure (placeOrder, placeOrders, an amend
// up, the passthrough's 'exposure' rows: orders, RFQ quotes and their acceptance, block trades)
// is turned into YES-leg intents and checked against the profile's limits and what main knows
// before a byte goes to the exchange. Cancels and decreases only ever reduce; they are audited,
// not gated, and work while the kill switch is engaged.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import path from 'node:path';
import type { z } from 'zod';
import type {
  AmendInput,
  AuditEntry,
  AuditFilter,
  BatchCancelInput,
  BatchPlaceInput,
  CancelAllInput,
  CancelInput,
  ChannelImpl,
  DecreaseInput,
  OrderAck,
  OrderDraft,
  OrderOrigin,
  RestCallInput,
  RiskLimits,
  RiskView,
  StreamName,
  StreamPayloads,
  TerminalError,
} from '../../src-shared/ipc/contract';
import { Decimal } from '../../src-shared/money';
import { DEFAULT_RISK_LIMITS } from '../../src-shared/ipc/risk';
import type { EndpointId } from '../../src-shared/endpoints';
import { TYPED_INSTEAD, UI_WRITE_ROWS } from '../../src-shared/ipc/ui-rows';
import { endpointRow, validateArgs } from '../api/client';
import { AuditJournal } from '../audit/journal';
import { checkOrder, describeIntent, loosenedLimits, recentOf, RiskRefusal, type OrderIntent, type RecentOrder, type RiskState } from '../risk/gate';
import { Reservations, type Reservation } from '../risk/reservations';
import { OrderOutcomeUnknownError } from '../api/orders';
import { FixRouteDown } from '../fix/order-entry';
import type { FixService } from '../fix/fix-service';
import { countToCenti } from '../../src-shared/money';
import { intentsFor, IntentError } from '../risk/intents';
import { restingOrderOf, positionCountOf, tickerOf } from '../risk/rows';
import { RiskStore } from '../risk/store';
import type { SendGuard, TradingSession } from '../session/session';
import type { AnsweredOrder } from '../session/private-sync';
import * as orders from '../session/orders';
import { ackTrace } from '../session/ack-trace';
import { StateError } from '../base/errors';
import type { ActiveSession, ConfirmInMain, ProfilesService } from './profiles-service';

type Out<T extends z.ZodType> = z.output<T>;

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
}

const D = (s: string) => new Decimal(s);
const RECENT_MS = 60_000;

interface AuditBase {
  action: string;
  origin: OrderOrigin | undefined;
  ticker: string | null;
  asked: Record<string, unknown>;
  gate: string;
  clientOrderId?: string | null;
}

export class TradingService implements ChannelImpl<'trading'> {
  private readonly risk: RiskStore;
  readonly audit: AuditJournal;
  private recent: RecentOrder[] = [];
  /** what passed the gate and is not yet accounted for in the session's stores */
  readonly reservations = new Reservations();
  /** per profile: aborted when the kill switch engages, dropping every send still waiting for tokens */
  private readonly killGates = new Map<string, AbortController>();

  constructor(private readonly opts: TradingServiceOptions) {
    this.risk = new RiskStore(path.join(opts.dataDir, 'risk'));
    this.audit = new AuditJournal(path.join(opts.dataDir, 'audit'));
    this.audit.onError = (e) => this.opts.log?.(`[audit] could not write: ${e.message}`);
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
    this.opts.emit('risk', this.riskView());
  }

  /** After every session change: an engaged kill switch cancels again whatever rests. */
  async onSession(active: ActiveSession | null): Promise<void> {
    this.recent = [];
    for (const p of this.risk.problems.splice(0)) this.opts.log?.(`[risk] ${p}`);
    this.pushRisk();
    if (active && this.risk.killSwitch(active.profileId).engaged) {
      try {
        const detail = await (await orders.cancelEverything(active.session)).later;
        this.opts.log?.(`[risk] kill switch engaged at start: ${detail}`);
      } catch (e) {
        this.opts.log?.(`[risk] kill switch: cancel at start failed: ${(e as Error).message}`);
      }
    }
  }

  private state(s: TradingSession, profileId: string): RiskState {
    const now = Date.now();
    this.recent = this.recent.filter((r) => now - r.at <= RECENT_MS);
    const positions = new Map<string, Decimal>();
    for (const p of s.store.positions.values()) {
      const t = tickerOf(p);
      if (t) positions.set(t, (positions.get(t) ?? D('0')).plus(positionCountOf(p)));
    }
    const resting = s.store.restingOrders().map(restingOrderOf).filter((o) => o !== null);
    return {
      now,
      killSwitch: this.risk.killSwitch(profileId).engaged,
      book: (t) => s.bookTop(t),
      position: (t) => positions.get(t) ?? D('0'),
      resting,
      dailyPnl: s.dailyPnl(),
      recent: this.recent,
      reserved: this.reservations.of(profileId, (f, t) => s.store.fillPosted(f.orderId, t, f.centi) || s.store.resets > f.resets),
    };
  }

  /** The kill switch's hold on one send: checked right before it leaves, and dropped from the queue when it engages. */
  private sendGuard(profileId: string): SendGuard {
    let gate = this.killGates.get(profileId);
    if (!gate) {
      this.killGates.set(profileId, (gate = new AbortController()));
      setMaxListeners(0, gate.signal); // one listener per queued send
    }
    return {
      queueSignal: gate.signal,
      beforeSend: () => {
        ackTrace.mark('send');
        if (this.risk.killSwitch(profileId).engaged) throw new RiskRefusal('kill_switch', 'kill switch engaged: the order was stopped before it was sent; nothing was sent');
      },
    };
  }

  /**
   * An order answered: what rests is in the store now, the filled part stays reserved until the
   * position shows it. One answered after the kill switch engaged (its send was already on the
   * wire) is canceled at once.
   */
  private settle(active: ActiveSession, r: Reservation, a: AnsweredOrder): void {
    const row = a.order;
    const filled = row ? (row.fill_count_fp ?? row.fill_count) : a.ack.fill_count;
    let centi = 0;
    try {
      centi = countToCenti(String(filled ?? '0'));
    } catch {
      centi = Number.POSITIVE_INFINITY; // unreadable: held until a reconcile shows it
    }
    this.reservations.answered(r, { orderId: a.ack.order_id, centi, count: D(String(Number.isFinite(centi) ? filled : r.count)), resets: a.resets });
    const resting = row ? row.status === 'resting' : D(a.ack.remaining_count).gt(0);
    if (resting && this.risk.killSwitch(active.profileId).engaged) {
      const base: AuditBase = { action: 'kill_sweep', origin: undefined, ticker: r.ticker, asked: { order_id: a.ack.order_id }, gate: 'not gated (reduces)', clientOrderId: a.ack.client_order_id };
      void this.audited(active, base, () => orders.cancelOrder(active.session, a.ack.order_id, undefined, { priority: true }), () => `canceled ${a.ack.order_id}: answered after the kill switch engaged`).catch(() => undefined);
    }
  }

  /** A send that failed: nothing rests, unless its outcome is unknown (then a reconcile settles it). */
  private unsettle(active: ActiveSession, r: Reservation, err: unknown): void {
    if (err instanceof OrderOutcomeUnknownError) {
      this.reservations.answered(r, { orderId: err.clientOrderId, centi: Number.POSITIVE_INFINITY, count: r.count, resets: active.session.store.resets });
      void active.session.reconcile().catch(() => undefined);
    } else {
      this.reservations.release(r);
    }
  }

  /**
   * Checks every intent; the first refusal is audited and thrown, nothing is sent. Each intent
   * that passes is reserved in the same step (no await between the check and the reservation),
   * so the next check, in this call or a concurrent one, counts it.
   */
  private gate(active: ActiveSession, intents: OrderIntent[], base: AuditBase, confirmed: boolean | undefined): Reservation[] {
    const limits = this.risk.limits(active.profileId);
    const st = this.state(active.session, active.profileId);
    const held: Reservation[] = [];
    for (const i of intents) {
      const v = checkOrder({ ...i, confirmed: confirmed === true }, limits, { ...st, reserved: [...(st.reserved ?? []), ...held] });
      if (!v.ok) {
        for (const r of held) this.reservations.release(r);
        this.record(active, { ...base, gate: `refused: ${v.code}` }, 'refused', v.message, null);
        throw new RiskRefusal(v.code, v.message, v.confirmable);
      }
      const added = i.previous && i.previous.side === i.side ? Decimal.max(D('0'), i.count.minus(i.previous.count)) : i.count;
      held.push(this.reservations.reserve(active.profileId, i, added));
    }
    const now = Date.now();
    for (const i of intents) this.recent.push(recentOf(i, now));
    return held;
  }

  private record(active: ActiveSession, base: AuditBase, outcome: AuditEntry['outcome'], answer: string, latencyMs: number | null): void {
    try {
      this.audit.appendSoon({
        ts: Date.now(),
        profileId: active.profileId,
        keyId: active.keyId,
        action: base.action,
        origin: base.origin ?? null,
        ticker: base.ticker,
        asked: base.asked,
        gate: base.gate,
        clientOrderId: base.clientOrderId ?? null,
        outcome,
        answer: answer.slice(0, 500),
        latencyMs,
      });
    } catch (e) {
      this.opts.log?.(`[audit] could not write: ${(e as Error).message}`);
    }
  }

  /** Runs a send, recording its answer or error and latency. */
  private async audited<T>(active: ActiveSession, base: AuditBase, send: () => Promise<T>, summary: (r: T) => string, route?: { via: string }): Promise<T> {
    const t0 = performance.now();
    const via = () => (route ? `via ${route.via}: ` : '');
    try {
      const r = await send();
      this.record(active, base, 'ok', via() + summary(r), Math.round(performance.now() - t0));
      return r;
    } catch (e) {
      const err = this.opts.describeError(e);
      this.record(active, base, 'error', `${via()}${err.code ? `${err.code}: ` : ''}${err.message}`, Math.round(performance.now() - t0));
      throw e;
    }
  }

  /**
   * One order that passed the gate, on the profile's route: FIX when the profile routes order
   * entry there and its session is up, REST otherwise (and when the session is lost with the
   * order unanswered: REST looks it up by its client_order_id before sending, so it is never sent
   * twice). The kill switch's hold applies on either route, right before the order leaves.
   * `route.via` says which route it took, for the audit journal.
   */
  private async sendOrder(active: ActiveSession, order: Omit<OrderDraft, 'origin' | 'confirmed'>, clientOrderId: string, guard: SendGuard, route: { via: string }): Promise<AnsweredOrder> {
    const fix = this.opts.fix?.route(active) ?? null;
    if (fix) {
      guard.queueSignal?.throwIfAborted();
      guard.beforeSend?.();
      if (fix.up) {
        route.via = 'FIX';
        const t0 = performance.now();
        try {
          const r = await fix.place(order, clientOrderId);
          active.session.noteAck(performance.now() - t0);
          return { ...r, resets: active.session.store.resets };
        } catch (e) {
          if (e instanceof FixRouteDown) {
            route.via = `REST (FIX down: ${e.message})`;
            return orders.place(active.session, order, clientOrderId, guard);
          }
          if (e instanceof OrderOutcomeUnknownError) {
            route.via = 'FIX, answer lost; looked up over REST';
            return orders.place(active.session, order, clientOrderId, guard, true);
          }
          throw e;
        }
      }
      route.via = `REST (FIX ${fix.session.phase}: ${fix.session.detail})`;
      return orders.place(active.session, order, clientOrderId, guard);
    }
    route.via = 'REST';
    return orders.place(active.session, order, clientOrderId, guard);
  }

  /**
   * Would this order pass the gate now? For what main will send later by itself (a local
   * order's trigger, a bracket's target): refused at creation rather than when it fires. The
   * limits that depend on the book at the time (the collar, a stale book) are checked when it
   * fires. Nothing is recorded and nothing counts as a recent order.
   */
  precheck(o: { ticker: string; side: 'bid' | 'ask'; price: string; count: string; confirmed: boolean }): void {
    const active = this.profiles.need();
    const v = checkOrder({ action: 'place', ticker: o.ticker, side: o.side, price: D(o.price), count: D(o.count), confirmed: o.confirmed }, this.risk.limits(active.profileId), {
      ...this.state(active.session, active.profileId),
      recent: [],
      // the book it will meet is the one at the trigger: the collar and the book's state are judged then
      book: () => ({ stale: false, yesBid: null, yesAsk: null }),
    });
    if (!v.ok) throw new RiskRefusal(v.code, `${v.message} (checked when the local order was set up)`, v.confirmable);
  }

  // ------------------------------------------------------------------ orders

  private draftIntent(d: OrderDraft, action = 'place'): OrderIntent {
    return { action, ticker: d.ticker, side: d.side, price: D(d.price), count: D(d.count) };
  }

  async placeOrder(draft: OrderDraft): Promise<OrderAck> {
    ackTrace.mark('door');
    const active = this.profiles.need();
    const { origin, confirmed, ...order } = draft;
    const intent = this.draftIntent(draft);
    const base: AuditBase = { action: 'place', origin, ticker: draft.ticker, asked: { ...order }, gate: 'passed' };
    const [r] = this.gate(active, [intent], base, confirmed);
    ackTrace.mark('gated');
    const clientOrderId = randomUUID();
    let a: AnsweredOrder;
    const route = { via: 'REST' };
    try {
      a = await this.audited(active, { ...base, clientOrderId }, () => this.sendOrder(active, order, clientOrderId, this.sendGuard(active.profileId), route), (x) => ackSummary(x.ack), route);
    } catch (e) {
      this.unsettle(active, r!, e);
      throw e;
    }
    this.settle(active, r!, a);
    ackTrace.mark('settled');
    return a.ack;
  }

  /**
   * Each order is gated on its own (a refused one is reported in its slot); the rest go in the
   * exchange's batch create, as many per request as the write bucket holds.
   */
  async placeOrders(input: Out<typeof BatchPlaceInput>): Promise<{ results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[] }> {
    const active = this.profiles.need();
    const results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[] = new Array(input.orders.length);
    const going: { slot: number; r: Reservation; base: AuditBase; entry: { draft: Omit<OrderDraft, 'origin' | 'confirmed'>; clientOrderId: string } }[] = [];
    input.orders.forEach((d, slot) => {
      const { origin, confirmed, ...order } = d;
      const base: AuditBase = { action: 'place', origin, ticker: d.ticker, asked: { ...order, batch: true }, gate: 'passed' };
      try {
        const [r] = this.gate(active, [this.draftIntent(d)], base, confirmed);
        const clientOrderId = randomUUID();
        going.push({ slot, r: r!, base: { ...base, clientOrderId }, entry: { draft: order, clientOrderId } });
      } catch (e) {
        results[slot] = { ok: false, error: this.opts.describeError(e) };
      }
    });
    if (going.length) {
      const t0 = performance.now();
      let slots: Awaited<ReturnType<typeof orders.placeBatch>>;
      try {
        slots = await orders.placeBatch(
          active.session,
          going.map((g) => g.entry),
          this.sendGuard(active.profileId),
        );
      } catch (e) {
        slots = going.map(() => ({ ok: false as const, error: e }));
      }
      const ms = Math.round(performance.now() - t0);
      going.forEach((g, i) => {
        const out = slots[i]!;
        if (out.ok) {
          this.record(active, g.base, 'ok', ackSummary(out.answered.ack), ms);
          this.settle(active, g.r, out.answered);
          results[g.slot] = { ok: true, ack: out.answered.ack };
        } else {
          const err = this.opts.describeError(out.error);
          this.record(active, g.base, 'error', `${err.code ? `${err.code}: ` : ''}${err.message}`, ms);
          this.unsettle(active, g.r, out.error);
          results[g.slot] = { ok: false, error: err };
        }
      });
    }
    return { results };
  }

  async amendOrder(a: Out<typeof AmendInput>): Promise<unknown> {
    const active = this.profiles.need();
    const { order_id, subaccount, origin, confirmed, ...body } = a;
    const previous = await orders.restingOrder(active.session, order_id);
    if (!previous) throw new StateError(`order ${order_id} is not resting: nothing to amend`);
    const intent: OrderIntent = { action: 'amend', ticker: a.ticker, side: a.side, price: D(a.price), count: D(a.count), previous: { side: previous.side, price: previous.price, count: previous.remaining } };
    const base: AuditBase = { action: 'amend', origin, ticker: a.ticker, asked: { order_id, ...body }, gate: 'passed' };
    const held = this.gate(active, [intent], base, confirmed);
    try {
      return await this.audited(
        active,
        base,
        () => orders.amendOrder(active.session, order_id, subaccount, body, this.sendGuard(active.profileId)),
        () => `amended ${order_id}`,
      );
    } finally {
      // the amended order is in the store (from the answer, or read back) before its reservation goes
      for (const r of held) this.reservations.release(r);
    }
  }

  async decreaseOrder(d: Out<typeof DecreaseInput>): Promise<unknown> {
    const active = this.profiles.need();
    const { order_id, subaccount, ticker, origin, reduce_by, reduce_to } = d;
    const body = { market_ticker: ticker, ...(reduce_by !== undefined ? { reduce_by } : { reduce_to: reduce_to! }) };
    const base: AuditBase = { action: 'decrease', origin, ticker, asked: { order_id, ...body }, gate: 'not gated (reduces)' };
    return this.audited(active, base, () => orders.decreaseOrder(active.session, order_id, subaccount, body), () => `decreased ${order_id}`);
  }

  async cancelOrder(c: Out<typeof CancelInput>): Promise<{ reduced_by: string; ts_ms: number }> {
    const active = this.profiles.need();
    const base: AuditBase = { action: 'cancel', origin: c.origin, ticker: c.ticker ?? null, asked: { order_id: c.order_id, ...(c.subaccount !== undefined ? { subaccount: c.subaccount } : {}) }, gate: 'not gated (reduces)' };
    return this.audited(active, base, () => orders.cancelOrder(active.session, c.order_id, c.subaccount), (x) => `canceled ${c.order_id}: ${x.reduced_by}`);
  }

  async batchCancel(b: Out<typeof BatchCancelInput>): Promise<unknown> {
    const active = this.profiles.need();
    const list = b.orders.map((o) => ({ order_id: o.order_id, ...(o.subaccount !== undefined ? { subaccount: o.subaccount } : {}), ...(o.ticker ? { market_ticker: o.ticker } : {}) }));
    const base: AuditBase = { action: 'batch_cancel', origin: b.origin, ticker: null, asked: { orders: list.map((o) => o.order_id) }, gate: 'not gated (reduces)' };
    const r = await this.audited(active, base, () => orders.batchCancel(active.session, list), (x) => `${x.canceled} of ${x.of} canceled`);
    return r.answer;
  }

  /** With a ticker: batch-cancel my resting orders there; without: the exchange's cancel-all. */
  async cancelAll(c: Out<typeof CancelAllInput>): Promise<{ canceled: number }> {
    const active = this.profiles.need();
    const base: AuditBase = { action: 'cancel_all', origin: c.origin, ticker: c.ticker ?? null, asked: { ...(c.subaccount !== undefined ? { subaccount: c.subaccount } : {}) }, gate: 'not gated (reduces)' };
    return this.audited(active, base, () => orders.cancelAll(active.session, c.ticker, c.subaccount), (r) => `${r.canceled} canceled`);
  }

  async watchMarkets(tickers: string[]): Promise<void> {
    await this.profiles.need().session.watchMarkets(tickers);
  }

  // ------------------------------------------------------------------ REST passthrough

  /** Rows by their `renderer` access: reads and harmless writes go; exposure goes through the gate; the rest never. */
  async request(input: Out<typeof RestCallInput>): Promise<unknown> {
    const row = (() => {
      try {
        return endpointRow(input.id);
      } catch {
        throw new StateError(`unknown endpoint ${input.id}`);
      }
    })();
    if (row.renderer === undefined) {
      throw new StateError(`${input.id} is not available to the UI through request: ${row.id.includes('ApiKey') ? 'keys are managed through the Account panel (importKey, generateKey, rotateKey, deleteKey, revokeExchangeKey), which keep private keys in main' : 'use the typed order methods (cancelOrder, batchCancel, cancelAll, decreaseOrder)'}`);
    }
    if (row.renderer !== 'read' && !UI_WRITE_ROWS.has(row.id as EndpointId)) {
      const instead = TYPED_INSTEAD[row.id as EndpointId];
      throw new StateError(`${input.id} is not sent through request: no panel writes with it${instead ? `; the terminal uses ${instead}` : ''}. Nothing was sent`);
    }
    const active = this.profiles.need();
    const args: Record<string, unknown> = {};
    if (input.params) args.params = input.params;
    if (input.query) args.query = input.query;
    if (input.body !== undefined) args.body = input.body;
    const call = (a: Record<string, unknown>) => (active.session.client.call as (id: EndpointId, x: unknown) => Promise<unknown>)(row.id as EndpointId, a);
    if (row.renderer !== 'exposure') return scrub(await call(args));

    // The row's own schemas first: a malformed call is a validation error, not a risk question.
    const v = validateArgs(row, args);
    let intents: OrderIntent[];
    try {
      intents = await intentsFor(row.id, v, { client: active.session.client, userId: active.session.userId });
    } catch (e) {
      if (e instanceof IntentError) throw new RiskRefusal('not_sized', `${row.id}: ${e.message}; nothing was sent`);
      throw e;
    }
    if (intents.length === 0) throw new RiskRefusal('not_sized', `${row.id}: nothing to trade in this call; nothing was sent`);
    // (order creates never come this way: createOrder is refused above, placeOrder carries the client_order_id)
    const first = intents[0]!;
    const base: AuditBase = { action: first.action, origin: input.origin ?? 'api', ticker: first.ticker, asked: { id: row.id, ...args }, gate: 'passed', clientOrderId: null };
    const held = this.gate(active, intents, base, input.confirmed);
    const guard = this.sendGuard(active.profileId);
    try {
      return await this.audited(active, base, async () => scrub(await (active.session.client.call as (id: EndpointId, x: unknown, o: unknown) => Promise<unknown>)(row.id as EndpointId, args, guard)), () => intents.map(describeIntent).join('; '));
    } finally {
      // off the book: what it trades comes back as fills and positions
      for (const r of held) this.reservations.release(r);
    }
  }

  // ------------------------------------------------------------------ limits, kill switch, audit

  async getRisk(): Promise<RiskView> {
    return this.riskView();
  }

  async saveRiskLimits(limits: RiskLimits, outOfBand?: { consoleCode?: string | undefined }): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile: limits are kept per profile');
    const looser = loosenedLimits(this.risk.limits(profileId), limits);
    if (looser.length && !(await this.confirmed('Loosen the risk limits?', `Loosen ${looser.join(', ')}?`, 'Loosen', outOfBand?.consoleCode))) {
      throw new StateError(`loosening the risk limits was not confirmed in the terminal (${looser.join(', ')}); nothing changed`);
    }
    this.risk.setLimits(profileId, limits);
    this.pushRisk();
    return this.riskView();
  }

  /**
   * Engaged (and on disk) before anything else: from here no order passes the gate, every send
   * still waiting for tokens is dropped, and a send about to leave is stopped right before it
   * does; the cancel-all goes ahead of the queue. Answers once the cancel-all is answered; the
   * order groups and the reconcile follow, and the view says what is left.
   */
  async engageKillSwitch(): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile');
    const since = Date.now();
    this.risk.setKillSwitch(profileId, { engaged: true, since, detail: 'canceling…' });
    this.killGates.get(profileId)?.abort(new RiskRefusal('kill_switch', 'kill switch engaged: the order was dropped from the queue before it was sent; nothing was sent'));
    this.killGates.delete(profileId);
    this.pushRisk();
    const active = this.profiles.active();
    let detail = 'no session: resting orders will be canceled when the session starts';
    if (active) {
      const base: AuditBase = { action: 'kill_engage', origin: undefined, ticker: null, asked: {}, gate: 'not gated (reduces)' };
      const done = await this.audited(active, base, () => orders.cancelEverything(active.session), (d) => d.detail).catch((e: unknown) => ({ detail: `cancel failed: ${(e as Error).message}`, later: null }));
      detail = done.detail;
      void done.later?.then((full) => {
        const ks = this.risk.killSwitch(profileId);
        if (ks.engaged && ks.since === since) {
          this.risk.setKillSwitch(profileId, { ...ks, detail: full });
          this.pushRisk();
        }
      });
    }
    const ks = this.risk.killSwitch(profileId);
    if (ks.engaged && ks.since === since) this.risk.setKillSwitch(profileId, { engaged: true, since, detail });
    this.pushRisk();
    return this.riskView();
  }

  async releaseKillSwitch(input?: { consoleCode?: string | undefined }): Promise<RiskView> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) throw new StateError('no active profile');
    if (this.risk.killSwitch(profileId).engaged && !(await this.confirmed('Release the kill switch?', 'Orders will be accepted again from every panel and key.', 'Release', input?.consoleCode))) {
      throw new StateError('releasing the kill switch was not confirmed in the terminal; it stays engaged');
    }
    this.risk.setKillSwitch(profileId, { engaged: false, since: null, detail: `released at ${new Date().toISOString()}` });
    const active = this.profiles.active();
    if (active) this.record(active, { action: 'kill_release', origin: undefined, ticker: null, asked: { confirm: true }, gate: 'not gated' }, 'ok', 'released', null);
    this.pushRisk();
    return this.riskView();
  }

  /** The shell's own confirmation, when it has one; the page cannot answer it (on the web host it sends the console's code). */
  private async confirmed(title: string, message: string, allow: string, code?: string): Promise<boolean> {
    return this.opts.confirmInMain ? this.opts.confirmInMain({ title, message, allow, code }) : true;
  }

  async getAuditLog(filter: AuditFilter): Promise<AuditEntry[]> {
    const profileId = this.profiles.profiles.activeProfileId;
    if (!profileId) return [];
    return this.audit.read(profileId, filter);
  }
}

function ackSummary(a: OrderAck): string {
  return `order ${a.order_id}: filled ${a.fill_count}, resting ${a.remaining_count}`;
}

/** Defense in depth: an answer that carries key material never reaches the renderer. */
function scrub(answer: unknown): unknown {
  if (answer !== null && typeof answer === 'object' && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(JSON.stringify(answer))) {
    throw new StateError('the answer carried private key material and was withheld');
  }
  return answer;
}

