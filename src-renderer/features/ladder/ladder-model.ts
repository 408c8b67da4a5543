// The ladder's rows from a BookView, on integer ticks only. In the NO view every price q is the
// YES price 10000 - q and the sides swap: a NO bid is a YES ask. Orders always go in on the YES leg.
import type { BookView } from '../../../src-shared/ipc/contract';
import { Decimal, isDecimalString, MAX_PRICE_TICKS, TICKS_PER_DOLLAR } from '../../../src-shared/money';

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
}

export const flip = (s: Side): Side => (s === 'bid' ? 'ask' : 'bid');
const mirror = (ticks: number) => MAX_PRICE_TICKS - ticks;

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
export function topForCenter(center: number, step: number, rows: number): number {
  const maxTop = Math.floor((MAX_PRICE_TICKS - 1) / step) * step;
  const minTop = Math.min(maxTop, step * rows);
  const top = Math.round(center / step) * step + Math.floor(rows / 2) * step;
  return Math.max(minTop, Math.min(maxTop, top));
}

/** A top row the trader scrolled to, kept where every row is a price inside (0, 10000) when the window allows. */
export function clampTop(top: number, step: number, rows: number): number {
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
  const { view, step, top, rows } = opts;
  const bidAt = new Map<number, number>();
  const askAt = new Map<number, number>();
  let bestBid: number | null = null;
  let bestAsk: number | null = null;
  if (book) {
    const { bids, asks } = viewLevels(book, view);
    for (const [p, c] of bids) {
      const r = bucket(p, step, 'bid');
      bidAt.set(r, (bidAt.get(r) ?? 0) + c);
      if (bestBid === null || r > bestBid) bestBid = r;
    }
    for (const [p, c] of asks) {
      const r = bucket(p, step, 'ask');
      askAt.set(r, (askAt.get(r) ?? 0) + c);
      if (bestAsk === null || r < bestAsk) bestAsk = r;
    }
  }
  const myAt = new Map<string, { centi: number; ids: string[] }>();
  for (const o of mine) {
    const side = view === 'yes' ? o.side : flip(o.side);
    const r = bucket(toViewPrice(o.priceTicks, view), step, side);
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
  for (let i = 0; i < rows; i++) {
    const price = top - i * step;
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
export function volumeAtPrice(trades: Iterable<TradeLite>, view: View, step: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of trades) {
    const r = bucket(toViewPrice(t.yesTicks, view), step, 'bid');
    out.set(r, (out.get(r) ?? 0) + t.centi);
  }
  return out;
}

/** The row price (view terms) of a trade, bucketed as the volume column buckets it. */
export function tradeRow(t: TradeLite, view: View, step: number): number {
  return bucket(toViewPrice(t.yesTicks, view), step, 'bid');
}

/** A local conditional order as the ladder draws it: at its trigger's row, on its side. */
export interface LocalMark {
  id: string;
  label: string;
  row: number;
  side: Side;
}

/** Where each local order's marker goes in the painted rows (those whose trigger is off screen are left out). */
export function localMarks(rows: readonly Pick<LadderRow, 'price'>[], locals: readonly { id: string; side: Side; triggerTicks: number; label: string }[], view: View, step: number): LocalMark[] {
  const out: LocalMark[] = [];
  for (const o of locals) {
    const side = view === 'yes' ? o.side : flip(o.side);
    const at = bucket(toViewPrice(o.triggerTicks, view), step, side);
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
export function avgRow(avgYesTicks: number, view: View, step: number): number {
  const v = view === 'yes' ? avgYesTicks : MAX_PRICE_TICKS - avgYesTicks;
  return Math.round(v / step) * step;
}

/**
 * The price that joins the inside on a side and improves it by `n` rows of `step`, never
 * crossing: a bid stops one step under the best offer, an offer one step over the best bid
 * (a spread of one step joins). View terms; null when that side has no inside to join.
 */
export function improvePrice(bestBid: number | null, bestAsk: number | null, side: Side, n: number, step: number): number | null {
  if (side === 'bid') {
    if (bestBid === null) return null;
    let p = bestBid + n * step;
    if (bestAsk !== null) p = Math.min(p, bestAsk - step);
    p = Math.max(p, bestBid);
    return p > 0 && p < MAX_PRICE_TICKS ? p : null;
  }
  if (bestAsk === null) return null;
  let p = bestAsk - n * step;
  if (bestBid !== null) p = Math.max(p, bestBid + step);
  p = Math.min(p, bestAsk);
  return p > 0 && p < MAX_PRICE_TICKS ? p : null;
}
