// What every door of the exchange (REST handlers, the stream, FIX, the simulation, replay, the
// bootstrap) shares: the services it reaches, submitting a command, and turning a rejection into
// the protocol's error. A core-level module, so the doors meet here, not in handlers/.
import type { ExchangeNode } from './node';
import type { CoreCommand, CoreOutcome } from './core';
import { ExchangeError } from './errors';
import type { UsersState } from '../state/users';

export interface Services {
  node: ExchangeNode;
  /** the exchange's seed (for generated data such as live data and seeded history) */
  seed: number;
}

export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  not_found: 404,
  invalid_parameters: 400,
  invalid_order: 400,
  invalid_price: 400,
  insufficient_balance: 400,
  market_closed: 400,
  conflict: 409,
  order_already_exists: 409,
  forbidden: 403,
  unauthorized: 401,
};

/** Turns a rejected outcome into an ExchangeError (status from the result or the code). */
export function rejectionError(outcome: CoreOutcome): ExchangeError {
  const r = outcome.result as { code?: string; message?: string; details?: string; status?: number };
  const code = r.code ?? 'invalid_parameters';
  return new ExchangeError(r.status ?? STATUS_BY_CODE[code] ?? 400, code, r.message ?? code, r.details);
}

/** Submits a command; resolves with the result once durable, or throws the protocol error. */
export async function run<T = Record<string, unknown>>(svc: Services, cmd: CoreCommand): Promise<T> {
  const outcome = await svc.node.submit(cmd);
  if (!outcome.ok) throw rejectionError(outcome);
  return outcome.result as T;
}

export function users(svc: Services): UsersState {
  return svc.node.core.domain<UsersState>('users');
}
