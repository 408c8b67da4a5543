// Snapshots under sustained trading: the worker thread's replica follows the journal while the
// simulation trades at a lively rate, several snapshots are taken without waiting for a quiet
// moment, and a restart from the newest of them (plus the journal after it) is exactly the state
// the exchange had when it stopped: books, orders, balances, fills, every domain.
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExchange } from '../src-exchange/server';
import { ExchangeNode } from '../src-exchange/core/node';
import { SNAPSHOT_JSON_OFFSET } from '../src-exchange/journal/frame';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('snapshots off the event loop', () => {
  it('a restart from worker snapshots taken mid-flow equals the state at stop', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'snapw-'));
    dirs.push(dataDir);
    const ex = await startExchange({
      dataDir,
      port: 0,
      rateLimits: false,
      snapshotEvery: 300,
      simOptions: { tickMs: 20, ratePerSecond: 600, lifecycleMs: 100 },
    });
    const node = ex.svc.node;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && node.journalStats.snapshotsWritten < 4) await new Promise((r) => setTimeout(r, 100));
    expect(node.journalStats.snapshotsWritten).toBeGreaterThanOrEqual(4);
    expect(node.snapshotMode).toBe('worker');
    if (process.platform === 'linux') {
      // the replica's thread runs at the lowest priority; the event loop keeps nice 0
      const nice = (task: string) => {
        const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      expect(nice(String(process.pid))).toBe(0);
      expect(readdirSync('/proc/self/task').filter((t) => nice(t) === 19).length).toBeGreaterThanOrEqual(1);
    }
    await ex.close();
    const appended = node.journalStats.appends;
    const atStop = JSON.stringify(node.core.toSnapshot());
    expect(appended).toBeGreaterThan(1200);
    const files = readdirSync(path.join(dataDir, 'journal')).filter((f) => f.endsWith('.snap'));
    expect(files.length).toBeGreaterThanOrEqual(1);

    // the snapshots hold the live state; finished orders, fills and trades are in the archive they name
    const journalDir = path.join(dataDir, 'journal');
    const newest = files.sort().pop()!;
    const head = readFileSync(path.join(journalDir, newest)).toString('utf8', SNAPSHOT_JSON_OFFSET, 400);
    const ref = /^\{"version":1,"archive":(\{[^}]*\})/.exec(head);
    expect(ref).not.toBeNull();
    const archive = JSON.parse(ref![1]!) as { file: string; records: number; bytes: number };
    expect(archive.records).toBeGreaterThan(100);
    expect(readdirSync(journalDir).filter((f) => f.startsWith('archive-'))).toContain(archive.file);

    const again = await ExchangeNode.open({ dataDir: journalDir, snapshots: 'inline' });
    expect(again.recovered.fromSnapshotSeq).toBeGreaterThan(0);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(atStop);
    await again.close();

    // without its archive the snapshot cannot be restored: said so, nothing started
    renameSync(path.join(journalDir, archive.file), path.join(journalDir, `${archive.file}.moved`));
    await expect(ExchangeNode.open({ dataDir: journalDir, snapshots: 'inline' })).rejects.toThrow(/snapshot at seq \d+ cannot be restored: archive archive-\d+\.log cannot be read/);
    renameSync(path.join(journalDir, `${archive.file}.moved`), path.join(journalDir, archive.file));
    const third = await ExchangeNode.open({ dataDir: journalDir, snapshots: 'inline' });
    expect(JSON.stringify(third.core.toSnapshot())).toBe(atStop);
    await third.close();
  }, 60_000);
});
