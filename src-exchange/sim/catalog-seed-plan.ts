// What the seed steps (catalog-seed.ts, catalog-seed-events.ts) write into: a plan of commands
// at past times, returned in time order (ties in the order they were added), the seeded random
// source they draw from in turn, the window of history and the two seed accounts. Also the
// shapes of the planned events and markets.
import type { CoreCommand } from '../core/core';
import type { MarketResult } from '../engine/types';
import { mulberry32 } from '../../src-shared/random';
import { seedUuid } from './catalog-seed-data';

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export type Fate = 'settled' | 'closed' | 'open' | 'unopened';

export interface MarketPlan {
  ticker: string;
  title: string;
  yes_sub_title: string;
  strike_type: string;
  floor_strike: number | null;
  cap_strike: number | null;
  /** opening fair value in ticks, and the result when it settles */
  fair: number;
  result: MarketResult;
  paused?: boolean;
}

export interface EventPlan {
  ticker: string;
  series: string;
  title: string;
  sub_title: string;
  openMs: number;
  closeMs: number;
  fate: Fate;
  mutuallyExclusive: boolean;
  markets: MarketPlan[];
  extra: Record<string, unknown>;
  rules: (m: MarketPlan) => string;
}

export const seedAccountIds = (seed: number) => ({ maker: seedUuid(seed, 1, 1), taker: seedUuid(seed, 1, 2) });

export type SeedOrderSide = 'bid' | 'ask';
export type SeedTimeInForce = 'good_till_canceled' | 'immediate_or_cancel';

export interface SeedPlan {
  readonly seed: number;
  readonly nowMs: number;
  /** Midnight UTC of the start day: the events are placed relative to it. */
  readonly D: number;
  /** The first command's time: 90 days before D. */
  readonly start: number;
  /** History stops here (5 minutes before now); the resting quotes follow it. */
  readonly stop: number;
  readonly maker: string;
  readonly taker: string;
  /** The seeded random source: every step draws from it in turn, so the order of the steps is part of the plan. */
  rand(): number;
  /** A whole number in [lo, hi], from rand. */
  pick(lo: number, hi: number): number;
  /** Adds a command at `ms` (its nowMs). */
  at(ms: number, cmd: Omit<CoreCommand, 'nowMs'>): void;
  /** Adds an order of a seed account, with the next seed client order id. */
  order(ms: number, userId: string, ticker: string, side: SeedOrderSide, priceTicks: number, countCenti: number, tif: SeedTimeInForce): void;
  /** The commands so far, in time order. */
  commands(): CoreCommand[];
}

export function newSeedPlan(seed: number, nowMs: number): SeedPlan {
  const rand = mulberry32(seed ^ 0x5eed_cafe);
  const D = Math.floor(nowMs / DAY) * DAY;
  const cmds: { at: number; n: number; cmd: CoreCommand }[] = [];
  let n = 0;
  let orderN = 0;
  const at = (ms: number, cmd: Omit<CoreCommand, 'nowMs'>) => cmds.push({ at: ms, n: n++, cmd: { ...cmd, nowMs: ms } as CoreCommand });
  return {
    seed,
    nowMs,
    D,
    start: D - 90 * DAY,
    stop: nowMs - 5 * MIN,
    ...seedAccountIds(seed),
    rand,
    pick: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
    at,
    order: (ms, userId, ticker, side, priceTicks, countCenti, tif) =>
      at(ms, { type: 'createOrder', userId, ticker, side, priceTicks, countCenti, timeInForce: tif, clientOrderId: `seed-${++orderN}` }),
    commands: () => [...cmds].sort((a, b) => a.at - b.at || a.n - b.n).map((c) => c.cmd),
  };
}
