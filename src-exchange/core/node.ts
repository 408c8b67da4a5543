// ExchangeNode: the core made durable. A state-changing command is applied, appended to the
// journal, and only once the journal says it is on disk is the caller answered and the
// events published. Restart = newest snapshot + replay of the journal after it.
import { Journal } from '../journal/journal';
import type { ExchangeEvent } from './domain';
import { ExchangeCore, type CoreCommand, type CoreOutcome, type CoreSnapshot } from './core';

export interface NodeOptions {
  dataDir: string;
  /** milliseconds clock; injectable for tests */
  clock?: () => number;
  /** write a snapshot after this many journaled commands (default 20,000) */
  snapshotEvery?: number;
}

export type EventListener = (events: readonly ExchangeEvent[]) => void;

export class ExchangeNode {
  private readonly listeners = new Set<EventListener>();
  private sinceSnapshot = 0;
  private snapshotting = false;
  private lastSubmitAt = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private lastNow = 0;
  readonly recovered: { records: number; fromSnapshotSeq: number | null };

  private constructor(
    readonly core: ExchangeCore,
    private readonly journal: Journal<CoreCommand, CoreSnapshot>,
    private readonly clock: () => number,
    private readonly snapshotEvery: number,
    recovered: { records: number; fromSnapshotSeq: number | null },
  ) {
    this.recovered = recovered;
  }

  static async open(opts: NodeOptions): Promise<ExchangeNode> {
    const { journal, snapshot, records } = await Journal.open<CoreCommand, CoreSnapshot>(opts.dataDir);
    const core = snapshot ? ExchangeCore.fromSnapshot(snapshot.state) : new ExchangeCore();
    let lastNow = 0;
    for (const { record } of records) {
      core.apply(record);
      lastNow = Math.max(lastNow, record.nowMs);
    }
    const node = new ExchangeNode(core, journal, opts.clock ?? Date.now, opts.snapshotEvery ?? 20_000, {
      records: records.length,
      fromSnapshotSeq: snapshot ? snapshot.seq : null,
    });
    node.lastNow = Math.max(lastNow, snapshot ? 0 : 0);
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
   * Serialising the state blocks the event loop, so a due snapshot waits for a quiet moment
   * (no command for 250 ms) and is forced only when the journal since the last one has grown
   * twenty times past the cadence, which still bounds replay time.
   */
  private maybeSnapshot(): void {
    if (this.snapshotting) return;
    const quiet = Date.now() - this.lastSubmitAt >= 250;
    if (quiet || this.sinceSnapshot >= this.snapshotEvery * 20) {
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

  private snapshotSoon(): void {
    if (this.snapshotting) return;
    this.snapshotting = true;
    this.sinceSnapshot = 0;
    // The snapshot is serialised synchronously inside writeSnapshot, so it matches lastSeq.
    this.journal
      .writeSnapshot(this.core.toSnapshot())
      .catch((err) => console.error('[exchange] snapshot failed (journal still good)', err))
      .finally(() => {
        this.snapshotting = false;
      });
  }

  async snapshotNow(): Promise<void> {
    await this.journal.writeSnapshot(this.core.toSnapshot());
    this.sinceSnapshot = 0;
  }

  get journalStats() {
    return this.journal.stats;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    await this.journal.close();
  }
}
