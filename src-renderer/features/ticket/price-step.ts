// Nudging a typed price by the market's own step (src-shared/price-ranges says which step applies where).
import { Decimal } from '../../../src-shared/money';
import { stepAt, type PriceRange } from '../../../src-shared/price-ranges';

export { stepAt, type PriceRange };

/** One step up or down onto the step's grid (an off-grid price moves to the next grid line), kept inside (0, 1). */
export function nudgePrice(price: Decimal, direction: 1 | -1, ranges: readonly PriceRange[] | undefined): Decimal {
  const step = stepAt(price, ranges);
  const next = direction > 0 ? price.div(step).floor().mul(step).add(step) : price.div(step).ceil().mul(step).sub(step);
  const max = new Decimal(1).minus(step);
  if (next.lt(step)) return step;
  if (next.gt(max)) return max;
  return next;
}
