// The replica's journal reader: it reads frames across segments and, when the journal has nothing
// new, returns. An empty segment (started after a snapshot, before the next command) used to be
// read again and again at once: the snapshot worker span a core for as long as the exchange was
// quiet (a --no-sim exchange at rest: ~96% of a core, ~2,200 stat + readdir calls a second).
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { segmentName } from './files';
import { nextSegment, JournalFollower } from './follower';
import { encodeFrame } from './frame';
import { tempDir } from './test-util';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function journalDir(): Promise<string> {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
const frames = (from: number, n: number) => Buffer.concat(Array.from({ length: n }, (_, i) => encodeFrame(from + i, JSON.stringify({ n: from + i }))));

/** Resolves with what `p` resolved to, or 'still running' if it has not settled within `ms`. */
function settleWithin<T>(p: Promise<T>, ms: number): Promise<T | 'still running'> {
  return Promise.race([p, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms))]);
}

describe('nextSegment', () => {
  const segs = [
    { firstSeq: 1, name: segmentName(1) },
    { firstSeq: 11, name: segmentName(11) },
  ];
  it('moves on to the segment that starts after the last frame read', () => {
    expect(nextSegment(segs, segmentName(1), 10)).toEqual(segs[1]);
  });
  it('is null at the end of the journal, and for the empty segment being read itself', () => {
    expect(nextSegment(segs, segmentName(11), 12)).toBeNull();
    expect(nextSegment(segs, segmentName(11), 10)).toBeNull();
  });
});

describe('JournalFollower', () => {
  it('reads every frame across segments in order, then returns at the end', async () => {
    const dir = await journalDir();
    await writeFile(path.join(dir, segmentName(1)), frames(1, 5));
    await writeFile(path.join(dir, segmentName(6)), frames(6, 3));
    const seen: number[] = [];
    const f = new JournalFollower(dir, 0, (payload, seq) => seen.push(seq, (JSON.parse(payload) as { n: number }).n - seq));
    await f.catchUp(null);
    expect(f.seq).toBe(8);
    expect(seen.filter((_, i) => i % 2 === 0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(seen.filter((_, i) => i % 2 === 1).every((d) => d === 0)).toBe(true);
  });

  it('returns at once on an empty segment just started after a snapshot, and reads it once written', async () => {
    const dir = await journalDir();
    // a snapshot through 5 has pruned the older segments: the journal now writes from seq 6
    await writeFile(path.join(dir, segmentName(6)), Buffer.alloc(0));
    const seen: number[] = [];
    const f = new JournalFollower(dir, 5, (_p, seq) => seen.push(seq));
    // (the old reader never settled here: it read the empty segment again and again)
    expect(await settleWithin(f.catchUp(null), 15_000)).toBeUndefined();
    expect(await settleWithin(f.catchUp(null), 15_000)).toBeUndefined();
    expect(seen).toEqual([]);
    await appendFile(path.join(dir, segmentName(6)), frames(6, 2));
    await f.catchUp(null);
    expect(seen).toEqual([6, 7]);
    // through a durable target it reads exactly that far
    await appendFile(path.join(dir, segmentName(6)), frames(8, 3));
    await f.catchUp(9);
    expect(f.seq).toBe(9);
  });

  it('stops at a frame still being written, and refuses a gap before a durable target', async () => {
    const dir = await journalDir();
    const whole = frames(1, 3);
    await writeFile(path.join(dir, segmentName(1)), whole.subarray(0, whole.length - 4));
    const f = new JournalFollower(dir, 0, () => undefined);
    await f.catchUp(null);
    expect(f.seq).toBe(2);
    await expect(f.catchUp(3)).rejects.toThrow(/unreadable before seq 3/);
  });
});
