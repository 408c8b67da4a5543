// Wire decimal strings to book integers on the hot path, without decimal.js. Each agrees with
// `dollarsToTicks` / `countToCenti` in src-shared/money.ts wherever those succeed, and returns a
// sentinel instead of throwing where they throw.
import { MAX_PRICE_TICKS } from '../../src-shared/money';

const TICK_WEIGHT = [1000, 100, 10, 1];

/** "0.5300" -> 5300. -1 unless a plain decimal on the 0.0001 tick within 0..1. */
export function priceToTicks(text: string): number {
  const n = text.length;
  let i = 0;
  let whole = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return -1;
    whole = whole * 10 + (c - 48);
    if (whole > 1) return -1;
  }
  if (i === 0) return -1;
  let ticks = whole * 10_000;
  if (i < n) {
    i++; // '.'
    if (i === n) return -1;
    for (let d = 0; i < n; i++, d++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return -1;
      if (d < 4) ticks += (c - 48) * TICK_WEIGHT[d]!;
      else if (c !== 48) return -1;
    }
  }
  return ticks <= MAX_PRICE_TICKS ? ticks : -1;
}

const MAX_WHOLE = Math.floor(Number.MAX_SAFE_INTEGER / 100);

/** "-12.5" -> -1250 centi-contracts. NaN unless a plain signed decimal with at most 2 significant decimals. */
export function countToCentiFast(text: string): number {
  const n = text.length;
  let i = 0;
  let negative = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
  }
  const start = i;
  let whole = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return NaN;
    whole = whole * 10 + (c - 48);
  }
  if (i === start || whole > MAX_WHOLE) return NaN;
  let centi = whole * 100;
  if (i < n) {
    i++;
    if (i === n) return NaN;
    for (let d = 0; i < n; i++, d++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
      if (d === 0) centi += (c - 48) * 10;
      else if (d === 1) centi += c - 48;
      else if (c !== 48) return NaN;
    }
  }
  if (centi > Number.MAX_SAFE_INTEGER) return NaN;
  return negative ? -centi : centi;
}
