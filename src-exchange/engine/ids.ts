// Deterministic ids: UUID-shaped strings made from a per-kind counter and the engine's
// id seed. The low 48 bits are the counter itself, so ids of one kind never collide;
// the rest is a hash so ids do not look sequential. No randomness, no clock.

export type IdKind = 'order' | 'trade' | 'fill' | 'transfer' | 'group';

const KIND_SALT: Record<IdKind, number> = {
  order: 0x0b5e_a11d,
  trade: 0x7a_de_11,
  fill: 0x0f11_1ed0,
  transfer: 0x7a5f_e400,
  group: 0x06a0_0b00,
};

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX2: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex4(n: number): string {
  return HEX2[(n >>> 8) & 0xff]! + HEX2[n & 0xff]!;
}

/** Low 32 bits as 8 hex digits. */
function hex8(n: number): string {
  return hex4(n >>> 16) + hex4(n);
}

/** The id of the `n`-th object of `kind` (n >= 1, below 2^46). */
export function makeId(kind: IdKind, n: number, seed: number): string {
  const salt = KIND_SALT[kind] ^ (seed >>> 0);
  const lo = n % 0x1_0000_0000;
  const hi = Math.floor(n / 0x1_0000_0000);
  const a = fmix32(salt ^ lo);
  const b = fmix32(a ^ hi ^ 0x9e37_79b9);
  return `${hex8(a)}-${hex4(b >>> 16)}-4${hex4(b & 0xfff).slice(1)}-${hex4(0x8000 | (hi & 0x3fff))}-0000${hex8(lo)}`;
}
