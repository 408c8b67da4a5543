import { describe, expect, it } from 'vitest';
import { BookMachine } from './books';
import { NO, YES } from './book';
import type { StreamMessage } from '../../src-shared/wire/stream';

const snap = (sid: number, seq: number, ticker: string, yes: [string, string][] = [['0.5000', '10.00']], no: [string, string][] = [['0.4000', '5.00']]): StreamMessage => ({
  type: 'orderbook_snapshot',
  sid,
  seq,
  msg: { market_ticker: ticker, yes_dollars_fp: yes, no_dollars_fp: no },
});
const delta = (sid: number, seq: number, ticker: string, price: string, d: string, side: 'yes' | 'no' = 'yes'): StreamMessage => ({
  type: 'orderbook_delta',
  sid,
  seq,
  msg: { market_ticker: ticker, price_dollars: price, delta_fp: d, side, ts: '2025-01-01T00:00:00Z' },
});

describe('BookMachine', () => {
  it('builds a book from a snapshot and applies in-sequence deltas', () => {
    const m = new BookMachine();
    expect(m.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } })).toEqual([]);
    expect(m.handle(snap(1, 1, 'T1'))).toEqual([]);
    expect(m.handle(delta(1, 2, 'T1', '0.5100', '3.00'))).toEqual([]);
    expect(m.handle(delta(1, 3, 'T1', '0.6000', '1.00', 'no'))).toEqual([]);
    const b = m.book('T1')!;
    expect(b.stale).toBe(false);
    expect(b.bestYesBid).toBe(5100);
    expect(b.bidSize(YES, 5100)).toBe(300);
    expect(b.bestYesAsk).toBe(4000);
    expect(m.takeDirty()).toEqual(['T1']);
    expect(m.takeDirty()).toEqual([]);
    expect(m.stats.deltasApplied).toBe(2);
  });

  it('on a seq hole marks the book stale and asks for a resync, drops deltas until the next snapshot, then is fresh', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'T1'));
    m.handle(delta(1, 2, 'T1', '0.5000', '1.00'));
    const gap = m.handle(delta(1, 4, 'T1', '0.5000', '1.00'));
    expect(gap).toEqual([{ kind: 'resync', sid: 1, marketTickers: ['T1'], reason: 'seq gap on sid 1: expected 3, got 4' }]);
    const b = m.book('T1')!;
    expect(b.stale).toBe(true);
    const sizeWhenStale = b.bidSize(YES, 5000);
    // Deltas while stale: dropped, and no second resync request.
    expect(m.handle(delta(1, 5, 'T1', '0.5000', '7.00'))).toEqual([]);
    expect(m.handle(delta(1, 6, 'T1', '0.4500', '7.00'))).toEqual([]);
    expect(b.bidSize(YES, 5000)).toBe(sizeWhenStale);
    expect(b.bidSize(YES, 4500)).toBe(0);
    expect(m.stats.deltasDropped).toBe(3);
    // The snapshot answering the resync continues the sid's sequence.
    expect(m.handle(snap(1, 7, 'T1', [['0.5200', '1.00']], []))).toEqual([]);
    expect(b.stale).toBe(false);
    expect(b.bestYesBid).toBe(5200);
    expect(m.handle(delta(1, 8, 'T1', '0.5200', '1.00'))).toEqual([]);
    expect(b.bidSize(YES, 5200)).toBe(200);
  });

  it('treats a repeated or late seq as lost data too', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'T1'));
    m.handle(delta(1, 2, 'T1', '0.5000', '1.00'));
    const late = m.handle(delta(1, 2, 'T1', '0.5000', '1.00'));
    expect(late).toMatchObject([{ kind: 'resync', sid: 1, marketTickers: ['T1'] }]);
    expect(late[0]!.kind === 'resync' && late[0]!.reason).toContain('out of order');
    expect(m.book('T1')!.stale).toBe(true);
    // Counting resumes from the highest seq seen: 3 is in order again (but dropped: stale).
    expect(m.handle(delta(1, 3, 'T1', '0.5000', '1.00'))).toEqual([]);
  });

  it('a first frame on a sid must be seq 1', () => {
    const m = new BookMachine();
    const r = m.handle(snap(3, 5, 'T1'));
    expect(r).toMatchObject([{ kind: 'resync', sid: 3 }]);
    // The snapshot itself is a whole book, so that book is fresh.
    expect(m.book('T1')!.stale).toBe(false);
  });

  it('a hole on a sid with several markets stales them all; each snapshot freshens its own', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    m.handle(snap(1, 2, 'B'));
    const r = m.handle(delta(1, 9, 'A', '0.5000', '1.00'));
    expect(r).toHaveLength(1);
    expect(r[0]!.kind === 'resync' && [...r[0]!.marketTickers].sort()).toEqual(['A', 'B']);
    expect(m.book('A')!.stale && m.book('B')!.stale).toBe(true);
    m.handle(snap(1, 10, 'A'));
    expect(m.book('A')!.stale).toBe(false);
    expect(m.book('B')!.stale).toBe(true);
    expect(m.handle(delta(1, 11, 'B', '0.5000', '1.00'))).toEqual([]);
    m.handle(snap(1, 12, 'B'));
    expect(m.book('B')!.stale).toBe(false);
    expect(new Set(m.takeDirty())).toEqual(new Set(['A', 'B']));
  });

  it('a delta for a market with no snapshot yet asks once for that market', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    expect(m.handle(delta(1, 2, 'Z', '0.5000', '1.00'))).toMatchObject([{ kind: 'resync', sid: 1, marketTickers: ['Z'], reason: 'delta before any snapshot' }]);
    expect(m.handle(delta(1, 3, 'Z', '0.5000', '1.00'))).toEqual([]);
    expect(m.book('Z')).toBeUndefined();
    expect(m.book('A')!.stale).toBe(false);
  });

  it('a delta taking a level below zero stales the book and asks for a resync', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'T1'));
    const r = m.handle(delta(1, 2, 'T1', '0.4000', '-6.00', 'no'));
    expect(r).toMatchObject([{ kind: 'resync', sid: 1, marketTickers: ['T1'] }]);
    expect(m.book('T1')!.stale).toBe(true);
    expect(m.book('T1')!.bidSize(NO, 4000)).toBe(500);
    expect(m.stats.corrupt).toBe(1);
  });

  it('a snapshot with a bad level is reported and resynced', () => {
    const m = new BookMachine();
    const r = m.onSnapshot(1, 1, 'T1', [[20000, 1]], []);
    expect(r.map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(m.book('T1')!.stale).toBe(true);
  });

  it('counts the seq of ok and unsubscribed replies on an orderbook sid', () => {
    const m = new BookMachine();
    m.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
    m.handle(snap(1, 1, 'T1'));
    expect(m.handle({ type: 'ok', id: 4, sid: 1, seq: 2, msg: { market_tickers: ['T1', 'T2'] } })).toEqual([]);
    expect(m.handle(delta(1, 3, 'T1', '0.5000', '1.00'))).toEqual([]);
    expect(m.handle({ type: 'ok', id: 5, sid: 1, seq: 5 })).toMatchObject([{ kind: 'resync', sid: 1 }]);
    m.handle(snap(1, 6, 'T1'));
    expect(m.handle({ type: 'unsubscribed', id: 6, sid: 1, seq: 7 })).toEqual([]);
    expect(m.book('T1')!.stale).toBe(true);
    expect(m.book('T1')!.staleReason).toBe('unsubscribed');
    expect(m.trackedSids()).toEqual([]);
  });

  it('ignores replies and messages of other channels', () => {
    const m = new BookMachine();
    m.handle({ type: 'subscribed', id: 1, msg: { channel: 'ticker', sid: 2 } });
    expect(m.handle({ type: 'ok', id: 2, sid: 2, seq: 9 })).toEqual([]);
    expect(
      m.handle({
        type: 'trade',
        sid: 2,
        msg: { trade_id: 't', market_ticker: 'T1', yes_price_dollars: '0.5', no_price_dollars: '0.5', count_fp: '1', taker_side: 'yes', ts: 1 },
      }),
    ).toEqual([]);
    expect(m.trackedSids()).toEqual([]);
  });

  it('error 25 (buffer overflow) resyncs the sid it names, or every orderbook sid', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    m.handle(snap(2, 1, 'B'));
    expect(m.handle({ type: 'error', sid: 2, msg: { code: 25, msg: 'Subscription buffer overflow' } })).toMatchObject([{ kind: 'resync', sid: 2, marketTickers: ['B'] }]);
    expect(m.book('A')!.stale).toBe(false);
    const all = m.handle({ type: 'error', msg: { code: 25, msg: 'Subscription buffer overflow' } });
    expect(all.map((a) => (a.kind === 'resync' ? a.sid : 0)).sort()).toEqual([1, 2]);
    expect(m.handle({ type: 'error', id: 3, msg: { code: 8, msg: 'Unknown channel name' } })).toEqual([]);
  });

  it('malformed frames: a known sid resyncs that sid; no sid resyncs every orderbook sid unless it was another channel', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    m.handle(snap(2, 1, 'B'));
    expect(m.onMalformed('bad', 1, 2, 'orderbook_delta').map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(m.book('A')!.stale).toBe(true);
    expect(m.book('B')!.stale).toBe(false);
    // seq 2 was consumed by the malformed frame: 3 is in order.
    m.handle(snap(1, 3, 'A'));
    expect(m.book('A')!.stale).toBe(false);
    expect(m.onMalformed('not JSON').map((a) => a.kind)).toEqual(['malformed', 'resync', 'resync']);
    m.handle(snap(1, 4, 'A'));
    m.handle(snap(2, 2, 'B'));
    expect(m.onMalformed('ticker: bad', 7, undefined, 'ticker')).toEqual([{ kind: 'malformed', reason: 'ticker: bad' }]);
    expect(m.onMalformed('fill: bad', undefined, undefined, 'fill')).toEqual([{ kind: 'malformed', reason: 'fill: bad' }]);
    expect(m.book('A')!.stale || m.book('B')!.stale).toBe(false);
  });

  it('a disconnect stales every book and forgets every sid; the new connection starts at seq 1', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    m.handle(delta(1, 2, 'A', '0.5000', '1.00'));
    m.onDisconnect();
    expect(m.book('A')!.stale).toBe(true);
    expect(m.trackedSids()).toEqual([]);
    m.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
    expect(m.handle(snap(1, 1, 'A'))).toEqual([]);
    expect(m.book('A')!.stale).toBe(false);
  });

  it('a malformed frame carrying a garbage seq far ahead does not poison the sequence', () => {
    const m = new BookMachine();
    m.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
    m.handle(snap(1, 1, 'T1'));
    const actions = m.onMalformed('snapshot missing a side', 1, 999, 'orderbook_snapshot');
    expect(actions.some((a) => a.kind === 'resync')).toBe(true);
    expect(m.book('T1')!.stale).toBe(true);
    // the server's real next frames are seq 2 (the resync reply's slot) and 3 (the snapshot)
    expect(m.handle({ type: 'ok', id: 2, sid: 1, seq: 2, msg: { market_tickers: ['T1'] } })).toEqual([]);
    expect(m.handle(snap(1, 3, 'T1'))).toEqual([]);
    expect(m.book('T1')!.stale).toBe(false);
    expect(m.handle(delta(1, 4, 'T1', '0.5100', '1.00'))).toEqual([]);
  });

  it('drop forgets a market', () => {
    const m = new BookMachine();
    m.handle(snap(1, 1, 'A'));
    m.drop('A');
    expect(m.book('A')).toBeUndefined();
    expect([...m.books()]).toEqual([]);
  });
});
