// The ladder's rows of a market: its price grid (lib/ticks, from the market rows read) in the
// view's terms, so the rows, steps, scrolls and clicks are prices the market takes.
import { priceRangesOf } from '../../lib/ticks';
import { tickGridOf, type TickGrid, type View } from './ladder-model';

export function ladderGrid(ticker: string | null | undefined, view: View): TickGrid | undefined {
  return tickGridOf(priceRangesOf(ticker), view);
}
