// A strategy live (or on paper: the embedded exchange is a profile like any other), held by main
// and run in a worker thread of its own (strategy-thread.ts). Main feeds it the session's events
// (books once per frame for the markets it watches, trades, its own fills and order states,
// timers) and receives its decisions; every order goes through TradingService.placeOrder, the
// one entry the ticket and the ladder use, so the risk gate, the kill switch and the audit journal
// see it; cancels through cancelOrder.
//
// Main treats the strategy as untrusted:
// - it is bound to the profile and session it was started on: before every send the venue checks
//   that session is still the active one and refuses otherwise (a profile switch stops it first);
// - any fault (at load, in a handler, past a budget, in a venue call, its thread failing or not
//   answering within answerMs) stops it: its thread is terminated, its orders are canceled,
//   including those whose ack comes after the stop (canceled as they are acked);
// - nothing it does can throw on main's event loop (every promise here ends in a catch that
//   cannot throw).
import type { Worker } from 'node:worker_threads';
import type { TradingPort as TradingService } from '../session/active-session';
import type { ActiveSession } from '../session/active-session';
import type { TradeView } from '../../src-shared/ipc/contract';
import type { StrategyRunView } from '../../src-shared/ipc/strategies';
import type { Decisions, FromWorker, LiveEvent, StrategyBudget, ToWorker } from './protocol';
import { centiFrom, ticksFrom, type BookTop, type StrategyOrder } from './runner';
import { spawnStrategyThread } from './thread';

const dollars = (ticks: number) => (ticks / 10_000).toFixed(4);
const contracts = (centi: number) => (centi / 100).toFixed(2);

/**
 * The provenance a strategy's orders and cancels carry to the gate and the audit journal: the one
 * place it is set (the lead adapts it to the intent work: "strategy:<id>").
 */
export function strategyOrigin(strategyId: string): { origin: 'strategy'; originId: string } {
  return { origin: 'strategy', originId: strategyId };
}

/** One order of the strategy, as main knows it (main does not take the worker's word for it). */
interface Tracked {
  order: StrategyOrder;
  /** the exchange's id, once acked */
  exchangeId: string | null;
  /** the place is on its way (no ack or refusal yet) */
  inFlight: boolean;
  /** cancel it as soon as it is acked (the strategy stopped meanwhile) */
  cancelWhenAcked: boolean;
}

export interface LiveStrategyOptions {
  id: string;
  name: string;
  code: string;
  params: Record<string, unknown>;
  budget: StrategyBudget;
  /** on a profile switch: cancel its orders (default) or leave them resting */
  onSwitch: 'cancel' | 'leave';
  trading: TradingService;
  active: () => ActiveSession | null;
  /** the session it was started on: the only one it may ever send to */
  bound: ActiveSession;
  log: (m: string) => void;
  /** what it watches or its timer changed, or it ended */
  changed: () => void;
}

const MAX_LOG = 100;
const MAX_TRACKED = 500;
const MAX_EARLY_FILLS = 200;

export class LiveStrategy {
  status: 'starting' | 'running' | 'stopped' | 'faulted' = 'starting';
  fault: string | null = null;
  readonly log: string[] = [];
  private readonly orders = new Map<string, Tracked>();
  private readonly byExchangeId = new Map<string, Tracked>();
  private fills = 0;
  private fees = 0;
  private positions: [string, number][] = [];
  watched: Set<string> | null = null;
  private timerMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;
  private seq = 0;
  /** when each event the worker has not answered yet was sent (answers come in order) */
  private readonly unanswered: number[] = [];
  /** the latest book of each market not yet sent while the worker was busy (books coalesce) */
  private readonly pendingBooks = new Map<string, BookTop>();
  private readonly lastTops = new Map<string, BookTop>();
  private startedAt = 0;
  private started: ((ok: boolean) => void) | null = null;
  /** a stop asked while it loaded */
  private stopWhenStarted: { why: string; cancel: boolean } | null = null;
  /** cancels on their way */
  private readonly canceling = new Set<Promise<void>>();
  /**
   * Fills that came on the private stream before the ack of the order they belong to could name
   * it (an order that takes at once can fill before its ack): kept, bounded, while an order is in
   * flight, and handed to the order when its ack comes.
   */
  private readonly earlyFills: Record<string, unknown>[] = [];

  constructor(private readonly opts: LiveStrategyOptions) {}

  get id(): string {
    return this.opts.id;
  }

  get profileId(): string {
    return this.opts.bound.profileId;
  }

  get onSwitch(): 'cancel' | 'leave' {
    return this.opts.onSwitch;
  }

  /** Is `a` the session it was started on? */
  boundTo(a: ActiveSession): boolean {
    return a.profileId === this.opts.bound.profileId && a.session === this.opts.bound.session;
  }

  get running(): boolean {
    return this.status === 'starting' || this.status === 'running';
  }

  private note(line: string): void {
    this.log.push(line.slice(0, 500));
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }

  /** Starts its thread and loads it; resolves once it has loaded (or faulted: see status). */
  start(now: number): Promise<void> {
    let w: Worker;
    try {
      w = spawnStrategyThread(this.opts.budget.heapMb);
    } catch (e) {
      this.end(`its thread could not start: ${(e as Error).message}`, true);
      return Promise.resolve();
    }
    this.worker = w;
    w.unref();
    w.on('message', (m: FromWorker) => this.guard(() => this.onMessage(m)));
    w.on('error', (e) => this.guard(() => this.end(`its thread failed: ${e.message}${/memory/i.test(e.message) ? ` (past its heap of ${this.opts.budget.heapMb} MiB)` : ''}`, true)));
    w.on('exit', (code) => this.guard(() => this.running && this.end(`its thread exited (code ${code})`, true)));
    this.startedAt = performance.now();
    this.watchdog = setInterval(() => this.guard(() => this.check()), Math.min(250, this.opts.budget.answerMs / 4));
    this.watchdog.unref();
    const done = new Promise<void>((resolve) => {
      this.started = () => resolve();
    });
    this.post({ type: 'start', code: this.opts.code, params: this.opts.params, now, budget: this.opts.budget });
    return done;
  }

  /** Nothing a strategy does may throw on main's loop: a fault here stops it, and only it. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      try {
        this.end(`a venue call failed: ${(e as Error).message}`, true);
      } catch (e2) {
        this.opts.log(`[strategy ${this.opts.id}] could not stop cleanly: ${(e2 as Error).message}`);
      }
    }
  }

  private post(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  /** The watchdog: a thread that does not answer within its budget is terminated. */
  private check(): void {
    if (!this.running) return;
    const now = performance.now();
    if (this.status === 'starting') {
      if (now - this.startedAt > this.opts.budget.startMs) this.end(`it did not load within ${this.opts.budget.startMs} ms`, true);
      return;
    }
    const oldest = this.unanswered[0];
    if (oldest !== undefined && now - oldest > this.opts.budget.answerMs) this.end(`it did not answer an event within ${this.opts.budget.answerMs} ms and its thread was terminated`, true);
  }

  private onMessage(m: FromWorker): void {
    if (!this.running) return;
    if (m.type === 'started') {
      this.status = 'running';
      const stop = this.stopWhenStarted;
      if (stop) {
        // stopped while it loaded: what it says of its load counts (a fault shows), what it decided does not go out
        for (const line of m.logs) this.note(line);
        if (m.fault) this.end(m.fault, true);
        else this.end(stop.why, false, stop.cancel);
        return;
      }
      this.apply(m);
      if (this.running && this.timerMs) this.arm();
      this.started?.(true);
      this.started = null;
      return;
    }
    if (m.type === 'done') {
      this.unanswered.shift();
      this.apply(m);
      if (this.running && this.unanswered.length === 0 && this.pendingBooks.size) {
        const books = [...this.pendingBooks.values()];
        this.pendingBooks.clear();
        for (const top of books) this.send({ kind: 'book', now: Date.now(), top });
      }
      return;
    }
    this.end(`its thread answered out of turn (${m.type})`, true);
  }

  private apply(d: Decisions): void {
    for (const line of d.logs) this.note(line);
    this.fills = d.summary.fills;
    this.fees = d.summary.fees;
    this.positions = d.summary.positions;
    let changed = false;
    if (d.watched !== undefined) {
      this.watched = d.watched ? new Set(d.watched) : null;
      changed = true;
    }
    if (d.timerMs !== undefined && d.timerMs !== this.timerMs) {
      this.timerMs = d.timerMs;
      if (this.status === 'running') this.arm();
    }
    if (d.fault) {
      // what it decided in the handler that faulted is dropped; what it has open is canceled
      this.end(d.fault, true);
      return;
    }
    if (d.places.length > this.opts.budget.maxOrdersPerSec) {
      this.end(`it placed ${d.places.length} orders at once (the most is ${this.opts.budget.maxOrdersPerSec} a second)`, true);
      return;
    }
    for (const id of d.cancels) this.cancelOne(id);
    for (const o of d.places) this.place(o);
    if (changed) {
      this.primeTops();
      this.opts.changed();
    }
  }

  /**
   * The current top of each market it now watches, as its first book event: a market that is
   * still when the strategy starts watching it is quoted at once, not at its next change, which
   * may not come for a long time (the market maker waited for one). A market main has no book of
   * yet arrives with its snapshot, as any change does. A strategy that watches every market learns
   * them as they change (all of them at once would be a burst of events).
   */
  private primeTops(): void {
    if (!this.watched || this.status !== 'running') return;
    this.onBooks(this.opts.bound.session, [...this.watched]);
  }

  private arm(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.timerMs) return;
    this.timer = setInterval(() => this.guard(() => this.unanswered.length === 0 && this.send({ kind: 'timer', now: Date.now() })), this.timerMs);
    this.timer.unref();
  }

  private send(event: LiveEvent): void {
    if (!this.running || this.status === 'starting') return;
    if (this.unanswered.length >= this.opts.budget.maxQueued) {
      this.end(`it fell ${this.unanswered.length} events behind and was stopped`, true);
      return;
    }
    this.unanswered.push(performance.now());
    this.post({ type: 'event', seq: ++this.seq, event });
  }

  // ------------------------------------------------------------------ the venue (main's order path)

  /** The session it was started on is still the active one. */
  private bound(): ActiveSession | null {
    const a = this.opts.active();
    return a && this.boundTo(a) ? a : null;
  }

  private place(input: StrategyOrder): void {
    // what the worker says is checked again here: an order main could not describe is a fault
    const o: StrategyOrder = { ...input, remaining: input.count, filled: 0, status: 'pending', reason: '' };
    if (typeof o.id !== 'string' || this.orders.has(o.id) || !Number.isInteger(o.price) || !Number.isInteger(o.count) || (o.side !== 'bid' && o.side !== 'ask')) throw new Error(`its thread sent an order main cannot read`);
    const t: Tracked = { order: o, exchangeId: null, inFlight: true, cancelWhenAcked: false };
    this.orders.set(o.id, t);
    this.prune();
    if (!this.bound()) {
      this.end(`the profile it was started on (${this.opts.bound.profileId}) is no longer the active session: it sends nowhere else`, true);
      return;
    }
    this.opts.trading
      .placeOrder({ ticker: o.ticker, side: o.side, price: dollars(o.price), count: contracts(o.count), ...strategyOrigin(this.opts.id) })
      .then((ack) => {
        t.inFlight = false;
        t.exchangeId = ack.order_id;
        this.byExchangeId.set(ack.order_id, t);
        const early = this.earlyFills.filter((f) => String(f.order_id ?? '') === ack.order_id);
        if (early.length > 0) this.earlyFills.splice(0, this.earlyFills.length, ...this.earlyFills.filter((f) => !early.includes(f)));
        for (const f of early) this.onFill(f);
        const rests = Number(ack.remaining_count) > 0;
        if (!this.running) {
          if (rests && t.cancelWhenAcked) this.cancelAtExchange(t, 'acked after the strategy stopped');
          return;
        }
        if (rests) this.update(t, 'resting', '');
        if (rests && t.cancelWhenAcked) this.cancelAtExchange(t, 'asked by the strategy');
      })
      .catch((e: unknown) => {
        t.inFlight = false;
        this.update(t, 'refused', e instanceof Error ? e.message : String(e));
      })
      .catch((e: unknown) => this.opts.log(`[strategy ${this.opts.id}] ${(e as Error).message}`));
  }

  private cancelOne(id: string): void {
    const t = this.orders.get(id);
    if (!t || (t.order.status !== 'pending' && t.order.status !== 'resting')) return;
    if (t.inFlight) {
      t.cancelWhenAcked = true;
      return;
    }
    this.cancelAtExchange(t, 'asked by the strategy');
  }

  /** Sends the cancel through the gate's door (never throws; settle() waits for it). */
  private cancelAtExchange(t: Tracked, why: string): void {
    if (!t.exchangeId) return;
    if (!this.bound()) {
      this.note(`could not cancel ${t.order.id} (${why}): the profile it was started on is no longer the active session`);
      return;
    }
    const p = this.opts.trading
      .cancelOrder({ order_id: t.exchangeId, ticker: t.order.ticker, ...strategyOrigin(this.opts.id) })
      .then(() => this.update(t, 'canceled', why))
      .catch((e: unknown) => {
        // an order that filled or was canceled meanwhile is gone already
        this.opts.log(`[strategy ${this.opts.id}] cancel of ${t.order.id} failed: ${(e as Error).message}`);
        if (!this.running) this.note(`cancel of ${t.order.id} failed: ${(e as Error).message}`);
      })
      .catch(() => undefined)
      .finally(() => this.canceling.delete(p));
    this.canceling.add(p);
  }

  /**
   * After a stop: waits (at most `ms`) for the orders still in flight to be acked and for every
   * cancel sent to answer, so that a profile switch cancels on the session they went to.
   */
  async settle(ms: number): Promise<void> {
    const until = performance.now() + ms;
    while (performance.now() < until && (this.inFlight() > 0 || this.canceling.size > 0)) {
      await Promise.race([Promise.all([...this.canceling]), new Promise((r) => setTimeout(r, 20))]);
    }
  }

  private update(t: Tracked, status: StrategyOrder['status'], reason: string): void {
    t.order.status = status;
    t.order.reason = reason;
    if (status === 'canceled' || status === 'refused') t.order.remaining = 0;
    this.send({ kind: 'order', now: Date.now(), id: t.order.id, status, reason });
  }

  /** Terminal orders beyond the newest MAX_TRACKED are forgotten (open ones never). */
  private prune(): void {
    if (this.orders.size <= MAX_TRACKED) return;
    for (const [id, t] of this.orders) {
      if (this.orders.size <= MAX_TRACKED) break;
      if (t.inFlight || t.order.status === 'pending' || t.order.status === 'resting') continue;
      this.orders.delete(id);
      if (t.exchangeId) this.byExchangeId.delete(t.exchangeId);
    }
  }

  // ------------------------------------------------------------------ the session's stream

  onBooks(session: ActiveSession['session'], tickers: string[]): void {
    if (this.status !== 'running' || session !== this.opts.bound.session) return;
    const w = this.watched;
    for (const t of tickers) {
      if (w && !w.has(t)) continue;
      const b = session.books.book(t);
      if (!b) continue;
      const bid = b.bestYesBid;
      const ask = b.bestYesAsk;
      const top: BookTop = { ticker: t, bid: bid > 0 ? bid : null, ask: ask > 0 ? ask : null, bidSize: bid > 0 ? b.bidSize(0, bid) : 0, askSize: ask > 0 ? b.yesAskSize(ask) : 0 };
      const last = this.lastTops.get(t);
      if (last && last.bid === top.bid && last.ask === top.ask && last.bidSize === top.bidSize && last.askSize === top.askSize) continue;
      this.lastTops.set(t, top);
      if (this.unanswered.length > 0) this.pendingBooks.set(t, top);
      else this.send({ kind: 'book', now: Date.now(), top });
    }
  }

  onTrade(t: TradeView): void {
    if (this.status !== 'running') return;
    if (this.watched && !this.watched.has(t.ticker)) return;
    this.send({ kind: 'trade', now: Date.now(), trade: { ticker: t.ticker, price: ticksFrom(t.yes_price_dollars), count: centiFrom(t.count_fp), takerSide: t.taker_side === 'no' ? 'no' : 'yes' } });
  }

  /** A fill from the private stream: the strategy's if the order is. */
  onFill(f: Record<string, unknown>): void {
    const t = this.byExchangeId.get(String(f.order_id ?? ''));
    if (!t) {
      if (this.inFlight() > 0) {
        this.earlyFills.push(f);
        if (this.earlyFills.length > MAX_EARLY_FILLS) this.earlyFills.shift();
      }
      return;
    }
    const o = t.order;
    const count = centiFrom(String(f.count_fp ?? ''));
    o.filled += count;
    o.remaining = Math.max(0, o.remaining - count);
    if (o.remaining === 0) o.status = 'done';
    const fee = f.fee_cost === undefined || f.fee_cost === null ? 0 : Math.round(Number(f.fee_cost) * 1e6);
    this.send({ kind: 'fill', now: Date.now(), fill: { orderId: o.id, ticker: o.ticker, side: o.side, price: ticksFrom(String(f.yes_price_dollars ?? '')), count, maker: f.is_taker === false, fee, ts: Date.now() } });
  }

  // ------------------------------------------------------------------ stopping

  /**
   * Stops it: its thread is terminated (its memory goes with it), and its orders are canceled
   * unless `cancel` is false (left resting, as the trader chose for a profile switch). Orders still
   * in flight are canceled when their ack comes.
   */
  end(why: string, faulted: boolean, cancel = true): void {
    if (!this.running) return;
    if (this.status === 'starting' && !faulted && this.worker) {
      // a stop while it loads waits for the load (bounded by the watchdog): a load fault shows as one
      this.stopWhenStarted ??= { why, cancel };
      return;
    }
    this.status = faulted ? 'faulted' : 'stopped';
    if (faulted) this.fault = why;
    const line = `stopped: ${why}${cancel ? '' : ' (its orders are left resting, as chosen at start)'}`;
    if (this.log[this.log.length - 1] !== line) this.note(line);
    if (this.timer) clearInterval(this.timer);
    if (this.watchdog) clearInterval(this.watchdog);
    this.timer = null;
    this.watchdog = null;
    const w = this.worker;
    this.worker = null;
    if (w) {
      w.removeAllListeners('message');
      void w.terminate().catch(() => undefined);
    }
    this.unanswered.length = 0;
    this.pendingBooks.clear();
    this.lastTops.clear();
    this.started?.(false);
    this.started = null;
    if (cancel) {
      for (const t of this.orders.values()) {
        if (t.order.status !== 'pending' && t.order.status !== 'resting') continue;
        if (t.inFlight) t.cancelWhenAcked = true;
        else this.cancelAtExchange(t, faulted ? 'the strategy faulted' : 'the strategy stopped');
      }
    }
    this.opts.changed();
  }

  /** Orders still on their way (a profile switch waits for their acks, to cancel them on the session they went to). */
  inFlight(): number {
    let n = 0;
    for (const t of this.orders.values()) if (t.inFlight) n++;
    return n;
  }

  view(): StrategyRunView {
    return {
      id: this.opts.id,
      name: this.opts.name,
      status: this.status === 'starting' ? 'running' : this.status,
      fault: this.fault,
      log: this.log.slice(-MAX_LOG),
      orders: [...this.orders.values()].slice(-200).map(({ order: o }) => ({ id: o.id, ticker: o.ticker, side: o.side, price: dollars(o.price), count: contracts(o.count), filled: contracts(o.filled), status: o.status, reason: o.reason })),
      fills: this.fills,
      positions: Object.fromEntries(this.positions.map(([t, p]) => [t, contracts(p)])),
      fees: (this.fees / 1e6).toFixed(6),
    };
  }
}
