// One strategy at work: its sandbox, the orders it made and what became of them, its position,
// cash and log. Events come in normalised (the same for live, paper and backtest), the strategy
// decides inside its sandbox, and its decisions go out to a venue one by one in the order it
// made them: the replayed books in a backtest, or main's order path behind the risk gate live
// or on paper. Money is integers here: prices in ticks of $0.0001, counts in centi-contracts,
// cash in micro-dollars.
import { Sandbox, StrategyFault, type SandboxLimits } from './sandbox';

export type BookSide = 'bid' | 'ask';

export interface StrategyOrder {
  id: string;
  ticker: string;
  side: BookSide;
  /** YES price, ticks */
  price: number;
  /** centi-contracts */
  count: number;
  remaining: number;
  filled: number;
  status: 'pending' | 'resting' | 'done' | 'canceled' | 'refused';
  /** the event time it was decided at (ms) */
  decidedAt: number;
  reason: string;
}

export interface StrategyFill {
  orderId: string;
  ticker: string;
  side: BookSide;
  price: number;
  count: number;
  maker: boolean;
  /** micro-dollars */
  fee: number;
  ts: number;
  /** the YES mid (ticks, may be a half tick) of the book at the fill, where the venue knows it (a backtest's replayed book) */
  mid?: number | null;
}

/** Where a strategy's decisions go. */
export interface Venue {
  place(o: StrategyOrder): void;
  cancel(o: StrategyOrder): void;
}

export interface BookTop {
  ticker: string;
  /** best YES bid and ask, ticks (null when that side is empty) */
  bid: number | null;
  ask: number | null;
  bidSize: number;
  askSize: number;
}

const TICKS = 10_000;
const dollars = (ticks: number) => (ticks / TICKS).toFixed(4);
const contracts = (centi: number) => (centi / 100).toFixed(2);
const micro = (m: number) => (m / 1e6).toFixed(6);

/** "0.52" -> 5200 ticks; throws a clear error otherwise (the strategy sees it). */
export function ticksFrom(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  const m = /^0?\.(\d{1,4})$|^0\.(\d{1,4})$/.exec(s);
  const digits = m ? (m[1] ?? m[2])! : null;
  if (digits === null) throw new Error(`price ${JSON.stringify(v)}: a YES price between 0 and 1 dollar, like "0.52"`);
  const t = Number(digits.padEnd(4, '0'));
  if (t <= 0 || t >= TICKS) throw new Error(`price ${JSON.stringify(v)}: a YES price between 0 and 1 dollar`);
  return t;
}

/** "3" or "2.5" -> centi-contracts. */
export function centiFrom(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`count ${JSON.stringify(v)}: a positive number of contracts with at most two decimals`);
  const c = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (c <= 0) throw new Error(`count ${JSON.stringify(v)}: more than zero contracts`);
  return c;
}

export interface RunnerOptions {
  code: string;
  params: Record<string, unknown>;
  venue: Venue;
  limits?: Partial<SandboxLimits>;
  /** starting cash, micro-dollars */
  cash?: number;
  /** most orders a strategy may have open (a runaway loop of places is refused past it) */
  maxOpenOrders?: number;
  /** output caps (live): most orders placed and log lines kept per wall-clock second (absent: none) */
  maxOrdersPerSec?: number;
  maxLogLinesPerSec?: number;
  onLog?: (line: string) => void;
}

export class StrategyRunner {
  private sandbox!: Sandbox;
  readonly orders = new Map<string, StrategyOrder>();
  readonly fills: StrategyFill[] = [];
  readonly log: string[] = [];
  /** YES contracts held, centi (negative: NO) */
  readonly positions = new Map<string, number>();
  cash: number;
  fees = 0;
  private nextId = 1;
  private nowMs = 0;
  fault: StrategyFault | null = null;
  stopped = false;
  private readonly tops = new Map<string, BookTop>();
  timerMs = 0;
  /** the markets whose book and trade events the strategy asked for (null: every market) */
  watched: Set<string> | null = null;
  /** true while the strategy's top-level code runs: it may not trade before onStart */
  private loading = true;
  private readonly rate = { sec: 0, orders: 0, lines: 0, dropped: 0 };

  private constructor(private readonly opts: RunnerOptions) {
    this.cash = opts.cash ?? 100_000 * 1e6;
  }

  static async start(opts: RunnerOptions, nowMs: number): Promise<StrategyRunner> {
    const r = new StrategyRunner(opts);
    r.nowMs = nowMs;
    r.sandbox = await Sandbox.load(opts.code, r.api(), opts.limits);
    r.loading = false;
    r.deliver('onStart', { params: opts.params, now: nowMs });
    return r;
  }

  private api(): Record<string, (...a: unknown[]) => unknown> {
    return {
      place: (o) => this.place(o),
      cancel: (id) => this.cancel(String(id)),
      amend: (id, change) => this.amend(String(id), change),
      position: (ticker) => contracts(this.positions.get(String(ticker)) ?? 0),
      orders: () => [...this.orders.values()].filter((o) => o.status === 'resting' || o.status === 'pending').map((o) => this.orderView(o)),
      balance: () => micro(this.cash),
      book: (ticker) => {
        const t = this.tops.get(String(ticker));
        return t ? topView(t) : null;
      },
      params: () => this.opts.params,
      now: () => this.nowMs,
      watch: (tickers) => {
        if (!Array.isArray(tickers) || tickers.some((t) => typeof t !== 'string')) throw new Error('watch(tickers): a list of tickers');
        this.watched = new Set(tickers as string[]);
      },
      setTimer: (ms) => {
        const n = Number(ms);
        if (!Number.isInteger(n) || n < 100 || n > 3_600_000) throw new Error('setTimer(ms): 100 ms to an hour');
        this.timerMs = n;
      },
      log: (...parts) => {
        if (this.overCap('lines')) return;
        const line = `${new Date(this.nowMs).toISOString().slice(11, 23)} ${parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ')}`.slice(0, 500);
        this.log.push(line);
        if (this.log.length > 1000) this.log.shift();
        this.opts.onLog?.(line);
      },
    };
  }

  private orderView(o: StrategyOrder) {
    return { id: o.id, ticker: o.ticker, side: o.side, price: dollars(o.price), count: contracts(o.count), remaining: contracts(o.remaining), filled: contracts(o.filled), status: o.status };
  }

  /** Counts one order or log line against its per-second cap; true when it is past the cap. */
  private overCap(what: 'orders' | 'lines'): boolean {
    const cap = what === 'orders' ? this.opts.maxOrdersPerSec : this.opts.maxLogLinesPerSec;
    if (cap === undefined) return false;
    const sec = Math.floor(performance.now() / 1000);
    if (sec !== this.rate.sec) {
      if (this.rate.dropped > 0) {
        const note = `(${this.rate.dropped} log lines dropped: more than ${this.opts.maxLogLinesPerSec} a second)`;
        this.log.push(note);
        this.opts.onLog?.(note);
      }
      Object.assign(this.rate, { sec, orders: 0, lines: 0, dropped: 0 });
    }
    if (this.rate[what] >= cap) {
      if (what === 'lines') this.rate.dropped++;
      return true;
    }
    this.rate[what]++;
    return false;
  }

  private notLoading(call: string): void {
    if (this.loading) throw new Error(`api.${call} is not allowed while the strategy loads: trade from onStart or a handler`);
  }

  private place(input: unknown): string {
    this.notLoading('place');
    const o = (input ?? {}) as Record<string, unknown>;
    const ticker = typeof o.ticker === 'string' && o.ticker ? o.ticker : null;
    if (!ticker) throw new Error('place: a ticker');
    if (o.side !== 'bid' && o.side !== 'ask') throw new Error('place: side is "bid" (buy YES) or "ask" (sell YES)');
    const open = [...this.orders.values()].filter((x) => x.status === 'resting' || x.status === 'pending').length;
    if (open >= (this.opts.maxOpenOrders ?? 50)) throw new Error(`place: ${open} orders open already (the most a strategy may have)`);
    if (this.overCap('orders')) throw new Error(`place: more than ${this.opts.maxOrdersPerSec} orders in a second (the most a strategy may place)`);
    const order: StrategyOrder = { id: `s${this.nextId++}`, ticker, side: o.side, price: ticksFrom(o.price), count: centiFrom(o.count), remaining: 0, filled: 0, status: 'pending', decidedAt: this.nowMs, reason: '' };
    order.remaining = order.count;
    this.orders.set(order.id, order);
    this.opts.venue.place(order);
    return order.id;
  }

  private cancel(id: string): boolean {
    this.notLoading('cancel');
    const o = this.orders.get(id);
    if (!o || (o.status !== 'resting' && o.status !== 'pending')) return false;
    this.opts.venue.cancel(o);
    return true;
  }

  /** cancel and replace: the new order queues anew */
  private amend(id: string, change: unknown): string | null {
    const o = this.orders.get(id);
    if (!o || (o.status !== 'resting' && o.status !== 'pending')) return null;
    const c = (change ?? {}) as Record<string, unknown>;
    this.cancel(id);
    return this.place({ ticker: o.ticker, side: o.side, price: c.price ?? dollars(o.price), count: c.count ?? contracts(o.remaining) });
  }

  // ------------------------------------------------------------------ from the venue

  /** The venue says what became of an order. */
  orderUpdate(id: string, status: StrategyOrder['status'], reason = ''): void {
    const o = this.orders.get(id);
    if (!o) return;
    o.status = status;
    o.reason = reason;
    if (status === 'canceled' || status === 'refused') o.remaining = 0;
    this.deliver('onOrder', { ...this.orderView(o), reason });
  }

  fill(f: StrategyFill): void {
    const o = this.orders.get(f.orderId);
    if (o) {
      o.remaining -= f.count;
      o.filled += f.count;
      if (o.remaining <= 0) o.status = 'done';
    }
    this.fills.push(f);
    const signed = f.side === 'bid' ? f.count : -f.count;
    this.positions.set(f.ticker, (this.positions.get(f.ticker) ?? 0) + signed);
    this.cash -= signed * f.price + f.fee;
    this.fees += f.fee;
    this.deliver('onFill', { id: f.orderId, ticker: f.ticker, side: f.side, price: dollars(f.price), count: contracts(f.count), maker: f.maker, fee: micro(f.fee), remaining: contracts(o?.remaining ?? 0), position: contracts(this.positions.get(f.ticker) ?? 0) });
  }

  // ------------------------------------------------------------------ market events

  setTime(ms: number): void {
    this.nowMs = ms;
  }

  book(top: BookTop): void {
    this.tops.set(top.ticker, top);
    if (this.watched && !this.watched.has(top.ticker)) return;
    this.deliver('onBook', topView(top));
  }

  trade(t: { ticker: string; price: number; count: number; takerSide: 'yes' | 'no' }): void {
    if (this.watched && !this.watched.has(t.ticker)) return;
    this.deliver('onTrade', { ticker: t.ticker, price: dollars(t.price), count: contracts(t.count), takerSide: t.takerSide });
  }

  timer(): void {
    this.deliver('onTimer', { now: this.nowMs });
  }

  /** the strategy's declared parameters (`module.exports.params`), as plain data; null when none */
  declared(): unknown {
    return this.sandbox?.declared ?? null;
  }

  top(ticker: string): BookTop | undefined {
    return this.tops.get(ticker);
  }

  private deliver(handler: string, event: unknown): void {
    if (this.stopped) return;
    try {
      this.sandbox.call(handler, event);
    } catch (e) {
      this.fault = e instanceof StrategyFault ? e : new StrategyFault((e as Error).message, 'error');
      this.log.push(`stopped: ${this.fault.message}`);
      this.opts.onLog?.(`stopped: ${this.fault.message}`);
      this.stop();
    }
  }

  /** Stops deciding and cancels every order it has open. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const o of this.orders.values()) if (o.status === 'resting' || o.status === 'pending') this.opts.venue.cancel(o);
    this.sandbox?.dispose();
  }
}

function topView(t: BookTop) {
  return { ticker: t.ticker, bid: t.bid === null ? null : dollars(t.bid), ask: t.ask === null ? null : dollars(t.ask), bidSize: contracts(t.bidSize), askSize: contracts(t.askSize) };
}
