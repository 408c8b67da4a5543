// Helpers for the engine's tests: a market with funded accounts, and terse order entry.

import { Engine } from '../../src-exchange/engine/engine';
import type { FeeType } from '../../src-exchange/engine/fees';
import type { Accepted, Command, CommandOutputs, CreateOrderCommand, OrderView, ResultOf } from '../../src-exchange/engine/types';
import { MICRO_PER_DOLLAR } from '../../src-exchange/engine/units';

export const T0 = 1_700_000_000_000;
export const TICKER = 'MKT-1';

export interface SetupOptions {
  feeType?: FeeType;
  feeMultiplierE4?: number;
  /** user id -> dollars deposited into subaccount 0 */
  users?: Record<string, number>;
  idSeed?: number;
}

export function setup(options: SetupOptions = {}): Engine {
  const e = new Engine({ idSeed: options.idSeed ?? 1 });
  ok(e, {
    type: 'addMarket',
    nowMs: T0,
    ticker: TICKER,
    eventTicker: 'EVT-1',
    seriesTicker: 'SER',
    feeType: options.feeType ?? 'quadratic',
    feeMultiplierE4: options.feeMultiplierE4 ?? 10_000,
  });
  ok(e, { type: 'openMarket', nowMs: T0, ticker: TICKER });
  for (const [userId, dollars] of Object.entries(options.users ?? { alice: 1000, bob: 1000, carol: 1000 })) {
    ok(e, { type: 'deposit', nowMs: T0, userId, amountMicro: dollars * MICRO_PER_DOLLAR });
  }
  return e;
}

/** Apply a command that must be accepted. */
export function ok<C extends Command>(e: Engine, cmd: C): Accepted<CommandOutputs[C['type']]> {
  const r = e.apply(cmd) as ResultOf<C>;
  if (!r.ok) throw new Error(`${cmd.type} rejected: ${r.code} ${r.message}`);
  return r as Accepted<CommandOutputs[C['type']]>;
}

/** Place an order (price in ticks, count in centi) and return it as the engine answered. */
export function place(
  e: Engine,
  userId: string,
  side: 'bid' | 'ask',
  priceTicks: number,
  countCenti: number,
  extra: Partial<Omit<CreateOrderCommand, 'type' | 'userId' | 'side' | 'priceTicks' | 'countCenti'>> = {},
): OrderView {
  return ok(e, { type: 'createOrder', nowMs: T0, userId, ticker: TICKER, side, priceTicks, countCenti, ...extra }).order;
}

export function expectClean(e: Engine): void {
  const problems = e.checkInvariants();
  if (problems.length > 0) throw new Error(`invariants broken:\n${problems.join('\n')}`);
}
