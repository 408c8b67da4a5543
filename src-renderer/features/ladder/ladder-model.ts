// The ladder's rows from a BookView, on integer ticks only. In the NO view every price q is the
// YES price 10000 - q and the sides swap: a NO bid is a YES ask. Orders always go in on the YES leg.
import type { BookView } from '../../../src-shared/ipc/contract';
import { Decimal, isDecimalString, MAX_PRICE_TICKS, TICKS_PER_DOLLAR } from '../../../src-shared/money';
import type { PriceRange } from '../../../src-shared/price-ranges';

export type View = 'yes' | 'no';
export type Side = 'bid' | 'ask';

export interface MyOrderLite {
  order_id: string;
  /** YES-leg side */
  side: Side;
  /** YES price in ticks */
  priceTicks: number;
  remainingCenti: number;
}

export interface LadderRow {
  /** the row's price in the view's terms, ticks */
  price: number;
  /** centi-contracts bid / offered at this row, in the view's terms */
  bid: number;
  ask: number;
  myBid: number;
  myAsk: number;
  myBidIds: string[];
  myAskIds: string[];
  zone: 'bid' | 'ask' | 'spread' | 'empty';
  isBestBid: boolean;
  isBestAsk: boolean;
  /** centi-contracts bid at this row's price or better (from the inside outward); 0 outside the bid side */
  cumBid: number;
  /** centi-contracts offered at this row's price or better; 0 outside the offer side */
  cumAsk: number;
}

export interface LadderModel {
  rows: LadderRow[];
  /** inside market in the view's terms, bucketed to the step */
  bestBid: number | null;
  bestAsk: number | null;
  /** the largest size among visible rows, for depth bars */
  maxSize: number;
  stale: boolean;
}

export interface LadderOptions {
  view: View;
  /** row spacing in ticks: 100 (1 cent), 10 or 1 */
  step: number;
  /** the first (highest) row's price in the view's terms */
  top: number;
  rows: number;
  /** the market's price grid (view terms): rows only at prices it takes */
  grid?: TickGrid | undefined;
}

export const flip = (s: Side): Side => (s === 'bid' ? 'ask' : 'bid');
const mirror = (ticks: number) => MAX_PRICE_TICKS - ticks;

/** One of a market's price ranges in ticks, in the view's terms: prices from start to end in steps of `step`. */
export interface TickRange {
  start: number;
  end: number;
  step: number;
}
/**
 * A market's price grid in the view's terms (ascending ranges): the rows a ladder lists. Without
 * one, rows are every `step` (whole cents, or the spacing chosen). With one, a row is a price the
 * market takes: the spacing chosen where the market's tick is as fine, its own tick where it is
 * coarser (a tapered market's Rows 0.001 lists 0.001 steps in its tails and cents between).
 */
export type TickGrid = readonly TickRange[];

const gridCache = new WeakMap<readonly PriceRange[], { yes: TickGrid; no: TickGrid }>();

/** The grid of a market's price_ranges for a view; undefined without ranges (uniform rows). */
export function tickGridOf(ranges: readonly PriceRange[] | undefined, view: View): TickGrid | undefined {
  if (!ranges || ranges.length === 0) return undefined;
  let g = gridCache.get(ranges);
  if (!g) {
    const yes: TickRange[] = [];
    for (const r of ranges) {
      if (!isDecimalString(r.start) || !isDecimalString(r.end) || !isDecimalString(r.step)) continue;
      const t = (d: string) => new Decimal(d).mul(TICKS_PER_DOLLAR).toNumber();
      const step = t(r.step);
      if (!Number.isSafeInteger(step) || step <= 0) continue;
      yes.push({ start: t(r.start), end: t(r.end), step });
    }
    yes.sort((a, b) => a.start - b.start);
    const no = yes.map((r) => ({ start: mirror(r.end), end: mirror(r.start), step: r.step })).reverse();
    g = { yes, no };
    gridCache.set(ranges, g);
  }
  const out = view === 'yes' ? g.yes : g.no;
  return out.length ? out : undefined;
}

/** The row spacing at a price going up (1) or down (-1): the chosen step, or the market's tick there where coarser. */
function rowStepAt(price: number, dir: 1 | -1, step: number, grid: TickGrid | undefined): number {
  if (!grid) return step;
  const r = dir === 1 ? grid.find((x) => price >= x.start && price < x.end) : grid.find((x) => price > x.start && price <= x.end);
  return r ? Math.max(step, r.step) : step;
}

/** The row a price falls in: a bid down to the row at or under it, an ask up to the row at or over it (`nearest`: the closer). */
export function snapRow(price: number, step: number, side: Side | 'nearest', grid?: TickGrid): number {
  if (!grid) {
    if (side === 'nearest') return Math.round(price / step) * step;
    return bucket(price, step, side);
  }
  const r = grid.find((x) => price >= x.start && price <= x.end);
  if (!r) return side === 'nearest' ? Math.round(price / step) * step : bucket(price, step, side);
  const s = Math.max(step, r.step);
  const k = (price - r.start) / s;
  const n = side === 'bid' ? Math.floor(k) : side === 'ask' ? Math.ceil(k) : Math.round(k);
  return Math.min(r.end, r.start + n * s);
}

/** `n` rows above (n > 0) or below (n < 0) a row price, on the grid. */
export function shiftRows(price: number, n: number, step: number, grid?: TickGrid): number {
  if (!grid) return price + n * step;
  let p = price;
  const dir: 1 | -1 = n > 0 ? 1 : -1;
  for (let i = 0; i < Math.abs(n); i++) {
    const next = p + dir * rowStepAt(p, dir, step, grid);
    if (next <= 0 || next >= MAX_PRICE_TICKS) return dir === 1 ? Math.max(p, next) : Math.min(p, next);
    p = next;
  }
  return p;
}

/** Pairs of a compact level array, [price, count, price, count, ...]. */
export function levels(flat: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

/** View-side levels: the YES view is the book itself; the NO view mirrors and swaps the sides. */
export function viewLevels(book: Pick<BookView, 'yesBids' | 'yesAsks'>, view: View): { bids: [number, number][]; asks: [number, number][] } {
  if (view === 'yes') return { bids: levels(book.yesBids), asks: levels(book.yesAsks) };
  return {
    bids: levels(book.yesAsks).map(([p, c]) => [mirror(p), c]),
    asks: levels(book.yesBids).map(([p, c]) => [mirror(p), c]),
  };
}

/** Bids round down to their row and asks up, so a row never shows a better price than it holds. */
export function bucket(price: number, step: number, side: Side): number {
  return side === 'bid' ? Math.floor(price / step) * step : Math.ceil(price / step) * step;
}

/** The finest step the book's prices need: whole cents when every level sits on a cent. */
export function inferStep(book: Pick<BookView, 'yesBids' | 'yesAsks'> | undefined): number {
  if (!book) return 100;
  const prices = [...levels(book.yesBids), ...levels(book.yesAsks)].map(([p]) => p);
  if (prices.every((p) => p % 100 === 0)) return 100;
  if (prices.every((p) => p % 10 === 0)) return 10;
  return 1;
}

/** Mid of the inside market in YES ticks (floored), one side when the other is empty, else null. */
export function midTicks(book: Pick<BookView, 'yesBids' | 'yesAsks'> | undefined): number | null {
  const bid = book?.yesBids[0];
  const ask = book?.yesAsks[0];
  if (bid !== undefined && ask !== undefined) return Math.floor((bid + ask) / 2);
  return bid ?? ask ?? null;
}

/** The top row that puts `center` in the middle, kept inside (0, 10000) when the window allows. */
export function topForCenter(center: number, step: number, rows: number, grid?: TickGrid): number {
  if (grid) {
    const maxTop = snapRow(MAX_PRICE_TICKS - 1, step, 'bid', grid);
    const minTop = Math.min(maxTop, shiftRows(0, rows, step, grid));
    const top = shiftRows(snapRow(center, step, 'nearest', grid), Math.floor(rows / 2), step, grid);
    return Math.max(minTop, Math.min(maxTop, top));
  }
  const maxTop = Math.floor((MAX_PRICE_TICKS - 1) / step) * step;
  const minTop = Math.min(maxTop, step * rows);
  const top = Math.round(center / step) * step + Math.floor(rows / 2) * step;
  return Math.max(minTop, Math.min(maxTop, top));
}

/** A top row the trader scrolled to, kept where every row is a price inside (0, 10000) when the window allows. */
export function clampTop(top: number, step: number, rows: number, grid?: TickGrid): number {
  if (grid) {
    const maxTop = snapRow(MAX_PRICE_TICKS - 1, step, 'bid', grid);
    return Math.max(Math.min(maxTop, shiftRows(0, rows, step, grid)), Math.min(maxTop, snapRow(top, step, 'bid', grid)));
  }
  const maxTop = Math.floor((MAX_PRICE_TICKS - 1) / step) * step;
  return Math.max(Math.min(maxTop, step * rows), Math.min(maxTop, top));
}

export function toViewPrice(yesTicks: number, view: View): number {
  return view === 'yes' ? yesTicks : mirror(yesTicks);
}

/** The YES-leg order a click on a view side at a view price places. */
export function orderForClick(view: View, viewSide: Side, viewPrice: number): { side: Side; priceTicks: number } {
  return view === 'yes' ? { side: viewSide, priceTicks: viewPrice } : { side: flip(viewSide), priceTicks: mirror(viewPrice) };
}

export function buildLadder(book: BookView | undefined, mine: readonly MyOrderLite[], opts: LadderOptions): LadderModel {
  const { view, step, top, rows, grid } = opts;
  const bidAt = new Map<number, number>();
  const askAt = new Map<number, number>();
  let bestBid: number | null = null;
  let bestAsk: number | null = null;
  if (book) {
    const { bids, asks } = viewLevels(book, view);
    for (const [p, c] of bids) {
      const r = snapRow(p, step, 'bid', grid);
      bidAt.set(r, (bidAt.get(r) ?? 0) + c);
      if (bestBid === null || r > bestBid) bestBid = r;
    }
    for (const [p, c] of asks) {
      const r = snapRow(p, step, 'ask', grid);
      askAt.set(r, (askAt.get(r) ?? 0) + c);
      if (bestAsk === null || r < bestAsk) bestAsk = r;
    }
  }
  const myAt = new Map<string, { centi: number; ids: string[] }>();
  for (const o of mine) {
    const side = view === 'yes' ? o.side : flip(o.side);
    const r = snapRow(toViewPrice(o.priceTicks, view), step, side, grid);
    const key = `${side}:${r}`;
    const cell = myAt.get(key) ?? { centi: 0, ids: [] };
    cell.centi += o.remainingCenti;
    cell.ids.push(o.order_id);
    myAt.set(key, cell);
  }
  // cumulative depth over every level (not only the visible ones), from the inside outward
  const cumBidAt = cumulative(bidAt, 'bid');
  const cumAskAt = cumulative(askAt, 'ask');
  const out: LadderRow[] = [];
  let maxSize = 0;
  // rows from the top down: every `step`, or on the market's grid (its tick where coarser than the step)
  let price = grid ? snapRow(top, step, 'bid', grid) : top;
  for (let i = 0; i < rows; i++, price = grid ? shiftRows(price, -1, step, grid) : price - step) {
    if (price <= 0 || price >= MAX_PRICE_TICKS) continue;
    const bid = bidAt.get(price) ?? 0;
    const ask = askAt.get(price) ?? 0;
    maxSize = Math.max(maxSize, bid, ask);
    const mb = myAt.get(`bid:${price}`);
    const ma = myAt.get(`ask:${price}`);
    let zone: LadderRow['zone'] = 'empty';
    if (bestAsk !== null && price >= bestAsk) zone = 'ask';
    else if (bestBid !== null && price <= bestBid) zone = 'bid';
    else if (bestAsk !== null || bestBid !== null) zone = 'spread';
    out.push({
      price,
      bid,
      ask,
      myBid: mb?.centi ?? 0,
      myAsk: ma?.centi ?? 0,
      myBidIds: mb?.ids ?? [],
      myAskIds: ma?.ids ?? [],
      zone,
      isBestBid: price === bestBid,
      isBestAsk: price === bestAsk,
      cumBid: bestBid !== null && price <= bestBid ? depthAt(cumBidAt, price, 'bid') : 0,
      cumAsk: bestAsk !== null && price >= bestAsk ? depthAt(cumAskAt, price, 'ask') : 0,
    });
  }
  return { rows: out, bestBid, bestAsk, maxSize, stale: book?.stale ?? false };
}

/** Row prices with the running total from the inside outward: bids from the highest down, asks from the lowest up. */
export function cumulative(at: ReadonlyMap<number, number>, side: Side): [number, number][] {
  const prices = [...at.keys()].sort((a, b) => (side === 'bid' ? b - a : a - b));
  let sum = 0;
  return prices.map((p) => [p, (sum += at.get(p)!)]);
}

/** The cumulative depth at a row price: the total of every level at that price or better. */
export function depthAt(cum: readonly [number, number][], price: number, side: Side): number {
  let total = 0;
  for (const [p, c] of cum) {
    if (side === 'bid' ? p < price : p > price) break;
    total = c;
  }
  return total;
}

export interface TradeLite {
  /** YES price in ticks */
  yesTicks: number;
  centi: number;
}

/** Volume traded at each row price (view terms, bucketed down to the step), centi-contracts. */
export function volumeAtPrice(trades: Iterable<TradeLite>, view: View, step: number, grid?: TickGrid): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of trades) {
    const r = snapRow(toViewPrice(t.yesTicks, view), step, 'bid', grid);
    out.set(r, (out.get(r) ?? 0) + t.centi);
  }
  return out;
}

/** The row price (view terms) of a trade, bucketed as the volume column buckets it. */
export function tradeRow(t: TradeLite, view: View, step: number, grid?: TickGrid): number {
  return snapRow(toViewPrice(t.yesTicks, view), step, 'bid', grid);
}

/** A local conditional order as the ladder draws it: at its trigger's row, on its side. */
export interface LocalMark {
  id: string;
  label: string;
  row: number;
  side: Side;
}

/** Where each local order's marker goes in the painted rows (those whose trigger is off screen are left out). */
export function localMarks(rows: readonly Pick<LadderRow, 'price'>[], locals: readonly { id: string; side: Side; triggerTicks: number; label: string }[], view: View, step: number, grid?: TickGrid): LocalMark[] {
  const out: LocalMark[] = [];
  for (const o of locals) {
    const side = view === 'yes' ? o.side : flip(o.side);
    const at = snapRow(toViewPrice(o.triggerTicks, view), step, side, grid);
    const row = rows.findIndex((r) => r.price === at);
    if (row >= 0) out.push({ id: o.id, label: o.label, row, side });
  }
  return out;
}

export interface OpenPosition {
  /** average open price in YES ticks (fractional: an average need not sit on a tick) */
  avgYesTicks: number;
  /** the average as exact YES dollars, 4 decimals */
  avgYes: string;
  /** value at the mid minus cost, dollars; null without both sides of the book */
  pnl: string | null;
}

/**
 * A position's average open price and open P&L. A positive position holds YES and cost
 * `exposure` for `position` contracts; a negative one holds NO, so its YES-terms average is
 * 1 - cost per contract. The mark is the book's mid (YES ticks), as the Positions panel marks it.
 */
export function openPosition(position: string | undefined, exposure: string | undefined, midYesTicks: number | null): OpenPosition | null {
  if (!position || !exposure || !isDecimalString(position) || !isDecimalString(exposure)) return null;
  const p = new Decimal(position);
  if (p.isZero()) return null;
  const cost = new Decimal(exposure).abs();
  const perContract = cost.div(p.abs());
  const avg = p.gt(0) ? perContract : new Decimal(1).minus(perContract);
  let pnl: string | null = null;
  if (midYesTicks !== null) {
    const yes = new Decimal(midYesTicks).div(TICKS_PER_DOLLAR);
    const value = p.gt(0) ? p.mul(yes) : p.abs().mul(new Decimal(1).minus(yes));
    pnl = value.minus(cost).toFixed(4);
  }
  return { avgYesTicks: avg.mul(TICKS_PER_DOLLAR).toNumber(), avgYes: avg.toFixed(4), pnl };
}

/** The row (view terms, on the step) that holds an average YES price: the nearest row price. */
export function avgRow(avgYesTicks: number, view: View, step: number, grid?: TickGrid): number {
  const v = view === 'yes' ? avgYesTicks : MAX_PRICE_TICKS - avgYesTicks;
  return snapRow(v, step, 'nearest', grid);
}

/**
 * The price that joins the inside on a side and improves it by `n` rows of `step`, never
 * crossing: a bid stops one step under the best offer, an offer one step over the best bid
 * (a spread of one step joins). View terms; null when that side has no inside to join.
 */
export function improvePrice(bestBid: number | null, bestAsk: number | null, side: Side, n: number, step: number, grid?: TickGrid): number | null {
  if (side === 'bid') {
    if (bestBid === null) return null;
    let p = shiftRows(bestBid, n, step, grid);
    if (bestAsk !== null) p = Math.min(p, shiftRows(bestAsk, -1, step, grid));
    p = Math.max(p, bestBid);
    return p > 0 && p < MAX_PRICE_TICKS ? p : null;
  }
  if (bestAsk === null) return null;
  let p = shiftRows(bestAsk, -n, step, grid);
  if (bestBid !== null) p = Math.max(p, shiftRows(bestBid, 1, step, grid));
  p = Math.min(p, bestAsk);
  return p > 0 && p < MAX_PRICE_TICKS ? p : null;
}
