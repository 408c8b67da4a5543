import { describe, expect, it } from 'vitest';
import { markOf, sumDecimals, unrealizedPnl } from './pnl';

describe('unrealized P&L', () => {
  it('marks at the mid when both sides quote, else the last trade', () => {
    expect(markOf({ bid: 5300, ask: 5500 }, '0.60')).toEqual({ ticks: 5400, source: 'mid' });
    expect(markOf({ bid: 5300, ask: null }, '0.60')).toEqual({ ticks: 6000, source: 'last' });
    expect(markOf({ bid: null, ask: null }, undefined)).toBeNull();
  });

  it('values a YES position at the YES mark', () => {
    expect(unrealizedPnl('10.00', '5.0000', { ticks: 5400, source: 'mid' })).toBe('0.4000');
  });

  it('values a NO position at 1 - the YES mark', () => {
    expect(unrealizedPnl('-10.00', '4.0000', { ticks: 5400, source: 'mid' })).toBe('0.6000');
  });

  it('has nothing to say without a mark or a cost', () => {
    expect(unrealizedPnl('10.00', '5.0000', null)).toBeNull();
    expect(unrealizedPnl('10.00', undefined, { ticks: 5000, source: 'last' })).toBeNull();
  });

  it('sums decimal strings exactly', () => {
    expect(sumDecimals(['0.1', '0.2', null, '-0.3'])).toBe('0.0000');
  });
});
