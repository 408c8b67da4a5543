// How many decimals each market's prices show, from its price_ranges (2 for a cent market, 3 or
// 4 for finer ticks), learnt from every market row the terminal reads. Lists, blotters and the
// tape format a market's prices with it so a column lines up and never shows sub-tick noise.
import { finestStep, priceDecimals, type PriceRange } from '../../src-shared/price-ranges';
import { fmtPrice } from '../lib/format';
import type { Decimal } from '../../src-shared/money';

const decimals = new Map<string, number>();

/** Records the price decimals of market rows ({ ticker, price_ranges }) in any answer. */
export function noteMarkets(rows: readonly unknown[]): void {
  for (const r of rows) {
    if (!r || typeof r !== 'object') continue;
    const m = r as { ticker?: unknown; price_ranges?: unknown };
    if (typeof m.ticker !== 'string') continue;
    decimals.set(m.ticker, priceDecimals(finestStep(Array.isArray(m.price_ranges) ? (m.price_ranges as PriceRange[]) : undefined)));
  }
}

/** Looks through a REST answer for markets (a `market`, a `markets` list, an event's nested markets). */
export function noteAnswer(answer: unknown): void {
  if (!answer || typeof answer !== 'object') return;
  const a = answer as { market?: unknown; markets?: unknown; event?: { markets?: unknown }; events?: unknown };
  if (a.market) noteMarkets([a.market]);
  if (Array.isArray(a.markets)) noteMarkets(a.markets);
  if (a.event && Array.isArray(a.event.markets)) noteMarkets(a.event.markets);
  if (Array.isArray(a.events)) for (const e of a.events as { markets?: unknown }[]) if (Array.isArray(e?.markets)) noteMarkets(e.markets);
}

export function priceDecimalsOf(ticker: string | null | undefined): number | undefined {
  return ticker ? decimals.get(ticker) : undefined;
}

/** A price of this market at its own decimals. */
export function fmtPx(ticker: string | null | undefined, value: string | Decimal | null | undefined): string {
  return fmtPrice(value, priceDecimalsOf(ticker));
}
