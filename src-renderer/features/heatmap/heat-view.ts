// The heatmap's geometry, pure: which price each pixel row is, which column each pixel column is.
// Prices are YES ticks on the ladder's rows (its step, bucketed as the ladder buckets a level).
// (features never import each other: the ladder's row rules are restated here, the same as its
// ladder-model's bucket, inferStep and midTicks)
import { MAX_PRICE_TICKS } from '../../../src-shared/money';

export const AXIS_W = 56;
export const TIME_H = 18;

export interface HeatGeometry {
  /** the canvas in CSS px */
  width: number;
  height: number;
  /** px per column (a time bucket) and per price row */
  colPx: number;
  rowPx: number;
  /** ticks per row: the ladder's step */
  step: number;
  /** the top row's price (YES ticks) */
  top: number;
}

export const heatWidth = (g: HeatGeometry): number => Math.max(0, g.width - AXIS_W);
export const heatHeight = (g: HeatGeometry): number => Math.max(0, g.height - TIME_H);
/** how many columns fit */
export const slots = (g: HeatGeometry): number => Math.max(1, Math.floor(heatWidth(g) / g.colPx));
export const rowsShown = (g: HeatGeometry): number => Math.max(1, Math.ceil(heatHeight(g) / g.rowPx));

/** The y of a row's top edge. */
export function yOfPrice(price: number, g: HeatGeometry): number {
  return ((g.top - price) / g.step) * g.rowPx;
}

/** The row price at a y (clamped to a price the market quotes: one step to 1 minus a step). */
export function priceAtY(y: number, g: HeatGeometry): number {
  const p = g.top - Math.floor(y / g.rowPx) * g.step;
  return Math.max(g.step, Math.min(MAX_PRICE_TICKS - g.step, p));
}

/** The row a level of a side falls in (a bid down to its row, an ask up to it), as the ladder buckets it. */
export const rowOf = (price: number, step: number, side: 'bid' | 'ask'): number => (side === 'bid' ? Math.floor(price / step) * step : Math.ceil(price / step) * step);

/** The ladder's automatic row spacing: the finest step the book's prices need (whole cents when every level sits on one). */
export function inferStep(bids: ArrayLike<number>, asks: ArrayLike<number>): number {
  let step = 100;
  for (const flat of [bids, asks]) {
    for (let i = 0; i < flat.length; i += 2) {
      const p = flat[i]!;
      if (p % 10 !== 0) return 1;
      if (p % 100 !== 0) step = 10;
    }
  }
  return step;
}

/** Mid of the inside market in YES ticks (floored), one side when the other is empty, else null. */
export function midOf(bids: ArrayLike<number>, asks: ArrayLike<number>): number | null {
  const bid = bids[0];
  const ask = asks[0];
  if (bid !== undefined && ask !== undefined) return Math.floor((bid + ask) / 2);
  return bid ?? ask ?? null;
}

/** The top row that centres a price (rows at whole steps). */
export function topForCentre(price: number, g: Pick<HeatGeometry, 'step' | 'rowPx' | 'height'>): number {
  const rows = Math.ceil(heatHeight(g as HeatGeometry) / g.rowPx);
  const centre = Math.round(price / g.step) * g.step;
  return centre + Math.floor(rows / 2) * g.step;
}

/** The seq of the column at a pixel x, given the seq drawn in the rightmost slot. */
export function seqAtX(x: number, endSeq: number, g: HeatGeometry): number {
  const slot = Math.floor(x / g.colPx);
  return endSeq - (slots(g) - 1 - slot);
}

/** The x of a seq's slot (its left edge). */
export function xOfSeq(seq: number, endSeq: number, g: HeatGeometry): number {
  return (slots(g) - 1 - (endSeq - seq)) * g.colPx;
}

/** A row size that shows about `rows` rows in the height (at least 3 px, at most 14). */
export function fitRowPx(height: number, rows: number): number {
  return Math.max(3, Math.min(14, Math.floor(Math.max(0, height - TIME_H) / rows)));
}

/**
 * The end seq after scrolling `cols` columns (positive: back in time), kept inside what is held;
 * null when it reaches the newest column (live again).
 */
export function scrolledEnd(endSeq: number | null, cols: number, firstSeq: number, lastSeq: number, shown: number): number | null {
  const from = endSeq ?? lastSeq;
  const oldestEnd = Math.min(lastSeq, firstSeq + shown - 1);
  const next = Math.max(oldestEnd, Math.min(lastSeq, from - Math.round(cols)));
  return next >= lastSeq ? null : next;
}
