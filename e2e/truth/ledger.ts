// The trader's P&L as the exchange's own records give it, worked out here from its fills and
// settlements (not read from its position records, which the panels show): per market the
// position, its cost, realized P&L and fees; and today's P&L as the Risk panel defines it.
// The same rules as src-main/session/pnl-truth.int.test.ts, which checks them against the
// exchange's position records.
import { Decimal } from '../../src-shared/money';

export interface FillRec {
  id: string;
  ticker: string;
  /** YES contracts bought (> 0) or sold (< 0) */
  yesDelta: Decimal;
  yesPrice: Decimal;
  fee: Decimal;
  /** ms since epoch (the fills API gives seconds: many fills share one) */
  at: number;
  /** the fill's place in the exchange's own log (higher is later): orders fills of one instant */
  seq: number;
}

export interface SettlementRec {
  ticker: string;
  /** cents */
  revenue: Decimal;
  yesCost: Decimal;
  noCost: Decimal;
}

export interface LedgerPosition {
  position: Decimal;
  cost: Decimal;
  realized: Decimal;
  fees: Decimal;
}

const D = (v: string | number | Decimal) => new Decimal(v);

/**
 * Per market: each fill buys an outcome (YES, or NO at 1 - the YES price), netting against the
 * opposite outcome held ($1 a pair) with its cost taken out in proportion; a settlement pays its
 * revenue against the cost still held. `fills` in any order (sorted oldest first here, fills of
 * one instant in the exchange's own order: a close before an open gives another cost).
 */
export function ledgerOf(fills: readonly FillRec[], settlements: readonly SettlementRec[]): Map<string, LedgerPosition> {
  const out = new Map<string, LedgerPosition>();
  const sorted = [...fills].sort((a, b) => a.at - b.at || a.seq - b.seq);
  for (const f of sorted) {
    const p = out.get(f.ticker) ?? { position: D(0), cost: D(0), realized: D(0), fees: D(0) };
    const buysYes = f.yesDelta.gt(0);
    const count = f.yesDelta.abs();
    const price = buysYes ? f.yesPrice : D(1).minus(f.yesPrice);
    p.fees = p.fees.plus(f.fee);
    if (p.position.isZero() || p.position.gt(0) === buysYes) {
      p.cost = p.cost.plus(price.mul(count));
    } else {
      const held = p.position.abs();
      const closing = Decimal.min(count, held);
      const removed = closing.eq(held) ? p.cost : p.cost.mul(closing).div(held).toDecimalPlaces(6, Decimal.ROUND_FLOOR);
      p.realized = p.realized.plus(closing.minus(price.mul(closing)).minus(removed));
      p.cost = p.cost.minus(removed).plus(price.mul(count.minus(closing)));
    }
    p.position = p.position.plus(f.yesDelta);
    out.set(f.ticker, p);
  }
  for (const s of settlements) {
    const p = out.get(s.ticker) ?? { position: D(0), cost: D(0), realized: D(0), fees: D(0) };
    p.realized = p.realized.plus(s.revenue.div(100)).minus(s.yesCost.plus(s.noCost));
    p.position = D(0);
    p.cost = D(0);
    out.set(s.ticker, p);
  }
  return out;
}

const DAY_MS = 86_400_000;

/**
 * Today's P&L (UTC day of `now`) as the Risk panel states it: the cash of today's fills less
 * their fees, plus today's net contracts per market where they could be closed now (a long at the
 * best YES bid, a short at the best YES ask), or at the market's result once it has one; without
 * such a price, at their own average (no mark P&L). `book` gives the best YES bid and ask in
 * dollars (null: that side is empty); undefined when the value cannot be told.
 */
export function todayPnl(
  fills: readonly FillRec[],
  now: number,
  book: (ticker: string) => { bid: Decimal | null; ask: Decimal | null } | undefined,
  result: (ticker: string) => Decimal | null,
): Decimal | undefined {
  const { legs, fees } = todayLegs(fills, now);
  let total = fees.neg();
  for (const [ticker, leg] of legs) {
    const net = leg.bought.minus(leg.sold);
    const cash = leg.received.minus(leg.paid);
    if (net.isZero()) {
      total = total.plus(cash);
      continue;
    }
    let mark = result(ticker);
    if (mark === null) {
      const b = book(ticker);
      if (!b) return undefined;
      mark = net.gt(0) ? b.bid : b.ask;
    }
    mark ??= net.gt(0) ? leg.paid.div(leg.bought) : leg.received.div(leg.sold);
    total = total.plus(cash.plus(net.mul(mark)));
  }
  return total;
}

/** The markets today's P&L marks: those held net of today's fills (one flat today counts its cash alone). */
export function todayMarked(fills: readonly FillRec[], now: number): string[] {
  return [...todayLegs(fills, now).legs].filter(([, l]) => !l.bought.eq(l.sold)).map(([ticker]) => ticker);
}

/** Today's fills (UTC day of `now`) per market: contracts bought and sold, cash paid and received; and their fees. */
function todayLegs(fills: readonly FillRec[], now: number) {
  const day = Math.floor(now / DAY_MS);
  const legs = new Map<string, { bought: Decimal; paid: Decimal; sold: Decimal; received: Decimal }>();
  let fees = D(0);
  for (const f of fills) {
    if (Math.floor(f.at / DAY_MS) !== day) continue;
    fees = fees.plus(f.fee);
    const leg = legs.get(f.ticker) ?? { bought: D(0), paid: D(0), sold: D(0), received: D(0) };
    const qty = f.yesDelta.abs();
    if (f.yesDelta.gt(0)) {
      leg.bought = leg.bought.plus(qty);
      leg.paid = leg.paid.plus(qty.mul(f.yesPrice));
    } else {
      leg.sold = leg.sold.plus(qty);
      leg.received = leg.received.plus(qty.mul(f.yesPrice));
    }
    legs.set(f.ticker, leg);
  }
  return { legs, fees };
}
