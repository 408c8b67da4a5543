// The live simulation as a server activity: simulated participants trade and markets move
// through their lifecycle, at a bounded command rate, so books, trades, candles and the stream
// move. Everything goes through `svc.node.submit` (journaled and published like any command;
// never the REST API). One timer drives it, unref'd; stop() clears it and awaits what is in
// flight. Started by the server after listen unless `sim: false` (the CLI's --no-sim).
import type { CoreCommand, CoreOutcome } from '../core/core';
import type { MarketView } from '../engine/types';
import type { Services } from '../handlers/support';
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
  const node = svc.node;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inflight: Promise<void> = Promise.resolve();
  let participants: Participants | undefined;
  let lifecycle: Lifecycle | undefined;
  let active: MarketView[] = [];
  let hot: MarketView[] = [];
  let lastLifecycleMs = 0;
  let lastPruneMs = 0;
  let lastTickMs = 0;
  let makerBudget = 0;
  let takerBudget = 0;
  let lastErrorLog = 0;

  const submit: Submit = (cmd: CoreCommand) => {
    stats.submitted++;
    stats.byType[cmd.type] = (stats.byType[cmd.type] ?? 0) + 1;
    return node.submit(cmd).then((o: CoreOutcome) => {
      if (!o.ok) {
        stats.rejected++;
        const code = String((o.result as { code?: unknown }).code ?? 'unknown');
        stats.rejectedByCode[code] = (stats.rejectedByCode[code] ?? 0) + 1;
      }
      return o;
    });
  };

  const report = (err: unknown) => {
    stats.errors++;
    const now = Date.now();
    if (now - lastErrorLog > 60_000) {
      lastErrorLog = now;
      console.error('[exchange sim]', err);
    }
  };

  /**
   * Open markets worth quoting: newest first (short-lived ones the lifecycle adds), capped. A
   * market that drops out while still trading loses the makers' quotes (none left stale).
   */
  const refreshActive = (): Promise<unknown>[] => {
    const open = node.core.engine.listMarkets({ status: 'open' });
    open.sort((a, b) => b.created_ms - a.created_ms || (a.ticker < b.ticker ? -1 : 1));
    const next = open.slice(0, opts.maxActiveMarkets);
    const keep = new Set(next.map((m) => m.ticker));
    const out: Promise<unknown>[] = [];
    for (const m of active) {
      if (keep.has(m.ticker) || !participants) continue;
      participants.forget(m.ticker);
      if (node.core.engine.getMarket(m.ticker)?.status === 'open') out.push(...participants.withdraw(m.ticker, submit));
    }
    active = next;
    hot = [...next].sort((a, b) => b.volume - a.volume || (a.ticker < b.ticker ? -1 : 1)).slice(0, opts.hotMarkets);
    return out;
  };

  const runTick = async () => {
    if (!participants || !lifecycle) return;
    stats.ticks++;
    const now = node.now();
    const pending: Promise<unknown>[] = [];
    if (now - lastLifecycleMs >= opts.lifecycleMs) {
      lastLifecycleMs = now;
      pending.push(...participants.topUps(submit));
      pending.push(...lifecycle.pass(submit, active));
      pending.push(...refreshActive());
    }
    // The makers' cancel/replace churn would grow the state (and every snapshot) forever:
    // drop their canceled, never-filled orders once they are a few minutes old.
    if (now - lastPruneMs >= PRUNE_EVERY_MS) {
      lastPruneMs = now;
      pending.push(submit({ type: 'pruneOrders', nowMs: now, userIds: [...participants.makers, ...participants.takers].map((a) => a.userId), olderThanMs: now - PRUNE_AFTER_MS }));
    }
    const elapsed = lastTickMs === 0 ? opts.tickMs : Math.min(now - lastTickMs, 2 * opts.tickMs);
    lastTickMs = now;
    // budgets in commands; a burst (a fresh market's first quotes) may overdraw them
    const cap = (share: number) => Math.max(1, (share * opts.ratePerSecond * opts.tickMs) / 500);
    const accrue = (b: number, share: number) => Math.min(b + (share * opts.ratePerSecond * elapsed) / 1000, cap(share));
    makerBudget = accrue(makerBudget, 1 - opts.takerShare);
    takerBudget = accrue(takerBudget, opts.takerShare);
    const pick = () => {
      const from = hot.length && rng.next() < opts.hotShare ? hot : active;
      const m = from[Math.floor(rng.next() * from.length)];
      const market = m && node.core.engine.getMarket(m.ticker);
      return market && market.status === 'open' ? market : undefined;
    };
    const touched = new Set<string>();
    for (let guard = 0; makerBudget >= 1 && guard < 32 && active.length > 0; guard++) {
      const market = pick();
      if (!market || touched.has(market.ticker)) continue;
      touched.add(market.ticker);
      const was = stats.submitted;
      const { before: f0, after: f1 } = participants.step(market);
      pending.push(...participants.requote(market, f1 >= f0, submit));
      makerBudget -= stats.submitted - was;
    }
    for (let guard = 0; takerBudget >= 1 && guard < 16 && active.length > 0; guard++) {
      const market = pick();
      const p = market && participants.take(market, submit);
      if (!p) continue;
      pending.push(p);
      takerBudget -= 1;
    }
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
    lifecycle = new Lifecycle(svc, participants, opts, rng, node.now());
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
      let seen: Promise<void> | undefined;
      while (seen !== inflight) {
        seen = inflight;
        await inflight.catch(() => undefined);
      }
      if (lifecycle) await Promise.allSettled(lifecycle.resumeAll(submit));
    },
  };
}

/** The server activity: seed from the server's options, overrides from `simOptions`. */
export const simActivity: Activity = (svc: Services, opts: ExchangeServerOptions) => {
  const extra = opts.simOptions ?? {};
  return startSim(svc, { seed: opts.seed ?? 1, ...extra });
};
