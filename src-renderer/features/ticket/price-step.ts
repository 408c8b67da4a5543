// Nudging a typed price by the market's own tick (src-shared/price-ranges says which step applies where).
import type { Decimal } from '../../../src-shared/money';
import { nextTick, stepAt, type PriceRange } from '../../../src-shared/price-ranges';

export { stepAt, type PriceRange };

/**
 * One tick up or down on the market's grid (an off-grid price moves to the next grid line; a
 * boundary of a tapered market steps by the finer tick on its finer side), kept inside (0, 1).
 */
export function nudgePrice(price: Decimal, direction: 1 | -1, ranges: readonly PriceRange[] | undefined): Decimal {
  return nextTick(price, direction, ranges);
}
