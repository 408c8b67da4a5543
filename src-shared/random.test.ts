import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random';

describe('mulberry32', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });

  it('stays in [0, 1) and is the published mulberry32 (first value of seed 1)', () => {
    const r = mulberry32(1);
    expect(r()).toBeCloseTo(0.6270739405881613, 15);
    for (let i = 0; i < 10_000; i++) {
      const x = r();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });

  it('treats a seed beyond 32 bits by its low 32 bits', () => {
    expect(mulberry32(2 ** 32 + 7)()).toBe(mulberry32(7)());
  });
});
