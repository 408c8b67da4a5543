// Strategies behind TerminalApi: the examples, strategies running live on the active profile
// (their orders through the risk gate), stopping them, and backtests over recordings. The kill
// switch stops every strategy (services.ts calls stopAll when it engages); their resting orders
// are canceled by the kill switch itself and by each runner as it stops.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChannelImpl, ParsedArgs } from '../../src-shared/ipc/contract';
import type { BacktestView, StrategiesView, StrategyRunView } from '../../src-shared/ipc/strategies';
import type { TradeView } from '../../src-shared/ipc/contract';
import type { TradingPort as TradingService } from '../session/active-session';
import type { ActiveSession } from '../session/active-session';
import { StateError } from '../base/errors';
import type { Recorder } from '../recorder/recorder';
import { decodeTape } from '../../src-exchange/replay/tape';
import type { RowBatch } from '../recorder/batch';
import { runBacktest } from './backtest';
import { reportCsv } from './report';
import { StrategyRunner } from './runner';
import { LiveVenue } from './live';

const EXAMPLES = ['market-maker.js', 'take-profit-follower.js'];

interface Running {
  id: string;
  name: string;
  runner: StrategyRunner;
  venue: LiveVenue;
  timer: NodeJS.Timeout | null;
}

export interface StrategiesServiceOptions {
  trading: TradingService;
  recorder: Recorder;
  active: () => ActiveSession | null;
  log?: (m: string) => void;
}

export class StrategiesService implements ChannelImpl<'strategies'> {
  private readonly running = new Map<string, Running>();
  private nextId = 1;

  constructor(private readonly opts: StrategiesServiceOptions) {}

  private log(m: string): void {
    this.opts.log?.(m);
  }

  async getStrategies(): Promise<StrategiesView> {
    // beside the source, or beside the bundle (a chunk of it may sit one folder down)
    const here = path.dirname(fileURLToPath(import.meta.url));
    const read = async (name: string) => (await readFile(path.join(here, 'examples', name), 'utf8').catch(() => '')) || (await readFile(path.join(here, '..', 'examples', name), 'utf8').catch(() => ''));
    const examples = await Promise.all(EXAMPLES.map(async (name) => ({ name, code: await read(name) })));
    return { examples: examples.filter((e) => e.code), running: [...this.running.values()].map(view) };
  }

  async startStrategy(input: ParsedArgs<'startStrategy'>[0]): Promise<StrategiesView> {
    if (!this.opts.active()) throw new StateError('no connected profile: a strategy runs on the active profile');
    const venue = new LiveVenue(this.opts.trading, (m) => this.log(m));
    const runner = await StrategyRunner.start({ code: input.code, params: input.params, venue }, Date.now());
    venue.runner = runner;
    const id = `st-${this.nextId++}`;
    const r: Running = { id, name: input.name, runner, venue, timer: null };
    if (runner.timerMs) {
      r.timer = setInterval(() => {
        runner.setTime(Date.now());
        runner.timer();
      }, runner.timerMs);
      r.timer.unref();
    }
    this.running.set(id, r);
    await this.pin();
    return this.getStrategies();
  }

  async stopStrategy(input: ParsedArgs<'stopStrategy'>[0]): Promise<StrategiesView> {
    const r = this.running.get(input.id);
    if (!r) throw new StateError(`no strategy ${input.id}`);
    this.halt(r);
    await this.pin();
    return this.getStrategies();
  }

  /** Stops every strategy (the kill switch). */
  stopAll(why: string): void {
    for (const r of this.running.values()) {
      if (!r.runner.stopped) {
        r.runner.log.push(`stopped: ${why}`);
        this.halt(r);
      }
    }
  }

  private halt(r: Running): void {
    if (r.timer) clearInterval(r.timer);
    r.timer = null;
    r.runner.stop();
  }

  /** The markets running strategies watch are streamed whatever the panels show. */
  private async pin(): Promise<void> {
    const s = this.opts.active()?.session;
    if (!s) return;
    const markets = new Set<string>();
    for (const r of this.running.values()) if (!r.runner.stopped) for (const t of r.runner.watched ?? []) markets.add(t);
    await s.pin('strategies', [...markets]).catch((e: unknown) => this.log(`[strategies] could not stream: ${(e as Error).message}`));
  }

  // ------------------------------------------------------------------ the session's stream

  books(tickers: string[]): void {
    const s = this.opts.active()?.session;
    if (!s) return;
    for (const r of this.running.values()) if (!r.runner.stopped) r.venue.onBooks(s, tickers);
  }

  trade(t: TradeView): void {
    for (const r of this.running.values()) if (!r.runner.stopped) r.venue.onTrade(t);
  }

  fill(f: Record<string, unknown>): void {
    for (const r of this.running.values()) r.venue.onFill(f);
  }

  // ------------------------------------------------------------------ backtests

  async backtestStrategy(input: ParsedArgs<'backtestStrategy'>[0]): Promise<BacktestView> {
    const rec = this.opts.recorder;
    const all: RowBatch[] = [];
    for (let from = 0; ; ) {
      const page = await rec.read(input.recordingId, from, 200_000);
      if (page.n.length === 0) break;
      all.push(page);
      from = page.n[page.n.length - 1]! + 1;
    }
    const cat = <K extends keyof RowBatch>(k: K) => all.flatMap((b) => b[k] as unknown[]) as RowBatch[K];
    const tape = decodeTape({ ts: cat('ts'), kind: cat('kind'), market: cat('market'), side: cat('side'), price: cat('price'), size: cat('size') });
    const r = await runBacktest({ tape, code: input.code, params: input.params });
    return {
      pnl: r.pnl,
      maxDrawdown: r.maxDrawdown,
      winRate: r.winRate,
      wins: r.wins,
      losses: r.losses,
      fees: r.fees,
      timeInMarketPct: r.timeInMarketPct,
      events: r.events,
      eventsPerSec: r.eventsPerSec,
      fault: r.fault,
      orders: r.orders.length,
      fills: r.fills.slice(0, 5000).map((f) => ({ t: f.ts, ticker: f.ticker, side: f.side, price: (f.price / 10_000).toFixed(4), count: (f.count / 100).toFixed(2), maker: f.maker, fee: (f.fee / 1e6).toFixed(6) })),
      curve: r.curve,
      log: r.log.slice(-200),
      csv: reportCsv(r),
    };
  }
}

function view(r: Running): StrategyRunView {
  const x = r.runner;
  return {
    id: r.id,
    name: r.name,
    status: x.fault ? 'faulted' : x.stopped ? 'stopped' : 'running',
    fault: x.fault?.message ?? null,
    log: x.log.slice(-100),
    orders: [...x.orders.values()].slice(-200).map((o) => ({ id: o.id, ticker: o.ticker, side: o.side, price: (o.price / 10_000).toFixed(4), count: (o.count / 100).toFixed(2), filled: (o.filled / 100).toFixed(2), status: o.status, reason: o.reason })),
    fills: x.fills.length,
    positions: Object.fromEntries([...x.positions].map(([t, p]) => [t, (p / 100).toFixed(2)])),
    fees: (x.fees / 1e6).toFixed(6),
  };
}
