// A domain module is a pure slice of exchange state beyond matching (users and keys, the
// catalog, RFQs, FCM, wallet history...). Each owns its command types; the core routes a
// command to exactly one owner. A module may drive the engine through `ctx.engine` inside its
// own command (an RFQ confirm executing a trade), which keeps the pair one journal record.
import type { Engine } from '../engine/engine';
import type { EngineEvent } from '../engine/types';

/** Something a domain command caused that streams care about (besides engine events). */
export interface DomainEvent {
  type: 'domain';
  /** stream channel, e.g. `communications`, `market_lifecycle_v2` */
  channel: string;
  /** user ids that may see it, or 'public' */
  audience: readonly string[] | 'public';
  /** message `type` on the stream, e.g. `rfq_created` */
  kind: string;
  payload: Record<string, unknown>;
}

export type ExchangeEvent = EngineEvent | DomainEvent;

export type DomainResult<T extends object = object> =
  | ({ ok: true } & T)
  | { ok: false; code: string; message: string; details?: string; status?: number };

export interface DomainCtx {
  engine: Engine;
  /** other modules' states, read-only by convention */
  domains: Readonly<Record<string, unknown>>;
  /** events to publish once the command is durable */
  emit(event: ExchangeEvent): void;
  /** set when the command changed state even though it was rejected (engine expiry) */
  markMutated(): void;
}

export interface DomainModule<S, C extends { type: string; nowMs: number }> {
  name: string;
  commandTypes: readonly C['type'][];
  empty(): S;
  /** Validate fully, then mutate. A rejection must leave state unchanged (unless ctx.markMutated). */
  apply(state: S, cmd: C, ctx: DomainCtx): DomainResult;
}

// Helper for modules: a typed rejection.
export function fail(code: string, message: string, status?: number, details?: string): DomainResult {
  return { ok: false, code, message, ...(status !== undefined ? { status } : {}), ...(details !== undefined ? { details } : {}) };
}
