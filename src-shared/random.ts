// The one seeded random generator (mulberry32): small, fast, deterministic; for simulations,
// seeded catalogs, fuzzing and benchmarks, never for secrets or ids that must not be guessed.

/** A generator of uniform numbers in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
