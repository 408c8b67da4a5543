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

  it('a snapshot that leaves out a side reads it as an empty side: the book is fresh and no resync is asked for', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], [['0.4', '2']]));
    const r = ing.ingest(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 2, msg: { market_ticker: 'A', yes_dollars_fp: [['0.5', '1']] } }));
    expect(r.actions).toEqual([]);
    expect(r.novelties.map((n) => n.key)).toEqual(['orderbook_snapshot: no no_dollars_fp']);
    const book = ing.machine.book('A')!;
    expect(book.stale).toBe(false);
    expect(diffAgainstRest(book, { yes_dollars: [['0.5', '1']], no_dollars: [] })).toEqual([]);
    expect(ing.ingest(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 3, msg: { market_ticker: 'A' } })).actions).toEqual([]);
    expect(diffAgainstRest(book, { yes_dollars: [], no_dollars: [] })).toEqual([]);
    expect(ing.ingest(deltaText(1, 4, 'A', '0.3', '1', 'no')).touched).toBe('A');
  });

  it('a frame of an unknown type is passed on, not malformed: no book anywhere resyncs', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    ing.ingest(snapshotText(4, 1, 'B', [['0.5', '1']], []));
    for (const frame of [
      // (the pyth_value kinds stood here until the terminal learned them; kinds still to come stand in)
      { type: 'chainlink_value', sid: 7, seq: 42, msg: { underlying_ticker: 'Metal.XAU/USD', value_usd: '2365.12345000' } },
      { type: 'chainlink_value_underlying_list', id: 2, msg: { underlying_tickers: ['Metal.XAU/USD'] } },
      { type: 'totally_new' },
    ]) {
      const r = ing.ingest(JSON.stringify(frame));
      expect(r.actions).toEqual([]);
      expect(r.message).toMatchObject({ type: 'unknown', unknownType: frame.type });
      expect(r.novelties.map((n) => n.kind)).toEqual(['type']);
    }
    expect(ing.machine.book('A')!.stale).toBe(false);
    expect(ing.machine.book('B')!.stale).toBe(false);
    expect(ing.machine.stats.malformed).toBe(0);
    expect(ing.ingest(deltaText(1, 2, 'A', '0.6', '1', 'yes')).touched).toBe('A');
  });

  it('pyth_value frames (AsyncAPI 2.0.0) are read as themselves, not as unknown, and touch no book', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const r = ing.ingest(
      JSON.stringify({ type: 'pyth_value', sid: 7, seq: 42, msg: { underlying_ticker: 'Metal.XAU/USD', value_usd: '2365.12345000', source_ts_ms: 1_710_000_000_100, received_at: 1_710_000_000_123 } }),
    );
    expect(r.actions).toEqual([]);
    expect(r.message).toMatchObject({ type: 'pyth_value', msg: { value_usd: '2365.12345000' } });
    expect(ing.machine.book('A')!.stale).toBe(false);
    expect(ing.machine.stats.malformed).toBe(0);
  });

  it('a frame of an unknown type on an orderbook sid may have carried book data: that sid resyncs, its seq stays in line', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    ing.ingest(snapshotText(2, 1, 'B', [['0.5', '1']], []));
    const r = ing.ingest(JSON.stringify({ type: 'orderbook_level_reset', sid: 1, seq: 2, msg: { market_ticker: 'A' } }));
    expect(r.actions).toMatchObject([{ kind: 'resync', sid: 1, marketTickers: ['A'] }]);
    expect(ing.machine.book('A')!.stale).toBe(true);
    expect(ing.machine.book('B')!.stale).toBe(false);
    // seq 2 was taken by the unknown frame: the snapshot at 3 is in line and freshens the book.
    expect(ing.ingest(snapshotText(1, 3, 'A', [['0.5', '1']], [])).actions).toEqual([]);
    expect(ing.machine.book('A')!.stale).toBe(false);
  });

  it('unknown lifecycle event types, unknown enum values, extra and missing fields pass through with no actions', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const frames = [
      { type: 'market_lifecycle_v2', sid: 3, msg: { event_type: 'metadata_updated', market_ticker: 'A', yes_sub_title: 'above $95,000' } },
      { type: 'market_lifecycle_v2', sid: 3, msg: { event_type: 'something_new', market_ticker: 'A' } },
      {
        type: 'fill',
        sid: 5,
        msg: { trade_id: 't', order_id: 'o', market_ticker: 'A', is_taker: false, side: 'no', action: 'sell_to_close', yes_price_dollars: '0.5', count_fp: '1.00', post_position_fp: '0.00', ts: 1, book_side: 'ask' },
      },
    ];
    for (const f of frames) {
      const r = ing.ingest(JSON.stringify(f));
      expect(r.actions, f.type).toEqual([]);
      expect(r.message?.type).toBe(f.type);
    }
    expect(ing.machine.stats.malformed).toBe(0);
    expect(ing.machine.book('A')!.stale).toBe(false);
  });

  it('the strict parts stay strict: a bad price, a bad size or a seq hole still stales the book and asks for a resync', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const badPrice = ing.ingest(JSON.stringify({ type: 'orderbook_delta', sid: 1, seq: 2, msg: { market_ticker: 'A', price_dollars: '0.50001', delta_fp: '1', side: 'yes' } }));
    expect(badPrice.actions.map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(ing.machine.book('A')!.stale).toBe(true);

    ing.ingest(snapshotText(1, 3, 'A', [['0.5', '1']], []));
    const badLevel = ing.ingest(snapshotText(1, 4, 'A', [['0.5', '1.005']], []));
    expect(badLevel.actions.map((a) => a.kind)).toEqual(['malformed', 'resync']);
    expect(ing.machine.book('A')!.stale).toBe(true);

    ing.ingest(snapshotText(1, 5, 'A', [['0.5', '1']], []));
    expect(ing.ingest(deltaText(1, 7, 'A', '0.6', '1', 'yes')).actions).toMatchObject([{ kind: 'resync', sid: 1 }]);
    expect(ing.machine.book('A')!.stale).toBe(true);
  });

  it('applies a delta that leaves out ts', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(snapshotText(1, 1, 'A', [['0.5', '1']], []));
    const r = ing.ingest(JSON.stringify({ type: 'orderbook_delta', sid: 1, seq: 2, msg: { market_ticker: 'A', price_dollars: '0.6', delta_fp: '2', side: 'yes' } }));
    expect(r).toMatchObject({ touched: 'A', actions: [] });
    expect(ing.machine.book('A')!.bestYesBid).toBe(6000);
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
