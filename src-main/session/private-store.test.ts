// A reconcile resets the store from a REST snapshot; what the stream said while REST was read is
// replayed on top. Newer wins by the counts that only grow; an ended order never comes back.
import { describe, expect, it } from 'vitest';
import { MAX_ENDED_COMMS, MAX_ENDED_ORDERS, PrivateStore, type StreamNote } from './private-store';
import { positionCountOf, restingOrderOf } from '../risk/rows';

const rest = (over: Record<string, unknown> = {}) => ({ order_id: 'o1', ticker: 'KX', status: 'resting', fill_count: '1.00', remaining_count: '4.00', ...over });
const msg = (over: Record<string, unknown> = {}) => ({ order_id: 'o1', ticker: 'KX', status: 'resting', fill_count_fp: '1.00', remaining_count_fp: '4.00', ...over });

function storeWith(orders: Record<string, unknown>[], positions: Record<string, unknown>[] = []): PrivateStore {
  const s = new PrivateStore();
  s.reset({ orders, positions });
  s.take();
  return s;
}

describe('replaying the stream over a REST snapshot', () => {
  it('applies what happened after the read: a cancel, a further fill', () => {
    const s = storeWith([rest()]);
    const notes: StreamNote[] = [{ kind: 'order', row: msg({ fill_count_fp: '2.00', remaining_count_fp: '3.00' }) }, { kind: 'order', row: msg({ status: 'canceled', fill_count_fp: '2.00', remaining_count_fp: '0.00' }) }];
    expect([...s.replay(notes, new Set(['o1']))]).toEqual([]);
    expect(s.orders.get('o1')).toMatchObject({ status: 'canceled', remaining_count_fp: '0.00' });
    expect(s.take()?.orders?.at(-1)).toMatchObject({ status: 'canceled' });
  });

  it('skips what the read already overtook: an older partial fill', () => {
    const s = storeWith([rest({ fill_count: '3.00', remaining_count: '2.00' })]);
    s.replay([{ kind: 'order', row: msg({ fill_count_fp: '2.00', remaining_count_fp: '3.00' }) }], new Set(['o1']));
    // the older message was skipped: both spellings still say what the read said
    expect(s.orders.get('o1')).toMatchObject({ fill_count: '3.00', remaining_count: '2.00', fill_count_fp: '3.00', remaining_count_fp: '2.00' });
    // an equal fill count is not older: applied
    s.replay([{ kind: 'order', row: msg({ fill_count_fp: '3.00', remaining_count_fp: '1.00' }) }], new Set(['o1']));
    expect(s.orders.get('o1')!.remaining_count_fp).toBe('1.00');
  });

  it('marks an order resting on the stream but absent from the snapshot as unsure, and clears it when it ends', () => {
    const s = storeWith([]);
    const unsure = s.replay([{ kind: 'order', row: msg({ order_id: 'new', fill_count_fp: '0.00' }) }], new Set());
    expect([...unsure]).toEqual(['new']);
    expect(s.orders.get('new')).toMatchObject({ status: 'resting' });
    const ended = s.replay(
      [
        { kind: 'order', row: msg({ order_id: 'gone', fill_count_fp: '0.00' }) },
        { kind: 'order', row: msg({ order_id: 'gone', status: 'canceled', fill_count_fp: '0.00' }) },
      ],
      new Set(),
    );
    expect([...ended]).toEqual([]);
    // resting in the snapshot: sure
    expect([...storeWith([rest()]).replay([{ kind: 'order', row: msg() }], new Set(['o1']))]).toEqual([]);
  });

  it('keeps a position the read saw later (more volume), takes one it did not', () => {
    const s = storeWith([], [{ ticker: 'KX', position_fp: '5.00', volume_fp: '9.00' }]);
    s.replay([{ kind: 'position', row: { ticker: 'KX', position_fp: '4.00', volume_fp: '8.00' } }], new Set());
    expect(s.positions.get('KX#0')).toMatchObject({ position_fp: '5.00' });
    s.replay([{ kind: 'position', row: { ticker: 'KX', position_fp: '6.00', volume_fp: '10.00' } }], new Set());
    expect(s.positions.get('KX#0')).toMatchObject({ position_fp: '6.00' });
    s.replay([{ kind: 'position', row: { ticker: 'KY', subaccount: 2, position_fp: '1.00', volume_fp: '1.00' } }], new Set());
    expect(s.positions.get('KY#2')).toMatchObject({ position_fp: '1.00' });
  });

  it('adds fills once, and ignores a row without an id', () => {
    const s = storeWith([]);
    const fill = { fill_id: 'f1', order_id: 'o1', ticker: 'KX', count_fp: '1.00' };
    s.replay([{ kind: 'fill', row: fill }, { kind: 'fill', row: fill }, { kind: 'order', row: { status: 'resting' } }], new Set());
    expect(s.fills).toHaveLength(1);
    expect(s.orders.size).toBe(0);
  });
});

describe('the private store itself', () => {
  it('resets everything and reports the whole state once, flagged as a reset', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'old', status: 'resting' });
    s.putRfq({ rfq_id: 'r-old' });
    s.reset({
      orders: [{ order_id: 'o1', ticker: 'KX', status: 'resting' }],
      positions: [{ ticker: 'KX', position_fp: '2.00' }],
      fills: [{ fill_id: 'f1', order_id: 'o1' }],
      rfqs: [{ rfq_id: 'r1' }],
      quotes: [{ quote_id: 'q1' }],
      orderGroups: [{ order_group_id: 'g1' }],
      balance: { balance_dollars: '10.00', updated_ts: 5 },
    });
    expect([...s.orders.keys()]).toEqual(['o1']);
    expect([...s.rfqs.keys()]).toEqual(['r1']);
    const u = s.take()!;
    expect(u.reset).toBe(true);
    expect(u.orders).toEqual([{ order_id: 'o1', ticker: 'KX', status: 'resting' }]);
    expect(u.positions).toEqual([{ ticker: 'KX', position_fp: '2.00', position: '2.00' }]);
    expect(u.fills).toHaveLength(1);
    expect(u.rfqs).toEqual([{ rfq_id: 'r1' }]);
    expect(u.quotes).toEqual([{ quote_id: 'q1' }]);
    expect(u.orderGroups).toEqual([{ order_group_id: 'g1' }]);
    expect(u.balance).toEqual({ balance_dollars: '10.00', updated_ts: 5 });
    expect(s.take()).toBeUndefined();
    // a reset without a balance reports none
    s.reset({});
    expect('balance' in s.take()!).toBe(false);
  });

  it('merges partial order updates and reports only what changed', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'o1', ticker: 'KX', status: 'resting', remaining_count_fp: '5.00' });
    s.take();
    s.putOrder({ order_id: 'o1', remaining_count_fp: '3.00' });
    expect(s.take()).toEqual({ orders: [{ order_id: 'o1', ticker: 'KX', status: 'resting', remaining_count_fp: '3.00', remaining_count: '3.00' }] });
    s.putOrder({ status: 'resting' });
    expect(s.take()).toBeUndefined();
  });

  it('keys positions by market and subaccount, from ticker or market_ticker', () => {
    const s = new PrivateStore();
    s.putPosition({ market_ticker: 'KX', position_fp: '1.00' });
    s.putPosition({ ticker: 'KX', subaccount: 3, position_fp: '4.00' });
    s.putPosition({ ticker: 'KX', position_fp: '2.00' });
    s.putPosition({ position_fp: '9.00' });
    expect([...s.positions.keys()].sort()).toEqual(['KX#0', 'KX#3']);
    expect(s.positions.get('KX#0')).toMatchObject({ ticker: 'KX', position_fp: '2.00' });
    expect(s.take()!.positions).toHaveLength(3);
  });

  it("keys positions by the REST rows' subaccount_number as by the stream's subaccount: the same market in two subaccounts stays two rows after a reconcile", () => {
    // the spec's positions read spells it subaccount_number; the stream's message, subaccount
    const s = new PrivateStore();
    s.reset({
      orders: [],
      positions: [
        { ticker: 'KX', subaccount_number: 0, position_fp: '1.00', volume_fp: '1.00' },
        { ticker: 'KX', subaccount_number: 2, position_fp: '5.00', volume_fp: '5.00' },
      ],
    });
    expect([...s.positions.keys()].sort()).toEqual(['KX#0', 'KX#2']);
    expect(s.positions.get('KX#0')).toMatchObject({ position_fp: '1.00' });
    // the stream's newer row for subaccount 2 lands on the REST row of subaccount 2, not the primary's
    s.replay([{ kind: 'position', row: { ticker: 'KX', subaccount: 2, position_fp: '6.00', volume_fp: '6.00' } }], new Set());
    s.putPosition({ ticker: 'KX', subaccount: 2, position_fp: '7.00', volume_fp: '7.00' });
    expect([...s.positions.keys()].sort()).toEqual(['KX#0', 'KX#2']);
    expect(s.positions.get('KX#0')).toMatchObject({ position_fp: '1.00' });
    expect(s.positions.get('KX#2')).toMatchObject({ position_fp: '7.00' });
    // an older stream row for subaccount 2 is skipped by its own row's volume, not the primary's
    s.replay([{ kind: 'position', row: { ticker: 'KX', subaccount: 2, position_fp: '3.00', volume_fp: '3.00' } }], new Set());
    expect(s.positions.get('KX#2')).toMatchObject({ position_fp: '7.00' });
  });

  it("a stream update in one spelling of a count (remaining_count_fp) replaces the REST row's other spelling too: every reader sees the newest count", () => {
    // the REST order carries both spellings; the stream's user_order only the _fp one
    const s = storeWith([rest({ order_id: 'o1', side: 'bid', yes_price_dollars: '0.4000', fill_count: '0.00', fill_count_fp: '0.00', remaining_count: '5.00', remaining_count_fp: '5.00' })]);
    s.putOrder(msg({ order_id: 'o1', fill_count_fp: '2.00', remaining_count_fp: '3.00' }));
    const o = s.orders.get('o1')!;
    expect(o).toMatchObject({ fill_count: '2.00', fill_count_fp: '2.00', remaining_count: '3.00', remaining_count_fp: '3.00' });
    // the gate's reading of it (which reads the spec's spelling first)
    expect(restingOrderOf(o)?.remaining.toString()).toBe('3');
    // and a row in the spec's spelling only (a service that sends it) replaces the _fp one
    s.putOrder({ order_id: 'o1', remaining_count: '1.00', fill_count: '4.00' });
    expect(s.orders.get('o1')).toMatchObject({ fill_count: '4.00', fill_count_fp: '4.00', remaining_count: '1.00', remaining_count_fp: '1.00' });
    // a position: REST's position_fp, then the stream's position (the spec's name for the count string)
    s.putPosition({ ticker: 'KX', position_fp: '2.00' });
    s.putPosition({ ticker: 'KX', position: '-3.00', volume_fp: '9.00' });
    expect(s.positions.get('KX#0')).toMatchObject({ position: '-3.00', position_fp: '-3.00', volume: '9.00', volume_fp: '9.00' });
    expect(positionCountOf(s.positions.get('KX#0')!).toString()).toBe('-3');
  });

  it('finds an order whose rows name its market market_ticker only by its ticker', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'm1', market_ticker: 'KY', status: 'resting' });
    expect(s.restingOrders('KY').map((o) => o.order_id)).toEqual(['m1']);
    expect(s.orders.get('m1')).toMatchObject({ ticker: 'KY', market_ticker: 'KY' });
  });

  it('keeps fills once each (by fill and order), the latest 5,000', () => {
    const s = new PrivateStore();
    s.addFill({ fill_id: 'f', order_id: 'a' });
    s.addFill({ fill_id: 'f', order_id: 'b' });
    s.addFill({ fill_id: 'f', order_id: 'a' });
    s.addFill({ trade_id: 't', order_id: 'a' });
    s.addFill({ trade_id: 't', order_id: 'a' });
    s.addFill({ no_id: true });
    expect(s.fills).toHaveLength(4);
    expect(s.take()!.fills).toHaveLength(4);
    for (let i = 0; i < 5_010; i++) s.addFill({ fill_id: `x${i}` });
    expect(s.fills).toHaveLength(5_000);
    expect(s.fills[0]).toEqual({ fill_id: 'x10' });
    expect(s.fills.at(-1)).toEqual({ fill_id: 'x5009' });
  });

  it('reports RFQs, quotes, order groups and the balance in their own buckets', () => {
    const s = new PrivateStore();
    s.putRfq({ id: 'r1', status: 'open' });
    s.putRfq({ rfq_id: 'r1', event: 'rfq_deleted' });
    s.putQuote({ quote_id: 'q1' });
    s.putOrderGroup({ order_group_id: 'g1', contracts_limit: 5 });
    s.putOrderGroup({ id: 'g1', contracts_limit: 6 });
    s.setBalance({ balance_dollars: '1.00', updated_ts: 1 });
    const u = s.take()!;
    expect(s.rfqs.get('r1')).toEqual({ id: 'r1', rfq_id: 'r1', status: 'open', event: 'rfq_deleted' });
    expect(u.rfqs).toHaveLength(2);
    expect(u.quotes).toEqual([{ quote_id: 'q1' }]);
    expect(u.orderGroups).toHaveLength(2);
    expect(s.orderGroups.get('g1')).toMatchObject({ contracts_limit: 6 });
    expect(u.balance).toEqual({ balance_dollars: '1.00', updated_ts: 1 });
    expect(u.orders).toBeUndefined();
  });

  it('lists resting orders, all or of one market', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: '1', ticker: 'A', status: 'resting' });
    s.putOrder({ order_id: '2', ticker: 'B', status: 'resting' });
    s.putOrder({ order_id: '3', ticker: 'A', status: 'canceled' });
    expect(s.restingOrders().map((o) => o.order_id)).toEqual(['1', '2']);
    expect(s.restingOrders('A').map((o) => o.order_id)).toEqual(['1']);
  });

  it('says when a fill of an order shows in the position: its fills came, then a position update of the market', () => {
    const s = new PrivateStore();
    expect(s.fillPosted('o1', 'KX', 300)).toBe(false);
    s.addFill({ trade_id: 't1', order_id: 'o1', ticker: 'KX', count_fp: '2.00' });
    s.putPosition({ ticker: 'KX', position_fp: '2.00' });
    expect(s.fillPosted('o1', 'KX', 300)).toBe(false); // 2 of 3 filled so far
    s.addFill({ trade_id: 't2', order_id: 'o1', ticker: 'KX', count_fp: '1.00' });
    expect(s.fillPosted('o1', 'KX', 300)).toBe(false); // the position has not moved since
    s.putPosition({ ticker: 'KX-OTHER', position_fp: '1.00' });
    expect(s.fillPosted('o1', 'KX', 300)).toBe(false);
    s.putPosition({ ticker: 'KX', position_fp: '3.00' });
    expect(s.fillPosted('o1', 'KX', 300)).toBe(true);
  });

  it('an answer never overwrites what the stream said later; an answered order the stream told of first is left alone', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'o1', ticker: 'KX', status: 'canceled', fill_count_fp: '0.00' });
    s.putOrderUnlessNewer({ order_id: 'o1', ticker: 'KX', status: 'resting', fill_count_fp: '0.00' });
    expect(s.orders.get('o1')!.status).toBe('canceled');
    expect(s.putAnsweredOrder({ order_id: 'o1', ticker: 'KX', status: 'resting' })).toBe(false);
    expect(s.putAnsweredOrder({ order_id: 'o2', ticker: 'KX', status: 'resting' })).toBe(true);
    expect(s.restingOrders('KX').map((o) => o.order_id)).toEqual(['o2']);
  });
});

describe('what a long session keeps', () => {
  it('keeps every resting order and the newest ended ones: an order that ended long ago goes, oldest first', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'resting-first', ticker: 'KX', status: 'resting' });
    for (let i = 0; i < MAX_ENDED_ORDERS + 10; i++) s.putOrder({ order_id: `done-${i}`, ticker: 'KX', status: i % 2 ? 'executed' : 'canceled' });
    expect(s.orders.has('resting-first')).toBe(true);
    expect(s.orders.has('done-0')).toBe(false);
    expect(s.orders.has('done-9')).toBe(false);
    expect(s.orders.has('done-10')).toBe(true);
    expect(s.orders.size).toBe(MAX_ENDED_ORDERS + 1);
    expect(s.restingOrders().map((o) => o.order_id)).toEqual(['resting-first']);
  });

  it('an ended order updated again counts as new; one that rests again is never dropped', () => {
    const s = new PrivateStore();
    s.putOrder({ order_id: 'a', ticker: 'KX', status: 'canceled' });
    s.putOrder({ order_id: 'b', ticker: 'KX', status: 'executed' });
    s.putOrder({ order_id: 'b', ticker: 'KX', status: 'resting' }); // an unknown order of events: it rests, kept
    for (let i = 0; i < MAX_ENDED_ORDERS - 1; i++) s.putOrder({ order_id: `done-${i}`, ticker: 'KX', status: 'canceled' });
    s.putOrder({ order_id: 'a', ticker: 'KX', status: 'canceled', reduced: true }); // a late update: newest now
    s.putOrder({ order_id: 'last', ticker: 'KX', status: 'canceled' });
    expect(s.orders.has('a')).toBe(true);
    expect(s.orders.has('b')).toBe(true);
    expect(s.orders.has('done-0')).toBe(false);
  });

  it('keeps open RFQs and accepted quotes and the newest ended ones', () => {
    const s = new PrivateStore();
    s.putRfq({ id: 'rfq-open', status: 'open' });
    s.putQuote({ quote_id: 'q-accepted', status: 'accepted' });
    for (let i = 0; i < MAX_ENDED_COMMS + 5; i++) {
      s.putRfq({ id: `rfq-${i}`, status: 'closed' });
      s.putQuote({ quote_id: `q-${i}`, status: 'executed' });
    }
    expect(s.rfqs.has('rfq-open')).toBe(true);
    expect(s.quotes.has('q-accepted')).toBe(true);
    expect(s.rfqs.has('rfq-4')).toBe(false);
    expect(s.rfqs.size).toBe(MAX_ENDED_COMMS + 1);
    expect(s.quotes.size).toBe(MAX_ENDED_COMMS + 1);
  });

  it('a fill sent again is still told apart after thousands of fills', () => {
    const s = new PrivateStore();
    for (let i = 0; i < 6_000; i++) s.addFill({ fill_id: `f${i}`, order_id: 'o', ticker: 'KX', count_fp: '1.00' });
    s.take();
    s.addFill({ fill_id: 'f5999', order_id: 'o', ticker: 'KX', count_fp: '1.00' });
    expect(s.take()).toBeUndefined();
    expect(s.fills).toHaveLength(5_000);
  });
});
