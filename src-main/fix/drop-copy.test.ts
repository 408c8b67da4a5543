// The drop copy's comparison with the private store (pure): what counts as a disagreement, and
// what is only the two sources arriving at different times.
import { describe, expect, it } from 'vitest';
import { compare, type DropCopyOrder, type Disagreement } from './drop-copy';

const dc = (o: Partial<DropCopyOrder> & { orderId: string }): [string, DropCopyOrder] => [o.orderId, { ticker: 'M', status: 'resting', fill: '0.00', at: 0, ...o }];
const none = new Map<string, Disagreement>();

describe('compare', () => {
  it('agrees when status and filled count match (counts compared as numbers)', () => {
    const store = new Map([['a', { order_id: 'a', status: 'resting', fill_count_fp: '1' }]]);
    expect(compare(new Map([dc({ orderId: 'a', fill: '1.00' })]), store, 10_000, 3_000, none)).toEqual([]);
  });

  it('flags an order the drop copy saw canceled that the terminal holds as resting', () => {
    const store = new Map([['a', { order_id: 'a', status: 'resting', fill_count_fp: '0.00' }]]);
    const out = compare(new Map([dc({ orderId: 'a', status: 'canceled' })]), store, 10_000, 3_000, none);
    expect(out).toEqual([{ orderId: 'a', ticker: 'M', dropCopy: 'canceled, filled 0.00', terminal: 'resting, filled 0.00', since: 10_000 }]);
  });

  it('flags a different filled count, and a resting order the terminal does not know', () => {
    const store = new Map([['a', { order_id: 'a', status: 'resting', fill_count_fp: '1.00' }]]);
    const out = compare(new Map([dc({ orderId: 'a', fill: '2.00' }), dc({ orderId: 'b' })]), store, 10_000, 3_000, none);
    expect(out.map((d) => [d.orderId, d.terminal])).toEqual([
      ['a', 'resting, filled 1.00'],
      ['b', 'unknown to the terminal'],
    ]);
  });

  it('waits out the grace period: a fresh report is not judged yet', () => {
    const out = compare(new Map([dc({ orderId: 'b', at: 9_000 })]), new Map(), 10_000, 3_000, none);
    expect(out).toEqual([]);
  });

  it('an ended order the store no longer holds (rebuilt from resting orders) is not a disagreement', () => {
    expect(compare(new Map([dc({ orderId: 'x', status: 'executed', fill: '3.00' })]), new Map(), 10_000, 3_000, none)).toEqual([]);
  });

  it('keeps the time a standing disagreement began', () => {
    const was = new Map<string, Disagreement>([['b', { orderId: 'b', ticker: 'M', dropCopy: '', terminal: '', since: 5 }]]);
    expect(compare(new Map([dc({ orderId: 'b' })]), new Map(), 10_000, 3_000, was)[0]!.since).toBe(5);
  });
});
