// Per-market trade tapes for the read side (market summaries, candles, trade pages): the
// engine's own tape (read in place, never copied: a copy of every market's trades was the largest
// thing the read side kept) with prefix sums of counts, and the open-interest history rebuilt
// from every account's fills. Runtime caches only; the sums follow the tape as it grows.
import type { Engine } from '../engine/engine';
import { TradeLog, type TradeTapeView } from '../engine/trade-log';

export interface Tape {
  /** The engine's trades, oldest first (read only). */
  trades: TradeTapeView;
  /** cum[i] = contracts (centi) traded by trades 0..i-1; cum has trades.length + 1 entries. */
  cum: number[];
  /** Open interest after each instant at which fills happened (built on demand). */
  oi?: { ts: number[]; value: number[] };
}

/** First index whose trade time is > ms (trades ascending). */
export function indexAfter(trades: Pick<TradeTapeView, 'length' | 'timeAt'>, ms: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trades.timeAt(mid) <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tape of a market the engine does not have: empty. */
const NO_TRADES: TradeTapeView = new TradeLog('', 0);

export class TradeTapes {
  private readonly tapes = new Map<string, Tape>();

  constructor(
    private readonly engine: () => Engine,
    /** every account that may hold positions (for open interest history) */
    private readonly accounts: () => readonly string[],
  ) {}

  /** The tape of a market, current with the engine. */
  tape(ticker: string): Tape {
    const trades = this.engine().tradeTape(ticker) ?? NO_TRADES;
    let tape = this.tapes.get(ticker);
    if (!tape || tape.trades !== trades) {
      tape = { trades, cum: [0] };
      this.tapes.set(ticker, tape);
    }
    const cum = tape.cum;
    if (cum.length <= trades.length) {
      for (let i = cum.length - 1; i < trades.length; i++) cum.push(cum[i]! + trades.countAt(i));
      delete tape.oi; // new fills since it was built
    }
    return tape;
  }

  /** Open interest (centi) at `ms`: YES contracts held across accounts after the fills up to then. */
  openInterestAt(ticker: string, tape: Tape, ms: number): number {
    if (!tape.oi) tape.oi = this.buildOi(ticker);
    const { ts, value } = tape.oi;
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid]! <= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : value[lo - 1]!;
  }

  private buildOi(ticker: string): { ts: number[]; value: number[] } {
    const engine = this.engine();
    const fills: { ts: number; key: string; post: number }[] = [];
    for (const userId of this.accounts()) {
      for (const f of engine.getFills(userId, { ticker })) fills.push({ ts: f.ts, key: `${userId}/${f.subaccount}`, post: f.post_position });
    }
    fills.sort((a, b) => a.ts - b.ts);
    const held = new Map<string, number>();
    let oi = 0;
    const ts: number[] = [];
    const value: number[] = [];
    for (let i = 0; i < fills.length; i++) {
      const f = fills[i]!;
      const before = held.get(f.key) ?? 0;
      oi += Math.max(0, f.post) - Math.max(0, before);
      held.set(f.key, f.post);
      const next = fills[i + 1];
      if (!next || next.ts !== f.ts) {
        ts.push(f.ts);
        value.push(oi);
      }
    }
    return { ts, value };
  }
}
