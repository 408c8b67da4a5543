// The history archive's files (what they hold: engine/archive.ts).
//
//   archive-<seq, 20 digits>.log   one generation of the archive, started by the snapshot at seq
//
// Layout: 8-byte magic `EXJARCH1`, then frames (frame.ts) whose payload is a JSON array of
// records and whose seq is the number of records in the file up to the end of that frame. A
// snapshot names the file and where it ends ({file, records, bytes}); the file only grows past
// that (the next snapshots' records), so an older snapshot's prefix stays readable. The writer
// makes the records durable before the snapshot that counts them is written, and starts by
// cutting off whatever a crash left after the snapshot it resumes from.
import { open, readdir, readFile, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ArchivedHistory, type ArchiveRecord, type ArchiveRef } from '../engine/archive';
import { fsyncDir, listJournalDir } from './files';
import { encodeFrame, readFrame, SNAPSHOT_JSON_OFFSET } from './frame';
import { writeAll } from './journal';

const MAGIC = Buffer.from('EXJARCH1', 'latin1');
const ARCHIVE_RE = /^archive-(\d{20})\.log$/;
/** records per frame: frames stay a few hundred kilobytes */
const FRAME_RECORDS = 1_000;

export const archiveName = (seq: number): string => `archive-${String(seq).padStart(20, '0')}.log`;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** Replay the archive up to `ref` (exactly: a short, torn or longer-counted file is an error). */
export async function readArchive(dir: string, ref: ArchiveRef): Promise<ArchivedHistory> {
  if (!ARCHIVE_RE.test(ref.file)) throw new ArchiveError(`archive name ${JSON.stringify(ref.file)} is not one this journal writes`);
  let buf: Buffer;
  try {
    buf = await readFile(path.join(dir, ref.file));
  } catch (err) {
    throw new ArchiveError(`archive ${ref.file} cannot be read: ${(err as Error).message}`);
  }
  const where = `archive ${ref.file}`;
  if (buf.length < ref.bytes) throw new ArchiveError(`${where} has ${buf.length} bytes, the snapshot counts ${ref.bytes}`);
  if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new ArchiveError(`${where} does not start with its magic`);
  const history = new ArchivedHistory();
  const data = buf.subarray(0, ref.bytes);
  let off = MAGIC.length;
  let records = 0;
  while (off < data.length) {
    const fr = readFrame(data, off, data.length);
    if (!fr.ok) throw new ArchiveError(`${where} byte ${off}: ${fr.reason}`);
    const list = JSON.parse(data.toString('utf8', fr.payloadStart, fr.end)) as ArchiveRecord[];
    if (!Array.isArray(list) || fr.seq !== records + list.length) throw new ArchiveError(`${where} byte ${off}: frame counts ${fr.seq} records, ${records + (Array.isArray(list) ? list.length : 0)} read`);
    for (const rec of list) history.apply(rec);
    records = fr.seq;
    off = fr.end;
  }
  if (records !== ref.records) throw new ArchiveError(`${where} holds ${records} records where the snapshot counts ${ref.records}`);
  return history;
}

/** Appends records to one archive generation, durably. */
export class ArchiveWriter {
  private constructor(
    private readonly fh: FileHandle,
    private at: ArchiveRef,
  ) {}

  /** A new generation for the snapshot at `seq` (replacing a file of that name a crash left). */
  static async create(dir: string, seq: number): Promise<ArchiveWriter> {
    const file = archiveName(seq);
    const fh = await open(path.join(dir, file), 'w', 0o600);
    try {
      await writeAll(fh, MAGIC, 0);
      await fh.datasync();
      await fsyncDir(dir);
    } catch (err) {
      await fh.close();
      throw err;
    }
    return new ArchiveWriter(fh, { file, records: 0, bytes: MAGIC.length });
  }

  /** Go on appending where `ref` (a durable snapshot's) ends; anything after it is cut off. */
  static async resume(dir: string, ref: ArchiveRef): Promise<ArchiveWriter> {
    const fh = await open(path.join(dir, ref.file), 'r+');
    try {
      await fh.truncate(ref.bytes);
      await fh.datasync();
    } catch (err) {
      await fh.close();
      throw err;
    }
    return new ArchiveWriter(fh, { ...ref });
  }

  get ref(): ArchiveRef {
    return { ...this.at };
  }

  /** Append `records` (JSON texts) and make them durable; where the archive now ends. */
  async append(records: readonly string[]): Promise<ArchiveRef> {
    if (records.length === 0) return this.ref;
    let { records: count, bytes } = this.at;
    for (let i = 0; i < records.length; i += FRAME_RECORDS) {
      const part = records.slice(i, i + FRAME_RECORDS);
      count += part.length;
      const frame = encodeFrame(count, `[${part.join(',')}]`);
      await writeAll(this.fh, frame, bytes);
      bytes += frame.length;
    }
    await this.fh.datasync();
    this.at = { file: this.at.file, records: count, bytes };
    return this.ref;
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

/**
 * Delete archive generations no snapshot on disk refers to (the current one is always kept).
 * A snapshot names its archive near the start of its JSON, so only its first bytes are read.
 */
export async function pruneArchives(dir: string, current: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => ARCHIVE_RE.test(n) && n !== current);
  if (names.length === 0) return [];
  const used = new Set<string>([current]);
  // a snapshot being written (a temp file) is this writer's, naming the current generation, or an
  // inline one, naming none
  for (const { name } of (await listJournalDir(dir)).snapshots) {
    const referred = await referredArchive(path.join(dir, name));
    if (referred === undefined) return []; // a snapshot we cannot read: delete nothing
    if (referred) used.add(referred);
  }
  const gone = names.filter((n) => !used.has(n));
  for (const n of gone) await unlink(path.join(dir, n)).catch(() => undefined);
  return gone;
}

/** The archive a snapshot file names: its name, null for none, undefined when unreadable. */
async function referredArchive(file: string): Promise<string | null | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch {
    return null; // gone since the listing (pruned): it needs nothing
  }
  try {
    const head = Buffer.alloc(256);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const text = head.toString('latin1', SNAPSHOT_JSON_OFFSET, bytesRead);
    if (!text.startsWith('{"version":')) return undefined;
    const m = /^\{"version":\d+,"archive":\{"file":"(archive-\d{20}\.log)"/.exec(text);
    return m ? m[1]! : null;
  } finally {
    await fh.close();
  }
}
