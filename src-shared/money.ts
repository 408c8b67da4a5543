// Money and counts on the client side: decimal.js, one configured clone, never a binary float.
// Wire: prices `*_dollars` (tick 0.0001, up to 6 decimals on fee/cost fields), counts `*_fp`
// (0.01 contract). Integers where the engine and books need them: price ticks (0.0001 $),
// centi-contracts (0.01), cents and centi-cents.
import DecimalBase from 'decimal.js';

/** The one Decimal clone used everywhere: wide precision, half-even only where we say so. */
export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;

export const PRICE_TICK = new Decimal('0.0001');
export const TICKS_PER_DOLLAR = 10_000;
export const MAX_PRICE_TICKS = 10_000;
export const CENTI_PER_CONTRACT = 100;

/** Lenient reader for what other servers send ("01.5" no, ".5" no, "1e3" no): plain decimals only. */
const WIRE_DECIMAL_RE = /^-?\d+(?:\.\d+)?$/;

export class MoneyError extends Error {
  override name = 'MoneyError';
}

/** Parse a wire decimal string exactly. Rejects exponents, blanks, NaN and anything a float would have produced. */
export function parseDecimal(text: string, what = 'value'): Decimal {
  if (typeof text !== 'string' || !WIRE_DECIMAL_RE.test(text)) {
    throw new MoneyError(`${what} must be a decimal string like "0.5300", got ${JSON.stringify(text)}`);
  }
  return new Decimal(text);
}

export function isDecimalString(text: unknown): text is string {
  return typeof text === 'string' && WIRE_DECIMAL_RE.test(text);
}

/** Dollars as a wire string with a fixed number of decimals (4 for prices, 6 for fees/costs, 2 for cash). */
export function formatDollars(value: Decimal, decimals = 4): string {
  return value.toFixed(decimals, Decimal.ROUND_HALF_EVEN);
}

/** A price for a message: two decimals for a cent price, four for a finer one ("0.52", "0.5203"); never rounded. */
export function priceText(value: Decimal): string {
  return value.toFixed(value.decimalPlaces() > 2 ? 4 : 2);
}

/** A count as a wire `_fp` string with exactly 2 decimals. Throws if it is finer than 0.01. */
export function formatCount(value: Decimal): string {
  if (value.decimalPlaces() > 2) throw new MoneyError(`count ${value.toString()} is finer than 0.01 contract`);
  return value.toFixed(2);
}

export interface PriceCheck {
  ok: boolean;
  reason?: string;
}

/** A request price: a multiple of 0.0001 strictly between 0 and 1 dollar (binary contracts settle at 0 or 1). */
export function checkOrderPrice(price: Decimal): PriceCheck {
  if (!price.isFinite()) return { ok: false, reason: 'price is not a number' };
  if (price.lte(0) || price.gte(1)) return { ok: false, reason: 'price must be above 0 and below 1 dollar' };
  // by the digits, never by a division: a division rounds to the working precision, so
  // 0.53000000000000000000000000000000000000001 would pass as a multiple of the tick
  if (price.decimalPlaces() > 4) return { ok: false, reason: 'price must be a multiple of 0.0001' };
  return { ok: true };
}

/** A count: positive, a multiple of 0.01. */
export function checkOrderCount(count: Decimal): PriceCheck {
  if (!count.isFinite()) return { ok: false, reason: 'count is not a number' };
  if (count.lte(0)) return { ok: false, reason: 'count must be positive' };
  if (count.decimalPlaces() > 2) return { ok: false, reason: 'count must be a multiple of 0.01' };
  return { ok: true };
}

/** "0.5300" -> 5300 ticks. Throws unless the price is an exact multiple of the tick in [0, 1]. */
export function dollarsToTicks(text: string): number {
  const d = parseDecimal(text, 'price');
  const ticks = d.mul(TICKS_PER_DOLLAR);
  if (d.decimalPlaces() > 4 || ticks.lt(0) || ticks.gt(MAX_PRICE_TICKS)) {
    throw new MoneyError(`price ${text} is not a multiple of 0.0001 between 0 and 1`);
  }
  return ticks.toNumber();
}

export function ticksToDollars(ticks: number): string {
  if (!Number.isInteger(ticks)) throw new MoneyError(`ticks must be an integer, got ${ticks}`);
  return new Decimal(ticks).div(TICKS_PER_DOLLAR).toFixed(4);
}

/** "12.34" -> 1234 centi-contracts. Throws on a count finer than 0.01 or beyond safe integers. */
export function countToCenti(text: string): number {
  const centi = parseDecimal(text, 'count').mul(CENTI_PER_CONTRACT);
  if (!centi.isInteger()) throw new MoneyError(`count ${text} is finer than 0.01 contract`);
  if (centi.abs().gt(Number.MAX_SAFE_INTEGER)) throw new MoneyError(`count ${text} is too large`);
  return centi.toNumber();
}

export function centiToCount(centi: number): string {
  if (!Number.isSafeInteger(centi)) throw new MoneyError(`centi-count must be a safe integer, got ${centi}`);
  return new Decimal(centi).div(CENTI_PER_CONTRACT).toFixed(2);
}

export function centsToDollars(cents: number | string): string {
  return new Decimal(cents).div(100).toFixed(2);
}

/** Dollars to whole cents; throws unless exact (use roundDollarsToCents to round on purpose). */
export function dollarsToCents(text: string): number {
  const cents = parseDecimal(text, 'amount').mul(100);
  if (!cents.isInteger()) throw new MoneyError(`amount ${text} is finer than a cent`);
  return cents.toNumber();
}

export function roundUpToCent(value: Decimal): Decimal {
  return value.mul(100).ceil().div(100);
}

/** Centi-cents (1/10000 dollar) are integers on block trade proposals. */
export function centiCentsToDollars(centiCents: number): string {
  return new Decimal(centiCents).div(10_000).toFixed(4);
}

export function dollarsToCentiCents(text: string): number {
  const cc = parseDecimal(text, 'amount').mul(10_000);
  if (!cc.isInteger()) throw new MoneyError(`amount ${text} is finer than a centi-cent`);
  return cc.toNumber();
}

/** Fee of one fill per the exchange's schedule: ceil to the cent of rate x multiplier x C x P x (1-P). */
export function fillFee(rate: Decimal, multiplier: Decimal, contracts: Decimal, price: Decimal): Decimal {
  return roundUpToCent(rate.mul(multiplier).mul(contracts).mul(price).mul(new Decimal(1).minus(price)));
}

export const TAKER_FEE_RATE = new Decimal('0.07');
export const MAKER_FEE_RATE = new Decimal('0.0175');

/** Cost to buy `count` YES at `price` (or NO at 1-price for an ask), before fees. */
export function orderCost(side: 'bid' | 'ask', price: Decimal, count: Decimal): Decimal {
  const each = side === 'bid' ? price : new Decimal(1).minus(price);
  return each.mul(count);
}

/** Move a price by whole ticks, clamped to the valid order range. */
export function stepPrice(price: Decimal, ticks: number): Decimal {
  const next = price.add(PRICE_TICK.mul(ticks));
  if (next.lt(PRICE_TICK)) return PRICE_TICK;
  const max = new Decimal(1).minus(PRICE_TICK);
  return next.gt(max) ? max : next;
}
