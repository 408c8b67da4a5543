// A market's price level structure on the engine's integer ticks (0.0001 dollars): the grids of
// src-shared/price-ranges' PRICE_LEVEL_STRUCTURES (the one table of what the service publishes),
// read once into integers so checking an order's price costs a few comparisons.
import { isPriceLevelStructure, PRICE_LEVEL_STRUCTURES, type PriceLevelStructure } from '../../src-shared/price-ranges';
import { reject, type Reject } from './errors';
import { ticksToDollars, TICKS_PER_DOLLAR } from './units';

export { isPriceLevelStructure, type PriceLevelStructure };

/**
 * What a market made without a structure trades on: the engine's own grid. Journals and
 * snapshots written before markets carried a structure replay on it unchanged; the catalog
 * always names one.
 */
export const DEFAULT_PRICE_LEVEL_STRUCTURE: PriceLevelStructure = 'linear_centi_cent';

interface TickRange {
  start: number;
  end: number;
  step: number;
}

const toTicks = (dollars: string): number => {
  const [whole = '0', frac = ''] = dollars.split('.');
  return Number(whole) * TICKS_PER_DOLLAR + Number((frac + '0000').slice(0, 4));
};

const GRIDS = {} as Record<PriceLevelStructure, readonly TickRange[]>;
for (const name of Object.keys(PRICE_LEVEL_STRUCTURES) as PriceLevelStructure[]) {
  GRIDS[name] = PRICE_LEVEL_STRUCTURES[name].map((r) => ({ start: toTicks(r.start), end: toTicks(r.end), step: toTicks(r.step) }));
}

/** Whether a price in ticks lies on the structure's grid. */
export function onTick(structure: PriceLevelStructure, ticks: number): boolean {
  for (const r of GRIDS[structure]) if (ticks >= r.start && ticks <= r.end && (ticks - r.start) % r.step === 0) return true;
  return false;
}

/** The step (ticks) of the range holding a price: the finer one on a boundary. */
function stepOf(structure: PriceLevelStructure, ticks: number): number {
  let step = 0;
  for (const r of GRIDS[structure]) if (ticks >= r.start && ticks <= r.end && (step === 0 || r.step < step)) step = r.step;
  return step || TICKS_PER_DOLLAR;
}

/**
 * The service's refusal of a price off the market's grid: 400 `invalid_price` ("invalid price"),
 * the details saying which tick applies there. Undefined when the price is on the grid.
 */
export function checkTick(structure: PriceLevelStructure, ticks: number, field = 'price'): Reject | undefined {
  if (onTick(structure, ticks)) return undefined;
  const step = stepOf(structure, ticks);
  return reject('invalid_price', 'invalid price', `${field} ${ticksToDollars(ticks)} is not on the market's tick: ${ticksToDollars(step)} there (${structure})`);
}
