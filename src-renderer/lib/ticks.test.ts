import { describe, expect, it } from 'vitest';
import { MAX_LABEL_MARKETS, fmtPx, fmtTicks, labelMarketsCached, noteAnswer, priceDecimalsOf } from './ticks';

describe("prices at each market's own tick", () => {
  it('learns decimals from market rows in answers: cents show two, fine ticks four, unknown markets their own digits', () => {
    noteAnswer({ markets: [{ ticker: 'CENT', price_ranges: [{ start: '0', end: '1', step: '0.01' }] }, { ticker: 'FINE', price_ranges: [{ start: '0', end: '0.1', step: '0.001' }, { start: '0.1', end: '0.9', step: '0.0001' }] }] });
    noteAnswer({ market: { ticker: 'PLAIN' } });
    noteAnswer({ events: [{ markets: [{ ticker: 'NESTED', price_ranges: [{ start: '0', end: '1', step: '0.001' }] }] }] });
    expect(priceDecimalsOf('CENT')).toBe(2);
    expect(priceDecimalsOf('FINE')).toBe(4);
    expect(priceDecimalsOf('PLAIN')).toBe(2);
    expect(priceDecimalsOf('NESTED')).toBe(3);
    expect(fmtPx('CENT', '0.5300')).toBe('0.53');
    expect(fmtPx('FINE', '0.53')).toBe('0.5300');
    expect(fmtPx('FINE', '0.5312')).toBe('0.5312');
    expect(fmtPx('NESTED', '0.5')).toBe('0.500');
    expect(fmtPx('UNKNOWN', '0.5312')).toBe('0.5312');
    expect(fmtPx('UNKNOWN', '0.5300')).toBe('0.53');
    // a price finer than the market's decimals is never rounded away
    expect(fmtPx('CENT', '0.5312')).toBe('0.5312');
  });
});

describe('the one price formatter on real structures', () => {
  it('a tapered market shows each price at the tick of its range; fmtTicks caches and forgets when the grid changes', async () => {
    const { rangesOf } = await import('../../src-shared/price-ranges');
    const { fmtTicks, priceRangesOf } = await import('./ticks');
    noteAnswer({ market: { ticker: 'TAPER', price_ranges: rangesOf('tapered_deci_cent') } });
    expect(priceRangesOf('TAPER')).toEqual(rangesOf('tapered_deci_cent'));
    expect(fmtPx('TAPER', '0.0950')).toBe('0.095');
    expect(fmtPx('TAPER', '0.1000')).toBe('0.10');
    expect(fmtPx('TAPER', '0.4500')).toBe('0.45');
    expect(fmtPx('TAPER', '0.9050')).toBe('0.905');
    expect(fmtPx('TAPER', null)).toBe('—');
    expect(fmtPx('TAPER', 'junk')).toBe('—');
    expect(fmtTicks('TAPER', 950)).toBe('0.095');
    expect(fmtTicks('TAPER', 4500)).toBe('0.45');
    // the market's grid changes (price_level_structure_updated): labels follow
    noteAnswer({ market: { ticker: 'TAPER', price_ranges: rangesOf('deci_cent') } });
    expect(fmtTicks('TAPER', 4500)).toBe('0.450');
    expect(priceDecimalsOf('TAPER')).toBe(3);
    expect(priceDecimalsOf('NEVER-READ')).toBeUndefined();
  });
  it("a ladder row's label has at least its spacing's decimals, so a column of rows lines up", async () => {
    const { rangesOf } = await import('../../src-shared/price-ranges');
    const { fmtRowTicks } = await import('./ticks');
    noteAnswer({ market: { ticker: 'CENT', price_ranges: rangesOf('linear_cent') } });
    expect(fmtRowTicks('CENT', 4600, 100)).toBe('0.46');
    expect(fmtRowTicks('CENT', 4600, 10)).toBe('0.460');
    expect(fmtRowTicks('CENT', 4590, 10)).toBe('0.459');
    expect(fmtRowTicks('CENT', 4600, 1)).toBe('0.4600');
    noteAnswer({ market: { ticker: 'TAPER2', price_ranges: rangesOf('tapered_deci_cent') } });
    expect(fmtRowTicks('TAPER2', 950, 100)).toBe('0.095'); // never fewer decimals than the tick
  });
});

describe('the row labels cache', () => {
  it(`caches the labels of at most ${MAX_LABEL_MARKETS} markets, whatever number of ladders a session opens`, () => {
    const n = MAX_LABEL_MARKETS + 20;
    for (let i = 0; i < n; i++) {
      noteAnswer({ market: { ticker: `LBL-${i}`, price_ranges: [{ start: '0.0000', end: '1.0000', step: '0.0010' }] } });
      expect(fmtTicks(`LBL-${i}`, 4560)).toBe('0.456');
    }
    expect(labelMarketsCached()).toBeLessThanOrEqual(MAX_LABEL_MARKETS);
    // the newest market's labels are still cached and right; a dropped market formats again, the same
    expect(fmtTicks(`LBL-${n - 1}`, 4560)).toBe('0.456');
    expect(fmtTicks('LBL-0', 4560)).toBe('0.456');
  });
});
