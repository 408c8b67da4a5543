// Shared by the Positions panel (src-renderer/features/positions) and the P&L truth test.
// Unrealized P&L of a position at a mark: what the contracts are worth at the mark minus what
// they cost. A positive position holds YES (worth the YES price), a negative one holds NO
// (worth 1 - the YES price). Exact decimals only.
import { Decimal, isDecimalString, TICKS_PER_DOLLAR } from './money';

export interface Mark {
  /** YES price in ticks */
  ticks: number;
  source: 'mid' | 'last';
}

/** The book's mid when both sides quote, else the last trade, else none. */
export function markOf(inside: { bid: number | null; ask: number | null }, lastPriceDollars: string | undefined): Mark | null {
  if (inside.bid !== null && inside.ask !== null) return { ticks: Math.floor((inside.bid + inside.ask) / 2), source: 'mid' };
  if (lastPriceDollars && isDecimalString(lastPriceDollars)) {
    const t = new Decimal(lastPriceDollars).mul(TICKS_PER_DOLLAR);
    if (t.isInteger()) return { ticks: t.toNumber(), source: 'last' };
  }
  return null;
}

export function positionValue(position: string, markTicks: number): Decimal {
  const p = new Decimal(position);
  const yes = new Decimal(markTicks).div(TICKS_PER_DOLLAR);
  return p.gte(0) ? p.mul(yes) : p.abs().mul(new Decimal(1).minus(yes));
}

/** Value at the mark minus cost (exposure); null without a mark or a cost. */
export function unrealizedPnl(position: string, exposure: string | undefined, mark: Mark | null): string | null {
  if (!mark || exposure === undefined || !isDecimalString(position) || !isDecimalString(exposure)) return null;
  if (new Decimal(position).isZero()) return '0.0000';
  return positionValue(position, mark.ticks).minus(new Decimal(exposure).abs()).toFixed(4);
}

/** Sum of decimal strings, ignoring blanks. */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  let total = new Decimal(0);
  for (const v of values) if (v && isDecimalString(v)) total = total.add(v);
  return total.toFixed(4);
}

/** A position's figures at a mark: flat rows (a closed or settled market) keep their realized P&L and fees. */
export interface PositionFigures {
  /** no contracts held: closed out, or settled */
  flat: boolean;
  mark: Mark | null;
  /** what the contracts are worth at the mark; 0 when flat, null without a mark */
  value: string | null;
  /** value minus cost; 0 when flat, null without a mark */
  unrealized: string | null;
  /** the exchange's realized P&L (before fees) */
  realized: string | null;
  fees: string | null;
  /** unrealized + realized - fees: what the market did to the cash; null when open without a mark */
  net: string | null;
}

const ZERO = '0.0000';

export function positionFigures(p: { position: string; exposure?: string | undefined; realized?: string | undefined; fees?: string | undefined }, mark: Mark | null): PositionFigures {
  const flat = !isDecimalString(p.position) || new Decimal(p.position).isZero();
  const value = flat ? ZERO : mark ? positionValue(p.position, mark.ticks).toFixed(4) : null;
  const unrealized = flat ? ZERO : unrealizedPnl(p.position, p.exposure, mark);
  const realized = p.realized && isDecimalString(p.realized) ? p.realized : null;
  const fees = p.fees && isDecimalString(p.fees) ? p.fees : null;
  const net = unrealized === null ? null : new Decimal(sumDecimals([unrealized, realized])).minus(fees ?? 0).toFixed(4);
  return { flat, mark, value, unrealized, realized, fees, net };
}

export interface PnlTotals {
  unrealized: string;
  realized: string;
  fees: string;
  /** over every row with a mark (open rows without one are counted in `unmarked`) */
  net: string;
  open: number;
  flat: number;
  /** open positions without a mark: their unrealized (and net) is not in the totals */
  unmarked: number;
}

/** Totals over every position, flat and settled ones included (their realized P&L and fees are the account's). */
export function pnlTotals(rows: readonly PositionFigures[]): PnlTotals {
  return {
    unrealized: sumDecimals(rows.map((r) => r.unrealized)),
    realized: sumDecimals(rows.map((r) => r.realized)),
    fees: sumDecimals(rows.map((r) => r.fees)),
    net: new Decimal(sumDecimals(rows.map((r) => r.unrealized)))
      .add(sumDecimals(rows.map((r) => r.realized)))
      .minus(sumDecimals(rows.map((r) => r.fees)))
      .toFixed(4),
    open: rows.filter((r) => !r.flat).length,
    flat: rows.filter((r) => r.flat).length,
    unmarked: rows.filter((r) => !r.flat && r.unrealized === null).length,
  };
}
