// The simulation's seeded randomness: one small generator per run, so a seed gives the same
// sequence of decisions (timing still varies, so runs are alike rather than identical).

import { mulberry32 } from '../../src-shared/random';

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  /** true with probability p */
  chance(p: number): boolean;
  /** one element of a non-empty list */
  pick<T>(items: readonly T[]): T;
  /** roughly normal, mean 0, standard deviation 1 (sum of uniforms) */
  gauss(): number;
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed ^ 0x51a1_2f0d);
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    gauss: () => {
      let s = 0;
      for (let i = 0; i < 6; i++) s += next();
      return (s - 3) * Math.SQRT2;
    },
  };
}

/** A stable small hash of a text (assigning makers to markets). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
