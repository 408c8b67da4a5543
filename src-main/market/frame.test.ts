import { describe, expect, it } from 'vitest';
import { BookMachine } from './books';
import { FrameIngest } from './frame';
import { diffAgainstRest } from './book';

const snapshotText = (sid: number, seq: number, ticker: string, yes: [string, string][], no: [string, string][]) =>
  JSON.stringify({ type: 'orderbook_snapshot', sid, seq, msg: { market_ticker: ticker, yes_dollars_fp: yes, no_dollars_fp: no } });
const deltaText = (sid: number, seq: number, ticker: string, price: string, d: string, side: 'yes' | 'no') =>
  JSON.stringify({ type: 'orderbook_delta', sid, seq, msg: { market_ticker: ticker, price_dollars: price, delta_fp: d, side, ts: '2025-01-01T00:00:00.5Z' } });

describe('FrameIngest', () => {
  it('turns text frames into a book that matches the REST read', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(JSON.stringify({ id: 1, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 1 } }));
    // The real exchange lists levels ascending; the spec best first. Both read the same.
    expect(ing.ingest(snapshotText(1, 1, 'T1', [['0.4800', '5.00'], ['0.5000', '10.00']], [['0.4000', '3.00']]))).toMatchObject({ touched: 'T1', actions: [] });
    const r = ing.ingest(deltaText(1, 2, 'T1', '0.5100', '2.50', 'yes'));
    expect(r.touched).toBe('T1');
    expect(r.actions).toEqual([]);
    expect(r.message?.type).toBe('orderbook_delta');
    ing.ingest(deltaText(1, 3, 'T1', '0.4800', '-5.00', 'yes'));
    ing.ingest(deltaText(1, 4, 'T1', '0.4000', '-1', 'no'));
    const book = ing.machine.book('T1')!;
    expect(diffAgainstRest(book, { yes_dollars: [['0.5000', '10.00'], ['0.5100', '2.50']], no_dollars: [['0.4000', '2.00']] })).toEqual([]);
    expect(ing.machine.takeDirty()).toEqual(['T1']);
  });

  it('passes frames of other channels through with no actions', () => {
    const ing = new FrameIngest(new BookMachine());
    const text = JSON.stringify({
      type: 'ticker',
      sid: 2,
      msg: { market_ticker: 'T1', price_dollars: '0.5', yes_bid_dollars: '0.49', yes_ask_dollars: '0.51', volume_fp: '1.00', open_interest_fp: '1.00', ts: 1 },
    });
    const r = ing.ingest(text);
    expect(r).toMatchObject({ touched: undefined, actions: [] });
    expect(r.message?.type).toBe('ticker');
  });

  it('survives garbage and asks every orderbook sid to resync', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    ing.ingest(snapshotText(4, 1, 'B', [['0.5', '1']], []));
    for (const text of ['{"type":"orderbook_delta","sid":', '', '[1,2]', 'null', '{"no":"type"}']) {
      const r = ing.ingest(text);
      expect(r.message).toBeUndefined();
      expect(r.actions[0]?.kind).toBe('malformed');
      expect(r.actions.filter((a) => a.kind === 'resync').map((a) => (a.kind === 'resync' ? a.sid : 0))).toEqual([1, 4]);
    }
    expect(ing.machine.book('A')!.stale).toBe(true);
  });

  it('a malformed delta with a readable sid resyncs only that sid and keeps the count going', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    ing.ingest(snapshotText(2, 1, 'B', [['0.5', '1']], []));
    const bad = ing.ingest(JSON.stringify({ type: 'orderbook_delta', sid: 1, seq: 2, msg: { market_ticker: 'A', price_dollars: '0.5', delta_fp: '1.001', side: 'yes', ts: '2025-01-01T00:00:00Z' } }));
    expect(bad.actions.map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(bad.actions[0]!.kind === 'malformed' && bad.actions[0]!.reason).toContain('delta_fp');
    expect(ing.machine.book('A')!.stale).toBe(true);
    expect(ing.machine.book('B')!.stale).toBe(false);
    expect(ing.ingest(snapshotText(1, 3, 'A', [['0.5', '1']], [])).actions).toEqual([]);
    expect(ing.machine.book('A')!.stale).toBe(false);
  });

  it('a snapshot missing a side is malformed: the book stays stale and a resync is asked for', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const r = ing.ingest(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 2, msg: { market_ticker: 'A', yes_dollars_fp: [['0.5', '1']] } }));
    expect(r.actions.map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(ing.machine.book('A')!.stale).toBe(true);
  });

  it('a malformed frame of another channel is only reported', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const r = ing.ingest(JSON.stringify({ type: 'fill', sid: 9, msg: { trade_id: 'x' } }));
    expect(r.actions.map((a) => a.kind)).toEqual(['malformed']);
    expect(ing.machine.book('A')!.stale).toBe(false);
  });

  it('a seq hole in text frames drops deltas until the snapshot', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    expect(ing.ingest(deltaText(1, 3, 'A', '0.6', '1', 'yes')).actions).toMatchObject([{ kind: 'resync', sid: 1, marketTickers: ['A'] }]);
    const dropped = ing.ingest(deltaText(1, 4, 'A', '0.6', '1', 'yes'));
    expect(dropped).toMatchObject({ touched: undefined, actions: [] });
    expect(ing.machine.book('A')!.bestYesBid).toBe(5000);
    ing.ingest(snapshotText(1, 5, 'A', [['0.7', '1']], []));
    expect(ing.ingest(deltaText(1, 6, 'A', '0.7', '1', 'yes')).touched).toBe('A');
    expect(ing.machine.book('A')!.bidSize(0, 7000)).toBe(200);
  });
});
