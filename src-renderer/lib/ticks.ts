// Each market's price grid (its price_ranges), learnt from every market row the terminal reads,
// and the renderer's one price formatter on top of it: fmtPx writes a price at its market's tick
// ("0.43" in a cent market, "0.095" in a tapered one's tail, "0.450" in a deci-cent market), so
// every panel (lists, blotters, tape, ladder, chart, ticket, toasts) shows the same text for the
// same price and never shows sub-tick noise. src-shared/price-ranges holds the rules
// (formatPriceAtTick; isPriceTextAtTick checks a shown text against them).
import { finestStep, formatPriceAtTick, priceDecimals, type PriceRange } from '../../src-shared/price-ranges';
import { ticksToDollars, type Decimal } from '../../src-shared/money';
import { offTickReason } from '../../src-shared/price-check';

const ranges = new Map<string, PriceRange[] | undefined>();
/** Per market, the label of a price in ticks (the ladder paints these every frame). */
const labels = new Map<string, Map<number, string>>();
/**
 * Markets whose row labels are cached, at most (each holds up to one label a tick): past this the
 * market cached first is dropped, and a ladder that shows it again formats its rows once more.
 */
export const MAX_LABEL_MARKETS = 32;

/** How many markets' row labels are cached (tests). */
export function labelMarketsCached(): number {
  return labels.size;
}

function rangesOfRow(v: unknown): PriceRange[] | undefined {
  return Array.isArray(v) ? (v as PriceRange[]) : undefined;
}

/** Records the price grids of market rows ({ ticker, price_ranges }) in any answer. */
export function noteMarkets(rows: readonly unknown[]): void {
  for (const r of rows) {
    if (!r || typeof r !== 'object') continue;
    const m = r as { ticker?: unknown; price_ranges?: unknown };
    if (typeof m.ticker !== 'string') continue;
    const next = rangesOfRow(m.price_ranges);
    if (ranges.has(m.ticker) && JSON.stringify(ranges.get(m.ticker)) === JSON.stringify(next)) continue;
    ranges.set(m.ticker, next);
    labels.delete(m.ticker);
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

/** The market's price ranges as last read (undefined: not read yet, or none: whole cents). */
export function priceRangesOf(ticker: string | null | undefined): PriceRange[] | undefined {
  return ticker ? ranges.get(ticker) : undefined;
}

/** The decimals of the market's finest tick (a chart axis, a column's width), once its market was read. */
export function priceDecimalsOf(ticker: string | null | undefined): number | undefined {
  if (!ticker || !ranges.has(ticker)) return undefined;
  return priceDecimals(finestStep(ranges.get(ticker)));
}

/**
 * A price of this market at its tick: the one price formatter of the renderer. Exact: a price off
 * the grid (never sent by the exchange) keeps every digit. '—' for nothing.
 */
export function fmtPx(ticker: string | null | undefined, value: string | Decimal | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = formatPriceAtTick(value, priceRangesOf(ticker));
  return /^-?\d+(\.\d+)?$/.test(text) ? text : '—';
}

/**
 * A ladder row's label: the price at its market's tick, written with at least the decimals of the
 * rows' spacing (ticks of 0.0001: 100 -> 2, 10 -> 3, 1 -> 4), so a column of rows spaced finer
 * than the tick still lines up ("0.460", "0.459", not "0.46", "0.459").
 */
export function fmtRowTicks(ticker: string | null | undefined, ticks: number, spacing: number): string {
  const text = fmtTicks(ticker, ticks);
  const want = spacing % 100 === 0 ? 2 : spacing % 10 === 0 ? 3 : 4;
  const dot = text.indexOf('.');
  const have = dot < 0 ? 0 : text.length - dot - 1;
  return have >= want ? text : `${text}${dot < 0 ? '.' : ''}${'0'.repeat(want - have)}`;
}

/** fmtPx of a price in ticks (0.0001), cached per market: the ladder's row labels. */
export function fmtTicks(ticker: string | null | undefined, ticks: number): string {
  const key = ticker ?? '';
  let m = labels.get(key);
  if (!m) {
    if (labels.size >= MAX_LABEL_MARKETS) labels.delete(labels.keys().next().value!);
    labels.set(key, (m = new Map()));
  }
  let text = m.get(ticks);
  if (text === undefined) m.set(ticks, (text = fmtPx(ticker, ticksToDollars(ticks))));
  return text;
}

/**
 * Why the market does not take this price for an order (off its grid, or outside it), naming the
 * nearest prices it takes; null when it does, or while its grid is not known yet (main checks
 * again before sending).
 */
export function priceRefusal(ticker: string | null | undefined, price: string | Decimal): string | null {
  if (!ticker || !ranges.has(ticker)) return null;
  return offTickReason(price, ranges.get(ticker));
}
