// Snapshots under sustained trading: the worker thread's replica follows the journal while the
// simulation trades at a lively rate, several snapshots are taken without waiting for a quiet
// moment, and a restart from the newest of them (plus the journal after it) is exactly the state
// the exchange had when it stopped: books, orders, balances, fills, every domain.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExchange } from '../server';
import { ExchangeNode } from '../core/node';

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

    const again = await ExchangeNode.open({ dataDir: path.join(dataDir, 'journal'), snapshots: 'inline' });
    expect(again.recovered.fromSnapshotSeq).toBeGreaterThan(0);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(atStop);
    await again.close();
  }, 60_000);
});
