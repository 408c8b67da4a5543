import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JournalError } from './journal';
import { encodeFrame } from './frame';
import { segmentFiles, tempDir } from './test-util';

interface Cmd {
  type: string;
  n: number;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const cmd = (n: number): Cmd => ({ type: 'place_order', n });

describe('Journal append and replay', () => {
  it('round-trips records in order, numbered from 1', async () => {
    const { journal, snapshot, records } = await Journal.open<Cmd>(dir);
    expect(snapshot).toBeNull();
    expect(records).toEqual([]);
    for (let n = 1; n <= 5; n++) expect(await journal.append(cmd(n))).toBe(n);
    await journal.close();

    const reopened = await Journal.open<Cmd>(dir);
    expect(reopened.records).toEqual([1, 2, 3, 4, 5].map((n) => ({ seq: n, record: cmd(n) })));
    expect(reopened.recovery.truncatedBytes).toBe(0);
    await reopened.journal.close();
  });

  it('continues seq numbering across reopen', async () => {
    let { journal } = await Journal.open<Cmd>(dir);
    await journal.append(cmd(1));
    await journal.append(cmd(2));
    await journal.close();
    ({ journal } = await Journal.open<Cmd>(dir));
    expect(journal.lastSeq).toBe(2);
    expect(await journal.append(cmd(3))).toBe(3);
    await journal.close();
    const { journal: j3, records } = await Journal.open<Cmd>(dir);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(records.map((r) => r.record.n)).toEqual([1, 2, 3]);
    await j3.close();
  });

  it('group-commits many concurrent appends into a few fsyncs, resolving in seq order', async () => {
    const { journal } = await Journal.open<Cmd>(dir);
    const resolvedOrder: number[] = [];
    const seqs = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        journal.append(cmd(i + 1)).then((seq) => {
          resolvedOrder.push(seq);
          return seq;
        }),
      ),
    );
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(resolvedOrder).toEqual(seqs);
    expect(journal.stats.appends).toBe(1000);
    expect(journal.stats.fsyncs).toBeLessThanOrEqual(3);
    await journal.close();
    const { journal: j2, records } = await Journal.open<Cmd>(dir);
    expect(records.map((r) => r.record.n)).toEqual(seqs);
    await j2.close();
  });

  it('batches appends made while a sync is in flight, and resolves none before its sync', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const firstSyncEntered = new Promise<void>((r) => (entered = r));
    let syncCalls = 0;
    let resolvedBeforeSecondSync = -1;
    let resolved = 0;
    const { journal } = await Journal.open<Cmd>(dir, {
      hooks: {
        beforeSync: async () => {
          syncCalls++;
          if (syncCalls === 1) {
            entered();
            await gate;
          }
          if (syncCalls === 2) resolvedBeforeSecondSync = resolved;
        },
      },
    });
    const first = journal.append(cmd(0)).then(() => resolved++);
    await firstSyncEntered;
    const rest = Array.from({ length: 100 }, (_, i) => journal.append(cmd(i + 1)).then(() => resolved++));
    await new Promise((r) => setTimeout(r, 20));
    expect(resolved).toBe(0);
    release();
    await Promise.all([first, ...rest]);
    expect(journal.stats.fsyncs).toBe(2);
    expect(resolvedBeforeSecondSync).toBe(1);
    await journal.close();
  });

  it('reports its slowest group commit (a reader may reset it), a slow sync included', async () => {
    const { journal } = await Journal.open<Cmd>(path.join(dir, 'slowest'), { hooks: { beforeSync: () => new Promise((r) => setTimeout(r, 40)) } });
    expect(journal.stats.slowestFlushMs).toBe(0);
    await journal.append(cmd(1));
    expect(journal.stats.slowestFlushMs).toBeGreaterThanOrEqual(39);
    expect(journal.stats.slowestFlushMs).toBeLessThan(10_000); // a duration, not a clock reading
    journal.stats.slowestFlushMs = 0;
    await journal.append(cmd(2));
    expect(journal.stats.slowestFlushMs).toBeGreaterThanOrEqual(39);
    await journal.close();
  });

  it('splits a backlog into batches of at most maxBatchRecords records and maxBatchBytes bytes, and flushes it all', async () => {
    const frame = encodeFrame(1, JSON.stringify(cmd(1))).length;
    for (const [opts, batches] of [
      [{ maxBatchRecords: 2 }, 3],
      [{ maxBatchBytes: 2 * frame }, 3],
      [{ maxBatchBytes: 2 * frame - 1 }, 5],
    ] as const) {
      const sub = path.join(dir, `b${batches}-${Object.keys(opts)[0]}-${Object.values(opts)[0]}`);
      const { journal } = await Journal.open<Cmd>(sub, opts);
      // five appends in one turn: one backlog
      const acks = await Promise.all([1, 2, 3, 4, 5].map((n) => journal.append(cmd(n))));
      expect(acks).toEqual([1, 2, 3, 4, 5]);
      expect(journal.stats.fsyncs).toBe(batches);
      expect(journal.stats.largestBatch).toBe(batches === 3 ? 2 : 1);
      expect(journal.stats.bytesWritten).toBe(5 * frame);
      await journal.close();
      const { journal: again, records } = await Journal.open<Cmd>(sub);
      expect(records.map((r) => r.record.n)).toEqual([1, 2, 3, 4, 5]);
      await again.close();
    }
  });

  it('rejects every waiting append when a sync fails, and accepts nothing afterwards', async () => {
    let failNext = false;
    const { journal } = await Journal.open<Cmd>(dir, {
      hooks: {
        beforeSync: () => {
          if (failNext) throw Object.assign(new Error('EIO: simulated fsync failure'), { code: 'EIO' });
        },
      },
    });
    expect(await journal.append(cmd(1))).toBe(1);
    failNext = true;
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => journal.append(cmd(i + 2))));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const reason = (results[0] as PromiseRejectedResult).reason as JournalError;
    expect(reason).toBeInstanceOf(JournalError);
    expect(reason.code).toBe('FAILED');
    expect(reason.message).toMatch(/EIO: simulated fsync failure/);
    expect(journal.failure?.code).toBe('FAILED');
    expect(journal.durableSeq).toBe(1);

    failNext = false;
    await expect(journal.append(cmd(99))).rejects.toMatchObject({ code: 'FAILED' });
    await expect(journal.append(cmd(99))).rejects.toThrow(`journal ${dir} has failed and accepts nothing more: journal ${dir}: write or sync failed`);
    await expect(journal.writeSnapshot({})).rejects.toMatchObject({ code: 'FAILED' });
    await journal.close();

    // What was acknowledged is there; unacknowledged records may or may not be.
    const { journal: j2, records } = await Journal.open<Cmd>(dir);
    expect(records[0]).toEqual({ seq: 1, record: cmd(1) });
    await j2.close();
  });

  it('says what is wrong in its refusals', async () => {
    await expect(Journal.open<Cmd>(dir, { maxRecordBytes: 2 ** 32 })).rejects.toThrow('maxRecordBytes must fit in 32 bits');
    const { journal } = await Journal.open<unknown>(dir, { maxRecordBytes: 100 });
    await expect(journal.append(undefined)).rejects.toThrow('record is not JSON-serialisable');
    await expect(journal.append({ big: 1n })).rejects.toMatchObject({ code: 'INVALID_RECORD', message: expect.stringMatching(/not JSON-serialisable/) });
    await expect(journal.append({ s: 'x'.repeat(200) })).rejects.toThrow('record of 208 bytes exceeds maxRecordBytes 100');
    await expect(journal.writeSnapshot(undefined, 0)).rejects.toThrow('snapshot state is not JSON-serialisable');
    await expect(journal.writeSnapshot({}, 3)).rejects.toThrow('snapshot seq 3 must be between the newest snapshot (0) and the last appended seq (0)');
    await journal.close();
    await expect(journal.append({ ok: 1 })).rejects.toThrow(`journal ${dir} is closed`);
    await expect(journal.writeSnapshot({}, 0)).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(journal.adoptSnapshotFile(0)).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('takes at most 8,192 records in one batch by default', async () => {
    const { journal } = await Journal.open<Cmd>(dir);
    const acks = await Promise.all(Array.from({ length: 8_200 }, (_, i) => journal.append(cmd(i + 1))));
    expect(acks[acks.length - 1]).toBe(8_200);
    expect(journal.stats.largestBatch).toBe(8_192);
    expect(journal.stats.fsyncs).toBe(2);
    await journal.close();
  });

  it('refuses a maxRecordBytes that does not fit the frame header', async () => {
    await expect(Journal.open<Cmd>(dir, { maxRecordBytes: 2 ** 32 })).rejects.toThrow(RangeError);
    const { journal } = await Journal.open<Cmd>(dir, { maxRecordBytes: 2 ** 32 - 1 });
    await journal.close();
  });

  it('accepts a record of exactly maxRecordBytes and refuses one byte more', async () => {
    const { journal } = await Journal.open<unknown>(dir, { maxRecordBytes: 100 });
    const exact = { s: 'x'.repeat(100 - JSON.stringify({ s: '' }).length) };
    expect(JSON.stringify(exact).length).toBe(100);
    expect(await journal.append(exact)).toBe(1);
    await expect(journal.append({ s: `${exact.s}x` })).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    await journal.close();
  });

  it('rolls to a new segment once a segment reaches segmentBytes exactly, and counts what it did', async () => {
    const frame = encodeFrame(1, JSON.stringify(cmd(1))).length;
    const { journal } = await Journal.open<Cmd>(dir, { segmentBytes: 2 * frame });
    for (let n = 1; n <= 5; n++) await journal.append(cmd(n));
    // 2 + 2 + 1 frames: the third and the fifth each start a segment
    expect(journal.stats.segmentsCreated).toBe(2);
    expect(await segmentFiles(dir)).toHaveLength(3);
    expect(journal.stats.dirFsyncs).toBe(2);
    await journal.close();
    const { journal: again, records } = await Journal.open<Cmd>(dir);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    // reopened on a full last segment: the next record starts a new one numbered after the last seq
    expect(await again.append(cmd(6))).toBe(6);
    await again.close();
    expect((await segmentFiles(dir)).length).toBeGreaterThanOrEqual(3);
    const { journal: third, records: all } = await Journal.open<Cmd>(dir);
    expect(all.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    await third.close();
  });

  it('rejects records that are not JSON-serialisable without using up a seq', async () => {
    const { journal } = await Journal.open<unknown>(dir);
    await expect(journal.append(undefined)).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    await expect(journal.append({ big: 1n })).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    expect(await journal.append({ ok: true })).toBe(1);
    await journal.close();
  });

  it('rejects records larger than maxRecordBytes', async () => {
    const { journal } = await Journal.open<unknown>(dir, { maxRecordBytes: 100 });
    await expect(journal.append({ s: 'x'.repeat(200) })).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    await journal.close();
  });

  it('creates a missing data directory, nested', async () => {
    const nested = path.join(dir, 'a', 'b');
    const { journal } = await Journal.open<Cmd>(nested);
    expect(await journal.append(cmd(1))).toBe(1);
    await Promise.all([journal.close(), journal.close()]);
    const { journal: j2, records } = await Journal.open<Cmd>(nested);
    expect(records).toHaveLength(1);
    await j2.close();
  });

  it('still reads records larger than a maxRecordBytes lowered after they were written', async () => {
    const { journal } = await Journal.open<unknown>(dir);
    await journal.append({ s: 'x'.repeat(5000) });
    await journal.append({ s: 'y'.repeat(5000) });
    await journal.close();
    const { journal: j2, records } = await Journal.open<unknown>(dir, { maxRecordBytes: 100 });
    expect(records).toHaveLength(2);
    await j2.close();
  });

  it('flushes pending appends on close, then refuses more', async () => {
    const { journal } = await Journal.open<Cmd>(dir);
    const acks = [1, 2, 3].map((n) => journal.append(cmd(n)));
    await journal.close();
    expect(await Promise.all(acks)).toEqual([1, 2, 3]);
    await expect(journal.append(cmd(4))).rejects.toMatchObject({ code: 'CLOSED' });
    const { journal: j2, records } = await Journal.open<Cmd>(dir);
    expect(records).toHaveLength(3);
    await j2.close();
  });

  it('rolls over to new segments at segmentBytes and replays across them', async () => {
    const { journal } = await Journal.open<Cmd>(dir, { segmentBytes: 512 });
    for (let n = 1; n <= 100; n++) await journal.append(cmd(n));
    await Promise.all(Array.from({ length: 100 }, (_, i) => journal.append(cmd(101 + i))));
    await journal.close();
    expect((await segmentFiles(dir)).length).toBeGreaterThan(5);
    const { journal: j2, records } = await Journal.open<Cmd>(dir, { segmentBytes: 512 });
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(records.map((r) => r.record.n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    await j2.close();
  });

  it('refuses a second open of the same directory while the first is open', async () => {
    const { journal } = await Journal.open(dir);
    await expect(Journal.open(dir)).rejects.toMatchObject({ code: 'LOCKED' });
    await journal.close();
    const again = await Journal.open(dir);
    await again.journal.close();
  });

  it('refuses a directory locked by another live process, and takes over one left by a dead process', async () => {
    await writeFile(path.join(dir, 'LOCK'), `${process.ppid}\n`);
    await expect(Journal.open(dir)).rejects.toThrow(/locked by running process/);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(path.join(dir, 'LOCK'), `${dead}\n`);
    const { journal } = await Journal.open(dir);
    await journal.close();
  });
});
