// Market lifecycle over time, driven by the simulation: markets whose open time arrives open,
// those whose close time passes close, are determined (the result drawn from the fair value:
// YES with probability fair/10000; one winner per mutually exclusive event) and settle; new
// short-lived markets are added to existing events so there are always open markets; now and
// then a market pauses and resumes. Every step is an ordinary journaled command (through the
// catalog module when the catalog knows the market), so the stream sees it as lifecycle events.
import type { CoreCommand, CoreOutcome } from '../core/core';
import { catalogOf } from '../core/catalog-module';
import type { LifecycleAction } from '../core/catalog-module';
import type { MarketResult, MarketView } from '../engine/types';
import type { Services } from '../core/services';
import { marketCloseMs, type CatalogState, type EventRecord } from '../state/catalog';
import type { Participants, Submit } from './participants';
import type { Rng } from './random';

export interface LifecycleOptions {
  /** how long after its close time a market is determined */
  determineDelayMs: number;
  /** how long after determination it settles */
  settleDelayMs: number;
  /** fewer open markets than this: a new one opens at once */
  minOpenMarkets: number;
  /** a new market opens at least this often (0 = only to keep minOpenMarkets) */
  newMarketEveryMs: number;
  /** how long a market the simulation adds stays open */
  newMarketLifetimeMs: number;
  /** mean time between pauses of a random open market (0 = never) */
  pauseEveryMs: number;
  /** how long such a pause lasts */
  pauseMs: number;
  /** lifecycle commands per pass at most */
  maxCommandsPerPass: number;
}

export const DEFAULT_LIFECYCLE: LifecycleOptions = {
  determineDelayMs: 60_000,
  settleDelayMs: 60_000,
  minOpenMarkets: 12,
  newMarketEveryMs: 180_000,
  newMarketLifetimeMs: 20 * 60_000,
  pauseEveryMs: 120_000,
  pauseMs: 20_000,
  maxCommandsPerPass: 20,
};

/**
 * A shorter cycle (`--sim-market-minutes <n>`): markets the simulation adds close `minutes` after
 * they open, a new one every third of that, each determined and then settled a twelfth of it
 * after (at most the defaults'). Two minutes: a market closes, is determined and settles within
 * three, so a run of a few minutes sees settlements (the display-truth harness holds one through
 * its settlement).
 */
export function lifecycleOfMinutes(minutes: number): Partial<LifecycleOptions> {
  const life = minutes * 60_000;
  return {
    newMarketLifetimeMs: life,
    newMarketEveryMs: Math.min(DEFAULT_LIFECYCLE.newMarketEveryMs, Math.round(life / 3)),
    determineDelayMs: Math.min(DEFAULT_LIFECYCLE.determineDelayMs, Math.round(life / 12)),
    settleDelayMs: Math.min(DEFAULT_LIFECYCLE.settleDelayMs, Math.round(life / 12)),
  };
}

/** Tickers of markets the simulation adds carry this marker (their result is drawn alone). */
export const SIM_MARKET_MARK = '-SIM';

const TRADING = new Set(['unopened', 'open', 'paused']);

export class Lifecycle {
  /** markets this simulation paused, with when to resume them */
  private readonly paused = new Map<string, number>();
  /** the drawn winner of a mutually exclusive event */
  private readonly winners = new Map<string, string>();
  private lastNewMarketMs: number;
  /** How often pass() runs (set by the simulation; scales the pause chance). */
  passMs = 1_000;

  constructor(
    private readonly svc: Services,
    private readonly participants: Participants,
    private readonly opts: LifecycleOptions,
    private readonly rng: Rng,
    startMs: number,
  ) {
    this.lastNewMarketMs = startMs;
  }

  private get engine() {
    return this.svc.node.core.engine;
  }

  private catalog(): CatalogState | undefined {
    try {
      return catalogOf(this.svc.node.core);
    } catch {
      return undefined;
    }
  }

  /** A lifecycle step, through the catalog when it knows the market (keeps its metadata in step). */
  private command(cat: CatalogState | undefined, ticker: string, action: LifecycleAction, result?: MarketResult, resumeAtMs?: number): CoreCommand {
    const nowMs = this.svc.node.now();
    if (cat?.markets[ticker]) {
      return { type: 'catalogMarketLifecycle', nowMs, ticker, action, ...(result ? { result } : {}), ...(resumeAtMs !== undefined ? { resume_at_ms: resumeAtMs } : {}) };
    }
    switch (action) {
      case 'open':
        return { type: 'openMarket', nowMs, ticker };
      case 'pause':
        return { type: 'pauseMarket', nowMs, ticker };
      case 'close':
        return { type: 'closeMarket', nowMs, ticker };
      case 'determine':
        return { type: 'determineMarket', nowMs, ticker, result };
      case 'settle':
        return { type: 'settleMarket', nowMs, ticker };
    }
  }

  /** One pass over every market; bounded by maxCommandsPerPass. `active`: markets being quoted. */
  pass(submit: Submit, active: readonly MarketView[]): Promise<CoreOutcome>[] {
    const out: Promise<CoreOutcome>[] = [];
    const cat = this.catalog();
    const now = this.svc.node.now();
    const room = () => out.length < this.opts.maxCommandsPerPass;
    const markets = this.engine.listMarkets();
    let openCount = 0;

    // resume what we paused
    for (const [ticker, at] of this.paused) {
      if (!room() || at > now) continue;
      this.paused.delete(ticker);
      if (this.engine.getMarket(ticker)?.status === 'paused') out.push(submit(this.command(cat, ticker, 'open')));
    }
    // and timed pauses recorded in state (a pause from before a crash or restart)
    for (const [ticker, meta] of Object.entries(cat?.markets ?? {})) {
      if (!room() || typeof meta.resume_at_ms !== 'number' || meta.resume_at_ms > now || this.paused.has(ticker)) continue;
      if (this.engine.getMarket(ticker)?.status === 'paused') out.push(submit(this.command(cat, ticker, 'open')));
    }

    for (const m of markets) {
      if (m.status === 'open') openCount++;
      if (!room()) continue;
      const meta = cat?.markets[m.ticker];
      const closeMs = marketCloseMs(m, meta);
      const openMs = meta?.open_ms ?? m.open_time * 1000;
      if (TRADING.has(m.status)) {
        if (closeMs > 0 && now >= closeMs) {
          out.push(submit(this.command(cat, m.ticker, 'close')));
          this.paused.delete(m.ticker);
          if (m.status === 'open') openCount--;
        } else if (m.status === 'unopened' && openMs > 0 && openMs <= now) {
          out.push(submit(this.command(cat, m.ticker, 'open')));
          openCount++;
        }
      } else if (m.status === 'closed') {
        if (now >= Math.max(closeMs, 0) + this.opts.determineDelayMs) {
          const result = this.resultOf(m, cat);
          if (result) out.push(submit(this.command(cat, m.ticker, 'determine', result)));
        }
      } else if (m.status === 'determined') {
        if (now >= m.determined_ms + this.opts.settleDelayMs) {
          out.push(submit(this.command(cat, m.ticker, 'settle')));
          this.participants.forget(m.ticker);
        }
      }
    }

    if (room() && (openCount < this.opts.minOpenMarkets || (this.opts.newMarketEveryMs > 0 && now - this.lastNewMarketMs >= this.opts.newMarketEveryMs))) {
      this.lastNewMarketMs = now;
      const cmd = this.newMarket(cat, markets, now);
      if (cmd) out.push(...cmd.map((c) => submit(c)));
    }

    if (room() && this.opts.pauseEveryMs > 0 && active.length > 1 && this.rng.chance(Math.min(1, this.passMs / this.opts.pauseEveryMs))) {
      const m = this.rng.pick(active);
      const fresh = this.engine.getMarket(m.ticker);
      const closeMs = fresh ? marketCloseMs(fresh, cat?.markets[m.ticker]) : 0;
      if (fresh?.status === 'open' && (closeMs === 0 || closeMs > now + this.opts.pauseMs) && !this.paused.has(m.ticker)) {
        this.paused.set(m.ticker, now + this.opts.pauseMs);
        out.push(submit(this.command(cat, m.ticker, 'pause', undefined, now + this.opts.pauseMs)));
      }
    }
    return out;
  }

  /** Resumes every market this simulation paused (on stop, so none stays paused for good). */
  resumeAll(submit: Submit): Promise<CoreOutcome>[] {
    const cat = this.catalog();
    const out: Promise<CoreOutcome>[] = [];
    for (const ticker of this.paused.keys()) {
      if (this.engine.getMarket(ticker)?.status === 'paused') out.push(submit(this.command(cat, ticker, 'open')));
    }
    this.paused.clear();
    return out;
  }

  /** Markets this simulation paused (for tests and stats). */
  pausedTickers(): string[] {
    return [...this.paused.keys()];
  }

  private fairOf(m: MarketView): number {
    return this.participants.knownFair(m.ticker) ?? (m.last_price > 0 ? m.last_price : m.yes_bid > 0 && m.no_bid > 0 ? Math.round((m.yes_bid + m.yes_ask) / 2) : 5_000);
  }

  /**
   * The result of a closed market: YES with probability fair/10000; in a mutually exclusive
   * event (markets the simulation added aside) exactly one market wins, drawn by fair value
   * once none of them trades any more. null: wait (a sibling still trades).
   */
  private resultOf(m: MarketView, cat: CatalogState | undefined): MarketResult | null {
    const ev: EventRecord | undefined = cat?.events[m.event_ticker];
    if (!ev?.mutually_exclusive || m.ticker.includes(SIM_MARKET_MARK)) {
      return this.rng.next() * 10_000 < this.fairOf(m) ? 'yes' : 'no';
    }
    const siblings = this.engine.listMarkets({ eventTicker: m.event_ticker }).filter((s) => !s.ticker.includes(SIM_MARKET_MARK));
    if (siblings.some((s) => s.result === 'yes')) return 'no';
    if (siblings.some((s) => TRADING.has(s.status))) return null;
    let winner = this.winners.get(m.event_ticker);
    const candidates = siblings.filter((s) => s.status === 'closed');
    if (!winner || !candidates.some((s) => s.ticker === winner)) {
      const weights = candidates.map((s) => Math.max(1, this.fairOf(s)));
      let r = this.rng.next() * weights.reduce((a, b) => a + b, 0);
      winner = candidates[candidates.length - 1]?.ticker ?? m.ticker;
      for (let i = 0; i < candidates.length; i++) {
        r -= weights[i]!;
        if (r < 0) {
          winner = candidates[i]!.ticker;
          break;
        }
      }
      this.winners.set(m.event_ticker, winner);
    }
    return winner === m.ticker ? 'yes' : 'no';
  }

  /**
   * A new short-lived market in an existing event (the catalog's own command, opened at once),
   * preferring events that trade and are not mutually exclusive; without a catalog, an engine
   * market in a simulation event.
   */
  private newMarket(cat: CatalogState | undefined, markets: readonly MarketView[], now: number): CoreCommand[] | undefined {
    const closeMs = now + this.opts.newMarketLifetimeMs;
    const suffix = `${SIM_MARKET_MARK}${now.toString(36).toUpperCase()}`;
    const minutes = Math.max(1, Math.round(this.opts.newMarketLifetimeMs / 60_000));
    const trading = new Set(markets.filter((m) => m.status === 'open').map((m) => m.event_ticker));
    const events = cat ? cat.eventOrder.map((t) => cat.events[t]!).filter((e) => e && e.collection_ticker === null && cat.series[e.series_ticker]) : [];
    const live = events.filter((e) => trading.has(e.event_ticker));
    const pool = live.filter((e) => !e.mutually_exclusive).length > 0 ? live.filter((e) => !e.mutually_exclusive) : live.length > 0 ? live : events;
    if (pool.length > 0) {
      const ev = this.rng.pick(pool);
      const ticker = `${ev.event_ticker}${suffix}`;
      if (this.engine.getMarket(ticker)) return undefined;
      const title = `${ev.title}: higher within ${minutes} min?`;
      return [
        {
          type: 'catalogCreateMarket',
          nowMs: now,
          open: true,
          market: {
            ticker,
            event_ticker: ev.event_ticker,
            title,
            subtitle: `${minutes}-minute market`,
            yes_sub_title: 'Higher',
            no_sub_title: 'Not higher',
            rules_primary: `Resolves Yes if the underlying of ${ev.event_ticker} is higher at ${new Date(closeMs).toISOString()} than when this market opened.`,
            open_ms: now,
            close_ms: closeMs,
            expected_expiration_ms: closeMs + this.opts.determineDelayMs,
            strike_type: 'custom',
          },
        },
      ];
    }
    const ticker = `KXSIM-FLASH${suffix}`;
    if (this.engine.getMarket(ticker)) return undefined;
    return [
      { type: 'addMarket', nowMs: now, ticker, eventTicker: 'KXSIM-FLASH', seriesTicker: 'KXSIM', title: `Flash market (${minutes} min)`, openTime: Math.floor(now / 1000), closeTime: Math.ceil(closeMs / 1000), priceLevelStructure: 'linear_cent' },
      { type: 'openMarket', nowMs: now, ticker },
    ];
  }
}
