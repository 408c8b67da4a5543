import { describe, expect, it } from 'vitest';
import type { Candlestick } from '../../../src-shared/wire/markets';
import { applyTrade, bucketEnd, toCandles } from './candles';

const ohlc = (close: string | null) => ({ open_dollars: close, high_dollars: close, low_dollars: close, close_dollars: close });
const stick = (end: number, price: [string, string, string, string] | null, vol = '0', bid = '0.40', ask = '0.44'): Candlestick =>
  ({
    end_period_ts: end,
    yes_bid: ohlc(bid),
    yes_ask: ohlc(ask),
    price: price
      ? { open_dollars: price[0], high_dollars: price[1], low_dollars: price[2], close_dollars: price[3], mean_dollars: null, previous_dollars: null }
      : { open_dollars: null, high_dollars: null, low_dollars: null, close_dollars: null, mean_dollars: null, previous_dollars: null },
    volume_fp: vol,
    open_interest_fp: '0',
  }) as Candlestick;

describe('chart candles', () => {
  it('buckets a time into the period that ends at or after it', () => {
    expect(bucketEnd(119, 60)).toBe(120);
    expect(bucketEnd(120, 60)).toBe(120);
    expect(bucketEnd(121, 60)).toBe(180);
  });

  it('uses traded OHLC, draws quiet periods flat at the last close, and the quote mid before any trade', () => {
    const c = toCandles([stick(180, ['0.50', '0.55', '0.49', '0.52'], '10'), stick(120, null), stick(240, null)]);
    expect(c).toEqual([
      { time: 120, open: '0.4200', high: '0.4200', low: '0.4200', close: '0.4200', volume: '0' },
      { time: 180, open: '0.50', high: '0.55', low: '0.49', close: '0.52', volume: '10' },
      { time: 240, open: '0.52', high: '0.52', low: '0.52', close: '0.52', volume: '0' },
    ]);
  });

  it('draws nothing for quiet periods before any quote (an empty book: bid 0.0000, ask 1.0000)', () => {
    const c = toCandles([stick(120, null, '0', '0.0000', '1.0000'), stick(180, ['0.50', '0.55', '0.49', '0.52'], '10'), stick(240, null, '0', '0.0000', '1.0000')]);
    expect(c.map((x) => [x.time, x.close])).toEqual([
      [180, '0.52'],
      [240, '0.52'],
    ]);
  });

  it('extends the current candle with a live trade', () => {
    const c = applyTrade([{ time: 120, open: '0.50', high: '0.52', low: '0.49', close: '0.51', volume: '5.00' }], { ts: 100, yes_price_dollars: '0.5300', count_fp: '2.00' }, 60);
    expect(c).toEqual([{ time: 120, open: '0.50', high: '0.5300', low: '0.49', close: '0.5300', volume: '7.00' }]);
  });

  it('opens the next candle when a trade falls after the last one, and ignores late trades', () => {
    const start = [{ time: 120, open: '0.50', high: '0.50', low: '0.50', close: '0.50', volume: '1.00' }];
    expect(applyTrade(start, { ts: 130, yes_price_dollars: '0.48', count_fp: '3.00' }, 60)).toHaveLength(2);
    expect(applyTrade(start, { ts: 30, yes_price_dollars: '0.48', count_fp: '3.00' }, 60)).toBe(start);
  });

  it('replaces a flat placeholder candle with the first real trade', () => {
    const c = applyTrade([{ time: 120, open: '0.42', high: '0.42', low: '0.42', close: '0.42', volume: '0' }], { ts: 100, yes_price_dollars: '0.45', count_fp: '1.00' }, 60);
    expect(c[0]).toEqual({ time: 120, open: '0.45', high: '0.45', low: '0.45', close: '0.45', volume: '1.00' });
  });
});
