// The seeded catalog, pinned: planCatalogSeed's whole output for a few seeds and start times,
// hashed (sha256 of its JSON, with a marker for keys whose value is undefined so a key that
// appears or disappears is seen too). The expectations were computed by the code before it was
// split into steps; any change to the seeded catalog, however small, changes a hash.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planCatalogSeed } from './catalog-seed';

const fingerprint = (v: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '\u0000undefined' : typeof x === 'function' ? '\u0000function' : x)))
    .digest('hex');

const PINNED: [seed: number, nowMs: number, commands: number, sha256: string][] = [
  [7, Date.UTC(2026, 10, 27, 9, 37), 5745, '62f8e447f2034dd0ef9bccdedb19bd59ffa3eb00a35971fc9383570fda55d3bb'],
  [3, Date.UTC(2026, 5, 1, 0, 1), 5718, '6d7100d45dded53e63d64b5cb5509131ef3e79b7db8afe2e78a1de3a70b24661'],
  [3, Date.UTC(2026, 2, 31, 23, 59), 5829, 'ca42f0cf1b35f39e1cc34eb56164bb42d1085038b24db5300918979ee8bab478'],
  [42, Date.UTC(2027, 1, 28, 6, 30), 5727, '92502563aee374d81ad217e0bfd91d59266fd32e6a0a84a032f33bd24011bd1a'],
  [0xdead_beef, Date.UTC(2025, 11, 31, 22, 10), 5843, '62ab674b71553338ab4fd9bc6d9c49b9a446330e2be145d673ae53cf5c8be2ca'],
];

describe('planCatalogSeed', () => {
  it.each(PINNED)('seed %d at %d gives the pinned plan (%d commands)', (seed, nowMs, commands, sha256) => {
    const plan = planCatalogSeed(seed, nowMs);
    expect(plan).toHaveLength(commands);
    expect(fingerprint(plan)).toBe(sha256);
  });
});
