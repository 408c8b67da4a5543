// MurmurHash3's 32-bit finalizer: mixes every input bit into every output bit. The exchange's
// deterministic ids (engine/ids.ts) and the index feed's seeded noise (ws/index-feed.ts) use it.
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
