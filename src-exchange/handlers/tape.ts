// Per-market trade tapes for the read side (market summaries, candles, trade pages): the
// engine's trades in ascending time with prefix sums of counts, and the open-interest history
// rebuilt from every account's fills. Runtime caches only (rebuilt from the engine on demand);
// a tape is refreshed when the engine's volume for the market moved.
import type { Engine } from '../engine/engine';
import type { TradeView } from '../engine/types';

export interface Tape {
  /** Trades oldest first. */
  trades: TradeView[];
  /** cum[i] = contracts (centi) traded by trades[0..i-1]. */
  cum: number[];
  /** The engine's volume the tape was built at. */
  volume: number;
  /** Open interest after each instant at which fills happened (built on demand). */
  oi?: { ts: number[]; value: number[] };
}

/** First index whose trade time is > ms (trades ascending). */
export function indexAfter(trades: readonly TradeView[], ms: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trades[mid]!.created_time <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class TradeTapes {
  private readonly tapes = new Map<string, Tape>();

  constructor(
    private readonly engine: () => Engine,
    /** every account that may hold positions (for open interest history) */
    private readonly accounts: () => readonly string[],
  ) {}

  /** The tape of a market, current with the engine. */
  tape(ticker: string): Tape {
    const engine = this.engine();
    const volume = engine.getMarket(ticker)?.volume ?? 0;
    const cached = this.tapes.get(ticker);
    if (cached && cached.volume === volume) return cached;
    const tape = cached ? this.extend(engine, ticker, cached, volume) : undefined;
    const fresh = tape ?? this.build(engine, ticker, volume);
    this.tapes.set(ticker, fresh);
    return fresh;
  }

  private build(engine: Engine, ticker: string, volume: number): Tape {
    const trades = engine.getTrades({ ticker }).reverse();
    return { trades, cum: prefix(trades), volume };
  }

  /** Appends what traded since the cached tape; undefined when the result would not add up. */
  private extend(engine: Engine, ticker: string, cached: Tape, volume: number): Tape | undefined {
    const last = cached.trades[cached.trades.length - 1];
    if (!last) return undefined;
    const keep = cached.trades.slice(0, indexAfter(cached.trades, last.created_time - 1));
    const added = engine.getTrades({ ticker, minTs: last.created_time }).reverse();
    const trades = keep.concat(added);
    const cum = prefix(trades);
    const matched = trades.reduce((n, t) => (t.is_block_trade ? n : n + t.count), 0);
    return matched === volume || cum[cum.length - 1] === volume ? { trades, cum, volume } : undefined;
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

function prefix(trades: readonly TradeView[]): number[] {
  const cum = new Array<number>(trades.length + 1);
  cum[0] = 0;
  for (let i = 0; i < trades.length; i++) cum[i + 1] = cum[i]! + trades[i]!.count;
  return cum;
}
