// The books store on the `books` stream: deltas apply in seq order; a gap asks main (here the
// `ask` given) for the markets' full views, and the store then shows them with the deltas that
// waited. Main's side of the same path, over its real books: integration/book-deltas.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_OFFSCREEN_BOOKS, applyBookPushes, applyBooks, bookOf, booksStore, forgetBookSeqs } from './books';
import { applyPrivateUpdate } from './private';
import { useTools } from './tools';
import { useTrading } from './trading';
import type { BookPush } from '../../src-shared/ipc/book-stream';

beforeEach(() => {
  booksStore.setState({ byTicker: new Map(), version: 0, changed: null });
  useTrading.setState({ ticker: null, groups: { red: null, green: null, blue: null, yellow: null }, pins: {}, watchlist: [] });
  applyPrivateUpdate({ reset: true });
  useTools.setState({ alerts: null, local: null });
});

const levels = (t: string) => {
  const v = bookOf(t);
  return v && [v.yesBids, v.yesAsks];
};

describe('the books store on changed levels', () => {
  it('applies deltas, and on a missing seq asks for a snapshot and then equals main’s book', async () => {
    const asked: string[][] = [];
    // main's book at seq 3 (what it last pushed), which the page never saw whole
    const main: BookPush = { ticker: 'KXA', seq: 3, full: true, stale: false, yesBids: [4700, 100, 4500, 300], yesAsks: [5200, 50] };
    const ask = (tickers: string[]) => {
      asked.push(tickers);
      return Promise.resolve([main]);
    };
    await applyBookPushes([{ ticker: 'KXA', seq: 1, full: true, stale: false, yesBids: [4500, 300], yesAsks: [5000, 10] }], ask);
    await applyBookPushes([{ ticker: 'KXA', seq: 2, yesAsks: [5000, 0, 5200, 50] }], ask);
    expect(levels('KXA')).toEqual([[4500, 300], [5200, 50]]);
    expect(booksStore.getState().changed).toEqual(new Set(['KXA']));
    // seq 3 is lost; 4 arrives: a gap
    await applyBookPushes([{ ticker: 'KXA', seq: 4, yesBids: [4800, 5] }], ask);
    expect(asked).toEqual([['KXA']]);
    expect(levels('KXA')).toEqual([
      [4800, 5, 4700, 100, 4500, 300],
      [5200, 50],
    ]);
    expect(bookOf('KXA')?.version).toBe(4);
  });

  it('a full view in the stream replaces the book; after a reconnect a delta asks again', async () => {
    const asked: string[][] = [];
    const ask = (tickers: string[]) => {
      asked.push(tickers);
      return Promise.resolve([{ ticker: tickers[0]!, seq: 1, full: true as const, stale: true, yesBids: [], yesAsks: [] }]);
    };
    applyBooks([{ ticker: 'KXB', stale: false, yesBids: [100, 1], yesAsks: [], version: 7 }]);
    await applyBookPushes([{ ticker: 'KXB', seq: 8, yesBids: [200, 2] }], ask);
    expect(asked).toEqual([]);
    expect(levels('KXB')).toEqual([[200, 2, 100, 1], []]);
    forgetBookSeqs();
    await applyBookPushes([{ ticker: 'KXB', seq: 2, yesBids: [300, 3] }], ask);
    expect(asked).toEqual([['KXB']]);
    // the answer (seq 1) then the waiting delta (seq 2)
    expect(levels('KXB')).toEqual([[300, 3], []]);
    expect(bookOf('KXB')?.stale).toBe(true);
  });

  it('drops a payload the stream schema refuses, changing nothing', async () => {
    applyBooks([{ ticker: 'KXC', stale: false, yesBids: [100, 1], yesAsks: [], version: 1 }]);
    const before = booksStore.getState().version;
    await applyBookPushes([{ ticker: 'KXC', seq: 2, yesBids: [100] }], () => Promise.reject(new Error('not asked')));
    await applyBookPushes('nonsense', () => Promise.reject(new Error('not asked')));
    expect(booksStore.getState().version).toBe(before);
    expect(levels('KXC')).toEqual([[100, 1], []]);
  });

  it(`keeps at most ${MAX_OFFSCREEN_BOOKS} books of markets no panel uses (least recently updated go), and every book in use`, async () => {
    const asked: string[][] = [];
    const ask = (tickers: string[]) => {
      asked.push(tickers);
      return Promise.resolve([]);
    };
    // in use: the selected market, a pinned panel's, one with a resting order, one an armed alert watches
    useTrading.setState({ ticker: 'M-0', pins: { 'eventladders:M-1': 'M-1' } });
    applyPrivateUpdate({ orders: [{ order_id: 'o1', ticker: 'M-2', status: 'resting', side: 'yes', action: 'buy', yes_price_dollars: '0.4000', remaining_count_fp: '1.00', initial_count_fp: '1.00' }] });
    const condition = { kind: 'price' as const, ticker: 'M-5', source: 'last' as const, direction: 'above' as const, level: '0.60' };
    useTools.setState({ alerts: { alerts: [{ id: 'a1', condition, note: '', rearm: false, sound: false, state: 'armed', createdAt: 0, firedAt: null, fireCount: 0, summary: '' }], history: [] } });
    const n = MAX_OFFSCREEN_BOOKS + 40;
    const full = (i: number): BookPush => ({ ticker: `M-${i}`, seq: 1, full: true, stale: false, yesBids: [4000, 100], yesAsks: [6000, 100] });
    for (let i = 0; i < n; i++) {
      await applyBookPushes([full(i)], ask);
      // M-3 keeps trading, so it is never the least recently updated
      if (i > 3) await applyBookPushes([{ ticker: 'M-3', seq: i - 2, yesBids: [4100, i] }], ask);
    }
    const held = booksStore.getState().byTicker;
    expect(held.size).toBeLessThanOrEqual(MAX_OFFSCREEN_BOOKS + 4);
    for (const t of ['M-0', 'M-1', 'M-2', 'M-3', 'M-5', `M-${n - 1}`]) expect(held.has(t)).toBe(true);
    expect(held.has('M-4')).toBe(false);
    expect(asked).toEqual([]);
    // an evicted market that streams again asks main for its whole book first
    await applyBookPushes([{ ticker: 'M-4', seq: 2, yesBids: [4200, 1] }], ask);
    expect(asked).toEqual([['M-4']]);
  });
});
