// Helpers the RFQ and the block-trade proposal modules share: who takes part, whether a
// market is open to trade in, executing the agreed trade, and running a command's handler.
import type { DomainCtx } from './domain';
import type { Engine } from '../engine/engine';
import type { CommandOutputs, ExecuteBlockTradeCommand, MarketView } from '../engine/types';
import { reject, type Outcome, type Rejected } from './fcm';
import type { UsersState } from './users';

/** Every participant: RFQs are broadcast to all of them. */
export function allParticipants(ctx: DomainCtx): string[] {
  return Object.keys((ctx.domains['users'] as UsersState | undefined)?.users ?? {});
}

export function userExists(ctx: DomainCtx, userId: string): boolean {
  return (ctx.domains['users'] as UsersState | undefined)?.users[userId] !== undefined;
}

export function openMarket(engine: Engine, ticker: string): MarketView | Rejected {
  const m = engine.getMarket(ticker);
  if (!m) return reject('not_found', `market ${ticker} not found`, 404);
  if (m.status !== 'open') return reject('invalid_order', `market ${ticker} is ${m.status}`, 400, 'market_not_open');
  return m;
}

export const isRejected = (v: object): v is Rejected => (v as { ok?: unknown }).ok === false;

/**
 * Executes an agreed off-book trade inside the command (engine `executeBlockTrade`): its events
 * are emitted whatever the outcome; a refusal comes back as a rejection (marking the command
 * mutated when the engine changed state before refusing).
 */
export function executeOffBook(ctx: DomainCtx, trade: Omit<ExecuteBlockTradeCommand, 'type'>): CommandOutputs['executeBlockTrade'] | Rejected {
  const r = ctx.engine.apply({ type: 'executeBlockTrade', ...trade });
  for (const e of r.events) ctx.emit(e);
  if (!r.ok) {
    if (r.mutated) ctx.markMutated();
    return reject(r.code, r.message, undefined, r.details);
  }
  return r;
}

/** One handler per command kind: each takes the command of its kind. */
export type CommandHandlers<S, C extends { type: string }> = { [K in C['type']]: (state: S, cmd: Extract<C, { type: K }>, ctx: DomainCtx) => Outcome };

/** Runs the handler of the command's kind. */
export function dispatch<S, C extends { type: string }>(handlers: CommandHandlers<S, C>, state: S, cmd: C, ctx: DomainCtx): Outcome {
  // the record pairs each kind with its handler; TypeScript cannot follow that pairing through `cmd.type`
  return (handlers[cmd.type as C['type']] as (state: S, cmd: C, ctx: DomainCtx) => Outcome)(state, cmd, ctx);
}
