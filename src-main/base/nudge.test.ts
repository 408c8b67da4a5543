import { describe, expect, it } from 'vitest';
import { NUDGE_AFTER_MS, NudgeBound } from './nudge';

describe('NudgeBound: how soon a REST answer may cut a reconnect wait short', () => {
  it('needs 1 s since the last try, doubling with each nudge taken, up to the cap', () => {
    const b = new NudgeBound(5_000);
    b.tried(10_000);
    expect(b.take(10_000 + NUDGE_AFTER_MS - 1)).toBe(false);
    expect(b.take(10_000 + NUDGE_AFTER_MS)).toBe(true);
    b.tried(11_000);
    expect(b.take(12_999)).toBe(false);
    expect(b.take(13_000)).toBe(true);
    b.tried(13_000);
    expect(b.take(16_999)).toBe(false);
    expect(b.take(17_000)).toBe(true);
    // 8 s would be next; the cap is 5 s
    b.tried(17_000);
    expect(b.take(21_999)).toBe(false);
    expect(b.take(22_000)).toBe(true);
  });

  it('starts again from 1 s once the connection is up', () => {
    const b = new NudgeBound(10_000);
    for (let t = 0; t < 3; t++) {
      b.tried(t * 100_000);
      expect(b.take(t * 100_000 + 60_000)).toBe(true);
    }
    b.tried(500_000);
    expect(b.take(501_000)).toBe(false);
    b.up();
    expect(b.take(501_000)).toBe(true);
  });

  it('a refused nudge does not count', () => {
    const b = new NudgeBound(10_000);
    b.tried(0);
    for (let t = 0; t < 999; t += 50) expect(b.take(t)).toBe(false);
    expect(b.take(1_000)).toBe(true);
  });
});
