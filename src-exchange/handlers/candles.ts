// Candlesticks from the engine's trade tape. A candle ending at E covers trades whose time in
// whole seconds (the `ts` trades carry on the wire) is in (E - interval, E], E a multiple of the
// interval, so a client can place a streamed trade in the same candle. Trade prices give the price
// OHLC, mean (volume weighted) and volume; the bid and ask are read from the tape too (a taker
// selling YES traded at the best bid, a taker buying YES at the best ask) and carried forward
// while nothing trades; the candle that contains "now" closes at the live book. Open interest
// at the candle's end comes from every account's fills (0 once the market settled).
import type { MarketView } from '../engine/types';
import { centiToCount, TICKS_PER_DOLLAR, ticksToDollars } from '../engine/units';
import { invalidParameters } from '../core/errors';
import { indexAfter, type Tape, type TradeTapes } from './tape';

/** Most candles one request may return (the SDK's documented bulk limit). */
export const MAX_CANDLES = 10_000;

export interface CandleRange {
  start_ts: number;
  end_ts: number;
  /** seconds: 60, 3600 or 86400 (the row's query schema already normalised SDK minutes) */
  period_interval: number;
}

type Ohlc = { open: number | null; low: number | null; high: number | null; close: number | null };
type Quote = { open: number; low: number; high: number; close: number };

const dollarsOrNull = (t: number | null) => (t === null ? null : ticksToDollars(t));

function ohlcOf(obs: readonly number[], carried: number): Quote {
  if (obs.length === 0) return { open: carried, low: carried, high: carried, close: carried };
  let low = obs[0]!;
  let high = low;
  for (const v of obs) {
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return { open: obs[0]!, low, high, close: obs[obs.length - 1]! };
}

/** Drops null fields: the SDK's live candle fields are optional and not nullable. */
function present(o: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null) out[k] = v;
  return out;
}

/** A bid or ask OHLC: always four prices (the SDK requires them, live and historical). */
function wireQuote(o: Ohlc, historical: boolean) {
  const d = { open_dollars: dollarsOrNull(o.open)!, low_dollars: dollarsOrNull(o.low)!, high_dollars: dollarsOrNull(o.high)!, close_dollars: dollarsOrNull(o.close)! };
  return historical ? { ...d, open: d.open_dollars, low: d.low_dollars, high: d.high_dollars, close: d.close_dollars } : d;
}

/** The period ends a range asks for, clipped to the market's life (creation .. settlement, now). */
export function periodEnds(m: MarketView, range: CandleRange, nowMs: number): { first: number; last: number; count: number } {
  const I = range.period_interval;
  if (range.end_ts < range.start_ts) throw invalidParameters('end_ts must not be before start_ts');
  let first = Math.ceil(range.start_ts / I) * I;
  let last = Math.floor(range.end_ts / I) * I;
  // from the period holding the market's creation to the one holding now (or its settlement)
  first = Math.max(first, Math.ceil(Math.floor(m.created_ms / 1000) / I) * I);
  const stopMs = m.status === 'settled' && m.settled_ms > 0 ? Math.min(nowMs, m.settled_ms) : nowMs;
  last = Math.min(last, Math.ceil(Math.floor(stopMs / 1000) / I) * I);
  const count = last >= first ? (last - first) / I + 1 : 0;
  return { first, last, count };
}

export interface CandleOptions {
  includeLatestBeforeStart?: boolean;
  /** historical field names (`open`, `volume`...) alongside the live ones */
  historical?: boolean;
  /** clip the range to this many candles instead of refusing it */
  maxCount?: number;
}

export function buildCandles(tapes: TradeTapes, m: MarketView, range: CandleRange, nowMs: number, opts: CandleOptions = {}) {
  const I = range.period_interval;
  const { first, count } = periodEnds(m, range, nowMs);
  const n = opts.maxCount !== undefined ? Math.min(count, opts.maxCount) : count;
  const tape: Tape = tapes.tape(m.ticker);
  const trades = tape.trades;
  const live = m.status === 'open' || m.status === 'paused';

  /** First index of a trade whose second is after `endSec`. */
  const after = (endSec: number) => indexAfter(trades, (endSec + 1) * 1000 - 1);
  // carry the last bid/ask/price seen before the first candle
  const firstLo = after(first - I);
  // Before any trade shows a quote, the book reads as empty: bid 0, ask 1 (as a market's
  // yes_bid_dollars / yes_ask_dollars do), so every candle has its four bid and ask prices.
  let bid = 0;
  let ask = TICKS_PER_DOLLAR;
  for (let i = 0; i < firstLo; i++) {
    if (trades.takerAskAt(i)) bid = trades.yesPriceAt(i);
    else ask = trades.yesPriceAt(i);
  }
  let lastPrice: number | null = firstLo > 0 ? trades.yesPriceAt(firstLo - 1) : null;

  const oiAt = (ms: number) => (m.status === 'settled' && ms >= m.settled_ms ? 0 : tapes.openInterestAt(m.ticker, tape, ms));
  const out: Record<string, unknown>[] = [];

  if (opts.includeLatestBeforeStart && firstLo > 0) {
    // the synthetic candle: OHLC null, previous = the last price before the range
    out.push(candle(first - I, { open: null, low: null, high: null, close: null }, null, lastPrice, ohlcOf([], bid), ohlcOf([], ask), 0, oiAt((first - I) * 1000 + 999), opts.historical ?? false));
  }

  for (let k = 0; k < n; k++) {
    const end = first + k * I;
    const lo = after(end - I);
    const hi = after(end);
    const prices: number[] = [];
    const bids: number[] = [];
    const asks: number[] = [];
    let notional = 0;
    for (let i = lo; i < hi; i++) {
      const price = trades.yesPriceAt(i);
      prices.push(price);
      notional += price * trades.countAt(i);
      (trades.takerAskAt(i) ? bids : asks).push(price);
    }
    const nowSec = Math.floor(nowMs / 1000);
    const current = live && end - I < nowSec && nowSec <= end;
    if (current) {
      bids.push(m.yes_bid);
      asks.push(m.yes_ask);
    }
    const volume = tape.cum[hi]! - tape.cum[lo]!;
    const price: Ohlc = prices.length > 0 ? ohlcOf(prices, 0) : { open: null, low: null, high: null, close: null };
    const mean = volume > 0 ? Math.floor((2 * notional + volume) / (2 * volume)) : null;
    const yesBid = ohlcOf(bids, bid);
    const yesAsk = ohlcOf(asks, ask);
    out.push(candle(end, price, mean, lastPrice, yesBid, yesAsk, volume, oiAt(Math.min(end * 1000 + 999, nowMs)), opts.historical ?? false));
    if (prices.length > 0) lastPrice = prices[prices.length - 1]!;
    bid = yesBid.close;
    ask = yesAsk.close;
  }
  return out;
}

function candle(end: number, price: Ohlc, mean: number | null, previous: number | null, yesBid: Quote, yesAsk: Quote, volume: number, oi: number, historical: boolean) {
  const p = { open_dollars: dollarsOrNull(price.open), low_dollars: dollarsOrNull(price.low), high_dollars: dollarsOrNull(price.high), close_dollars: dollarsOrNull(price.close) };
  const prev = dollarsOrNull(previous);
  const meanText = dollarsOrNull(mean);
  const vol = centiToCount(volume);
  const oiText = centiToCount(oi);
  return {
    end_period_ts: end,
    yes_bid: wireQuote(yesBid, historical),
    yes_ask: wireQuote(yesAsk, historical),
    price: {
      // live names: left out while there is no value; historical names: always there, null when none
      ...present({ ...p, mean_dollars: meanText, previous_dollars: prev, min_dollars: p.low_dollars, max_dollars: p.high_dollars }),
      ...(historical ? { open: p.open_dollars, low: p.low_dollars, high: p.high_dollars, close: p.close_dollars, mean: meanText, previous: prev } : {}),
    },
    volume_fp: vol,
    open_interest_fp: oiText,
    ...(historical ? { volume: vol, open_interest: oiText } : {}),
  };
}
