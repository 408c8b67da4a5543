// The snapshot worker's replica follows the journal between snapshots, reading frames as the
// journal writes them. A frame caught half written must be waited out (read again next step),
// never taken for corruption: here a torn frame is put at the end of the live segment by hand
// (as a reader can see one while a write is in progress), the replica's steps run into it, the
// journal then writes its real records over it, and the next snapshot is still the worker's and
// restores to exactly the state at stop.
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExchangeNode } from '../src-exchange/core/node';
import { encodeFrame } from '../src-exchange/journal/frame';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the replica following the journal', () => {
  it('waits out a frame still being written and snapshots through where it is', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'snapfollow-'));
    dirs.push(dataDir);
    const node = await ExchangeNode.open({ dataDir, snapshotEvery: 1_000_000 });
    let t = 1_700_000_000_000;
    const deposit = (n: number) => node.submit({ type: 'deposit', nowMs: (t += 1000), userId: `u${n % 3}`, amountMicro: 1_000_000 * (n + 1) } as never);
    for (let i = 0; i < 40; i++) await deposit(i);
    await node.snapshotNow(); // starts the worker; it follows from here on
    expect(node.snapshotMode).toBe('worker');
    for (let i = 40; i < 80; i++) await deposit(i);
    await sleep(150); // several follow steps read those

    // half of the next frame at the end of the live segment, as a write in progress shows it
    const segment = readdirSync(dataDir).filter((f) => f.startsWith('segment-')).sort().pop()!;
    const file = path.join(dataDir, segment);
    const sizeBefore = statSync(file).size;
    const next = encodeFrame(node.journalStats.appends + 1, JSON.stringify({ type: 'deposit', nowMs: t, userId: 'u0', amountMicro: 1 }));
    appendFileSync(file, next.subarray(0, Math.floor(next.length / 2)));
    await sleep(150); // the steps meet the torn frame: they must stop there, not fail

    // the journal writes its next records where its file ends for it: over the torn bytes
    for (let i = 80; i < 120; i++) await deposit(i);
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + next.length);
    await node.snapshotNow();
    expect(node.snapshotMode).toBe('worker'); // the worker is alive: it did not take the torn frame for corruption
    const atStop = JSON.stringify(node.core.toSnapshot());
    await node.close();

    const again = await ExchangeNode.open({ dataDir, snapshots: 'inline' });
    expect(again.recovered.fromSnapshotSeq).toBe(120);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(atStop);
    await again.close();
  }, 30_000);
});
