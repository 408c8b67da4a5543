// Engine units: price in ticks of 0.0001 dollars, counts in centi-contracts, cash in
// micro-dollars (ticks x centi = micro, so cost is exact). Converters use integer and
// string arithmetic only: a binary float never carries money or counts.

/** One dollar in price ticks (a YES price plus its NO price). */
export const TICKS_PER_DOLLAR = 10_000;
/** Lowest and highest price an order may carry. */
export const MIN_ORDER_PRICE = 1;
export const MAX_ORDER_PRICE = 9_999;
/** One contract in centi-contracts. */
export const CENTI_PER_CONTRACT = 100;
/** One dollar in micro-dollars. */
export const MICRO_PER_DOLLAR = 1_000_000;
/** One cent in micro-dollars. */
export const MICRO_PER_CENT = 10_000;
/** Payout of one centi-contract (1 dollar per contract) in micro-dollars. */
export const MICRO_PER_CENTI_PAYOUT = MICRO_PER_DOLLAR / CENTI_PER_CONTRACT;
/** Largest count (centi) whose worst-case cost (price 10000 ticks) stays a safe integer. */
export const MAX_COUNT_CENTI = Math.floor(Number.MAX_SAFE_INTEGER / TICKS_PER_DOLLAR);
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function isSafeNonNegativeInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

export function isSafeInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

/** A valid order price in ticks (1..9999). */
export function isOrderPrice(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= MIN_ORDER_PRICE && v <= MAX_ORDER_PRICE;
}

/** A valid positive order count in centi-contracts. */
export function isOrderCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_COUNT_CENTI;
}

function padLeft(digits: string, width: number): string {
  return digits.length >= width ? digits : '0'.repeat(width - digits.length) + digits;
}

/** Integer `value` scaled by 10^-decimals as a fixed decimal string ("-12.34"). */
function formatScaled(value: number, decimals: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  const negative = value < 0;
  const digits = padLeft(String(negative ? -value : value), decimals + 1);
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${frac}` : ''}`;
}

const DECIMAL_RE = /^(-)?(\d*)(?:\.(\d*))?$/;

/**
 * Parse a decimal string into an integer scaled by 10^decimals. Extra decimals are
 * accepted only when they are zeros. Returns undefined for malformed input, for a
 * value that needs more precision, or for one beyond Number.MAX_SAFE_INTEGER.
 */
function parseScaled(text: string, decimals: number, allowNegative: boolean): number | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > 40) return undefined;
  const m = DECIMAL_RE.exec(text.trim());
  if (!m) return undefined;
  const negative = m[1] === '-';
  const whole = m[2] ?? '';
  let frac = m[3] ?? '';
  if (whole.length === 0 && frac.length === 0) return undefined;
  if (negative && !allowNegative) return undefined;
  if (frac.length > decimals) {
    if (!/^0*$/.test(frac.slice(decimals))) return undefined;
    frac = frac.slice(0, decimals);
  }
  frac = frac + '0'.repeat(decimals - frac.length);
  const digits = (whole + frac).replace(/^0+(?=\d)/, '');
  if (digits.length > 16) return undefined;
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) return undefined;
  return negative ? -n : n;
}

/** Ticks to a 4-decimal dollar string: 1234 -> "0.1234". */
export function ticksToDollars(ticks: number): string {
  return formatScaled(ticks, 4);
}

/** Dollar string to ticks: "0.1234" -> 1234; undefined if malformed or finer than 0.0001. */
export function dollarsToTicks(text: string): number | undefined {
  return parseScaled(text, 4, false);
}

/** Centi-contracts to a 2-decimal count string: 1234 -> "12.34", -5 -> "-0.05". */
export function centiToCount(centi: number): string {
  return formatScaled(centi, 2);
}

/** Count string to centi-contracts: "12.34" -> 1234; negative allowed ("-1.00" -> -100). */
export function countToCenti(text: string): number | undefined {
  return parseScaled(text, 2, true);
}

/** Micro-dollars to a 6-decimal dollar string: 1234567 -> "1.234567". */
export function microToDollars(micro: number): string {
  return formatScaled(micro, 6);
}

/** Dollar string (up to 6 decimals) to micro-dollars; negative allowed. */
export function dollarsToMicro(text: string): number | undefined {
  return parseScaled(text, 6, true);
}

/** Micro-dollars to integer cents, rounding toward negative infinity (cash shown is never overstated). */
export function microToCents(micro: number): number {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`not a safe integer: ${micro}`);
  const rem = micro % MICRO_PER_CENT;
  const whole = (micro - rem) / MICRO_PER_CENT;
  return rem < 0 ? whole - 1 : whole;
}

/** Integer cents to micro-dollars (undefined when the result is not a safe integer). */
export function centsToMicro(cents: number): number | undefined {
  if (!Number.isSafeInteger(cents)) return undefined;
  const micro = cents * MICRO_PER_CENT;
  return Number.isSafeInteger(micro) ? micro : undefined;
}

/** Milliseconds to whole Unix seconds. */
export function msToSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
