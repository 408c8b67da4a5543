// A strategy over a recording at full speed: the replayed books (src-exchange/replay) are the
// venue, the queue model fills its orders, and every decision is kept. Events reach the strategy
// in the recording's order, a book event when a market's inside (price or size) changes, a
// trade event per trade, timers on the recording's clock; what the venue answers (fills, order
// states) is delivered after the handler that caused it returns. So a strategy given the same
// recording decides the same, every time (backtest.test.ts runs one twice and compares).
import { fillFeeCents, K_TRADE, ReplayBooks, TAKER_K, YES, type ReplayFill, type Tape } from '../../src-exchange/for-main';
import type { SandboxLimits } from './sandbox';
import { StrategyRunner, type BookTop, type StrategyFill, type StrategyOrder, type Venue } from './runner';
import { buildReport, type BacktestReport, type CurvePoint } from './report';

const TICKS = 10_000;
/** the fee multiplier of a standard market (1.0) */
const FEE_MULTIPLIER_E4 = 10_000;

export interface BacktestOptions {
  tape: Tape;
  code: string;
  params?: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
  /** the equity curve's sampling step, recording ms (default 1 s) */
  sampleMs?: number;
  /** the bucket of the P&L series Sharpe and Sortino are computed over, recording ms (default 1 s) */
  bucketMs?: number;
  /** a window of the recording, rows [from, to): the books are replayed to `from` first (walk-forward windows) */
  from?: number;
  to?: number;
  /** told how far the replay is, about every 200 ms of wall time (a backtest's worker reports it to main's watchdog) */
  onProgress?: (events: number, of: number) => void;
}

/** The replayed books as a strategy's venue: its answers wait in a queue until the handler returns. */
class ReplayVenue implements Venue {
  readonly queue: (() => void)[] = [];
  private readonly byReplayId = new Map<number, StrategyOrder>();
  private readonly replayIdOf = new Map<string, number>();
  private placing: StrategyOrder | null = null;
  runner!: StrategyRunner;

  constructor(readonly books: ReplayBooks) {
    books.onFill = (f) => this.onFill(f);
  }

  place(o: StrategyOrder): void {
    const m = this.books.tape.markets.indexOf(o.ticker);
    if (m < 0) {
      this.queue.push(() => this.runner.orderUpdate(o.id, 'refused', `${o.ticker} is not in this recording`));
      return;
    }
    this.placing = o;
    const r = o.side === 'bid' ? this.books.place(m, 0, o.price, o.count) : this.books.place(m, 1, TICKS - o.price, o.count);
    this.placing = null;
    this.byReplayId.set(r.id, o);
    this.replayIdOf.set(o.id, r.id);
    if (r.remaining > 0) this.queue.push(() => this.runner.orderUpdate(o.id, 'resting'));
  }

  cancel(o: StrategyOrder): void {
    const id = this.replayIdOf.get(o.id);
    if (id !== undefined && this.books.cancel(id)) this.queue.push(() => this.runner.orderUpdate(o.id, 'canceled'));
  }

  private onFill(f: ReplayFill): void {
    const o = this.byReplayId.get(f.orderId) ?? this.placing;
    if (!o) return;
    const yes = f.side === YES ? f.price : TICKS - f.price;
    const fee = f.maker ? 0 : fillFeeCents(TAKER_K, FEE_MULTIPLIER_E4, f.size, yes) * 10_000;
    const fill: StrategyFill = { orderId: o.id, ticker: o.ticker, side: o.side, price: yes, count: f.size, maker: f.maker, fee, ts: Math.floor(f.tsUs / 1000), mid: midOf(this.books, this.books.tape.markets.indexOf(o.ticker)) };
    this.queue.push(() => this.runner.fill(fill));
  }

  drain(): void {
    // an answer may lead to decisions whose answers queue behind it
    for (let i = 0; i < this.queue.length; i++) this.queue[i]!();
    this.queue.length = 0;
  }
}

/** The replayed book's YES mid, ticks (a half tick when the spread is odd); null without both sides. */
function midOf(books: ReplayBooks, m: number): number | null {
  const bid = books.best(m, 0);
  const noBid = books.best(m, 1);
  return bid > 0 && noBid > 0 ? (bid + TICKS - noBid) / 2 : null;
}

/** The runner's marks: equity (cash plus positions at the mid) and capital at risk, micro-dollars. */
function marked(runner: StrategyRunner): { equity: number; exposure: number } {
  let equity = runner.cash;
  let exposure = 0;
  for (const [ticker, pos] of runner.positions) {
    if (pos === 0) continue;
    const t = runner.top(ticker);
    const mark = t && t.bid !== null && t.ask !== null ? (t.bid + t.ask) / 2 : t?.bid ?? t?.ask ?? 0;
    equity += pos * mark;
    exposure += pos > 0 ? pos * mark : -pos * (TICKS - mark);
  }
  return { equity, exposure };
}

export async function runBacktest(opts: BacktestOptions): Promise<BacktestReport> {
  const { tape } = opts;
  const from = Math.max(0, Math.min(tape.length, opts.from ?? 0));
  const to = Math.max(from, Math.min(tape.length, opts.to ?? tape.length));
  const books = new ReplayBooks(tape);
  // the books as they stand at the window's start; the strategy sees them from there on
  books.run(from);
  const venue = new ReplayVenue(books);
  const startMs = to > from ? Math.floor(tape.tsUs[from]! / 1000) : 0;
  const runner = await StrategyRunner.start({ code: opts.code, params: opts.params ?? {}, venue, ...(opts.limits ? { limits: opts.limits } : {}) }, startMs);
  venue.runner = runner;
  venue.drain();
  const wall0 = performance.now();
  const last: (BookTop | undefined)[] = [];
  const sampleMs = opts.sampleMs ?? 1000;
  const curve: CurvePoint[] = [];
  let nextSample = startMs;
  let nextTimer = runner.timerMs ? startMs + runner.timerMs : Infinity;
  let inMarketMs = 0;
  let lastT = startMs;
  const point = (t: number): CurvePoint => {
    const m = marked(runner);
    return { t, equityMicro: m.equity, exposureMicro: m.exposure };
  };
  const exposed = () => [...runner.positions.values()].some((p) => p !== 0);
  let told = performance.now();

  for (let i = from; i < to && !runner.stopped; i++) {
    if (opts.onProgress && performance.now() - told > 200) {
      told = performance.now();
      opts.onProgress(i - from, to - from);
    }
    const t = Math.floor(tape.tsUs[i]! / 1000);
    if (exposed()) inMarketMs += t - lastT;
    lastT = t;
    while (nextTimer <= t && !runner.stopped) {
      runner.setTime(nextTimer);
      runner.timer();
      venue.drain();
      nextTimer = runner.timerMs ? nextTimer + runner.timerMs : Infinity;
    }
    if (nextTimer === Infinity && runner.timerMs) nextTimer = t + runner.timerMs;
    runner.setTime(t);
    books.run(i + 1);
    const m = tape.market[i]!;
    const ticker = tape.markets[m]!;
    if (tape.kind[i] === K_TRADE) {
      const side = tape.side[i]!;
      runner.trade({ ticker, price: side === YES ? tape.price[i]! : TICKS - tape.price[i]!, count: tape.size[i]!, takerSide: side === YES ? 'no' : 'yes' });
    } else {
      const bid = books.best(m, 0);
      const noBid = books.best(m, 1);
      const top: BookTop = { ticker, bid: bid > 0 ? bid : null, ask: noBid > 0 ? TICKS - noBid : null, bidSize: bid > 0 ? books.level(m, 0, bid) : 0, askSize: noBid > 0 ? books.level(m, 1, noBid) : 0 };
      const p = last[m];
      if (!p || p.bid !== top.bid || p.ask !== top.ask || p.bidSize !== top.bidSize || p.askSize !== top.askSize) {
        last[m] = top;
        runner.book(top);
      }
    }
    venue.drain();
    if (t >= nextSample) {
      curve.push(point(t));
      nextSample = t + sampleMs;
    }
  }
  const endMs = to > from ? Math.floor(tape.tsUs[to - 1]! / 1000) : startMs;
  curve.push(point(endMs));
  const wallMs = performance.now() - wall0;
  const fault = runner.fault?.message ?? null;
  const marks = new Map(tape.markets.map((t, m) => [t, midOf(books, m)] as const));
  runner.stop();
  venue.drain();
  return buildReport({ runner, curve, startMs, endMs, inMarketMs, events: to - from, wallMs, fault, marks, ...(opts.bucketMs ? { bucketMs: opts.bucketMs } : {}) });
}
