import { describe, expect, it } from 'vitest';
import { idCounter, makeId } from './ids';
import { OrderIndex } from './order-index';
import type { OrderState } from './order-state';

// the index reads only the id of a live order: a bare record stands in for one
const o = (id: string) => ({ order_id: id }) as OrderState;

describe('the order index', () => {
  it('reads the counter back out of an engine id, and nothing out of other strings', () => {
    for (const n of [1, 2, 255, 65_536, 123_456, 2 ** 32 - 1, 2 ** 32 + 5]) expect(idCounter(makeId('order', n, 7))).toBe(n);
    for (const bad of ['', 'order-1', 'd19f0b4c-6175-4b7e-8000-00000001e24g', 'D19F0B4C-6175-4B7E-8000-00000001E240', 'x'.repeat(36)]) expect(idCounter(bad)).toBe(-1);
  });

  it('behaves as a Map: get, set, has, delete, size, creation order, foreign ids, same number from another seed', () => {
    const idx = new OrderIndex(7);
    const ids = Array.from({ length: 1000 }, (_, i) => makeId('order', i + 1, 7));
    for (const id of ids) idx.set(id, o(id));
    idx.set('foreign-id', o('foreign-id'));
    const sameNumberOtherSeed = makeId('order', 5, 8);
    idx.set(sameNumberOtherSeed, o(sameNumberOtherSeed));
    expect(idx.size).toBe(1002);
    expect(idx.get(ids[4]!)?.order_id).toBe(ids[4]);
    expect(idx.get(sameNumberOtherSeed)?.order_id).toBe(sameNumberOtherSeed);
    expect(idx.get('foreign-id')?.order_id).toBe('foreign-id');
    expect(idx.get(makeId('order', 5, 9))).toBeUndefined();
    expect(idx.get(makeId('order', 5000, 7))).toBeUndefined();
    expect(idx.delete(ids[4]!)).toBe(true);
    expect(idx.delete(ids[4]!)).toBe(false);
    expect(idx.has(ids[4]!)).toBe(false);
    expect(idx.size).toBe(1001);
    const keys = [...idx.keys()];
    expect(keys.slice(0, 4)).toEqual(ids.slice(0, 4));
    expect(keys[4]).toBe(ids[5]);
    expect(keys.slice(-2)).toEqual(['foreign-id', sameNumberOtherSeed]);
    // setting again replaces, never duplicates
    idx.set(ids[0]!, o(ids[0]!));
    expect(idx.size).toBe(1001);
  });

  it('a number far beyond the end (a forged id) does not grow the array', () => {
    const idx = new OrderIndex(7);
    const far = makeId('order', 2 ** 31, 7);
    idx.set(far, o(far));
    expect(idx.get(far)?.order_id).toBe(far);
    expect(idx.size).toBe(1);
    expect([...idx.values()]).toHaveLength(1);
  });

  it('follows by position: forEachFrom visits only what was made since, deletions are counted, foreign ids are flagged', () => {
    const idx = new OrderIndex(7);
    const ids = Array.from({ length: 10 }, (_, i) => makeId('order', i + 1, 7));
    for (const id of ids.slice(0, 6)) idx.set(id, o(id));
    const seen: string[] = [];
    const at = idx.forEachFrom(0, (x) => seen.push(x.order_id));
    expect(seen).toEqual(ids.slice(0, 6));
    for (const id of ids.slice(6)) idx.set(id, o(id));
    const later: string[] = [];
    const end = idx.forEachFrom(at, (x) => later.push(x.order_id));
    expect(later).toEqual(ids.slice(6));
    expect(idx.forEachFrom(end, () => expect.fail('nothing new was made'))).toBe(end);
    expect(idx.deletions).toBe(0);
    idx.delete(ids[2]!);
    idx.delete(ids[2]!); // already gone: not counted again
    expect(idx.deletions).toBe(1);
    expect(idx.ownIdsOnly).toBe(true);
    idx.set('foreign-id', o('foreign-id'));
    expect(idx.ownIdsOnly).toBe(false);
    idx.delete('foreign-id');
    expect(idx.deletions).toBe(2);
    expect(idx.ownIdsOnly).toBe(true);
  });
});
