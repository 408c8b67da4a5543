// The tolerant reader (`readStreamValue`) against the exact check (`parseStreamValue`): what the
// real service sends that the spec does not list is read and noted, never malformed; what the
// books depend on stays strict in both.
import { describe, expect, it } from 'vitest';
import { parseStreamValue, readStreamValue, type FrameRead } from './stream';
import { NoveltyLog, type Novelty } from './novelty';

const fill = {
  trade_id: 'tr1',
  order_id: 'o1',
  market_ticker: 'T1',
  is_taker: true,
  side: 'yes',
  action: 'buy',
  yes_price_dollars: '0.5300',
  count_fp: '2.00',
  post_position_fp: '2.00',
  fee_cost: '0.020000',
  ts: 1_700_000_000,
};
const userOrder = {
  order_id: 'o1',
  ticker: 'T1',
  status: 'resting',
  side: 'bid',
  yes_price_dollars: '0.5300',
  initial_count_fp: '10.00',
  fill_count_fp: '0.00',
  remaining_count_fp: '10.00',
  taker_fill_cost_dollars: '0.000000',
  maker_fill_cost_dollars: '0.000000',
  taker_fees_dollars: '0.000000',
  maker_fees_dollars: '0.000000',
};
const delta = { market_ticker: 'T1', price_dollars: '0.5300', delta_fp: '-2.00', side: 'yes', ts: '2025-01-01T00:00:00Z' };

function ok(r: FrameRead) {
  if (!r.ok) throw new Error(`expected a read, got: ${r.reason}`);
  return r;
}
const keys = (ns: readonly Novelty[]) => ns.map((n) => `${n.kind} ${n.key}`);

describe('the tolerant stream reader', () => {
  it('reads a frame of an unknown type as an unknown message with its sid and seq, and the exact check refuses it', () => {
    // (`pyth_value` was this example until the terminal learned it; a kind still to come stands in.)
    const frame = { type: 'chainlink_value', sid: 3, seq: 42, msg: { underlying_ticker: 'Metal.XAU/USD', value_usd: '2365.12345000' } };
    const r = ok(readStreamValue(frame));
    expect(r.msg).toEqual({ type: 'unknown', unknownType: 'chainlink_value', sid: 3, seq: 42, frame });
    expect(keys(r.novelties)).toEqual(['type "chainlink_value"']);
    expect(parseStreamValue(frame)).toEqual({ ok: false, reason: 'unknown message type "chainlink_value"' });
    // A garbage sid or seq is not lifted out (the frame is passed on whole all the same).
    const odd = ok(readStreamValue({ type: 'brand_new', sid: 'x', seq: -1 }));
    expect(odd.msg).toMatchObject({ type: 'unknown', unknownType: 'brand_new' });
    expect('sid' in odd.msg || 'seq' in odd.msg).toBe(false);
  });

  it('keeps an unknown lifecycle event type and its fields, and reads the two the AsyncAPI document added', () => {
    const unknown = ok(readStreamValue({ type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'paused_for_review', market_ticker: 'T1', reason: 'x' } }));
    expect(unknown.msg).toMatchObject({ type: 'market_lifecycle_v2', msg: { event_type: 'paused_for_review', market_ticker: 'T1', reason: 'x' } });
    expect(keys(unknown.novelties)).toEqual(['event_type lifecycle.event_type="paused_for_review"', 'extra market_lifecycle_v2.reason']);
    expect(parseStreamValue({ type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'paused_for_review', market_ticker: 'T1' } }).ok).toBe(false);

    const metadata = ok(readStreamValue({ type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'metadata_updated', market_ticker: 'T1', strike_type: 'between', floor_strike: 95000, cap_strike: 95250 } }));
    expect(metadata.novelties).toEqual([]);
    const levels = { event_type: 'price_level_structure_updated', market_ticker: 'T1', price_level_structure: 'deci_cent', price_ranges: [{ start: '0.0000', end: '1.0000', step: '0.0010' }] };
    expect(ok(readStreamValue({ type: 'market_lifecycle_v2', sid: 4, msg: levels })).novelties).toEqual([]);
  });

  it('keeps an unknown enum value as sent (fill action sell_partial, sell_to_close) and notes it; the exact check refuses it', () => {
    for (const action of ['sell_partial', 'sell_to_close']) {
      const r = ok(readStreamValue({ type: 'fill', sid: 6, msg: { ...fill, action } }));
      expect(r.msg.type === 'fill' && r.msg.msg.action).toBe(action);
      expect(keys(r.novelties)).toEqual([`enum fill.action="${action}"`]);
      expect(parseStreamValue({ type: 'fill', sid: 6, msg: { ...fill, action } }).ok).toBe(false);
    }
    const order = ok(readStreamValue({ type: 'user_order', sid: 7, msg: { ...userOrder, status: 'pending', side: 'sell' } }));
    expect(order.msg.type === 'user_order' && [order.msg.msg.status, order.msg.msg.side]).toEqual(['pending', 'sell']);
    expect(keys(order.novelties)).toEqual(['enum user_order.status="pending"', 'enum user_order.side="sell"']);
  });

  it('keeps extra fields and passes them on; they are noted, and the exact check lets them through', () => {
    const frame = { type: 'fill', sid: 6, msg: { ...fill, outcome_side: 'yes', book_side: 'bid', brand_new_field: { nested: 1 } } };
    const r = ok(readStreamValue(frame));
    expect(r.msg.type === 'fill' && r.msg.msg.brand_new_field).toEqual({ nested: 1 });
    expect(keys(r.novelties)).toEqual(['extra fill.brand_new_field']);
    expect(parseStreamValue(frame).ok).toBe(true);
  });

  it('reads a fill without fee_cost, a user_order without fee fields and a delta without ts; the exact check still wants them', () => {
    const { fee_cost: _fee, ...noFee } = fill;
    const f = ok(readStreamValue({ type: 'fill', sid: 6, msg: noFee }));
    expect(f.msg.type === 'fill' && f.msg.msg.fee_cost).toBeUndefined();
    expect(keys(f.novelties)).toEqual(['missing fill: no fee_cost']);
    expect(parseStreamValue({ type: 'fill', sid: 6, msg: noFee })).toEqual({ ok: false, reason: 'fill: missing fill: no fee_cost' });

    const { taker_fees_dollars: _t, maker_fees_dollars: _m, ...noFees } = userOrder;
    expect(keys(ok(readStreamValue({ type: 'user_order', sid: 7, msg: noFees })).novelties)).toEqual([
      'missing user_order: no taker_fees_dollars',
      'missing user_order: no maker_fees_dollars',
    ]);

    const { ts: _ts, ...noTs } = delta;
    expect(keys(ok(readStreamValue({ type: 'orderbook_delta', sid: 1, seq: 2, msg: noTs })).novelties)).toEqual(['missing orderbook_delta: no ts']);
    expect(parseStreamValue({ type: 'orderbook_delta', sid: 1, seq: 2, msg: noTs }).ok).toBe(false);
  });

  it('reads a snapshot that leaves out a side (or sends null) as an empty side', () => {
    for (const msg of [{ market_ticker: 'T1', yes_dollars_fp: [['0.5000', '10.00']] }, { market_ticker: 'T1', yes_dollars_fp: [['0.5000', '10.00']], no_dollars_fp: null }]) {
      const r = ok(readStreamValue({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg }));
      expect(r.msg.type === 'orderbook_snapshot' && [r.msg.msg.yes_dollars_fp, r.msg.msg.no_dollars_fp]).toEqual([[['0.5000', '10.00']], []]);
      expect(keys(r.novelties)).toEqual(['missing orderbook_snapshot: no no_dollars_fp']);
    }
    const empty = ok(readStreamValue({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1' } }));
    expect(empty.msg.type === 'orderbook_snapshot' && [empty.msg.msg.yes_dollars_fp, empty.msg.msg.no_dollars_fp]).toEqual([[], []]);
    // The spec requires both sides, so the embedded exchange must keep sending them.
    expect(parseStreamValue({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1', yes_dollars_fp: [] } }).ok).toBe(false);
  });

  it('stays strict on what the books need: prices, sizes, sides and seq of orderbook frames', () => {
    const bad: [string, object][] = [
      ['price off the tick', { type: 'orderbook_delta', sid: 1, seq: 2, msg: { ...delta, price_dollars: '0.53001' } }],
      ['price above 1', { type: 'orderbook_delta', sid: 1, seq: 2, msg: { ...delta, price_dollars: '1.01' } }],
      ['size finer than 0.01', { type: 'orderbook_delta', sid: 1, seq: 2, msg: { ...delta, delta_fp: '1.001' } }],
      ['side bid', { type: 'orderbook_delta', sid: 1, seq: 2, msg: { ...delta, side: 'bid' } }],
      ['no seq', { type: 'orderbook_delta', sid: 1, msg: delta }],
      ['seq 0', { type: 'orderbook_snapshot', sid: 1, seq: 0, msg: { market_ticker: 'T1', yes_dollars_fp: [], no_dollars_fp: [] } }],
      ['numeric size', { type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1', yes_dollars_fp: [['0.5', 10]] } }],
      ['negative level size', { type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1', no_dollars_fp: [['0.5', '-1.00']] } }],
      ['order group without seq', { type: 'order_group_updates', sid: 9, msg: { order_group_id: 'g1' } }],
    ];
    for (const [what, frame] of bad) expect(readStreamValue(frame).ok, what).toBe(false);
  });

  it('a known lifecycle event type with a wrongly typed field is still malformed, and says which field', () => {
    const r = readStreamValue({ type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'settled', market_ticker: 'T1', settled_ts: 'yesterday' } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^market_lifecycle_v2: msg\.settled_ts: /);
  });
});

describe('NoveltyLog', () => {
  it('reports each kind once, however many frames carry it', () => {
    const log = new NoveltyLog();
    const a: Novelty = { kind: 'enum', key: 'fill.action="sell_partial"' };
    const b: Novelty = { kind: 'missing', key: 'fill: no fee_cost' };
    expect(log.fresh([a, b, a])).toEqual([a, b]);
    expect(log.fresh([b, a])).toEqual([]);
    expect(new NoveltyLog().fresh([b])).toEqual([b]);
  });
});
