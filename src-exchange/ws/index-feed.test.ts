import { describe, expect, it } from 'vitest';
import { CfBenchmarksValue5hzMsg, CfBenchmarksValueMsg } from '../../src-shared/wire/stream';
import { IndexGenerator, formatE8, INDEX_IDS } from './index-feed';

// 2025-01-01T12:00:00Z: a quarter-hour boundary
const QUARTER = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('index generator', () => {
  it('is a pure function of the seed', () => {
    const a = new IndexGenerator(7);
    const b = new IndexGenerator(7);
    const c = new IndexGenerator(8);
    const ticks = [0, 1, 299, 300, 301, 8_765_432_109];
    for (const index of INDEX_IDS) {
      expect(ticks.map((n) => a.valueAt(index, n))).toEqual(ticks.map((n) => b.valueAt(index, n)));
      expect(ticks.map((n) => a.valueAt(index, n))).not.toEqual(ticks.map((n) => c.valueAt(index, n)));
    }
  });

  it('stays near its base and moves a little tick to tick', () => {
    const g = new IndexGenerator(3);
    const start = g.tickOf(QUARTER);
    for (let n = start; n < start + 1_500; n++) {
      const v = g.valueAt('BRTI', n);
      expect(v > 94_000n * 100_000_000n && v < 96_000n * 100_000_000n).toBe(true);
      const step = v - g.valueAt('BRTI', n + 1);
      expect(step < 0n ? -step : step).toBeLessThan(100n * 100_000_000n);
    }
  });

  it('formats exactly 8 decimals', () => {
    expect(formatE8(9_500_012_345_678n)).toBe('95000.12345678');
    expect(formatE8(5n)).toBe('0.00000005');
    expect(formatE8(-120_000_000n)).toBe('-1.20000000');
  });

  it('5 Hz messages: value_usd with 8 decimals at the tick time', () => {
    const g = new IndexGenerator(1);
    const m = g.fastMsg('ETHUSD_RTI', QUARTER + 1_234);
    expect(CfBenchmarksValue5hzMsg.safeParse(m).success).toBe(true);
    expect(m.value_usd).toMatch(/^\d+\.\d{8}$/);
    expect(m.source_ts_ms).toBe(QUARTER + 1_200);
    expect(m.received_at).toBe(QUARTER + 1_234);
  });

  it('the 60 s average is the floor mean of the last 300 ticks', () => {
    const g = new IndexGenerator(5);
    const now = QUARTER + 5 * 60_000 + 700;
    const m = g.valueMsg('BRTI', now);
    expect(CfBenchmarksValueMsg.safeParse(m).success).toBe(true);
    const last = g.tickOf(now);
    let sum = 0n;
    for (let n = last - 299; n <= last; n++) sum += g.valueAt('BRTI', n);
    expect(m.avg_60s_data).toEqual({ value: formatE8(sum / 300n), window_size: 300, window_start_ts_ms: (last - 299) * 200, window_end_ts_exclusive: (last + 1) * 200 });
    expect(JSON.parse(m.data)).toEqual({ type: 'value', id: 'BRTI', value: formatE8(g.valueAt('BRTI', last)), time: last * 200 });
  });

  it('the 15-minute windowed average appears only in the final minute before :00, :15, :30, :45', () => {
    const g = new IndexGenerator(5);
    expect(g.valueMsg('BRTI', QUARTER + 60_000).last_60s_windowed_average_15min).toBeUndefined();
    expect(g.valueMsg('BRTI', QUARTER + 15 * 60_000 - 60_001).last_60s_windowed_average_15min).toBeUndefined();
    expect(g.valueMsg('BRTI', QUARTER).last_60s_windowed_average_15min).toBeUndefined(); // the close itself starts a new quarter
    const now = QUARTER + 15 * 60_000 - 20_000; // 12:14:40
    const m = g.valueMsg('BRTI', now);
    const w = m.last_60s_windowed_average_15min!;
    expect(w.window_start_ts_ms).toBe(QUARTER + 14 * 60_000);
    expect(w.window_end_ts_exclusive).toBe(now + 200);
    expect(w.window_size).toBe(201);
    const first = g.tickOf(QUARTER + 14 * 60_000);
    let sum = 0n;
    for (let n = first; n <= g.tickOf(now); n++) sum += g.valueAt('BRTI', n);
    expect(w.value).toBe(formatE8(sum / 201n));
    expect(CfBenchmarksValueMsg.safeParse(m).success).toBe(true);
    // the last second before the close still has it
    expect(g.valueMsg('ETHUSD_RTI', QUARTER + 45 * 60_000 - 1).last_60s_windowed_average_15min).toBeDefined();
  });
});
