import { describe, expect, it } from 'vitest';
import { makeId } from './ids';

describe('deterministic ids', () => {
  it('are the same UUID-shaped strings across versions (journals and snapshots name them)', () => {
    // fixed points: these ids are in existing data directories, so they must never change
    expect(makeId('order', 123456, 7)).toBe('d19f0b4c-6175-4b7e-8000-00000001e240');
    expect(makeId('trade', 2 ** 32 + 5, 1)).toBe('44ed93e0-4abe-481e-8001-000000000005');
    expect(makeId('group', 1, 0xffffffff)).toBe('24313827-0f1a-4f5a-8000-000000000001');
  });

  it('never collide within a kind, and differ between kinds and seeds', () => {
    const seen = new Set<string>();
    for (let n = 1; n <= 50_000; n++) seen.add(makeId('order', n, 3));
    expect(seen.size).toBe(50_000);
    expect(makeId('order', 1, 3)).not.toBe(makeId('fill', 1, 3));
    expect(makeId('order', 1, 3)).not.toBe(makeId('order', 1, 4));
    for (const id of [...seen].slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-0000[0-9a-f]{8}$/);
  });
});
