import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, snapshotTempPath, writeAll, writeFileDurably } from './journal';
import { encodeSnapshotFile } from './frame';
import { segmentFiles, snapshotFiles, tempDir } from './test-util';
import { snapshotName } from './files';

interface Cmd {
  n: number;
}
interface State {
  total: number;
  seen: number[];
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** Append n = from..to, applying each to the state as the engine would. */
async function appendRange(journal: Journal<Cmd, State>, state: State, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    state.total += n;
    state.seen.push(n);
    await journal.append({ n });
  }
}

const fresh = (): State => ({ total: 0, seen: [] });

describe('Journal snapshots', () => {
  it('recovers the snapshot and only the records after it', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    expect(await journal.writeSnapshot(state)).toBe(10);
    const atSnapshot = structuredClone(state);
    state.total = -1; // mutating after the call does not change what was written
    await appendRange(journal, state, 11, 15);
    await journal.close();

    const reopened = await Journal.open<Cmd, State>(dir);
    expect(reopened.snapshot).toEqual({ seq: 10, state: atSnapshot });
    expect(reopened.records.map((r) => r.seq)).toEqual([11, 12, 13, 14, 15]);
    expect(reopened.records.map((r) => r.record.n)).toEqual([11, 12, 13, 14, 15]);
    expect(await reopened.journal.append({ n: 16 })).toBe(16);
    await reopened.journal.close();
  });

  it("adopts a snapshot file another thread wrote at the temp path, and refuses one that is not there", async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 8);
    // nothing written yet: refused, nothing changes
    await expect(journal.adoptSnapshotFile(8)).rejects.toMatchObject({ code: 'SNAPSHOT_FAILED' });
    expect(await snapshotFiles(dir)).toEqual([]);
    await writeFileDurably(snapshotTempPath(dir, 8), encodeSnapshotFile(8, JSON.stringify(state)));
    expect(await journal.adoptSnapshotFile(8)).toBe(8);
    expect(await snapshotFiles(dir)).toHaveLength(1);
    await appendRange(journal, state, 9, 10);
    await journal.close();

    const reopened = await Journal.open<Cmd, State>(dir);
    expect(reopened.snapshot?.seq).toBe(8);
    expect(reopened.snapshot?.state.seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(reopened.records.map((r) => r.seq)).toEqual([9, 10]);
    await reopened.journal.close();
  });

  it('recovers a snapshot taken at the last record with no records after it', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 3);
    await journal.writeSnapshot(state);
    await journal.close();
    const { journal: j2, snapshot, records } = await Journal.open<Cmd, State>(dir);
    expect(snapshot?.seq).toBe(3);
    expect(records).toEqual([]);
    expect(await j2.append({ n: 4 })).toBe(4);
    await j2.close();
  });

  it('waits for the records a snapshot covers to be durable', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const acks = [1, 2, 3].map((n) => journal.append({ n }));
    const snap = journal.writeSnapshot({ total: 6, seen: [1, 2, 3] });
    expect(journal.durableSeq).toBe(0);
    expect(await snap).toBe(3);
    expect(journal.durableSeq).toBe(3);
    await Promise.all(acks);
    await journal.close();
  });

  it('waits for the batch holding its last record, not only the one in flight when asked', async () => {
    const gates: Array<() => void> = [];
    const entered: Array<Promise<void>> = [];
    const enteredResolvers: Array<() => void> = [];
    for (let i = 0; i < 2; i++) entered.push(new Promise<void>((r) => enteredResolvers.push(r)));
    let syncs = 0;
    const { journal } = await Journal.open<Cmd, State>(dir, {
      hooks: {
        beforeSync: async () => {
          const i = syncs++;
          if (i < 2) {
            enteredResolvers[i]!();
            await new Promise<void>((r) => gates.push(r));
          }
        },
      },
    });
    const first = journal.append({ n: 1 });
    await entered[0];
    // 2 and 3 wait for the next batch; the snapshot covers them
    const later = [journal.append({ n: 2 }), journal.append({ n: 3 })];
    let written = false;
    const snap = journal.writeSnapshot({ total: 6, seen: [1, 2, 3] }, 3).then(() => (written = true));
    gates[0]!();
    await first;
    await entered[1];
    await new Promise((r) => setTimeout(r, 30));
    expect(journal.durableSeq).toBe(1);
    expect(written).toBe(false);
    expect(await snapshotFiles(dir)).toEqual([]);
    gates[1]!();
    await Promise.all([...later, snap]);
    expect(written).toBe(true);
    expect(await snapshotFiles(dir)).toHaveLength(1);
    await journal.close();
  });

  it('after a reopen still refuses a snapshot older than the newest on disk, and a state that is not JSON', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    await journal.writeSnapshot(state, 5);
    await appendRange(journal, state, 6, 7);
    await journal.close();
    const { journal: again } = await Journal.open<Cmd, State>(dir);
    await expect(again.writeSnapshot(fresh(), 4)).rejects.toMatchObject({ code: 'INVALID_SNAPSHOT' });
    await expect(again.writeSnapshot(undefined as unknown as State, 6)).rejects.toMatchObject({ code: 'INVALID_SNAPSHOT' });
    expect(await again.writeSnapshot(state, 7)).toBe(7);
    await again.close();
  });

  it('refuses a snapshot seq beyond the last record or before the newest snapshot', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    await expect(journal.writeSnapshot(state, 6)).rejects.toMatchObject({ code: 'INVALID_SNAPSHOT' });
    await journal.writeSnapshot(state, 5);
    await expect(journal.writeSnapshot(state, 4)).rejects.toMatchObject({ code: 'INVALID_SNAPSHOT' });
    await journal.close();
  });

  it('creates its directory 0700 and every file in it 0600', async () => {
    const inner = path.join(dir, 'inner');
    const { journal } = await Journal.open<Cmd, State>(inner, { segmentBytes: 64 });
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    await journal.writeSnapshot(state);
    await appendRange(journal, state, 11, 20); // several segments after it
    await journal.close();
    expect((await stat(inner)).mode & 0o777).toBe(0o700);
    const files = await readdir(inner);
    expect(files.filter((f) => f.startsWith('segment-')).length).toBeGreaterThan(1);
    expect(files.some((f) => f.startsWith('snapshot-'))).toBe(true);
    for (const f of files.filter((n) => n !== 'LOCK')) expect([f, (await stat(path.join(inner, f))).mode & 0o777]).toEqual([f, 0o600]);
  });

  it('syncs the directory once for the rename, once for the new segment and once for the deletions, and not for nothing', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    const d0 = journal.stats.dirFsyncs;
    await journal.writeSnapshot(state); // renamed in, a new segment, the first segment deleted
    expect(journal.stats.dirFsyncs - d0).toBe(3);
    await journal.writeSnapshot(state); // the same seq again: only the rename
    expect(journal.stats.dirFsyncs - d0).toBe(4);
    await journal.close();
  });

  it('prunes a file that is already gone without failing', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 1 });
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    await journal.writeSnapshot(state);
    await rm(path.join(dir, (await snapshotFiles(dir))[0]!)); // someone removed it meanwhile
    await appendRange(journal, state, 6, 8);
    expect(await journal.writeSnapshot(state)).toBe(8);
    expect(await snapshotFiles(dir)).toEqual([snapshotName(8)]);
    await journal.close();
  });

  it('deletes snapshots beyond keepSnapshots and the segments only they needed', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 2 });
    const state = fresh();
    for (let round = 0; round < 4; round++) {
      await appendRange(journal, state, round * 10 + 1, round * 10 + 10);
      await journal.writeSnapshot(state);
    }
    await appendRange(journal, state, 41, 45);
    expect(await snapshotFiles(dir)).toEqual([
      'snapshot-00000000000000000030.snap',
      'snapshot-00000000000000000040.snap',
    ]);
    // segments up to seq 30 are gone; a fallback to snapshot 30 still has records 31..
    expect(await segmentFiles(dir)).toEqual([
      'segment-00000000000000000031.log',
      'segment-00000000000000000041.log',
    ]);
    expect(journal.stats.snapshotsWritten).toBe(4);
    await journal.close();
    const { journal: j2, snapshot, records } = await Journal.open<Cmd, State>(dir);
    expect(snapshot?.seq).toBe(40);
    expect(records.map((r) => r.seq)).toEqual([41, 42, 43, 44, 45]);
    await j2.close();
  });

  it('leaves the previous snapshot in charge after a crash between temp write and rename', async () => {
    let savedTemp: { path: string; bytes: Buffer } | null = null;
    const { journal } = await Journal.open<Cmd, State>(dir, {
      hooks: {
        beforeSnapshotRename: async (tempPath) => {
          if (journal.lastSeq < 20) return;
          savedTemp = { path: tempPath, bytes: await readFile(tempPath) };
          throw new Error('simulated crash before rename');
        },
      },
    });
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    await journal.writeSnapshot(state);
    const atFirst = structuredClone(state);
    await appendRange(journal, state, 11, 20);
    await expect(journal.writeSnapshot(state)).rejects.toMatchObject({ code: 'SNAPSHOT_FAILED' });
    // what a crash at that instant leaves behind: the fully written temp file, no rename
    const temp = savedTemp as { path: string; bytes: Buffer } | null;
    expect(temp).not.toBeNull();
    await writeFile(temp!.path, temp!.bytes);
    await journal.abandon();

    const { journal: j2, snapshot, records, recovery } = await Journal.open<Cmd, State>(dir);
    expect(snapshot).toEqual({ seq: 10, state: atFirst });
    expect(records.map((r) => r.seq)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(recovery.removedTempFiles).toEqual([path.basename(temp!.path)]);
    expect((await readdir(dir)).some((f) => f.endsWith('.tmp'))).toBe(false);
    await j2.close();
  });

  it('falls back to the older snapshot when the newest fails its checksum', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 2 });
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    await journal.writeSnapshot(state);
    const atTen = structuredClone(state);
    await appendRange(journal, state, 11, 20);
    await journal.writeSnapshot(state);
    await appendRange(journal, state, 21, 22);
    await journal.close();

    const newest = path.join(dir, 'snapshot-00000000000000000020.snap');
    const buf = await readFile(newest);
    buf[buf.length - 3]! ^= 0x08;
    await writeFile(newest, buf);

    const { journal: j2, snapshot, records, recovery } = await Journal.open<Cmd, State>(dir);
    expect(snapshot).toEqual({ seq: 10, state: atTen });
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => 11 + i));
    expect(recovery.quarantinedSnapshots).toEqual(['snapshot-00000000000000000020.snap']);
    expect(recovery.warnings.join('\n')).toMatch(/snapshot-00000000000000000020\.snap is unusable \(checksum mismatch\)/);
    await j2.close();
  });

  it('refuses to start when the only snapshot is corrupt and the log it replaced is gone', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 1 });
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    await journal.writeSnapshot(state);
    await appendRange(journal, state, 11, 12);
    await journal.close();
    const only = path.join(dir, 'snapshot-00000000000000000010.snap');
    const buf = await readFile(only);
    buf[20]! ^= 0x01;
    await writeFile(only, buf);
    await expect(Journal.open(dir)).rejects.toMatchObject({
      code: 'GAP',
      message: expect.stringMatching(/no usable snapshot, and the log starts at seq 11/),
    });
  });

  it('refuses to start when a corrupt snapshot claims more than the log holds', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 2 });
    const state = fresh();
    await appendRange(journal, state, 1, 10);
    await journal.writeSnapshot(state);
    await journal.close();
    // a snapshot at seq 50 that cannot be read: the log reaches only 10
    await copyFile(path.join(dir, 'snapshot-00000000000000000010.snap'), path.join(dir, 'snapshot-00000000000000000050.snap'));
    await expect(Journal.open(dir)).rejects.toMatchObject({
      code: 'GAP',
      message: expect.stringMatching(/unreadable snapshot claims seq 50/),
    });
  });

  it('says so when a snapshot cannot be written, and keeps journaling without it', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir);
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    // something that is not a file sits where the snapshot's temp file goes
    await mkdir(path.join(snapshotTempPath(dir, 5), 'x'), { recursive: true });
    const err = await journal.writeSnapshot(state).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'JournalError', code: 'SNAPSHOT_FAILED', message: expect.stringMatching(/^snapshot at seq 5 was not written: .*EISDIR/) });
    expect((err as Error).cause).toMatchObject({ code: 'EISDIR' });
    expect(journal.stats.snapshotsWritten).toBe(0);
    expect((await snapshotFiles(dir)).filter((f) => f.endsWith('.snap'))).toEqual([]);
    await appendRange(journal, state, 6, 7);
    await journal.close();
    await rm(snapshotTempPath(dir, 5), { recursive: true });
    const again = await Journal.open<Cmd, State>(dir);
    expect(again.snapshot).toBeNull();
    expect(again.records.map((r) => r.record.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await again.journal.close();
  });

  it('says so when the snapshot is durable but an old file cannot be removed', async () => {
    const { journal } = await Journal.open<Cmd, State>(dir, { keepSnapshots: 1 });
    const state = fresh();
    await appendRange(journal, state, 1, 5);
    await journal.writeSnapshot(state);
    // the old snapshot became a directory with something in it: removing it fails
    const old = path.join(dir, (await snapshotFiles(dir))[0]!);
    await rm(old);
    await mkdir(path.join(old, 'x'), { recursive: true });
    await appendRange(journal, state, 6, 9);
    const err = await journal.writeSnapshot(state).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'JournalError', code: 'SNAPSHOT_FAILED', message: expect.stringMatching(/^snapshot is durable, but removing old files failed: /) });
    expect((err as Error).cause).toBeInstanceOf(Error);
    expect(journal.stats.snapshotsWritten).toBe(2);
    await journal.close();
    const again = await Journal.open<Cmd, State>(dir, { keepSnapshots: 1 });
    expect(again.snapshot?.seq).toBe(9);
    expect(again.snapshot?.state).toEqual(state);
    await again.journal.close();
  });
});

describe('writeAll', () => {
  /** A file handle that writes at most `most` bytes per call into `into`. */
  const shortWriter = (into: Buffer, most: number) =>
    ({
      write: async (buf: Uint8Array, offset: number, length: number, position: number) => {
        // as node:fs does, a range past the buffer is an error, not a shorter write
        if (offset + length > buf.length) throw new RangeError(`offset ${offset} + length ${length} is past the buffer (${buf.length})`);
        const n = Math.min(most, length);
        into.set(buf.subarray(offset, offset + n), position);
        return { bytesWritten: n, buffer: buf };
      },
    }) as unknown as FileHandle;

  it('goes on after a short write from where it stopped, at the right place in the file', async () => {
    const file = Buffer.alloc(20, 0x2e);
    await writeAll(shortWriter(file, 3), Buffer.from('0123456789'), 7);
    expect(file.toString('latin1')).toBe('.......0123456789...');
  });

  it('refuses a write that makes no progress instead of looping', async () => {
    await expect(writeAll(shortWriter(Buffer.alloc(8), 0), Buffer.from('ab'), 0)).rejects.toThrow(/^write returned 0$/);
  });
});
