// The history archive's files: exact reads up to a snapshot's count, appends that survive a
// crash's leftovers, and deletion of generations only once no snapshot names them.
import { appendFile, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveWriter, archiveName, pruneArchives, readArchive } from './archive-file';
import { encodeSnapshotFile } from './frame';
import { snapshotName } from './files';
import { tempDir } from './test-util';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const trade = (n: number) => JSON.stringify({ t: { trade_id: `T${n}`, ticker: 'M', taker_side: 'yes', taker_book_side: 'bid', yes_price: 5000, no_price: 5000, count: 100, created_time: n, is_block_trade: false } });
const trades = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => trade(from + i));

describe('history archive files', () => {
  it('reads back exactly what was appended, up to the count a snapshot names', async () => {
    const w = await ArchiveWriter.create(dir, 7);
    expect(w.ref).toEqual({ file: archiveName(7), records: 0, bytes: 8 });
    const first = await w.append(trades(1, 2_500)); // three frames
    const second = await w.append([...trades(2_501, 2_502), JSON.stringify({ td: 'T2' })]);
    expect(await w.append([])).toEqual(second);
    await w.close();
    expect(first.records).toBe(2_500);
    expect(second).toEqual({ file: archiveName(7), records: 2_503, bytes: (await stat(path.join(dir, archiveName(7)))).size });

    const atFirst = await readArchive(dir, first);
    expect(atFirst.trades.size).toBe(2_500);
    const atSecond = await readArchive(dir, second);
    expect([...atSecond.trades.keys()].slice(0, 3)).toEqual(['T1', 'T3', 'T4']);
    expect(atSecond.trades.size).toBe(2_501);
    expect(atSecond.trades.get('T2502')?.created_time).toBe(2_502);
    expect((await stat(path.join(dir, archiveName(7)))).mode & 0o777).toBe(0o600);
  });

  it('refuses an archive that does not hold what the snapshot counts', async () => {
    const w = await ArchiveWriter.create(dir, 1);
    const ref = await w.append(trades(1, 10));
    await w.close();
    const file = path.join(dir, ref.file);
    await expect(readArchive(dir, { ...ref, records: 11 })).rejects.toThrow(/holds 10 records where the snapshot counts 11/);
    await expect(readArchive(dir, { ...ref, bytes: ref.bytes + 1 })).rejects.toThrow(/has \d+ bytes, the snapshot counts/);
    await expect(readArchive(dir, { ...ref, bytes: ref.bytes - 1 })).rejects.toThrow(/runs 1 bytes past the end/);
    await expect(readArchive(dir, { ...ref, file: '../etc/passwd' })).rejects.toThrow(/not one this journal writes/);
    await expect(readArchive(dir, { ...ref, file: archiveName(2) })).rejects.toThrow(/cannot be read/);
    const bytes = await readFile(file);
    bytes[bytes.length - 5]! ^= 0xff;
    await writeFile(file, bytes);
    await expect(readArchive(dir, ref)).rejects.toThrow(/checksum mismatch/);
    bytes[0]! ^= 0xff;
    await writeFile(file, bytes);
    await expect(readArchive(dir, ref)).rejects.toThrow(/magic/);
  });

  it('resuming cuts off what a crash left after the snapshot it resumes from', async () => {
    const w = await ArchiveWriter.create(dir, 1);
    const ref = await w.append(trades(1, 3));
    await w.append(trades(4, 6)); // written, but its snapshot never was
    await w.close();
    await appendFile(path.join(dir, ref.file), Buffer.from('torn half frame'));
    const again = await ArchiveWriter.resume(dir, ref);
    const next = await again.append(trades(7, 8));
    await again.close();
    expect(next).toEqual({ file: ref.file, records: 5, bytes: (await stat(path.join(dir, ref.file))).size });
    expect([...(await readArchive(dir, next)).trades.keys()]).toEqual(['T1', 'T2', 'T3', 'T7', 'T8']);
    // the older snapshot's prefix still reads
    expect((await readArchive(dir, ref)).trades.size).toBe(3);
  });

  it('deletes a generation only once no snapshot on disk names it', async () => {
    const snapshotNaming = async (seq: number, file: string | null) => {
      const archive = file ? `"archive":{"file":"${file}","records":0,"bytes":8},` : '';
      await writeFile(path.join(dir, snapshotName(seq)), encodeSnapshotFile(seq, `{"version":1,${archive}"engine":{},"domains":{}}`));
    };
    for (const seq of [1, 5, 9]) await (await ArchiveWriter.create(dir, seq)).close();
    await snapshotNaming(4, archiveName(1));
    await snapshotNaming(6, null);
    const archives = async () => (await readdir(dir)).filter((n) => n.startsWith('archive-')).sort();
    expect(await pruneArchives(dir, archiveName(9))).toEqual([archiveName(5)]);
    expect(await archives()).toEqual([archiveName(1), archiveName(9)]);
    // a snapshot it cannot read: nothing is deleted
    await writeFile(path.join(dir, snapshotName(8)), 'garbage');
    await truncate(path.join(dir, snapshotName(4)));
    expect(await pruneArchives(dir, archiveName(9))).toEqual([]);
    expect(await archives()).toEqual([archiveName(1), archiveName(9)]);
    await writeFile(path.join(dir, snapshotName(8)), encodeSnapshotFile(8, '{"version":1,"engine":{},"domains":{}}'));
    await snapshotNaming(4, archiveName(9));
    expect(await pruneArchives(dir, archiveName(9))).toEqual([archiveName(1)]);
    expect(await archives()).toEqual([archiveName(9)]);
  });
});
