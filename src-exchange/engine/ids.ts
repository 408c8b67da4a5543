// Deterministic ids: UUID-shaped strings made from a per-kind counter and the engine's
// id seed. The low 48 bits are the counter itself, so ids of one kind never collide;
// the rest is a hash so ids do not look sequential. No randomness, no clock.

import { fmix32 } from './hash';

export type IdKind = 'order' | 'trade' | 'fill' | 'transfer' | 'group';

const KIND_SALT: Record<IdKind, number> = {
  order: 0x0b5e_a11d,
  trade: 0x7a_de_11,
  fill: 0x0f11_1ed0,
  transfer: 0x7a5f_e400,
  group: 0x06a0_0b00,
};

// The id is written into one reusable buffer of character codes and made a string in one
// call: a flat string, hashed once by the Map it goes into. (Built by concatenation it was a
// tree of pieces that every Map.set and get had to flatten first: half the engine's time.)
const HEX_CODE = Array.from({ length: 16 }, (_, i) => '0123456789abcdef'.charCodeAt(i));
const DASH = 45;
const idCodes: number[] = new Array<number>(36).fill(DASH);

function putHex(at: number, v: number, digits: number): void {
  for (let d = digits - 1; d >= 0; d--) {
    idCodes[at + d] = HEX_CODE[v & 15]!;
    v >>>= 4;
  }
}

/** The id of the `n`-th object of `kind` (n >= 1, below 2^46). */
export function makeId(kind: IdKind, n: number, seed: number): string {
  return idOfSalt(idSalt(kind, seed), n);
}

/** What `idOfSalt` needs for ids of one kind under one seed (hot paths keep it). */
export function idSalt(kind: IdKind, seed: number): number {
  return KIND_SALT[kind] ^ (seed >>> 0);
}

/** makeId(kind, n, seed) given idSalt(kind, seed). */
export function idOfSalt(salt: number, n: number): string {
  const lo = n % 0x1_0000_0000;
  const hi = Math.floor(n / 0x1_0000_0000);
  const a = fmix32(salt ^ lo);
  const b = fmix32(a ^ hi ^ 0x9e37_79b9);
  // aaaaaaaa-bbbb-4bbb-8hhh-0000llllllll
  putHex(0, a >>> 16, 4);
  putHex(4, a & 0xffff, 4);
  putHex(9, b >>> 16, 4);
  idCodes[14] = 52; // '4'
  putHex(15, b & 0xfff, 3);
  putHex(19, 0x8000 | (hi & 0x3fff), 4);
  idCodes[24] = idCodes[25] = idCodes[26] = idCodes[27] = 48; // '0000'
  putHex(28, lo >>> 16, 4);
  putHex(32, lo & 0xffff, 4);
  return String.fromCharCode.apply(null, idCodes);
}

/** The counter inside one of the engine's ids (aaaaaaaa-bbbb-4bbb-8hhh-0000llllllll), or -1. */
export function idCounter(id: string): number {
  if (id.length !== 36 || id.charCodeAt(14) !== 52 || id.charCodeAt(23) !== 45 || id.charCodeAt(18) !== 45) return -1;
  let hi = 0;
  for (let i = 19; i < 23; i++) {
    const d = hexDigit(id.charCodeAt(i));
    if (d < 0) return -1;
    hi = hi * 16 + d;
  }
  let lo = 0;
  for (let i = 28; i < 36; i++) {
    const d = hexDigit(id.charCodeAt(i));
    if (d < 0) return -1;
    lo = lo * 16 + d;
  }
  return (hi & 0x3fff) * 0x1_0000_0000 + lo;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}
