// ExchangeNode: the core made durable. A state-changing command is applied, appended to the
// journal, and only once the journal says it is on disk is the caller answered and the
// events published. Restart = newest snapshot + replay of the journal after it.
import { Journal, type JournalHooks } from '../journal/journal';
import { readArchive } from '../journal/archive-file';
import type { ExchangeEvent } from '../state/domain';
import { BATCH, ExchangeCore, type BatchCommand, type CoreCommand, type CoreOutcome, type CoreSnapshot } from './core';
import { SnapshotWorker } from './snapshot-worker';

export interface NodeOptions {
  dataDir: string;
  /** milliseconds clock; injectable for tests */
  clock?: () => number;
  /** write a snapshot after this many journaled commands (default 20,000) */
  snapshotEvery?: number;
  /**
   * 'worker' (default): a worker thread follows the journal and serialises snapshots, so they
   * never stall requests; 'inline': on the event loop at a quiet moment (also the fallback when
   * the worker cannot run).
   */
  snapshots?: 'worker' | 'inline';
  /** the journal's fault-injection hooks, for tests (e.g. hold a snapshot before its rename) */
  journalHooks?: JournalHooks;
}

export type EventListener = (events: readonly ExchangeEvent[]) => void;

/** Journal records since the last snapshot from which an orderly close snapshots them (see close). */
export const CLOSE_SNAPSHOT_MIN_RECORDS = 500;

/**
 * Commands applied at once, one after another (each sees the state the one before left), and
 * journaled together as one record when committed. Commit before the event loop turns: no other
 * command may be applied while a batch is open (submit refuses), so journal order stays apply order.
 */
export interface NodeBatch {
  apply(cmd: CoreCommand): CoreOutcome;
  /** Journal the batch as one record; resolves once durable, then its events are published (once, in order). */
  commit(): Promise<void>;
}

export class ExchangeNode {
  private readonly listeners = new Set<EventListener>();
  private sinceSnapshot = 0;
  /** the snapshot being taken (due or explicit): at most one at a time */
  private snapshotRun: Promise<void> | null = null;
  /** seq of the newest snapshot taken or recovered: an explicit snapshot with nothing newer is not taken twice */
  private snapshotSeq: number;
  private lastSubmitAt = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private lastNow = 0;
  private batchOpen = false;
  /** null until the first snapshot; 'inline' when snapshots run on the event loop */
  private worker: SnapshotWorker | 'inline' | null;
  readonly recovered: { records: number; fromSnapshotSeq: number | null };

  private constructor(
    readonly core: ExchangeCore,
    private readonly journal: Journal<CoreCommand, CoreSnapshot>,
    private readonly clock: () => number,
    private readonly snapshotEvery: number,
    recovered: { records: number; fromSnapshotSeq: number | null },
    private readonly dataDir: string,
    snapshots: 'worker' | 'inline',
  ) {
    this.recovered = recovered;
    this.snapshotSeq = recovered.fromSnapshotSeq ?? 0;
    this.worker = snapshots === 'inline' ? 'inline' : null;
  }

  static async open(opts: NodeOptions): Promise<ExchangeNode> {
    const { journal, snapshot, records } = await Journal.open<CoreCommand, CoreSnapshot>(
      opts.dataDir,
      opts.journalHooks ? { hooks: opts.journalHooks } : {},
    );
    let core: ExchangeCore;
    try {
      // a snapshot the worker wrote keeps its history in the archive it names (engine/archive.ts)
      const history = snapshot?.state.archive ? await readArchive(opts.dataDir, snapshot.state.archive) : undefined;
      // the snapshot was decoded for this start alone: adopted, not copied
      core = snapshot ? ExchangeCore.adopt(snapshot.state, history) : new ExchangeCore();
    } catch (err) {
      await journal.close();
      throw new Error(`the snapshot at seq ${snapshot?.seq} cannot be restored: ${(err as Error).message}`, { cause: err });
    }
    let lastNow = 0;
    for (const { record } of records) {
      core.apply(record);
      lastNow = Math.max(lastNow, record.nowMs);
    }
    const node = new ExchangeNode(core, journal, opts.clock ?? Date.now, opts.snapshotEvery ?? 20_000, {
      records: records.length,
      fromSnapshotSeq: snapshot ? snapshot.seq : null,
    }, opts.dataDir, opts.snapshots ?? 'worker');
    node.lastNow = lastNow;
    return node;
  }

  /** Monotonic command time: never earlier than the last command (the engine relies on order). */
  now(): number {
    const t = Math.max(this.clock(), this.lastNow);
    this.lastNow = t;
    return t;
  }

  onEvents(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Apply a command; resolve once it is durable. Apply and append happen in one synchronous
   * step, so journal order is apply order. Read-only outcomes (rejections that changed
   * nothing) resolve at once and are not journaled.
   */
  async submit(cmd: CoreCommand): Promise<CoreOutcome> {
    if (this.batchOpen) throw new Error('a command was submitted while a batch is open (commit the batch first)');
    if (cmd.nowMs > this.lastNow) this.lastNow = cmd.nowMs;
    this.lastSubmitAt = Date.now();
    const outcome = this.core.apply(cmd);
    if (!outcome.mutated) return outcome;
    const durable = this.journal.append(cmd);
    this.sinceSnapshot++;
    await durable;
    if (outcome.events.length) this.publish(outcome.events);
    if (this.sinceSnapshot >= this.snapshotEvery) this.maybeSnapshot();
    return outcome;
  }

  beginBatch(): NodeBatch {
    if (this.batchOpen) throw new Error('a batch is already open');
    this.batchOpen = true;
    const cmds: CoreCommand[] = [];
    const events: ExchangeEvent[] = [];
    let nowMs = 0;
    let done = false;
    return {
      apply: (cmd) => {
        if (done) throw new Error('this batch is committed');
        if (cmd.type === BATCH) throw new Error('a batch inside a batch');
        if (cmd.nowMs > this.lastNow) this.lastNow = cmd.nowMs;
        const outcome = this.core.apply(cmd);
        if (!outcome.mutated) return outcome;
        cmds.push(cmd);
        if (cmd.nowMs > nowMs) nowMs = cmd.nowMs;
        for (const e of outcome.events) events.push(e);
        return outcome;
      },
      commit: async () => {
        if (done) throw new Error('this batch is committed');
        done = true;
        this.batchOpen = false;
        if (cmds.length === 0) return;
        this.lastSubmitAt = Date.now();
        const record: BatchCommand = { type: BATCH, nowMs, cmds };
        const durable = this.journal.append(record);
        this.sinceSnapshot += cmds.length;
        await durable;
        if (events.length) this.publish(events);
        if (this.sinceSnapshot >= this.snapshotEvery) this.maybeSnapshot();
      },
    };
  }

  private publish(events: readonly ExchangeEvent[]): void {
    for (const l of this.listeners) {
      try {
        l(events);
      } catch (err) {
        console.error('[exchange] event listener failed', err);
      }
    }
  }

  /**
   * With the worker a due snapshot is taken at once: the thread serialises its replica and writes
   * the file; the event loop only renames it into place. Inline (the fallback), serialising blocks
   * the event loop, so a due snapshot waits for a quiet moment (no command for 250 ms) and is
   * forced only when the journal since the last one has grown twenty times past the cadence.
   */
  private maybeSnapshot(): void {
    if (this.snapshotRun) return;
    const quiet = Date.now() - this.lastSubmitAt >= 250;
    if (this.snapshotWorker() || quiet || this.sinceSnapshot >= this.snapshotEvery * 20) {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      this.snapshotSoon();
      return;
    }
    if (this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      this.maybeSnapshot();
    }, 300);
    this.idleTimer.unref();
  }

  /** The running worker, started on first use; null when snapshots run inline. */
  private snapshotWorker(): SnapshotWorker | null {
    if (this.worker === 'inline') return null;
    if (this.worker?.failed) {
      if (!this.worker.closing) console.error(`[exchange] ${this.worker.failed.message}; snapshots now run on the event loop`);
      this.worker = 'inline';
      return null;
    }
    if (this.worker === null) {
      this.worker = SnapshotWorker.start(this.journal, this.dataDir) ?? 'inline';
      if (this.worker === 'inline') console.error('[exchange] snapshot worker script not found; snapshots run on the event loop');
    }
    return this.worker === 'inline' ? null : this.worker;
  }

  private snapshotSoon(): void {
    if (this.snapshotRun) return;
    this.runSnapshot().catch((err) => console.error('[exchange] snapshot failed (journal still good)', err));
  }

  /**
   * Start a snapshot; the caller has checked that none is in flight. Due and explicit snapshots
   * both go through here, so two never run at once: two at once would both be of the same seq
   * (the worker writes each to that seq's one temp file) and the second would find it renamed away.
   */
  private runSnapshot(inline = false): Promise<void> {
    this.sinceSnapshot = 0;
    const run = this.takeSnapshot(inline).finally(() => {
      if (this.snapshotRun === run) this.snapshotRun = null;
    });
    this.snapshotRun = run;
    return run;
  }

  private async takeSnapshot(inline: boolean): Promise<void> {
    const worker = inline ? null : this.snapshotWorker();
    if (!worker) {
      // serialised synchronously inside writeSnapshot, so it matches lastSeq
      this.snapshotSeq = await this.journal.writeSnapshot(this.core.toSnapshot());
      return;
    }
    try {
      const { throughSeq } = await worker.snapshot();
      this.snapshotSeq = await this.journal.adoptSnapshotFile(throughSeq);
    } catch (err) {
      if (!worker.failed) throw err;
      // the worker died: this snapshot is taken inline, the next ones too
      this.snapshotWorker();
      this.snapshotSeq = await this.journal.writeSnapshot(this.core.toSnapshot());
    }
  }

  /**
   * Take a snapshot now (through the worker when it runs) and wait until it is durable. A snapshot
   * already in flight (a due one, or another caller's) is joined first; a new one follows it only
   * if commands were journaled since the newest snapshot, so each seq is snapshotted once.
   * `inline` serialises on the event loop without starting the worker: for a caller with nothing
   * else to serve yet (a first start's seeded state), where the worker's start and its replay of
   * the whole journal would cost more than the snapshot itself.
   */
  async snapshotNow(opts: { inline?: boolean } = {}): Promise<void> {
    // a loop: callers woken by the same run must not both start the next one
    while (this.snapshotRun) await this.snapshotRun.catch(() => undefined);
    if (this.journal.lastSeq <= this.snapshotSeq) return;
    await this.runSnapshot(opts.inline === true);
  }

  /** A snapshot (due or explicit) is being taken. */
  get snapshotInFlight(): boolean {
    return this.snapshotRun !== null;
  }

  /** Where snapshots are serialised: 'worker' once the thread runs, 'inline' on the event loop. */
  get snapshotMode(): 'worker' | 'inline' | 'not started' {
    if (this.worker === null) return 'not started';
    return this.worker === 'inline' || this.worker.failed ? 'inline' : 'worker';
  }

  get journalStats() {
    return this.journal.stats;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    // a snapshot in flight finishes first (its failure is logged where it started)
    while (this.snapshotRun) await this.snapshotRun.catch(() => undefined);
    // An orderly close with a long journal tail snapshots it, so the next start reads the
    // snapshot alone instead of replaying up to `snapshotEvery` commands (the trader's everyday
    // start waits on that replay). A short tail is cheaper to replay than to serialise the state
    // for. Through the worker when it runs (its snapshots keep their history in the archive),
    // inline when it never started (starting it would replay the whole journal). Should it fail,
    // the journal still holds every command: the next start replays them.
    if (this.journal.failure === null && this.journal.lastSeq - this.snapshotSeq >= CLOSE_SNAPSHOT_MIN_RECORDS) {
      try {
        await this.snapshotNow({ inline: this.worker === null });
      } catch (e) {
        console.error(`[exchange] the closing snapshot was not written (the journal keeps every command): ${(e as Error).message}`);
      }
    }
    if (this.worker && this.worker !== 'inline') await this.worker.close();
    await this.journal.close();
  }
}
