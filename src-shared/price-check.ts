// Whether a market takes a price, and if not, why in the trader's words: the ladder, the ticket
// and main (before anything is sent) refuse a price off the market's grid with the same message.
import { Decimal, isDecimalString } from './money';
import { formatPriceAtTick, isOnTick, nextTick, orderPriceBounds, stepAt, type PriceRange } from './price-ranges';

/** null when the market takes `price` for an order; else what is wrong, naming the nearest prices it takes. */
export function offTickReason(price: string | Decimal, ranges: readonly PriceRange[] | undefined): string | null {
  if (typeof price === 'string' && !isDecimalString(price)) return `${price} is not a price`;
  const p = new Decimal(price);
  const { min, max } = orderPriceBounds(ranges);
  const fmt = (d: Decimal) => formatPriceAtTick(d, ranges);
  if (p.lt(min) || p.gt(max)) return `${p.toString()} is outside the prices this market takes (${fmt(min)} to ${fmt(max)})`;
  if (isOnTick(p, ranges)) return null;
  const step = stepAt(p, ranges);
  const below = nextTick(p, -1, ranges);
  const above = nextTick(p, 1, ranges);
  return `${p.toString()} is not a price this market takes: it trades in steps of ${step.toString()} there (${fmt(below)} or ${fmt(above)})`;
}
