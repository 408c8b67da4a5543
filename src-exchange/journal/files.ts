// The journal directory: file names and directory fsync.
//
//   segment-<first seq, 20 digits>.log    append-only records, first record has that seq
//   snapshot-<seq, 20 digits>.snap        state including every record up to seq
//   snapshot-<seq>.snap.tmp               a snapshot being written (deleted on open)
//   snapshot-<seq>.snap.corrupt           a snapshot that failed its check, kept for inspection
//   LOCK                                  the process that has the journal open (lock.ts)
import { open, readdir } from 'node:fs/promises';

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
