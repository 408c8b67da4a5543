// Recovery: newest usable snapshot, then every record after it, checked end to end.
//
// What is repaired and what is refused:
// - a frame that is torn or fails its checksum at the END of the last segment, with no
//   valid record after it, is what a crash mid-write leaves: it was never acknowledged,
//   so it is truncated away;
// - a bad frame followed by a valid one, a bad frame in any earlier segment (segments
//   are only closed after their last write was synced), a sequence jump, or a gap
//   between snapshot and log is corruption of acknowledged data: a CORRUPT/GAP error,
//   never a silent skip.
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { JournalError } from './errors';
import { decodeSnapshotFile, findValidFrame, readFrame } from './frame';
import { CORRUPT_SUFFIX, fsyncDir, listJournalDir, type SegmentFile, type SnapshotFile } from './files';

export interface JournalEntry<R> {
  seq: number;
  record: R;
}
export interface Snapshot<S> {
  /** the state includes every record with seq <= this */
  seq: number;
  state: S;
}
export interface RecoveryReport {
  segmentsRead: number;
  /** bytes cut from the tail of the last segment (0 after a clean shutdown) */
  truncatedBytes: number;
  truncatedReason: string | null;
  removedTempFiles: string[];
  /** snapshots that failed their check and were renamed to *.corrupt */
  quarantinedSnapshots: string[];
  warnings: string[];
}
export interface Recovered<R, S> {
  snapshot: Snapshot<S> | null;
  records: JournalEntry<R>[];
  lastSeq: number;
  segments: SegmentFile[];
  /** seqs of the snapshot files kept on disk (newest first) */
  snapshotSeqs: number[];
  /** size of the last segment after any truncation */
  lastSegmentSize: number;
  /** appends must go to a new segment starting at lastSeq + 1 (none exists, or the snapshot is ahead of the log) */
  needsNewSegment: boolean;
  report: RecoveryReport;
}

// Any length a frame can hold: a smaller append limit configured later must not make
// acknowledged records unreadable.
const maxRecordBytes = 0xffffffff;

export async function recover<R, S>(dir: string): Promise<Recovered<R, S>> {
  const listing = await listJournalDir(dir);
  const report: RecoveryReport = {
    segmentsRead: 0,
    truncatedBytes: 0,
    truncatedReason: null,
    removedTempFiles: [],
    quarantinedSnapshots: [],
    warnings: [],
  };

  // A temp file is a snapshot whose rename never happened: the previous snapshot still stands.
  for (const name of listing.temps) {
    await rm(path.join(dir, name), { force: true });
    report.removedTempFiles.push(name);
  }

  const { snapshot, bad } = await loadNewestSnapshot<S>(dir, listing.snapshots, report);
  const snapSeq = snapshot?.seq ?? 0;
  // A snapshot file, even unreadable, proves records up to its seq were durable.
  const claimedSeq = Math.max(snapSeq, ...bad.map((b) => b.seq));

  const { segments } = listing;
  const { records, expected, lastSegmentSize } = await readLog<R>(dir, segments, snapshot !== null, snapSeq, report);

  const lastSeq = Math.max(snapSeq, expected - 1);
  if (lastSeq < claimedSeq) {
    throw new JournalError(
      'GAP',
      `journal ${dir}: an unreadable snapshot claims seq ${claimedSeq}, but the log and usable snapshot reach only seq ${lastSeq}`,
    );
  }
  // Only now that nothing depends on them: move bad snapshots aside so they are neither retried nor pruned.
  for (const b of bad) {
    await rename(path.join(dir, b.name), path.join(dir, b.name + CORRUPT_SUFFIX));
    report.quarantinedSnapshots.push(b.name);
  }
  if (bad.length > 0 || report.removedTempFiles.length > 0) await fsyncDir(dir);

  const logEnd = expected - 1;
  const needsNewSegment = segments.length === 0 || logEnd < lastSeq;
  if (segments.length > 0 && logEnd < lastSeq) {
    report.warnings.push(`snapshot seq ${snapSeq} is ahead of the log (ends at seq ${logEnd}); starting a new segment`);
  }
  const badSeqs = new Set(bad.map((b) => b.seq));
  return {
    needsNewSegment,
    snapshot,
    records,
    lastSeq,
    segments,
    snapshotSeqs: listing.snapshots.map((s) => s.seq).filter((s) => !badSeqs.has(s)),
    lastSegmentSize,
    report,
  };
}

interface LogRead<R> {
  records: JournalEntry<R>[];
  /** the seq the next record would carry (0 when no segment was read) */
  expected: number;
  /** size of the last segment after any truncation */
  lastSegmentSize: number;
}

/** Reads every segment not wholly covered by the snapshot, checking that seqs run on without a gap. */
async function readLog<R>(
  dir: string,
  segments: SegmentFile[],
  hasSnapshot: boolean,
  snapSeq: number,
  report: RecoveryReport,
): Promise<LogRead<R>> {
  const records: JournalEntry<R>[] = [];
  let lastSegmentSize = 0;
  // Segments entirely covered by the snapshot are not read (they are awaiting deletion).
  const firstRelevant = segments.findIndex((s, i) => {
    const next = segments[i + 1];
    return next === undefined || next.firstSeq - 1 > snapSeq;
  });
  let expected = 0;
  if (firstRelevant >= 0) {
    const first = segments[firstRelevant]!;
    if (first.firstSeq > snapSeq + 1) {
      throw new JournalError(
        'GAP',
        hasSnapshot
          ? `journal ${dir}: snapshot covers seq <= ${snapSeq} but the log resumes at seq ${first.firstSeq} (${first.name}); records ${snapSeq + 1}..${first.firstSeq - 1} are missing`
          : `journal ${dir}: no usable snapshot, and the log starts at seq ${first.firstSeq} (${first.name}); records 1..${first.firstSeq - 1} are missing`,
      );
    }
    expected = first.firstSeq;
    for (let i = firstRelevant; i < segments.length; i++) {
      const seg = segments[i]!;
      const isLast = i === segments.length - 1;
      if (seg.firstSeq !== expected) {
        const prev = segments[i - 1]!;
        throw new JournalError(
          'GAP',
          `journal ${dir}: ${prev.name} ends at seq ${expected - 1} but ${seg.name} starts at seq ${seg.firstSeq}`,
        );
      }
      const read = await readSegment(dir, seg, isLast, expected, snapSeq, records, report);
      expected = read.expected;
      if (isLast) lastSegmentSize = read.size;
    }
  }
  return { records, expected, lastSegmentSize };
}

/**
 * Reads one segment's frames from seq `expected` on, pushing those past the snapshot onto
 * `records`; a bad frame at the tail of the last segment is truncated away, anywhere else it is
 * CORRUPT. Returns the next expected seq and the segment's size after any truncation.
 */
async function readSegment<R>(
  dir: string,
  seg: SegmentFile,
  isLast: boolean,
  expected: number,
  snapSeq: number,
  records: JournalEntry<R>[],
  report: RecoveryReport,
): Promise<{ expected: number; size: number }> {
  const file = path.join(dir, seg.name);
  const buf = await readFile(file);
  report.segmentsRead++;
  let off = 0;
  while (off < buf.length) {
    const fr = readFrame(buf, off, maxRecordBytes);
    if (!fr.ok) {
      if (!isLast) {
        throw new JournalError(
          'CORRUPT',
          `journal corrupt: ${seg.name} at byte ${off} (expecting seq ${expected}): ${fr.reason}; this segment is not the last, so its records were acknowledged`,
        );
      }
      const follow = findValidFrame(buf, off + 1, expected, maxRecordBytes);
      if (follow >= 0) {
        const followSeq = buf.readUInt32LE(follow + 8) + buf.readUInt32LE(follow + 12) * 2 ** 32;
        throw new JournalError(
          'CORRUPT',
          `journal corrupt: ${seg.name} at byte ${off} (expecting seq ${expected}): ${fr.reason}, yet a valid record (seq ${followSeq}) follows at byte ${follow}; refusing to skip acknowledged records`,
        );
      }
      report.truncatedBytes = buf.length - off;
      report.truncatedReason = `${seg.name} at byte ${off}: ${fr.reason}`;
      await truncateFile(file, off);
      break;
    }
    if (fr.seq !== expected) {
      throw new JournalError(
        'CORRUPT',
        `journal corrupt: ${seg.name} at byte ${off}: expected seq ${expected}, found seq ${fr.seq}`,
      );
    }
    if (fr.seq > snapSeq) {
      let record: R;
      try {
        record = JSON.parse(buf.toString('utf8', fr.payloadStart, fr.end)) as R;
      } catch (err) {
        throw new JournalError('CORRUPT', `journal corrupt: ${seg.name} seq ${fr.seq}: payload is not JSON`, {
          cause: err,
        });
      }
      records.push({ seq: fr.seq, record });
    }
    expected++;
    off = fr.end;
  }
  return { expected, size: off };
}

async function loadNewestSnapshot<S>(
  dir: string,
  snapshots: SnapshotFile[],
  report: RecoveryReport,
): Promise<{ snapshot: Snapshot<S> | null; bad: SnapshotFile[] }> {
  const bad: SnapshotFile[] = [];
  for (const file of snapshots) {
    const decoded = decodeSnapshotFile(await readFile(path.join(dir, file.name)));
    let reason: string | null = null;
    if (!decoded.ok) reason = decoded.reason;
    else if (decoded.seq !== file.seq) reason = `holds seq ${decoded.seq}, name says ${file.seq}`;
    else {
      try {
        return { snapshot: { seq: decoded.seq, state: JSON.parse(decoded.json) as S }, bad };
      } catch {
        reason = 'state is not JSON';
      }
    }
    bad.push(file);
    report.warnings.push(`snapshot ${file.name} is unusable (${reason}); trying an older one`);
  }
  return { snapshot: null, bad };
}

async function truncateFile(file: string, length: number): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.truncate(length);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}
