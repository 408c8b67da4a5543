// The order audit journal as the trading service writes it: one entry per action asked for
// (what was asked, what the gate said, the answer or error, and how long the exchange took).
// A journal that cannot write is logged; it never stops an order.
import type { AnyOrderOrigin, AuditEntry, OrderAck, TerminalError } from '../../src-shared/ipc/contract';
import { AuditJournal } from '../audit/journal';
import type { ActiveSession } from './profiles-service';

/** What an entry says before the answer is known. */
export interface AuditBase {
  action: string;
  /** which surface asked: the page's word (OrderOrigin) or main's own (MainOrigin); informational, never read by the gate */
  origin: AnyOrderOrigin | undefined;
  /** the origin's detail: a strategy's id, a local order's id */
  originId?: string | undefined;
  ticker: string | null;
  asked: Record<string, unknown>;
  gate: string;
  clientOrderId?: string | null;
}

/** An order's answer as the journal says it. */
export function ackSummary(a: OrderAck): string {
  return `order ${a.order_id}: filled ${a.fill_count}, resting ${a.remaining_count}`;
}

/** An error as the journal says it: its code, when it has one, and its message. */
export function errorSummary(err: TerminalError): string {
  return `${err.code ? `${err.code}: ` : ''}${err.message}`;
}

export class TradingAudit {
  readonly journal: AuditJournal;

  constructor(
    dir: string,
    /** turns a thrown error into what the journal records */
    private readonly describeError: (err: unknown) => TerminalError,
    private readonly log?: (m: string) => void,
  ) {
    this.journal = new AuditJournal(dir);
    this.journal.onError = (e) => this.log?.(`[audit] could not write: ${e.message}`);
  }

  record(active: ActiveSession, base: AuditBase, outcome: AuditEntry['outcome'], answer: string, latencyMs: number | null): void {
    try {
      this.journal.appendSoon({
        ts: Date.now(),
        profileId: active.profileId,
        keyId: active.keyId,
        action: base.action,
        origin: base.origin ?? null,
        originId: base.originId ? base.originId.slice(0, 80) : null,
        ticker: base.ticker,
        asked: base.asked,
        gate: base.gate,
        clientOrderId: base.clientOrderId ?? null,
        outcome,
        answer: answer.slice(0, 500),
        latencyMs,
      });
    } catch (e) {
      this.log?.(`[audit] could not write: ${(e as Error).message}`);
    }
  }

  /** Runs a send, recording its answer or error and latency (`route.via`: which route it took, as it says when it is done). */
  async audited<T>(active: ActiveSession, base: AuditBase, send: () => Promise<T>, summary: (r: T) => string, route?: { via: string }): Promise<T> {
    const t0 = performance.now();
    const via = () => (route ? `via ${route.via}: ` : '');
    try {
      const r = await send();
      this.record(active, base, 'ok', via() + summary(r), Math.round(performance.now() - t0));
      return r;
    } catch (e) {
      this.record(active, base, 'error', via() + errorSummary(this.describeError(e)), Math.round(performance.now() - t0));
      throw e;
    }
  }
}
