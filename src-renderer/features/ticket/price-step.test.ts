import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src-shared/money';
import { nudgePrice, stepAt } from './price-step';

const d = (s: string) => new Decimal(s);

describe('ticket price steps', () => {
  const ranges = [
    { start: '0.0000', end: '0.1000', step: '0.0010' },
    { start: '0.1000', end: '0.9000', step: '0.0100' },
  ];
  it('uses the market price range that holds the price, else a cent', () => {
    expect(stepAt(d('0.05'), ranges).toString()).toBe('0.001');
    expect(stepAt(d('0.5'), ranges).toString()).toBe('0.01');
    expect(stepAt(d('0.5'), undefined).toString()).toBe('0.01');
  });
  it('moves one step and snaps off-grid prices to the grid', () => {
    expect(nudgePrice(d('0.53'), 1, undefined).toFixed(4)).toBe('0.5400');
    expect(nudgePrice(d('0.53'), -1, undefined).toFixed(4)).toBe('0.5200');
    expect(nudgePrice(d('0.5312'), 1, undefined).toFixed(4)).toBe('0.5400');
    expect(nudgePrice(d('0.5312'), -1, undefined).toFixed(4)).toBe('0.5300');
    expect(nudgePrice(d('0.05'), 1, ranges).toFixed(4)).toBe('0.0510');
  });
  it('stays inside the valid range', () => {
    expect(nudgePrice(d('0.99'), 1, undefined).toFixed(4)).toBe('0.9900');
    expect(nudgePrice(d('0.01'), -1, undefined).toFixed(4)).toBe('0.0100');
  });
});
