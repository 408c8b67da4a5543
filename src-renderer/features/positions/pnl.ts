// Unrealized P&L of a position at a mark: what the contracts are worth at the mark minus what
// they cost. A positive position holds YES (worth the YES price), a negative one holds NO
// (worth 1 - the YES price). Exact decimals only.
import { Decimal, isDecimalString, TICKS_PER_DOLLAR } from '../../../src-shared/money';

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
