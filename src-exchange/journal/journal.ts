// Crash-safe command journal with group commit and snapshots.
//
//   const { journal, snapshot, records, recovery } = await Journal.open<Command, State>(dir);
//   let state = snapshot ? snapshot.state : initialState();
//   for (const { record } of records) state = apply(state, record);   // replay, in seq order
//   const seq = await journal.append(command);   // resolves once written and synced (durable)
//   await journal.writeSnapshot(state);           // state must include every appended record
//   await journal.close();                        // flushes what is pending
//
// - `append` assigns the seq synchronously, in call order; records appended in the same
//   tick or while a sync is in flight share one durable write (group commit).
// - If a write or sync fails, every waiting append rejects, and so does everything after:
//   the journal is `failed`, because acknowledging after a failed fsync would be a lie.
// - `writeSnapshot(state, throughSeq = lastSeq)` serialises the state at call time, waits
//   until throughSeq is durable, writes temp + fsync + rename + directory fsync, then starts
//   a new segment and deletes segments and snapshots older than the `keepSnapshots` newest.
// - Recovery rules (what is truncated, what is refused) are in ./recover.
import { constants as fsConstants } from 'node:fs';
import { open, rename, rm, mkdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { JournalError } from './errors';
import { encodeFrame, encodeSnapshotFile } from './frame';
import { fsyncDir, segmentName, snapshotName, TEMP_SUFFIX, type SegmentFile } from './files';
import { acquireLock, type DirLock } from './lock';
import { recover, type JournalEntry, type RecoveryReport, type Snapshot } from './recover';

/**
 * Segments are opened O_DSYNC where the platform has it (Linux, macOS): a write returns once its
 * data is as durable as an fdatasync would make it, so a group commit is one write on the thread
 * pool instead of a write and then an fdatasync (measured here: 30-35 us of the main thread per
 * commit instead of 50-55, and 280-300 us instead of 380-400 us to durable). Where it is missing
 * (Windows), each write is followed by an fdatasync as before.
 */
const DSYNC: number | undefined = fsConstants.O_DSYNC;
/** a new segment: created, never an existing file */
const NEW_SEGMENT = DSYNC !== undefined ? fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | DSYNC : 'wx';
/** the last segment reopened to append to */
const LAST_SEGMENT = DSYNC !== undefined ? fsConstants.O_RDWR | DSYNC : 'r+';

export type { JournalEntry, RecoveryReport, Snapshot } from './recover';
export { JournalError } from './errors';

export interface JournalOptions {
  /** start a new segment once the current one reaches this size (default 64 MiB) */
  segmentBytes?: number;
  /** snapshots kept on disk, newest first; segments they need are kept too (default 2, min 1) */
  keepSnapshots?: number;
  /** largest record payload `append` accepts (default 16 MiB); recovery reads any size */
  maxRecordBytes?: number;
  /** most records per write+fdatasync (default 8192; 1 disables group commit, for baselines) */
  maxBatchRecords?: number;
  /** most bytes per write+fdatasync (default 4 MiB; a single larger record still goes alone) */
  maxBatchBytes?: number;
  /** fault injection for tests */
  hooks?: JournalHooks;
}

export interface JournalHooks {
  /** called before a batch is made durable (before its synchronous write where segments are O_DSYNC, else after its write and before its fdatasync); throwing simulates a failed sync */
  beforeSync?: () => void | Promise<void>;
  /** called after the snapshot temp file is synced, before the rename */
  beforeSnapshotRename?: (tempPath: string) => void | Promise<void>;
}

export interface JournalStats {
  appends: number;
  /** group commits made durable (an O_DSYNC write, or a write and its fdatasync); appends / fsyncs is the saving */
  fsyncs: number;
  dirFsyncs: number;
  bytesWritten: number;
  largestBatch: number;
  segmentsCreated: number;
  snapshotsWritten: number;
  /** the longest group commit (a segment switch, the write and its fdatasync) in ms; a reader may reset it to 0 */
  slowestFlushMs: number;
}

export interface OpenedJournal<R, S> {
  journal: Journal<R, S>;
  snapshot: Snapshot<S> | null;
  /** every record after the snapshot, in seq order */
  records: JournalEntry<R>[];
  recovery: RecoveryReport;
}

type JournalState = 'open' | 'closing' | 'failed' | 'closed';

interface PendingAppend {
  seq: number;
  frame: Buffer;
  resolve: (seq: number) => void;
  reject: (err: Error) => void;
}

interface DurableWaiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

const MiB = 1024 * 1024;
const noop = (): void => {};

export class Journal<R = unknown, S = unknown> {
  readonly stats: JournalStats = {
    appends: 0,
    fsyncs: 0,
    dirFsyncs: 0,
    bytesWritten: 0,
    largestBatch: 0,
    segmentsCreated: 0,
    snapshotsWritten: 0,
    slowestFlushMs: 0,
  };

  private state: JournalState = 'open';
  private failureError: JournalError | null = null;
  private assignedSeq: number;
  private durable: number;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private durableWaiters: DurableWaiter[] = [];
  /** serialises writes, syncs and segment switches */
  private io: Promise<void> = Promise.resolve();
  private snapshotChain: Promise<void> = Promise.resolve();
  private closed: Promise<void> | null = null;
  private newestSnapshotRequested: number;

  private constructor(
    readonly dir: string,
    private segment: FileHandle,
    private segmentSize: number,
    private readonly segments: SegmentFile[],
    private readonly snapshotSeqs: number[],
    lastSeq: number,
    private readonly lock: DirLock,
    private readonly opts: Required<Omit<JournalOptions, 'hooks'>> & { hooks: JournalHooks },
  ) {
    this.assignedSeq = lastSeq;
    this.durable = lastSeq;
    this.newestSnapshotRequested = snapshotSeqs[0] ?? 0;
  }

  /** Recover the journal in `dir` (created if missing) and open it for appending. */
  static async open<R = unknown, S = unknown>(dir: string, options: JournalOptions = {}): Promise<OpenedJournal<R, S>> {
    const opts = {
      segmentBytes: options.segmentBytes ?? 64 * MiB,
      keepSnapshots: Math.max(1, options.keepSnapshots ?? 2),
      maxRecordBytes: options.maxRecordBytes ?? 16 * MiB,
      maxBatchRecords: Math.max(1, options.maxBatchRecords ?? 8192),
      maxBatchBytes: options.maxBatchBytes ?? 4 * MiB,
      hooks: options.hooks ?? {},
    };
    if (opts.maxRecordBytes > 0xffffffff) throw new RangeError('maxRecordBytes must fit in 32 bits');
    const created = await mkdir(dir, { recursive: true, mode: 0o700 });
    if (created !== undefined) {
      // make each new directory's entry durable in its parent
      for (let d = path.resolve(dir); ; d = path.dirname(d)) {
        await fsyncDir(path.dirname(d));
        if (d === path.resolve(created) || d === path.dirname(d)) break;
      }
    }
    const lock = await acquireLock(dir);
    try {
      const rec = await recover<R, S>(dir);
      const segments = rec.segments;
      let segment: FileHandle;
      let segmentSize = rec.lastSegmentSize;
      if (rec.needsNewSegment) {
        const name = segmentName(rec.lastSeq + 1);
        segment = await open(path.join(dir, name), NEW_SEGMENT, 0o600);
        await fsyncDir(dir);
        segments.push({ firstSeq: rec.lastSeq + 1, name });
        segmentSize = 0;
      } else {
        segment = await open(path.join(dir, segments[segments.length - 1]!.name), LAST_SEGMENT);
      }
      const journal = new Journal<R, S>(dir, segment, segmentSize, segments, rec.snapshotSeqs, rec.lastSeq, lock, opts);
      return { journal, snapshot: rec.snapshot, records: rec.records, recovery: rec.report };
    } catch (err) {
      await lock.release(true);
      throw err;
    }
  }

  /** Seq of the last appended record (durable or not). */
  get lastSeq(): number {
    return this.assignedSeq;
  }

  /** Seq of the last record known to be on disk. */
  get durableSeq(): number {
    return this.durable;
  }

  /** Why the journal stopped accepting appends, if it did. */
  get failure(): JournalError | null {
    return this.failureError;
  }

  /** Append one JSON-serialisable record; resolves with its seq once it is durable. */
  append(record: R): Promise<number> {
    if (this.state !== 'open') return Promise.reject(this.unavailable());
    let json: string | undefined;
    try {
      json = JSON.stringify(record);
    } catch (err) {
      return Promise.reject(new JournalError('INVALID_RECORD', 'record is not JSON-serialisable', { cause: err }));
    }
    if (json === undefined) return Promise.reject(new JournalError('INVALID_RECORD', 'record is not JSON-serialisable'));
    const length = Buffer.byteLength(json, 'utf8');
    if (length > this.opts.maxRecordBytes) {
      return Promise.reject(
        new JournalError('INVALID_RECORD', `record of ${length} bytes exceeds maxRecordBytes ${this.opts.maxRecordBytes}`),
      );
    }
    const seq = ++this.assignedSeq;
    const frame = encodeFrame(seq, json, length);
    this.stats.appends++;
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ seq, frame, resolve, reject });
      this.scheduleFlush();
    });
  }

  /**
   * Write a snapshot of `state`, which must include exactly the records with seq <= throughSeq.
   * The state is serialised before this returns its promise, so the caller may keep mutating it.
   * Resolves with throughSeq once the snapshot is durable and old files are pruned.
   */
  async writeSnapshot(state: S, throughSeq: number = this.assignedSeq): Promise<number> {
    this.checkSnapshotSeq(throughSeq);
    const json = JSON.stringify(state) as string | undefined;
    if (json === undefined) throw new JournalError('INVALID_SNAPSHOT', 'snapshot state is not JSON-serialisable');
    return this.writeSnapshotFile(throughSeq, encodeSnapshotFile(throughSeq, json));
  }

  /**
   * Persist a snapshot file encoded elsewhere (`encodeSnapshotFile`), e.g. by a worker that
   * replayed the journal through `throughSeq`. Same ordering rules and guarantees as writeSnapshot.
   */
  writeSnapshotFile(throughSeq: number, file: Buffer): Promise<number> {
    return this.queueSnapshot(throughSeq, (tempPath) => writeFileDurably(tempPath, file));
  }

  /**
   * Adopt a snapshot file another thread already wrote and made durable at
   * `snapshotTempPath(dir, throughSeq)` (the snapshot worker: so its tens of megabytes never pass
   * through the event loop's heap). Same ordering rules and guarantees as writeSnapshot: it
   * becomes the snapshot only once every record through throughSeq is durable; a temp file left
   * by a crash is removed by recovery.
   */
  adoptSnapshotFile(throughSeq: number): Promise<number> {
    return this.queueSnapshot(throughSeq, async (tempPath) => {
      // It must be there (a missing file refuses the snapshot); synced once more here so that
      // this method does not rest on the writer's care (cheap on a file already synced).
      const fh = await open(tempPath, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    });
  }

  /** Checks the seq, then persists one snapshot after those already queued; `write` fills the temp file. */
  private async queueSnapshot(throughSeq: number, write: (tempPath: string) => Promise<void>): Promise<number> {
    this.checkSnapshotSeq(throughSeq);
    this.newestSnapshotRequested = throughSeq;
    const run = this.snapshotChain.then(() => this.persistSnapshot(throughSeq, write));
    this.snapshotChain = run.then(noop, noop);
    await run;
    return throughSeq;
  }

  private checkSnapshotSeq(throughSeq: number): void {
    if (this.state !== 'open') throw this.unavailable();
    if (!Number.isSafeInteger(throughSeq) || throughSeq < this.newestSnapshotRequested || throughSeq > this.assignedSeq) {
      throw new JournalError(
        'INVALID_SNAPSHOT',
        `snapshot seq ${throughSeq} must be between the newest snapshot (${this.newestSnapshotRequested}) and the last appended seq (${this.assignedSeq})`,
      );
    }
  }

  /** Flush pending appends, finish snapshots in progress, release the directory. */
  close(): Promise<void> {
    this.closed ??= this.closeOnce();
    return this.closed;
  }

  private async closeOnce(): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'open') this.state = 'closing';
    await this.snapshotChain;
    while (this.pending.length > 0 && this.state === 'closing') await this.enqueueIo(() => this.flushOnce());
    await this.io;
    this.state = 'closed';
    await this.segment.close();
    await this.lock.release();
  }

  /**
   * Stop as a crash would: appends not yet written are dropped (their promises reject),
   * nothing more is written, and the LOCK file is left behind. For tests of recovery.
   */
  async abandon(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    const err = new JournalError('CLOSED', 'journal abandoned');
    for (const p of this.pending.splice(0)) p.reject(err);
    for (const w of this.durableWaiters.splice(0)) w.reject(err);
    await this.io;
    await this.snapshotChain;
    await this.segment.close().catch(noop);
    await this.lock.release(true);
  }

  private unavailable(): JournalError {
    if (this.failureError) {
      return new JournalError('FAILED', `journal ${this.dir} has failed and accepts nothing more: ${this.failureError.message}`, {
        cause: this.failureError,
      });
    }
    return new JournalError('CLOSED', `journal ${this.dir} is closed`);
  }

  private enqueueIo<T>(task: () => Promise<T>): Promise<T> {
    const run = this.io.then(task);
    this.io = run.then(noop, noop);
    return run;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // setImmediate rather than a microtask: appends from every callback of this loop turn join the batch.
    setImmediate(() => void this.enqueueIo(() => this.flushOnce()));
  }

  private async flushOnce(): Promise<void> {
    this.flushScheduled = false;
    if (this.pending.length === 0 || (this.state !== 'open' && this.state !== 'closing')) return;
    let count = 0;
    let bytes = 0;
    for (const p of this.pending) {
      if (count === this.opts.maxBatchRecords || (count > 0 && bytes + p.frame.length > this.opts.maxBatchBytes)) break;
      count++;
      bytes += p.frame.length;
    }
    const batch = this.pending.splice(0, count);
    const started = performance.now();
    try {
      if (this.segmentSize >= this.opts.segmentBytes) await this.startSegment();
      const buf = count === 1 ? batch[0]!.frame : Buffer.concat(batch.map((p) => p.frame), bytes);
      if (DSYNC !== undefined) await this.opts.hooks.beforeSync?.();
      await writeAll(this.segment, buf, this.segmentSize);
      this.segmentSize += buf.length;
      this.stats.bytesWritten += buf.length;
      if (DSYNC === undefined) {
        await this.opts.hooks.beforeSync?.();
        await this.segment.datasync();
      }
      this.stats.fsyncs++;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, count);
      this.stats.slowestFlushMs = Math.max(this.stats.slowestFlushMs, performance.now() - started);
    } catch (err) {
      this.fail(err, batch);
      return;
    }
    this.durable = batch[batch.length - 1]!.seq;
    for (const p of batch) p.resolve(p.seq);
    this.durableWaiters = this.durableWaiters.filter((w) => {
      if (w.seq > this.durable) return true;
      w.resolve();
      return false;
    });
    if (this.pending.length > 0) this.scheduleFlush();
  }

  private fail(cause: unknown, batch: PendingAppend[]): void {
    const reason = cause instanceof Error ? cause.message : String(cause);
    this.failureError ??= new JournalError(
      'FAILED',
      `journal ${this.dir}: write or sync failed (${reason}); records after seq ${this.durable} are not durable`,
      { cause },
    );
    this.state = 'failed';
    const err = this.failureError;
    for (const p of batch) p.reject(err);
    for (const p of this.pending.splice(0)) p.reject(err);
    for (const w of this.durableWaiters.splice(0)) w.reject(err);
  }

  private waitDurable(seq: number): Promise<void> {
    if (this.durable >= seq) return Promise.resolve();
    if (this.failureError || this.state === 'closed') return Promise.reject(this.unavailable());
    return new Promise((resolve, reject) => this.durableWaiters.push({ seq, resolve, reject }));
  }

  /** Switch appends to a new segment; runs on the io chain, so every earlier record is synced. */
  private async startSegment(): Promise<void> {
    if (this.segmentSize === 0) return;
    const firstSeq = this.durable + 1;
    const name = segmentName(firstSeq);
    const next = await open(path.join(this.dir, name), NEW_SEGMENT, 0o600);
    // The new file's directory entry must be durable before a record in it is acknowledged.
    try {
      await fsyncDir(this.dir);
      this.stats.dirFsyncs++;
    } catch (err) {
      await next.close().catch(noop);
      throw err;
    }
    const previous = this.segment;
    this.segment = next;
    this.segmentSize = 0;
    this.segments.push({ firstSeq, name });
    this.stats.segmentsCreated++;
    await previous.close();
  }

  private async persistSnapshot(seq: number, write: (tempPath: string) => Promise<void>): Promise<void> {
    await this.waitDurable(seq);
    const finalPath = path.join(this.dir, snapshotName(seq));
    const tempPath = snapshotTempPath(this.dir, seq);
    try {
      await write(tempPath);
      await this.opts.hooks.beforeSnapshotRename?.(tempPath);
      await rename(tempPath, finalPath);
      await fsyncDir(this.dir);
      this.stats.dirFsyncs++;
    } catch (err) {
      await rm(tempPath, { force: true }).catch(noop);
      throw new JournalError('SNAPSHOT_FAILED', `snapshot at seq ${seq} was not written: ${(err as Error).message}`, {
        cause: err,
      });
    }
    this.stats.snapshotsWritten++;
    if (this.state === 'closed') return; // abandoned: a crash would not get further
    if (!this.snapshotSeqs.includes(seq)) this.snapshotSeqs.unshift(seq);
    this.snapshotSeqs.sort((a, b) => b - a);

    await this.enqueueIo(async () => {
      if (this.state !== 'open' && this.state !== 'closing') return;
      try {
        await this.startSegment();
      } catch (err) {
        this.fail(err, []);
        throw this.failureError;
      }
    });
    await this.prune();
  }

  /** Delete snapshots beyond keepSnapshots and segments wholly covered by the oldest kept one. */
  private async prune(): Promise<void> {
    const dropped = this.snapshotSeqs.splice(this.opts.keepSnapshots);
    const floor = this.snapshotSeqs[this.snapshotSeqs.length - 1] ?? 0;
    const removable: string[] = dropped.map(snapshotName);
    // never the last (current) segment
    while (this.segments.length > 1 && this.segments[1]!.firstSeq - 1 <= floor) {
      removable.push(this.segments.shift()!.name);
    }
    if (removable.length === 0) return;
    try {
      for (const name of removable) await rm(path.join(this.dir, name), { force: true });
      await fsyncDir(this.dir);
      this.stats.dirFsyncs++;
    } catch (err) {
      throw new JournalError(
        'SNAPSHOT_FAILED',
        `snapshot is durable, but removing old files failed: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
}

const SNAPSHOT_SLICE_BYTES = 2 * MiB;

/** Where a snapshot through `seq` is written before its rename into place. */
export function snapshotTempPath(dir: string, seq: number): string {
  return path.join(dir, snapshotName(seq) + TEMP_SUFFIX);
}

/**
 * Write `file` at `filePath` and make it durable, in slices each synced before the next: one flush
 * of tens of megabytes would hold the device (and every journal fdatasync queued behind it) for
 * its whole length.
 */
export async function writeFileDurably(filePath: string, file: Uint8Array): Promise<void> {
  const fh = await open(filePath, 'w', 0o600);
  try {
    for (let off = 0; off < file.length; off += SNAPSHOT_SLICE_BYTES) {
      await writeAll(fh, file.subarray(off, Math.min(file.length, off + SNAPSHOT_SLICE_BYTES)), off);
      await fh.datasync();
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Write all of `buf` at `position` (a short write goes on where it stopped). */
export async function writeAll(fh: FileHandle, buf: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw new Error(`write returned ${bytesWritten}`);
    done += bytesWritten;
  }
}
