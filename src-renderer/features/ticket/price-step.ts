// The price increment of a market at a price: its price_ranges say which step applies where;
// without them a market trades in whole cents.
import { Decimal, isDecimalString, PRICE_TICK } from '../../../src-shared/money';

export interface PriceRange {
  start: string;
  end: string;
  step: string;
}

export function stepAt(price: Decimal, ranges: readonly PriceRange[] | undefined): Decimal {
  for (const r of ranges ?? []) {
    if (!isDecimalString(r.start) || !isDecimalString(r.end) || !isDecimalString(r.step)) continue;
    if (price.gte(r.start) && price.lte(r.end)) {
      const step = new Decimal(r.step);
      if (step.gt(0) && step.div(PRICE_TICK).isInteger()) return step;
    }
  }
  return new Decimal('0.01');
}

/** One step up or down onto the step's grid (an off-grid price moves to the next grid line), kept inside (0, 1). */
export function nudgePrice(price: Decimal, direction: 1 | -1, ranges: readonly PriceRange[] | undefined): Decimal {
  const step = stepAt(price, ranges);
  const next = direction > 0 ? price.div(step).floor().mul(step).add(step) : price.div(step).ceil().mul(step).sub(step);
  const max = new Decimal(1).minus(step);
  if (next.lt(step)) return step;
  if (next.gt(max)) return max;
  return next;
}
