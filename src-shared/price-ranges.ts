// A market's price grid: its price_ranges say which step (tick) applies where; without them a
// market trades in whole cents. The real service publishes one of a few price level structures
// (docs: "Fixed-Point Migration", Price Level Structures); PRICE_LEVEL_STRUCTURES holds their
// ranges exactly as the market answers carry them. Shared by the embedded exchange (what it
// publishes and refuses), the ticket (nudging a typed price), every panel that shows a price
// (formatPriceAtTick) and main's local orders (ticks through).
import { Decimal, isDecimalString, PRICE_TICK } from './money';

export interface PriceRange {
  start: string;
  end: string;
  step: string;
}

export const CENT = new Decimal('0.01');

/** The price level structures the real service publishes, and their ranges as it writes them. */
export const PRICE_LEVEL_STRUCTURES = {
  /** whole cents everywhere: most markets */
  linear_cent: [{ start: '0.0000', end: '1.0000', step: '0.0100' }],
  /** tenths of a cent in the tails (below 0.10 and above 0.90), cents in between */
  tapered_deci_cent: [
    { start: '0.0000', end: '0.1000', step: '0.0010' },
    { start: '0.1000', end: '0.9000', step: '0.0100' },
    { start: '0.9000', end: '1.0000', step: '0.0010' },
  ],
  /** tenths of a cent everywhere */
  deci_cent: [{ start: '0.0000', end: '1.0000', step: '0.0010' }],
  /** hundredths of a cent (the wire's finest price) everywhere */
  linear_centi_cent: [{ start: '0.0000', end: '1.0000', step: '0.0001' }],
} as const satisfies Record<string, readonly PriceRange[]>;

export type PriceLevelStructure = keyof typeof PRICE_LEVEL_STRUCTURES;

export function isPriceLevelStructure(v: unknown): v is PriceLevelStructure {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(PRICE_LEVEL_STRUCTURES, v);
}

/** The ranges of a structure, as fresh wire objects. */
export function rangesOf(structure: PriceLevelStructure): PriceRange[] {
  return PRICE_LEVEL_STRUCTURES[structure].map((r) => ({ ...r }));
}

interface Grid {
  start: Decimal;
  end: Decimal;
  step: Decimal;
}

const ONE = new Decimal(1);
const CENT_GRID: readonly Grid[] = [{ start: new Decimal(0), end: ONE, step: CENT }];
const gridCache = new WeakMap<readonly PriceRange[], readonly Grid[]>();

/** The usable ranges (decimal bounds, a positive step on the 0.0001 grid), or whole cents without any. */
function gridOf(ranges: readonly PriceRange[] | undefined): readonly Grid[] {
  if (!ranges || ranges.length === 0) return CENT_GRID;
  const cached = gridCache.get(ranges);
  if (cached) return cached;
  const out: Grid[] = [];
  for (const r of ranges) {
    if (!r || !isDecimalString(r.start) || !isDecimalString(r.end) || !isDecimalString(r.step)) continue;
    const step = new Decimal(r.step);
    if (step.lte(0) || !step.div(PRICE_TICK).isInteger()) continue;
    out.push({ start: new Decimal(r.start), end: new Decimal(r.end), step });
  }
  const grid = out.length ? out : CENT_GRID;
  gridCache.set(ranges, grid);
  return grid;
}

const onGrid = (p: Decimal, g: Grid): boolean => p.gte(g.start) && p.lte(g.end) && p.minus(g.start).div(g.step).isInteger();

function toPrice(price: Decimal | string): Decimal | null {
  if (typeof price !== 'string') return price;
  return isDecimalString(price) ? new Decimal(price) : null;
}

/**
 * Whether a price lies on the market's grid: inside a range and a whole number of that range's
 * steps from its start. 0 and 1 (empty side, settlement value) are on every grid.
 */
export function isOnTick(price: Decimal | string, ranges: readonly PriceRange[] | undefined): boolean {
  const p = toPrice(price);
  if (!p || p.lt(0) || p.gt(1)) return false;
  if (p.isZero() || p.eq(ONE)) return true;
  return gridOf(ranges).some((g) => onGrid(p, g));
}

/**
 * The step that applies at a price. Going up (`direction` 1) a boundary price takes the range
 * above it, going down (-1) the range below; without a direction, the first range holding it.
 */
export function stepAt(price: Decimal, ranges: readonly PriceRange[] | undefined, direction?: 1 | -1): Decimal {
  const grid = gridOf(ranges);
  const hit =
    direction === 1 ? grid.find((g) => price.gte(g.start) && price.lt(g.end))
    : direction === -1 ? grid.find((g) => price.gt(g.start) && price.lte(g.end))
    : grid.find((g) => price.gte(g.start) && price.lte(g.end));
  return hit?.step ?? CENT;
}

/** The next price on the grid strictly above (1) or below (-1) `price`, or undefined past 0 or 1. */
function adjacent(price: Decimal, direction: 1 | -1, grid: readonly Grid[]): Decimal | undefined {
  const g = direction === 1 ? grid.find((x) => price.gte(x.start) && price.lt(x.end)) : grid.find((x) => price.gt(x.start) && price.lte(x.end));
  if (!g) return undefined;
  const k = price.minus(g.start).div(g.step);
  const next = g.start.add((direction === 1 ? k.floor().add(1) : k.ceil().minus(1)).mul(g.step));
  return direction === 1 ? Decimal.min(next, g.end) : Decimal.max(next, g.start);
}

/** The lowest and highest prices an order may carry on this grid (one tick inside 0 and 1). */
export function orderPriceBounds(ranges: readonly PriceRange[] | undefined): { min: Decimal; max: Decimal } {
  const grid = gridOf(ranges);
  return { min: adjacent(new Decimal(0), 1, grid) ?? CENT, max: adjacent(ONE, -1, grid) ?? ONE.minus(CENT) };
}

/**
 * One tick up or down from `price` on the market's grid (an off-grid price moves to the next grid
 * line in that direction), kept to prices an order may carry.
 */
export function nextTick(price: Decimal, direction: 1 | -1, ranges: readonly PriceRange[] | undefined): Decimal {
  const grid = gridOf(ranges);
  const { min, max } = orderPriceBounds(ranges);
  const next = adjacent(price, direction, grid) ?? (direction === 1 ? max : min);
  if (next.lt(min)) return min;
  if (next.gt(max)) return max;
  return next;
}

/** The finest step anywhere in the market (what its prices must be shown to), 0.01 without ranges. */
export function finestStep(ranges: readonly PriceRange[] | undefined): Decimal {
  let finest = CENT;
  for (const g of gridOf(ranges)) if (g.step.lt(finest)) finest = g.step;
  return finest;
}

/** Decimals a price of a market with this finest step shows: 2 for cents, 3 or 4 for finer ticks. */
export function priceDecimals(step: Decimal): number {
  return Math.max(2, step.decimalPlaces());
}

/**
 * The decimals a price is shown with: those of the coarsest step whose grid it lies on (a cent
 * market's 0.43 is "0.43", a tapered market's 0.095 is "0.095" and its 0.10 "0.10"). A price on
 * no grid (which the exchange never sends) keeps every digit it has, so nothing is hidden.
 */
export function tickDecimals(price: Decimal, ranges: readonly PriceRange[] | undefined): number {
  let coarsest: Decimal | undefined;
  for (const g of gridOf(ranges)) if (onGrid(price, g) && (!coarsest || g.step.gt(coarsest))) coarsest = g.step;
  return coarsest ? priceDecimals(coarsest) : Math.max(2, Math.min(price.decimalPlaces(), 6));
}

/** A price as text at the market's tick: "0.43", "0.095", "0.4312". Exact: never rounded. */
export function formatPriceAtTick(price: Decimal | string, ranges: readonly PriceRange[] | undefined): string {
  const p = toPrice(price);
  if (!p) return String(price);
  return p.toFixed(tickDecimals(p, ranges));
}

/**
 * For checking what a screen shows: the text is a plain price ("0.43"), it lies on the market's
 * grid, and it is written with exactly the decimals of its tick (formatPriceAtTick's output).
 */
export function isPriceTextAtTick(text: string, ranges: readonly PriceRange[] | undefined): boolean {
  if (!/^\d+\.\d+$/.test(text)) return false;
  return isOnTick(text, ranges) && formatPriceAtTick(text, ranges) === text;
}
