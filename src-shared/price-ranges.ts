// The price increment of a market at a price: its price_ranges say which step applies where;
// without them a market trades in whole cents. Shared by the ticket (nudging a typed price), the
// lists and ladder (how many decimals a price shows) and main's local orders (ticks through).
import { Decimal, isDecimalString, PRICE_TICK } from './money';

export interface PriceRange {
  start: string;
  end: string;
  step: string;
}

export const CENT = new Decimal('0.01');

export function stepAt(price: Decimal, ranges: readonly PriceRange[] | undefined): Decimal {
  for (const r of ranges ?? []) {
    if (!isDecimalString(r.start) || !isDecimalString(r.end) || !isDecimalString(r.step)) continue;
    if (price.gte(r.start) && price.lte(r.end)) {
      const step = new Decimal(r.step);
      if (step.gt(0) && step.div(PRICE_TICK).isInteger()) return step;
    }
  }
  return CENT;
}

/** The finest step anywhere in the market (what its prices must be shown to), 0.01 without ranges. */
export function finestStep(ranges: readonly PriceRange[] | undefined): Decimal {
  let finest = CENT;
  for (const r of ranges ?? []) {
    if (!isDecimalString(r.step)) continue;
    const step = new Decimal(r.step);
    if (step.gt(0) && step.div(PRICE_TICK).isInteger() && step.lt(finest)) finest = step;
  }
  return finest;
}

/** Decimals a price of a market with this finest step shows: 2 for cents, 3 or 4 for finer ticks. */
export function priceDecimals(step: Decimal): number {
  return Math.max(2, step.decimalPlaces());
}
