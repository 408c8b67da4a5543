import { appendFile, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FRAME_HEADER_BYTES } from './frame';
import { Journal } from './journal';
import { segmentFiles, tempDir } from './test-util';

interface Cmd {
  n: number;
  memo: string;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const cmd = (n: number): Cmd => ({ n, memo: `order-${n}-${'y'.repeat(n % 5)}` });

/** Write records 1..count into a fresh journal; return its one segment's path and frame end offsets. */
async function writeRecords(count: number): Promise<{ file: string; ends: number[] }> {
  const { journal } = await Journal.open<Cmd>(dir);
  for (let n = 1; n <= count; n++) await journal.append(cmd(n));
  await journal.close();
  const [name] = await segmentFiles(dir);
  const file = path.join(dir, name!);
  const ends: number[] = [];
  let off = 0;
  for (let n = 1; n <= count; n++) {
    off += FRAME_HEADER_BYTES + Buffer.byteLength(JSON.stringify(cmd(n)));
    ends.push(off);
  }
  expect((await stat(file)).size).toBe(off);
  return { file, ends };
}

async function recoveredSeqs(): Promise<number[]> {
  const { journal, records } = await Journal.open<Cmd>(dir);
  await journal.close();
  for (const r of records) expect(r.record).toEqual(cmd(r.seq));
  return records.map((r) => r.seq);
}

describe('Journal recovery: torn tails', () => {
  it('keeps exactly the complete records whatever byte a write was cut at', async () => {
    const { file, ends } = await writeRecords(3);
    const original = await readFile(file);
    for (let cut = 0; cut <= original.length; cut++) {
      await writeFile(file, original.subarray(0, cut));
      const complete = ends.filter((e) => e <= cut).length;
      const { journal, records, recovery } = await Journal.open<Cmd>(dir);
      expect(records.map((r) => r.seq)).toEqual(Array.from({ length: complete }, (_, i) => i + 1));
      expect(recovery.truncatedBytes).toBe(cut - (ends[complete - 1] ?? 0));
      // the next append continues right after the last complete record
      expect(await journal.append(cmd(complete + 1))).toBe(complete + 1);
      await journal.close();
      expect(await recoveredSeqs()).toEqual(Array.from({ length: complete + 1 }, (_, i) => i + 1));
    }
  });

  it('truncates garbage bytes appended after the last record', async () => {
    const { file, ends } = await writeRecords(5);
    let x = 12345;
    const garbage = Buffer.from(Array.from({ length: 777 }, () => ((x = (x * 1103515245 + 12345) >>> 0) >>> 16) & 0xff));
    await appendFile(file, garbage);
    const { journal, records, recovery } = await Journal.open<Cmd>(dir);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(recovery.truncatedBytes).toBe(777);
    expect((await stat(file)).size).toBe(ends[4]);
    await journal.close();
  });

  it('truncates zeros left by a file extended but never written (power loss)', async () => {
    const { file } = await writeRecords(4);
    await appendFile(file, Buffer.alloc(4096));
    expect(await recoveredSeqs()).toEqual([1, 2, 3, 4]);
  });

  it('treats a checksum failure in the very last record as a torn tail', async () => {
    const { file, ends } = await writeRecords(5);
    const buf = await readFile(file);
    buf[ends[4]! - 2]! ^= 0xff;
    await writeFile(file, buf);
    expect(await recoveredSeqs()).toEqual([1, 2, 3, 4]);
  });
});

describe('Journal recovery: corruption it refuses', () => {
  it('refuses a record that fails its checksum when valid records follow', async () => {
    const { file, ends } = await writeRecords(5);
    const buf = await readFile(file);
    buf[ends[1]! - 3]! ^= 0x20; // inside record 2's payload
    await writeFile(file, buf);
    await expect(Journal.open(dir)).rejects.toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/at byte \d+ \(expecting seq 2\): checksum mismatch, yet a valid record \(seq 3\) follows/),
    });
    expect((await readFile(file)).equals(buf)).toBe(true); // nothing was truncated
  });

  it('refuses a damaged length field followed by valid records', async () => {
    const { file, ends } = await writeRecords(5);
    const buf = await readFile(file);
    buf.writeUInt32LE(0xfffffff0, ends[2]!); // record 4's length
    await writeFile(file, buf);
    await expect(Journal.open(dir)).rejects.toMatchObject({ code: 'CORRUPT' });
  });

  it('refuses corruption in a segment that is not the last', async () => {
    const { journal } = await Journal.open<Cmd>(dir, { segmentBytes: 200 });
    for (let n = 1; n <= 40; n++) await journal.append(cmd(n));
    await journal.close();
    const names = await segmentFiles(dir);
    expect(names.length).toBeGreaterThan(2);
    const first = path.join(dir, names[0]!);
    const buf = await readFile(first);
    await writeFile(first, buf.subarray(0, buf.length - 1)); // even a torn-looking tail
    await expect(Journal.open(dir)).rejects.toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/is not the last/),
    });
  });

  it('refuses a missing segment', async () => {
    const { journal } = await Journal.open<Cmd>(dir, { segmentBytes: 200 });
    for (let n = 1; n <= 40; n++) await journal.append(cmd(n));
    await journal.close();
    const names = await segmentFiles(dir);
    await rm(path.join(dir, names[1]!));
    await expect(Journal.open(dir)).rejects.toMatchObject({ code: 'GAP' });
    await rm(path.join(dir, names[0]!));
    await expect(Journal.open(dir)).rejects.toMatchObject({
      code: 'GAP',
      message: expect.stringMatching(/no usable snapshot.*records 1\.\.\d+ are missing/),
    });
  });

  it('refuses a record whose checksum is valid but whose seq is out of order', async () => {
    const { file, ends } = await writeRecords(3);
    const buf = await readFile(file);
    const swapped = Buffer.concat([buf.subarray(ends[0]!, ends[1]!), buf.subarray(0, ends[0]!), buf.subarray(ends[1]!)]);
    await writeFile(file, swapped);
    await expect(Journal.open(dir)).rejects.toMatchObject({ code: 'CORRUPT', message: expect.stringMatching(/expected seq 1, found seq 2/) });
    await truncate(file, 0);
    expect(await recoveredSeqs()).toEqual([]);
  });
});
