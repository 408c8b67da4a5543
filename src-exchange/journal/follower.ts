// Follows a journal directory on disk from a seq on: reads the frames written after it, in order,
// across segments, and hands each record to `apply`. The snapshot worker's replica reads the
// journal this way (core/snapshot-worker-thread.ts), so the exchange's event loop does no extra
// work per command.
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { readFrame } from './frame';
import { listJournalDir, type SegmentFile } from './files';

/**
 * The segment to read next once every byte of `current` has been read through `seq`: the one
 * that starts at seq + 1, unless that is `current` itself (an empty segment, just started after a
 * snapshot: nothing is there yet). Null: the journal on disk ends at `seq` for now.
 */
export function nextSegment(segments: readonly SegmentFile[], current: string, seq: number): SegmentFile | null {
  const next = segments.find((s) => s.firstSeq === seq + 1);
  return next && next.name !== current ? next : null;
}

/** The bytes of segment `name` from `offset` on; null when the segment is gone (pruned). */
async function readFrom(file: string, offset: number): Promise<Buffer | null> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (size <= offset) return Buffer.alloc(0);
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const buf = Buffer.allocUnsafe(size - offset);
    let done = 0;
    while (done < buf.length) {
      const { bytesRead } = await fh.read(buf, done, buf.length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done);
  } finally {
    await fh.close();
  }
}

export class JournalFollower {
  /** where reading resumes: the segment holding seq + 1 and the byte after the last frame applied */
  private at: { name: string; offset: number } | null = null;

  constructor(
    private readonly dir: string,
    /** the last seq applied */
    public seq: number,
    private readonly apply: (payload: string, seq: number) => void,
  ) {}

  /**
   * Apply the journal's records after `seq`. Through `target`, a durable seq: every frame up to it
   * is complete on disk, so a gap or an unreadable frame before it is fatal. Following (`target`
   * null): whatever is complete on disk now, returning at the end or at a frame the journal is
   * still writing (it only appends, and a record is never acknowledged, nor a snapshot through it
   * adopted, before it is durable).
   */
  async catchUp(target: number | null): Promise<void> {
    while (target === null || this.seq < target) {
      if (!this.at) {
        // the segment that holds seq + 1: the last one starting at or before it
        const holding = (await listJournalDir(this.dir)).segments.filter((s) => s.firstSeq <= this.seq + 1).pop();
        if (!holding) {
          if (target === null) return;
          throw new Error(`no journal segment holds seq ${this.seq + 1}`);
        }
        this.at = { name: holding.name, offset: 0 };
      }
      const at = this.at;
      const buf = await readFrom(path.join(this.dir, at.name), at.offset);
      if (!buf) {
        // A snapshot covering all of this segment made the journal prune it (after the replica
        // had read what it needed of it): find the segment holding seq + 1 afresh.
        this.at = null;
        const holding = (await listJournalDir(this.dir)).segments.filter((s) => s.firstSeq <= this.seq + 1).pop();
        if (!holding || holding.name === at.name) throw new Error(`journal segment ${at.name} is gone and no segment holds seq ${this.seq + 1}`);
        continue;
      }
      let off = 0;
      let torn = false;
      while (off < buf.length && (target === null || this.seq < target)) {
        const fr = readFrame(buf, off, 0xffffffff);
        if (!fr.ok) {
          if (target !== null) throw new Error(`journal ${at.name} byte ${at.offset + off} unreadable before seq ${target}: ${fr.reason}`);
          torn = true; // being written: read again next time
          break;
        }
        off = fr.end;
        if (fr.seq <= this.seq) continue;
        if (fr.seq !== this.seq + 1) throw new Error(`journal jumps from seq ${this.seq} to ${fr.seq}`);
        this.apply(buf.toString('utf8', fr.payloadStart, fr.end), fr.seq);
        this.seq = fr.seq;
      }
      at.offset += off;
      if (torn || (target !== null && this.seq >= target)) return;
      if (off === buf.length) {
        // all of this segment there is: the journal moved on if another segment starts at seq + 1
        // (an empty segment that starts there is this one, and has nothing yet: reading it again
        // at once span a core for as long as the exchange was quiet)
        const next = nextSegment((await listJournalDir(this.dir)).segments, at.name, this.seq);
        if (!next) {
          if (target === null) return;
          throw new Error(`the journal on disk ends at seq ${this.seq}, before ${target}`);
        }
        this.at = { name: next.name, offset: 0 };
      }
    }
  }
}
