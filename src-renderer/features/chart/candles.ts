// Candles for the chart from the exchange's candlesticks and the live tape. A candle is keyed by
// the end of its period (the exchange's end_period_ts); prices stay decimal strings.
import type { Candlestick } from '../../../src-shared/wire/markets';
import { Decimal, isDecimalString } from '../../../src-shared/money';
import type { Candle } from '../../ui/charts';

/** The end of the period that holds `ts` (a candle covers (end - period, end]). */
export function bucketEnd(ts: number, period: number): number {
  return Math.ceil(ts / period) * period;
}

const ok = (v: string | null | undefined): v is string => !!v && isDecimalString(v);

function midOf(c: Candlestick): string | null {
  const b = c.yes_bid.close_dollars;
  const a = c.yes_ask.close_dollars;
  if (!ok(b) || !ok(a)) return null;
  // an empty book (bid 0, ask 1: what the exchange reports before any quote) has no mid
  if (new Decimal(b).isZero() && new Decimal(a).eq(1)) return null;
  return new Decimal(b).add(a).div(2).toFixed(4);
}

/**
 * Traded OHLC where there were trades; a quiet period draws flat at the previous close (or the
 * quote mid before the first trade) so the time axis has no holes.
 */
export function toCandles(sticks: readonly Candlestick[]): Candle[] {
  const out: Candle[] = [];
  let prevClose: string | null = null;
  for (const c of [...sticks].sort((a, b) => a.end_period_ts - b.end_period_ts)) {
    const p = c.price;
    if (p && ok(p.open_dollars) && ok(p.high_dollars) && ok(p.low_dollars) && ok(p.close_dollars)) {
      out.push({ time: c.end_period_ts, open: p.open_dollars, high: p.high_dollars, low: p.low_dollars, close: p.close_dollars, volume: c.volume_fp });
      prevClose = p.close_dollars;
      continue;
    }
    const flat = prevClose ?? midOf(c);
    if (flat === null) continue;
    out.push({ time: c.end_period_ts, open: flat, high: flat, low: flat, close: flat, volume: c.volume_fp });
  }
  return out;
}

const max = (a: string, b: string) => (new Decimal(a).gte(b) ? a : b);
const min = (a: string, b: string) => (new Decimal(a).lte(b) ? a : b);

/** Folds one trade into the candles: extends the candle of its period or opens the next one. */
export function applyTrade(candles: readonly Candle[], trade: { ts: number; yes_price_dollars: string; count_fp: string }, period: number): Candle[] {
  const price = trade.yes_price_dollars;
  if (!ok(price) || !ok(trade.count_fp)) return candles as Candle[];
  const end = bucketEnd(trade.ts, period);
  const last = candles[candles.length - 1];
  if (last && end < last.time) return candles as Candle[];
  if (last && last.time === end) {
    const flat = last.open === last.close && last.high === last.low && new Decimal(last.volume).isZero();
    const next: Candle = flat
      ? { time: end, open: price, high: price, low: price, close: price, volume: trade.count_fp }
      : {
          time: end,
          open: last.open,
          high: max(last.high, price),
          low: min(last.low, price),
          close: price,
          volume: new Decimal(last.volume).add(trade.count_fp).toFixed(2),
        };
    return [...candles.slice(0, -1), next];
  }
  return [...candles, { time: end, open: price, high: price, low: price, close: price, volume: trade.count_fp }];
}
