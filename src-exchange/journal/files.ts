// The journal directory: file names, directory fsync, and the single-writer lock.
//
//   segment-<first seq, 20 digits>.log    append-only records, first record has that seq
//   snapshot-<seq, 20 digits>.snap        state including every record up to seq
//   snapshot-<seq>.snap.tmp               a snapshot being written (deleted on open)
//   snapshot-<seq>.snap.corrupt           a snapshot that failed its check, kept for inspection
//   LOCK                                  pid of the process that has the journal open
import { open, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { JournalError } from './errors';

const SEGMENT_RE = /^segment-(\d{20})\.log$/;
const SNAPSHOT_RE = /^snapshot-(\d{20})\.snap$/;
export const TEMP_SUFFIX = '.tmp';
export const CORRUPT_SUFFIX = '.corrupt';

const pad = (seq: number): string => String(seq).padStart(20, '0');
export const segmentName = (firstSeq: number): string => `segment-${pad(firstSeq)}.log`;
export const snapshotName = (seq: number): string => `snapshot-${pad(seq)}.snap`;

export interface SegmentFile {
  firstSeq: number;
  name: string;
}
export interface SnapshotFile {
  seq: number;
  name: string;
}
export interface DirListing {
  /** ascending by firstSeq */
  segments: SegmentFile[];
  /** descending by seq (newest first) */
  snapshots: SnapshotFile[];
  temps: string[];
}

export async function listJournalDir(dir: string): Promise<DirListing> {
  const listing: DirListing = { segments: [], snapshots: [], temps: [] };
  for (const name of await readdir(dir)) {
    const seg = SEGMENT_RE.exec(name);
    const snap = SNAPSHOT_RE.exec(name);
    if (seg) listing.segments.push({ firstSeq: Number(seg[1]), name });
    else if (snap) listing.snapshots.push({ seq: Number(snap[1]), name });
    else if (name.endsWith(TEMP_SUFFIX)) listing.temps.push(name);
  }
  listing.segments.sort((a, b) => a.firstSeq - b.firstSeq);
  listing.snapshots.sort((a, b) => b.seq - a.seq);
  return listing;
}

/**
 * Make creations, renames and deletions in `dir` durable. Windows cannot open a
 * directory for fsync (and NTFS journals metadata), so it is skipped there.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

const heldInProcess = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take the directory for this process. A LOCK left by a dead process (kill -9) is
 * taken over; one held by a live process, or already by this one, is refused.
 * Returns the release function.
 */
export async function acquireLock(dir: string): Promise<{ release(keepFile?: boolean): Promise<void> }> {
  const key = await realpath(dir);
  if (heldInProcess.has(key)) throw new JournalError('LOCKED', `journal ${dir} is already open in this process`);
  heldInProcess.add(key);
  const lockPath = path.join(dir, 'LOCK');
  try {
    try {
      await writeFile(lockPath, `${process.pid}\n`, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(await readFile(lockPath, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new JournalError(
          'LOCKED',
          `journal ${dir} is locked by running process ${pid}; if that process is not using it, delete ${lockPath}`,
        );
      }
      await writeFile(lockPath, `${process.pid}\n`);
    }
  } catch (err) {
    heldInProcess.delete(key);
    throw err;
  }
  let released = false;
  return {
    async release(keepFile = false) {
      if (released) return;
      released = true;
      heldInProcess.delete(key);
      if (!keepFile) await rm(lockPath, { force: true });
    },
  };
}
