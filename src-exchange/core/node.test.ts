import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLOSE_SNAPSHOT_MIN_RECORDS, ExchangeNode } from './node';

const dir = () => mkdtempSync(path.join(tmpdir(), 'node-'));
const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
/** Wait for a condition (no deadline of its own: the test's timeout is the limit). */
const waitFor = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
};
const deposit = (node: ExchangeNode, n: number) => node.submit({ type: 'deposit', nowMs: node.now(), userId: `u${n % 3}`, amountMicro: 1_000_000 });

describe('ExchangeNode', () => {
  it('answers only after the journal is durable, and a restart replays to the same state', async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d });
    for (let i = 0; i < 30; i++) await deposit(node, i);
    const before = JSON.stringify(node.core.toSnapshot());
    expect(node.journalStats.fsyncs).toBeGreaterThan(0);
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d });
    expect(again.recovered.records).toBe(30);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
    await again.close();
  });

  it(`an orderly close snapshots a journal tail of ${CLOSE_SNAPSHOT_MIN_RECORDS} records or more (the next start replays nothing, to the same state), and leaves a shorter one to replay`, async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    const b = node.beginBatch();
    for (let i = 0; i < CLOSE_SNAPSHOT_MIN_RECORDS - 1; i++) b.apply({ type: 'deposit', nowMs: node.now(), userId: `u${i % 3}`, amountMicro: 1_000_000 });
    await b.commit();
    // a batch is one record: the tail is 1 record, short; then one short of the mark in records
    for (let i = 0; i < CLOSE_SNAPSHOT_MIN_RECORDS - 2; i++) await deposit(node, i);
    const short = JSON.stringify(node.core.toSnapshot());
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    expect(again.recovered).toEqual({ records: CLOSE_SNAPSHOT_MIN_RECORDS - 1, fromSnapshotSeq: null });
    expect(JSON.stringify(again.core.toSnapshot())).toBe(short);
    // one more record reaches the mark: the close snapshots the whole tail (the replayed ones too)
    await deposit(again, 1);
    const long = JSON.stringify(again.core.toSnapshot());
    await again.close();
    const third = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    expect(third.recovered).toEqual({ records: 0, fromSnapshotSeq: CLOSE_SNAPSHOT_MIN_RECORDS });
    expect(JSON.stringify(third.core.toSnapshot())).toBe(long);
    await third.close();
  });

  it('a batch: applied at once, one journal record, its events published once after commit; a restart replays it to the same state', async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d });
    const seen: number[] = [];
    node.onEvents((evs) => seen.push(evs.length));
    const b = node.beginBatch();
    for (let i = 0; i < 5; i++) expect(b.apply({ type: 'deposit', nowMs: node.now(), userId: `u${i % 2}`, amountMicro: 1_000_000 }).ok).toBe(true);
    // a rejection that changed nothing is not part of it
    expect(b.apply({ type: 'cancelOrder', nowMs: node.now(), userId: 'nobody', orderId: 'nope' }).ok).toBe(false);
    // applied already: the next command sees it
    expect(node.core.engine.getBalance('u0')?.cash).toBe(3_000_000);
    // nothing may come between the batch's commands and its record
    await expect(deposit(node, 0)).rejects.toThrow(/batch is open/);
    expect(() => node.beginBatch()).toThrow(/already open/);
    expect(seen).toEqual([]);
    await b.commit();
    expect(node.journalStats.appends).toBe(1);
    expect(seen.length).toBe(1);
    expect(seen[0]).toBeGreaterThanOrEqual(5);
    expect(() => b.apply({ type: 'deposit', nowMs: node.now(), userId: 'u0', amountMicro: 1 })).toThrow(/committed/);
    await deposit(node, 1);
    const before = JSON.stringify(node.core.toSnapshot());
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d });
    expect(again.recovered.records).toBe(2);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
    await again.close();
  });

  it('a batch of recorded prints (engine/print.ts): a restart from the journal, and from the worker\'s snapshot after it, gives the same books, trades and fills', async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    const at = () => node.now();
    const setup = node.beginBatch();
    setup.apply({ type: 'addMarket', nowMs: at(), ticker: 'P-1', eventTicker: 'P', seriesTicker: 'PS' });
    setup.apply({ type: 'openMarket', nowMs: at(), ticker: 'P-1' });
    for (const u of ['maker', 'taker', 'trader']) setup.apply({ type: 'deposit', nowMs: at(), userId: u, amountMicro: 1_000_000_000 });
    await setup.commit();
    const b = node.beginBatch();
    b.apply({ type: 'createOrder', nowMs: at(), userId: 'maker', ticker: 'P-1', side: 'bid', priceTicks: 5000, countCenti: 500 });
    const mine = b.apply({ type: 'createOrder', nowMs: at(), userId: 'trader', ticker: 'P-1', side: 'bid', priceTicks: 5000, countCenti: 300 });
    b.apply({ type: 'createOrder', nowMs: at(), userId: 'maker', ticker: 'P-1', side: 'bid', priceTicks: 5000, countCenti: 400 });
    // the first print takes the replay's size ahead; the second reaches the trader's order
    const print = (countCenti: number) => b.apply({ type: 'printTrade', nowMs: at(), userId: 'taker', ticker: 'P-1', side: 'ask', priceTicks: 5000, countCenti, quietUserId: 'maker' });
    expect(print(400).ok).toBe(true);
    expect(print(250).ok).toBe(true);
    await b.commit();
    const orderId = (mine.result.order as { order_id: string }).order_id;
    expect(node.core.engine.getFills('trader').map((f) => f.count)).toEqual([150]);
    expect(node.core.engine.queuePosition(orderId)).toBe(0);
    expect(node.core.engine.getTrades({ ticker: 'P-1' }).map((t) => t.count)).toEqual([150, 100, 400]);
    const before = JSON.stringify(node.core.toSnapshot());
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    expect(again.recovered).toEqual({ records: 2, fromSnapshotSeq: null });
    expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
    // the snapshot worker's replica applies the prints too
    await again.snapshotNow();
    expect(again.snapshotMode).toBe('worker');
    await again.close();
    const third = await ExchangeNode.open({ dataDir: d, snapshots: 'inline' });
    expect(third.recovered).toEqual({ records: 0, fromSnapshotSeq: 2 });
    expect(JSON.stringify(third.core.toSnapshot())).toBe(before);
    expect(third.core.engine.getFills('trader').map((f) => f.count)).toEqual([150]);
    await third.close();
  });

  it('does not journal a rejection that changed nothing', async () => {
    const node = await ExchangeNode.open({ dataDir: dir() });
    const r = await node.submit({ type: 'cancelOrder', nowMs: node.now(), userId: 'nobody', orderId: 'nope' });
    expect(r.ok).toBe(false);
    expect(node.journalStats.appends).toBe(0);
    await node.close();
  });

  it('inline: defers a due snapshot while commands keep coming, then takes it once quiet', async () => {
    // "quiet" is 250 ms of the wall clock without a command: the clock stands still while the
    // commands come (a busy machine may take longer than that over one durable deposit), then
    // moves past the quiet moment; the node's re-checks (real timers) then take the snapshot
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const node = await ExchangeNode.open({ dataDir: dir(), snapshotEvery: 5, snapshots: 'inline' });
      for (let i = 0; i < 12; i++) await deposit(node, i);
      expect(node.journalStats.snapshotsWritten).toBe(0);
      vi.setSystemTime(Date.now() + 250);
      await waitFor(() => node.journalStats.snapshotsWritten > 0);
      expect(node.journalStats.snapshotsWritten).toBe(1);
      await node.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('inline: forces the snapshot under sustained load once twenty cadences have passed', async () => {
    const node = await ExchangeNode.open({ dataDir: dir(), snapshotEvery: 2, snapshots: 'inline' });
    for (let i = 0; i < 45; i++) await deposit(node, i);
    // forced, not deferred to a quiet moment: it is under way before the load stops
    expect(node.journalStats.snapshotsWritten >= 1 || node.snapshotInFlight).toBe(true);
    await waitFor(() => node.journalStats.snapshotsWritten >= 1);
    await node.close();
  });

  for (const mode of ['worker', 'inline'] as const) {
    it(`${mode}: an explicit snapshot joins a due one in flight (held before its rename) and follows it only with what came after: one snapshot per seq`, async () => {
      const d = dir();
      let gate: { promise: Promise<void>; resolve: () => void } | null = deferred();
      const renames: string[] = [];
      const node = await ExchangeNode.open({
        dataDir: d,
        snapshotEvery: 5,
        snapshots: mode,
        journalHooks: {
          beforeSnapshotRename: async (tempPath) => {
            renames.push(path.basename(tempPath, '.snap.tmp'));
            if (gate) await gate.promise;
          },
        },
      });
      const release = async (pending: Promise<void>[]) => {
        // every chance for an explicit snapshot to overtake (the worker writing the same temp file again)
        for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
        gate!.resolve();
        gate = null;
        await Promise.all(pending);
      };

      // the due snapshot of seq 5 (inline: once quiet) is held before its rename; two explicit callers join it
      for (let i = 0; i < 5; i++) await deposit(node, i);
      await waitFor(() => renames.length === 1);
      await release([node.snapshotNow(), node.snapshotNow()]);
      expect(renames).toEqual(['snapshot-00000000000000000005']);
      expect(node.journalStats.snapshotsWritten).toBe(1);
      await node.snapshotNow(); // nothing journaled since: not taken again
      expect(node.journalStats.snapshotsWritten).toBe(1);

      // the due snapshot of seq 10 is held; two more commands; the explicit snapshot follows it with seq 12
      gate = deferred();
      for (let i = 0; i < 5; i++) await deposit(node, i);
      await waitFor(() => renames.length === 2);
      for (let i = 0; i < 2; i++) await deposit(node, i);
      await release([node.snapshotNow()]);
      expect(renames).toEqual(['snapshot-00000000000000000005', 'snapshot-00000000000000000010', 'snapshot-00000000000000000012']);
      expect(node.journalStats.snapshotsWritten).toBe(3);

      const before = JSON.stringify(node.core.toSnapshot());
      await node.close();
      const again = await ExchangeNode.open({ dataDir: d, snapshots: 'inline' });
      expect(again.recovered).toEqual({ fromSnapshotSeq: 12, records: 0 });
      expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
      await again.close();
    });
  }

  it('worker: a due snapshot is taken while commands keep coming, by the worker, and a restart from it gives the same state', async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d, snapshotEvery: 5 });
    for (let i = 0; i < 40; i++) await deposit(node, i);
    // commands keep coming until the worker's snapshot lands, however long the thread takes on a
    // busy machine (it took over 10 s beside the stress load; the test's timeout is the limit)
    while (node.journalStats.snapshotsWritten === 0) await deposit(node, 0);
    expect(node.journalStats.snapshotsWritten).toBeGreaterThanOrEqual(1);
    expect(node.snapshotMode).toBe('worker');
    for (let i = 0; i < 7; i++) await deposit(node, i);
    await node.snapshotNow();
    const total = node.journalStats.appends;
    const before = JSON.stringify(node.core.toSnapshot());
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d, snapshots: 'inline' });
    expect(again.recovered.fromSnapshotSeq).toBe(total);
    expect(again.recovered.records).toBe(0);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
    await again.close();
  });

  it('worker: snapshots back to back (each prunes the segment the replica last read) keep following the journal', async () => {
    const d = dir();
    const node = await ExchangeNode.open({ dataDir: d, snapshotEvery: 1_000_000 });
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) await deposit(node, i);
      await node.snapshotNow(); // nothing appended meanwhile: the old segment is wholly covered and pruned
    }
    expect(node.snapshotMode).toBe('worker');
    expect(node.journalStats.snapshotsWritten).toBe(4);
    const before = JSON.stringify(node.core.toSnapshot());
    await node.close();
    const again = await ExchangeNode.open({ dataDir: d, snapshots: 'inline' });
    expect(again.recovered.fromSnapshotSeq).toBe(20);
    expect(JSON.stringify(again.core.toSnapshot())).toBe(before);
    await again.close();
  });
});
