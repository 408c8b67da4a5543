// The history archive's bookkeeping: what each snapshot appends, what pruning removes, and when
// a generation is rewritten. (The round trip over random command streams is in
// engine.property.test.ts.)
import { describe, expect, it } from 'vitest';
import { ArchivedHistory, HistoryArchiver, hydrateEngineSnapshot, type ArchiveRecord } from './archive';
import { Engine } from './engine';
import type { EngineSnapshot } from './snapshot';
import type { State } from './engine-state';

function market() {
  const e = new Engine({ idSeed: 7 });
  let t = 1_000_000;
  const at = () => (t += 1000);
  e.apply({ type: 'addMarket', nowMs: at(), ticker: 'M', eventTicker: 'E', seriesTicker: 'S' });
  e.apply({ type: 'openMarket', nowMs: at(), ticker: 'M' });
  for (const userId of ['sim', 'human']) e.apply({ type: 'deposit', nowMs: at(), userId, amountMicro: 100_000_000_000 });
  return { e, at };
}

const kinds = (records: string[]) => records.map((r) => Object.keys(JSON.parse(r) as object)[0]).join('');

function restore(live: string, history: ArchivedHistory): EngineSnapshot {
  return hydrateEngineSnapshot(JSON.parse(live) as EngineSnapshot, history);
}

describe('HistoryArchiver', () => {
  it('appends each finished order, fill and trade once, and a removal when pruned', () => {
    const { e, at } = market();
    const archiver = new HistoryArchiver();
    const history = new ArchivedHistory();
    const collect = () => {
      const out = e.collectArchive(archiver);
      for (const r of out.records) history.apply(JSON.parse(r) as ArchiveRecord);
      return out;
    };
    const bid = e.apply({ type: 'createOrder', nowMs: at(), userId: 'sim', ticker: 'M', side: 'bid', priceTicks: 4000, countCenti: 200 });
    expect(bid.ok).toBe(true);
    expect(collect().records).toEqual([]); // a resting order stays in the live snapshot
    e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'ask', priceTicks: 4000, countCenti: 100, timeInForce: 'immediate_or_cancel' });
    // the IOC is finished; its fill, the resting bid's fill and the trade are history now
    const second = collect();
    expect(kinds(second.records)).toBe('offt');
    expect((JSON.parse(second.liveJson) as EngineSnapshot).orders.map((o) => o.remaining_count)).toEqual([100]);
    expect(JSON.stringify(restore(second.liveJson, history))).toBe(JSON.stringify(e.toSnapshot()));
    expect(collect().records).toEqual([]);

    e.apply({ type: 'cancelAllOrders', nowMs: at(), userId: 'sim' });
    expect(kinds(collect().records)).toBe('o');
    at();
    e.apply({ type: 'pruneOrders', nowMs: at(), userIds: ['sim'], olderThanMs: at() });
    const pruned = collect();
    expect(kinds(pruned.records)).toBe('odfd'); // the sim's order and fill; the trade tape stays
    expect(history.orders.size).toBe(1);
    expect(JSON.stringify(restore(pruned.liveJson, history))).toBe(JSON.stringify(e.toSnapshot()));
  });

  it('after one walk of the history, looks only at orders made since and those resting; a deletion walks it all again', () => {
    const { e, at } = market();
    const archiver = new HistoryArchiver();
    const ioc = e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'bid', priceTicks: 100, countCenti: 100, timeInForce: 'immediate_or_cancel' });
    const resting = e.apply({ type: 'createOrder', nowMs: at(), userId: 'sim', ticker: 'M', side: 'bid', priceTicks: 4000, countCenti: 100 });
    if (!ioc.ok || !('order' in ioc) || !resting.ok || !('order' in resting)) throw new Error('setup failed');
    expect(kinds(e.collectArchive(archiver).records)).toBe('o');
    // An archived (finished) order is never looked at again: a change the engine never makes
    // shows that the next pass did not walk the history to find it ...
    // (a finished order is read from the index's columns as a copy: the change is put back as a whole)
    const st = (e as unknown as { st: State }).st;
    st.orders.set(ioc.order.order_id, { ...st.orders.get(ioc.order.order_id)!, fill_count: 99 });
    e.apply({ type: 'cancelOrder', nowMs: at(), userId: 'sim', orderId: resting.order.order_id });
    const next = e.collectArchive(archiver);
    expect(next.records.map((r) => (JSON.parse(r) as { o: { order_id: string } }).o.order_id)).toEqual([resting.order.order_id]);
    // ... while a deletion anywhere makes the next pass walk everything (and so it sees it)
    e.apply({ type: 'pruneOrders', nowMs: at(), userIds: ['sim'], olderThanMs: at() });
    expect(kinds(e.collectArchive(archiver).records)).toBe('ood'); // the changed order seen at last, the pruned one removed
  });

  it('the live part leaves out each account\'s order list; the restore rebuilds it, and an older live part that has it is read as it is', () => {
    const { e, at } = market();
    const archiver = new HistoryArchiver();
    const history = new ArchivedHistory();
    for (let i = 0; i < 5; i++) e.apply({ type: 'createOrder', nowMs: at(), userId: i % 2 ? 'sim' : 'human', ticker: 'M', side: 'bid', priceTicks: 100 + i, countCenti: 100, timeInForce: i < 3 ? 'immediate_or_cancel' : 'good_till_canceled' });
    const { records, liveJson } = e.collectArchive(archiver);
    for (const r of records) history.apply(JSON.parse(r) as ArchiveRecord);
    const live = JSON.parse(liveJson) as EngineSnapshot;
    expect(live.accounts.every((a) => !('orders' in a))).toBe(true);
    const full = e.toSnapshot();
    expect(full.accounts.map((a) => a.orders.length)).toEqual([2, 3]);
    expect(JSON.stringify(hydrateEngineSnapshot(live, history))).toBe(JSON.stringify(full));
    // an older snapshot's live part kept the lists: they are taken as written
    const older = { ...live, accounts: live.accounts.map((a) => ({ ...a, orders: ['kept-as-written'] })) };
    expect(hydrateEngineSnapshot(older, history).accounts.map((a) => a.orders)).toEqual([['kept-as-written'], ['kept-as-written']]);
  });

  it('asks for a new generation once most of what it wrote is superseded, and resumes from a read archive', () => {
    const { e, at } = market();
    const archiver = new HistoryArchiver();
    let cutoff = 0;
    for (let i = 0; i < 6_000; i++) {
      if (i === 2_000) cutoff = at();
      const r = e.apply({ type: 'createOrder', nowMs: at(), userId: 'sim', ticker: 'M', side: 'bid', priceTicks: 3000, countCenti: 100 });
      if (!r.ok) throw new Error(r.message);
      e.apply({ type: 'cancelOrder', nowMs: at(), userId: 'sim', orderId: r.order.order_id });
    }
    expect(e.collectArchive(archiver).records.length).toBe(6_000);
    expect(archiver.wantsCompaction()).toBe(false);
    e.apply({ type: 'pruneOrders', nowMs: at(), userIds: ['sim'], olderThanMs: cutoff });
    const removals = e.collectArchive(archiver).records;
    expect(removals.length).toBe(2_000);
    expect(archiver.records).toBe(8_000);
    expect(archiver.wantsCompaction()).toBe(false); // 8,000 written <= 2 x 4,000 current + 10,000
    e.apply({ type: 'pruneOrders', nowMs: at(), userIds: ['sim'], olderThanMs: at() });
    expect(e.collectArchive(archiver).records.length).toBe(4_000);
    expect(archiver.wantsCompaction()).toBe(true); // 12,000 written, nothing current
    archiver.restart();
    expect(archiver.records).toBe(0);
    const fresh = e.collectArchive(archiver);
    expect(fresh.records).toEqual([]);

    // resume: an archiver started from what a file holds appends only what is new
    const history = new ArchivedHistory();
    const first = new HistoryArchiver();
    e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'bid', priceTicks: 3000, countCenti: 100, timeInForce: 'immediate_or_cancel' });
    for (const r of e.collectArchive(first).records) history.apply(JSON.parse(r) as ArchiveRecord);
    const resumed = HistoryArchiver.resume(history, 1);
    expect(resumed.records).toBe(1);
    expect(e.collectArchive(resumed).records).toEqual([]);
    e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'bid', priceTicks: 3000, countCenti: 100, timeInForce: 'immediate_or_cancel' });
    expect(kinds(e.collectArchive(resumed).records)).toBe('o');
  });

  it('resumes a trade tape where the archive ends and appends only the trades after it', () => {
    const { e, at } = market();
    const cross = () => {
      e.apply({ type: 'createOrder', nowMs: at(), userId: 'sim', ticker: 'M', side: 'bid', priceTicks: 5000, countCenti: 100 });
      e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'ask', priceTicks: 5000, countCenti: 100 });
    };
    cross();
    cross();
    const history = new ArchivedHistory();
    const first = e.collectArchive(new HistoryArchiver()).records;
    for (const r of first) history.apply(JSON.parse(r) as ArchiveRecord);
    expect(history.trades.size).toBe(2);
    const resumed = HistoryArchiver.resume(history, first.length);
    expect(e.collectArchive(resumed).records).toEqual([]);
    cross();
    const next = e.collectArchive(resumed).records;
    expect(kinds(next)).toBe('oofft'); // both orders executed, two fills, one trade
    for (const r of next) history.apply(JSON.parse(r) as ArchiveRecord);
    expect(JSON.stringify(restore(e.collectArchive(resumed).liveJson, history))).toBe(JSON.stringify(e.toSnapshot()));
    // an archive that claims more of a tape than the engine has is refused, not papered over
    const wrong = new ArchivedHistory();
    for (const r of next) wrong.apply(JSON.parse(r) as ArchiveRecord);
    for (const r of first) wrong.apply(JSON.parse(r) as ArchiveRecord);
    expect(() => e.collectArchive(HistoryArchiver.resume(wrong, 10))).toThrow(/trade tape changed other than by growing/);
  });

  it('refuses a record it does not know and history of a market or account the snapshot lacks', () => {
    const h = new ArchivedHistory();
    expect(() => h.apply({ x: 1 } as unknown as ArchiveRecord)).toThrow(/unknown archive record/);
    const { e } = market();
    const live = JSON.parse(e.collectArchive(new HistoryArchiver()).liveJson) as EngineSnapshot;
    h.apply({ t: { trade_id: 'T', ticker: 'OTHER', taker_side: 'yes', taker_book_side: 'bid', yes_price: 1, no_price: 9_999, count: 1, created_time: 1, is_block_trade: false } });
    expect(() => hydrateEngineSnapshot(live, h)).toThrow(/archived trades of OTHER/);
  });
});
