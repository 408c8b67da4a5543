// `--sim-market-minutes <n>`: the cycle of the markets the simulation adds, shortened so a run of
// a few minutes sees markets close, be determined and settle; never longer than the defaults.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIFECYCLE, lifecycleOfMinutes } from './lifecycle';

describe('lifecycleOfMinutes', () => {
  it('two minutes: open two minutes, a new one every 40 s, determined and settled 10 s apart', () => {
    expect(lifecycleOfMinutes(2)).toEqual({ newMarketLifetimeMs: 120_000, newMarketEveryMs: 40_000, determineDelayMs: 10_000, settleDelayMs: 10_000 });
  });

  it('a long cycle keeps the default pace of new markets and settlement delays', () => {
    const o = lifecycleOfMinutes(60);
    expect(o.newMarketLifetimeMs).toBe(3_600_000);
    expect(o.newMarketEveryMs).toBe(DEFAULT_LIFECYCLE.newMarketEveryMs);
    expect(o.determineDelayMs).toBe(DEFAULT_LIFECYCLE.determineDelayMs);
    expect(o.settleDelayMs).toBe(DEFAULT_LIFECYCLE.settleDelayMs);
  });
});
