// The live simulation as a server activity: simulated participants trade and markets move
// through their lifecycle, at a bounded command rate, so books, trades, candles and the stream
// move. Everything goes through `svc.node.submit` (journaled and published like any command;
// never the REST API). One timer drives it, unref'd; stop() clears it and awaits what is in
// flight. Started by the server after listen unless `sim: false` (the CLI's --no-sim).
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { MarketView } from '../engine/types';
import type { Services } from '../core/services';
import type { Activity, ExchangeServerOptions } from '../server-types';
import { DEFAULT_LIFECYCLE, Lifecycle } from './lifecycle';
import { DEFAULT_PARTICIPANTS, ensureAccounts, Participants, type Submit } from './participants';
import type { SimOptions } from './options';

import { createRng } from './random';

export const DEFAULT_SIM: SimOptions = {
  ...DEFAULT_PARTICIPANTS,
  ...DEFAULT_LIFECYCLE,
  seed: 1,
  // lively by default: the busiest markets change several times a second (npm run exchange --
  // --sim-rate <n> sets it; 0 keeps the markets still)
  ratePerSecond: 150,
  tickMs: 100,
  lifecycleMs: 1_000,
  maxActiveMarkets: 40,
  takerShare: 0.15,
  hotMarkets: 3,
  hotShare: 0.6,
};

export interface SimStats {
  submitted: number;
  rejected: number;
  /** refusals by the exchange's error code (a participant off a market's tick would show as invalid_price) */
  rejectedByCode: Record<string, number>;
  byType: Record<string, number>;
  ticks: number;
  errors: number;
}

export interface SimHandle {
  /** resolves once the participants exist (rejects if they could not be made) */
  ready: Promise<void>;
  stats(): SimStats;
  /** participants' user ids by name */
  participants(): Record<string, string>;
  /** markets this simulation paused and will resume */
  paused(): string[];
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 30_000;
const PRUNE_AFTER_MS = 5 * 60_000;

export function startSim(svc: Services, options: Partial<SimOptions> = {}): SimHandle {
  const opts: SimOptions = { ...DEFAULT_SIM, ...options };
  const rng = createRng(opts.seed);
  const stats: SimStats = { submitted: 0, rejected: 0, rejectedByCode: {}, byType: {}, ticks: 0, errors: 0 };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inflight: Promise<void> = Promise.resolve();
  let participants: Participants | undefined;
  let lifecycle: Lifecycle | undefined;
  let active: MarketView[] = [];
  let hot: MarketView[] = [];
  const clock: SimClock = { lastLifecycleMs: 0, lastPruneMs: 0, lastTickMs: 0 };
  const budget = { maker: 0, taker: 0 };
  const submit = countingSubmit(svc, stats);
  const report = errorReporter(stats);

  // the markets worth quoting and the hot ones among them (see chooseActive)
  const refreshActive = (): Promise<unknown>[] => {
    const chosen = chooseActive(svc, opts, active, participants, submit);
    active = chosen.active;
    hot = chosen.hot;
    return chosen.withdrawals;
  };

  const runTick = async () => {
    if (!participants || !lifecycle) return;
    stats.ticks++;
    const now = svc.node.now();
    const pending: Promise<unknown>[] = [];
    // every lifecycleMs: top-ups, the markets' lifecycle, and a fresh choice of markets (in that order)
    if (lifecycleDue(clock, opts, now)) pending.push(...participants.topUps(submit), ...lifecycle.pass(submit, active), ...refreshActive());
    const prune = pruneDue(clock, participants, now);
    if (prune) pending.push(submit(prune));
    refillBudgets(budget, opts, clock, now);
    pending.push(...spendBudgets({ svc, opts, rng, stats, submit, participants, active, hot, budget }));
    const settled = await Promise.allSettled(pending);
    for (const s of settled) if (s.status === 'rejected') report(s.reason);
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      inflight = runTick()
        .catch(report)
        .finally(schedule);
    }, opts.tickMs);
    timer.unref();
  };

  let accounts: Record<string, string> = {};
  const ready = (async () => {
    const list = await ensureAccounts(svc, opts);
    accounts = Object.fromEntries(list.map((a) => [a.name, a.userId]));
    participants = new Participants(svc, list, opts, rng);
    lifecycle = new Lifecycle(svc, participants, opts, rng, svc.node.now());
    lifecycle.passMs = opts.lifecycleMs;
    await Promise.allSettled(participants.cancelLeftovers(submit));
    await Promise.allSettled(refreshActive());
  })();
  inflight = ready.then(schedule, (err: unknown) => report(err));

  return {
    ready,
    stats: () => structuredClone(stats),
    participants: () => ({ ...accounts }),
    paused: () => lifecycle?.pausedTickers() ?? [],
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await ready.catch(() => undefined);
      // a tick in flight reschedules nothing once stopped; wait for its commands
      await settleInflight(() => inflight);
      if (lifecycle) await Promise.allSettled(lifecycle.resumeAll(submit));
    },
  };
}

/** Counts an error and logs it, at most once a minute. */
function errorReporter(stats: SimStats): (err: unknown) => void {
  let lastErrorLog = 0;
  return (err: unknown) => {
    stats.errors++;
    const now = Date.now();
    if (now - lastErrorLog > 60_000) {
      lastErrorLog = now;
      console.error('[exchange sim]', err);
    }
  };
}

/** Waits until the promise `current()` names has settled and no newer one took its place. */
async function settleInflight(current: () => Promise<void>): Promise<void> {
  let seen: Promise<void> | undefined;
  while (seen !== current()) {
    seen = current();
    await seen.catch(() => undefined);
  }
}

interface SimClock {
  lastLifecycleMs: number;
  lastPruneMs: number;
  lastTickMs: number;
}

/**
 * Open markets worth quoting: newest first (short-lived ones the lifecycle adds), capped, and
 * the hottest of them by volume. A market that drops out while still trading loses the makers'
 * quotes (none left stale): `withdrawals` are those cancels.
 */
function chooseActive(
  svc: Services,
  opts: SimOptions,
  active: readonly MarketView[],
  participants: Participants | undefined,
  submit: Submit,
): { active: MarketView[]; hot: MarketView[]; withdrawals: Promise<unknown>[] } {
  const engine = svc.node.core.engine;
  const { active: next, hot } = activeAndHot(engine.listMarkets({ status: 'open' }), opts);
  const keep = new Set(next.map((m) => m.ticker));
  const withdrawals: Promise<unknown>[] = [];
  for (const m of active) {
    if (keep.has(m.ticker) || !participants) continue;
    participants.forget(m.ticker);
    if (engine.getMarket(m.ticker)?.status === 'open') withdrawals.push(...participants.withdraw(m.ticker, submit));
  }
  return { active: next, hot, withdrawals };
}

/** Of the open markets, the ones the simulation quotes (the newest `maxActiveMarkets`) and the hottest of those by volume. */
export function activeAndHot<M extends { ticker: string; created_ms: number; volume: number }>(open: readonly M[], opts: Pick<SimOptions, 'maxActiveMarkets' | 'hotMarkets'>): { active: M[]; hot: M[] } {
  const active = [...open].sort((a, b) => b.created_ms - a.created_ms || (a.ticker < b.ticker ? -1 : 1)).slice(0, opts.maxActiveMarkets);
  const hot = [...active].sort((a, b) => b.volume - a.volume || (a.ticker < b.ticker ? -1 : 1)).slice(0, opts.hotMarkets);
  return { active, hot };
}

function lifecycleDue(clock: SimClock, opts: SimOptions, now: number): boolean {
  if (now - clock.lastLifecycleMs < opts.lifecycleMs) return false;
  clock.lastLifecycleMs = now;
  return true;
}

/**
 * The makers' cancel/replace churn would grow the state (and every snapshot) forever: every
 * PRUNE_EVERY_MS, the command that drops their canceled, never-filled orders a few minutes old.
 */
function pruneDue(clock: SimClock, participants: Participants, now: number): CoreCommand | undefined {
  if (now - clock.lastPruneMs < PRUNE_EVERY_MS) return undefined;
  clock.lastPruneMs = now;
  return { type: 'pruneOrders', nowMs: now, userIds: [...participants.makers, ...participants.takers].map((a) => a.userId), olderThanMs: now - PRUNE_AFTER_MS };
}

/** Budgets in commands, accrued for the time since the last tick; a burst (a fresh market's first quotes) may overdraw them. */
function refillBudgets(budget: { maker: number; taker: number }, opts: SimOptions, clock: SimClock, now: number): void {
  const elapsed = clock.lastTickMs === 0 ? opts.tickMs : Math.min(now - clock.lastTickMs, 2 * opts.tickMs);
  clock.lastTickMs = now;
  const cap = (share: number) => Math.max(1, (share * opts.ratePerSecond * opts.tickMs) / 500);
  const accrue = (b: number, share: number) => Math.min(b + (share * opts.ratePerSecond * elapsed) / 1000, cap(share));
  budget.maker = accrue(budget.maker, 1 - opts.takerShare);
  budget.taker = accrue(budget.taker, opts.takerShare);
}

/** Submits a command and counts it, by type and by rejection code. */
function countingSubmit(svc: Services, stats: SimStats): Submit {
  return (cmd: CoreCommand) => {
    stats.submitted++;
    stats.byType[cmd.type] = (stats.byType[cmd.type] ?? 0) + 1;
    return svc.node.submit(cmd).then((o: CoreOutcome) => {
      if (!o.ok) {
        stats.rejected++;
        const code = String((o.result as { code?: unknown }).code ?? 'unknown');
        stats.rejectedByCode[code] = (stats.rejectedByCode[code] ?? 0) + 1;
      }
      return o;
    });
  };
}

interface TickRound {
  svc: Services;
  opts: SimOptions;
  rng: ReturnType<typeof createRng>;
  stats: SimStats;
  submit: Submit;
  participants: Participants;
  active: readonly MarketView[];
  hot: readonly MarketView[];
  /** commands the makers and takers may still send (spent here) */
  budget: { maker: number; taker: number };
}

/** One tick's quoting and taking on open markets (hot ones by `hotShare`), within the budgets. */
function spendBudgets({ svc, opts, rng, stats, submit, participants, active, hot, budget }: TickRound): Promise<unknown>[] {
  const pending: Promise<unknown>[] = [];
  const pick = () => {
    const from = hot.length && rng.next() < opts.hotShare ? hot : active;
    const m = from[Math.floor(rng.next() * from.length)];
    const market = m && svc.node.core.engine.getMarket(m.ticker);
    return market && market.status === 'open' ? market : undefined;
  };
  const touched = new Set<string>();
  for (let guard = 0; budget.maker >= 1 && guard < 32 && active.length > 0; guard++) {
    const market = pick();
    if (!market || touched.has(market.ticker)) continue;
    touched.add(market.ticker);
    const was = stats.submitted;
    const { before: f0, after: f1 } = participants.step(market);
    pending.push(...participants.requote(market, f1 >= f0, submit));
    budget.maker -= stats.submitted - was;
  }
  for (let guard = 0; budget.taker >= 1 && guard < 16 && active.length > 0; guard++) {
    const market = pick();
    const p = market && participants.take(market, submit);
    if (!p) continue;
    pending.push(p);
    budget.taker -= 1;
  }
  return pending;
}

/** The server activity: seed from the server's options, overrides from `simOptions`. */
export const simActivity: Activity = (svc: Services, opts: ExchangeServerOptions) => {
  const extra = opts.simOptions ?? {};
  return startSim(svc, { seed: opts.seed ?? 1, ...extra });
};
