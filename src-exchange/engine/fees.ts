// Trading fees per the protocol notes (docs/spec/protocol-notes.md): fee = round up to the cent of
// rate x fee_multiplier x C x P x (1 - P). With C in centi-contracts, P in ticks and the
// multiplier per 10,000 that is ceil(k x m x c x t x (10000 - t) / 4e14) cents, where
// k = 28 for the taker rate 0.07 and k = 7 for the maker rate 0.0175.
//
// An order that fills in pieces pays, in total, the rounded-up fee of everything it
// filled: each order keeps the fraction of a cent it has already paid for (its carry),
// so a fill is charged ceil(fee so far) - ceil(fee before). A single fill pays exactly
// the formula above; many small fills never pay a cent each for rounding.

import { MICRO_PER_CENT, TICKS_PER_DOLLAR } from './units';

export type FeeType = 'quadratic' | 'quadratic_with_maker_fees';

export const FEE_DENOMINATOR = 4e14;
export const TAKER_K = 28;
export const MAKER_K = 7;
/** Largest fee multiplier accepted (100x, stored per 10,000). */
export const MAX_FEE_MULTIPLIER_E4 = 1_000_000;
const BIG_DENOMINATOR = BigInt(FEE_DENOMINATOR);
const SAFE_PRODUCT = 9e15;

/**
 * ceil(x / d) for the float path: x an integer in (-d, 9e15), d = 4e14. The quotient is below 23
 * and differs from any integer by at least 1/d = 2.5e-15, more than half a double's spacing there
 * (1.8e-15), so the correctly rounded division never lands on the wrong side of an integer and
 * floor(x / d) is exact.
 */
export function ceilDiv(x: number, d: number): number {
  const q = Math.floor(x / d);
  return x - q * d > 0 ? q + 1 : q;
}

/** P x (1 - P) scaled by 10^8 for a price in ticks. */
export function priceVariance(ticks: number): number {
  return ticks * (TICKS_PER_DOLLAR - ticks);
}

/** Maker fee k for a market's fee type (0 when makers pay nothing). */
export function makerK(feeType: FeeType): number {
  return feeType === 'quadratic_with_maker_fees' ? MAKER_K : 0;
}

/** Fee in cents of one fill taken alone: the protocol formula. */
export function fillFeeCents(k: number, multiplierE4: number, countCenti: number, priceTicks: number): number {
  const w = priceVariance(priceTicks);
  const est = k * multiplierE4 * countCenti * w;
  if (est < SAFE_PRODUCT) return ceilDiv(est, FEE_DENOMINATOR);
  const x = BigInt(k) * BigInt(multiplierE4) * BigInt(countCenti) * BigInt(w);
  return Number((x + BIG_DENOMINATOR - 1n) / BIG_DENOMINATOR);
}

/** Result of charging a fill against an order's fee carry (reused; read it at once). */
export const feeCharge = { cents: 0, carry: 0 };

/**
 * Charge one fill given the order's carry (the part of a cent, in units of 1/4e14 cent,
 * already paid for). Writes the cents due and the new carry into `feeCharge`.
 */
export function chargeFee(k: number, multiplierE4: number, countCenti: number, priceTicks: number, carry: number): typeof feeCharge {
  const out = feeCharge;
  const w = priceVariance(priceTicks);
  const est = k * multiplierE4 * countCenti * w;
  if (est < SAFE_PRODUCT) {
    // need > -FEE_DENOMINATOR (the carry is less than a cent): a fill the carry covers costs 0
    const need = est - carry;
    const cents = ceilDiv(need, FEE_DENOMINATOR);
    out.cents = cents;
    out.carry = cents * FEE_DENOMINATOR - need;
    return out;
  }
  const x = BigInt(k) * BigInt(multiplierE4) * BigInt(countCenti) * BigInt(w);
  const need = x - BigInt(carry);
  const cents = (need + BIG_DENOMINATOR - 1n) / BIG_DENOMINATOR;
  out.cents = Number(cents);
  out.carry = Number(cents * BIG_DENOMINATOR - need);
  return out;
}

/** Largest P x (1 - P) (x 10^8) over the prices an order on its own leg at `ownPrice` can trade at. */
export function worstVariance(ownPrice: number): number {
  return ownPrice >= TICKS_PER_DOLLAR / 2 ? priceVariance(TICKS_PER_DOLLAR / 2) : priceVariance(ownPrice);
}

/**
 * Cash held back for the fees a resting count can still incur (micro-dollars): the taker
 * fee on all of it at the worst price it can trade at, plus one cent because the taker
 * and maker carries each round up on their own. Bounds every future charge.
 */
export function feeReserveMicro(multiplierE4: number, countCenti: number, ownPrice: number): number {
  if (multiplierE4 === 0 || countCenti === 0) return 0;
  const w = worstVariance(ownPrice);
  const est = TAKER_K * multiplierE4 * countCenti * w;
  let cents: number;
  if (est < SAFE_PRODUCT) cents = ceilDiv(est, FEE_DENOMINATOR);
  else {
    const x = BigInt(TAKER_K) * BigInt(multiplierE4) * BigInt(countCenti) * BigInt(w);
    cents = Number((x + BIG_DENOMINATOR - 1n) / BIG_DENOMINATOR);
  }
  return (cents + 1) * MICRO_PER_CENT;
}
