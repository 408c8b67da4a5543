// Today's P&L from today's fills and the books: the cash each fill moved (on the YES leg a buy
// pays its price, a sell receives it; a NO trade is the opposite YES trade) minus fees, plus the
// net contracts traded today marked at the price they could be closed at now (a long YES at the
// best bid, a short at the best ask; without a book, at their own average price, i.e. no mark
// P&L). A market determined or settled today marks them at its result (1 for YES, 0 for NO),
// whatever its book. The day is the UTC day. Positions carried from before today are not marked here.
import { Decimal } from '../../src-shared/money';
import type { BookTop } from './gate';
import type { FillLeg } from './rows';

const DAY_MS = 86_400_000;

interface Leg {
  bought: Decimal;
  paid: Decimal;
  sold: Decimal;
  received: Decimal;
}

export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

export class DailyPnl {
  private day: number;
  private readonly seen = new Set<string>();
  /** per market: YES contracts bought and sold today, and what they cost / brought */
  private readonly legs = new Map<string, Leg>();
  private fees = new Decimal(0);
  /** markets determined or settled today: the YES value their contracts ended at */
  private readonly results = new Map<string, Decimal>();

  constructor(now: number) {
    this.day = utcDay(now);
  }

  /** Starts a new day when the clock has moved past midnight UTC. */
  private roll(now: number): void {
    const d = utcDay(now);
    if (d === this.day) return;
    this.day = d;
    this.seen.clear();
    this.legs.clear();
    this.results.clear();
    this.fees = new Decimal(0);
  }

  /** A market determined or settled (at `at`): today's contracts there are worth its result, 1 (YES) or 0 (NO). */
  settle(ticker: string, yesValue: Decimal, at: number, now: number): void {
    this.roll(now);
    if (utcDay(at) !== this.day) return;
    this.results.set(ticker, yesValue);
  }

  /** Counts a fill once (by id), when it happened today. */
  add(f: FillLeg, now: number): void {
    this.roll(now);
    if (utcDay(f.at) !== this.day || this.seen.has(f.id)) return;
    this.seen.add(f.id);
    const z = new Decimal(0);
    const leg = this.legs.get(f.ticker) ?? { bought: z, paid: z, sold: z, received: z };
    const qty = f.yesDelta.abs();
    const cash = qty.mul(f.yesPrice);
    this.legs.set(
      f.ticker,
      f.yesDelta.gt(0) ? { ...leg, bought: leg.bought.plus(qty), paid: leg.paid.plus(cash) } : { ...leg, sold: leg.sold.plus(qty), received: leg.received.plus(cash) },
    );
    this.fees = this.fees.plus(f.fee);
  }

  value(now: number, book: (ticker: string) => BookTop | undefined): Decimal {
    this.roll(now);
    let total = this.fees.neg();
    for (const [ticker, leg] of this.legs) {
      const net = leg.bought.minus(leg.sold);
      const cash = leg.received.minus(leg.paid);
      if (net.isZero()) {
        total = total.plus(cash);
        continue;
      }
      const b = book(ticker);
      let mark = this.results.get(ticker) ?? (b && !b.stale ? (net.gt(0) ? b.yesBid : b.yesAsk) : null);
      // no usable mark: the open contracts at their own average price today (no mark P&L)
      mark ??= net.gt(0) ? leg.paid.div(leg.bought) : leg.received.div(leg.sold);
      total = total.plus(cash.plus(net.mul(mark)));
    }
    return total;
  }
}
