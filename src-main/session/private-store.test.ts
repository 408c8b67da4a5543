// A reconcile resets the store from a REST snapshot; what the stream said while REST was read is
// replayed on top. Newer wins by the counts that only grow; an ended order never comes back.
import { describe, expect, it } from 'vitest';
import { PrivateStore, type StreamNote } from './private-store';

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
    expect(s.orders.get('o1')).toMatchObject({ fill_count: '3.00', remaining_count: '2.00' });
    expect(s.orders.get('o1')!.remaining_count_fp).toBeUndefined();
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
