// ExchangeCore: the whole exchange as one deterministic state machine: the matching engine
// plus the domain modules. Same snapshot + same commands = same state; no clock, no I/O.
import { Engine } from '../engine/engine';
import { hydrateEngineSnapshot, type ArchivedHistory, type ArchiveRef, type HistoryArchiver } from '../engine/archive';
import type { EngineSnapshot } from '../engine/snapshot';
import type { Command as EngineCommand, CommandType as EngineCommandType } from '../engine/types';
import type { DomainCtx, DomainModule, DomainResult, ExchangeEvent } from '../state/domain';
import { domainModules } from './modules';

export interface CoreCommand {
  type: string;
  nowMs: number;
  [k: string]: unknown;
}

/** Commands applied one after another and journaled as one record (ExchangeNode.beginBatch). */
export const BATCH = 'batch';
export interface BatchCommand extends CoreCommand {
  type: typeof BATCH;
  cmds: CoreCommand[];
}

export interface CoreSnapshot {
  version: 1;
  /** present when the engine's history is in an archive file (engine/archive.ts), not in `engine` */
  archive?: ArchiveRef;
  engine: EngineSnapshot;
  domains: Record<string, unknown>;
}

export interface CoreOutcome {
  ok: boolean;
  /** the engine's or module's result (ok false: code, message, details, status) */
  result: Record<string, unknown>;
  events: ExchangeEvent[];
  /** whether state changed: such a command must be journaled, accepted or not */
  mutated: boolean;
}

const ENGINE_TYPES: ReadonlySet<string> = new Set<EngineCommandType>([
  'addMarket', 'openMarket', 'pauseMarket', 'closeMarket', 'determineMarket', 'settleMarket', 'updateMarketFees',
  'deposit', 'withdraw', 'createSubaccount', 'transfer',
  'createOrder', 'printTrade', 'cancelOrder', 'cancelAllOrders', 'amendOrder', 'decreaseOrder',
  'createOrderGroup', 'resetOrderGroup', 'triggerOrderGroup', 'updateOrderGroupLimit', 'deleteOrderGroup', 'expire', 'pruneOrders',
]);

export class ExchangeCore {
  engine: Engine;
  readonly domains: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly owners = new Map<string, DomainModule<any, any>>();

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly modules: readonly DomainModule<any, any>[] = domainModules,
    snapshot?: CoreSnapshot,
    history?: ArchivedHistory,
    adopt = false,
  ) {
    if (snapshot?.archive && !history) throw new Error(`this snapshot's history is in ${snapshot.archive.file}, which was not read`);
    this.engine = snapshot ? Engine.fromSnapshot(snapshot.archive ? hydrateEngineSnapshot(snapshot.engine, history!) : snapshot.engine, adopt) : new Engine();
    this.domains = {};
    for (const m of modules) {
      const saved = snapshot?.domains[m.name];
      this.domains[m.name] = saved !== undefined ? (adopt ? saved : structuredClone(saved)) : m.empty();
      for (const t of m.commandTypes) {
        if (ENGINE_TYPES.has(t) || this.owners.has(t)) throw new Error(`command type ${t} has two owners`);
        this.owners.set(t, m);
      }
    }
  }

  /** From a snapshot; one with an `archive` needs that archive's history (journal/archive-file.ts readArchive). */
  static fromSnapshot(s: CoreSnapshot, history?: ArchivedHistory): ExchangeCore {
    return new ExchangeCore(domainModules, s, history);
  }

  /**
   * From a snapshot that is the caller's to give away (just decoded from its file or a worker's
   * message, read by nothing after): its objects become the state's, nothing is copied.
   */
  static adopt(s: CoreSnapshot, history?: ArchivedHistory): ExchangeCore {
    return new ExchangeCore(domainModules, s, history, true);
  }

  toSnapshot(): CoreSnapshot {
    return { version: 1, engine: this.engine.toSnapshot(), domains: structuredClone(this.domains) };
  }

  /**
   * An archived snapshot: the history records the archive lacks (to append and make durable
   * first), then `finish(ref)` with where the archive ends gives the snapshot's JSON.
   */
  collectArchive(archiver: HistoryArchiver): { records: string[]; finish: (ref: ArchiveRef) => string } {
    const { records, liveJson } = this.engine.collectArchive(archiver);
    const domains = JSON.stringify(this.domains);
    return { records, finish: (ref) => `{"version":1,"archive":${JSON.stringify(ref)},"engine":${liveJson},"domains":${domains}}` };
  }

  domain<S>(name: string): S {
    const s = this.domains[name];
    if (s === undefined) throw new Error(`no domain module ${name}`);
    return s as S;
  }

  isKnownCommand(type: string): boolean {
    return ENGINE_TYPES.has(type) || this.owners.has(type);
  }

  apply(cmd: CoreCommand): CoreOutcome {
    if (cmd.type === BATCH) return this.applyBatch(cmd as BatchCommand);
    if (ENGINE_TYPES.has(cmd.type)) {
      const r = this.engine.apply(cmd as unknown as EngineCommand);
      const { events, mutated, ...rest } = r;
      return { ok: r.ok, result: rest as Record<string, unknown>, events, mutated };
    }
    const owner = this.owners.get(cmd.type);
    if (!owner) {
      return { ok: false, result: { ok: false, code: 'invalid_parameters', message: `unknown command ${cmd.type}` }, events: [], mutated: false };
    }
    const events: ExchangeEvent[] = [];
    let forced = false;
    const ctx: DomainCtx = {
      engine: this.engine,
      domains: this.domains,
      emit: (e) => events.push(e),
      markMutated: () => {
        forced = true;
      },
    };
    const r: DomainResult = owner.apply(this.domains[owner.name], cmd, ctx);
    return { ok: r.ok, result: r as Record<string, unknown>, events, mutated: r.ok || forced };
  }

  /** A journaled batch (ExchangeNode.beginBatch): its commands applied in order, as when they were first applied. */
  private applyBatch(b: BatchCommand): CoreOutcome {
    const events: ExchangeEvent[] = [];
    let mutated = false;
    for (const c of b.cmds) {
      if (c.type === BATCH) throw new Error('a batch inside a batch');
      const r = this.apply(c);
      mutated ||= r.mutated;
      for (const e of r.events) events.push(e);
    }
    return { ok: true, result: { ok: true, count: b.cmds.length }, events, mutated };
  }
}
