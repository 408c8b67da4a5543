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

describe('the = and - keys on a tapered market', () => {
  const tapered = [
    { start: '0.0000', end: '0.1000', step: '0.0010' },
    { start: '0.1000', end: '0.9000', step: '0.0100' },
    { start: '0.9000', end: '1.0000', step: '0.0010' },
  ];
  it('step by the tick of the side they move into at the boundaries', () => {
    expect(nudgePrice(d('0.10'), 1, tapered).toFixed(4)).toBe('0.1100');
    expect(nudgePrice(d('0.10'), -1, tapered).toFixed(4)).toBe('0.0990');
    expect(nudgePrice(d('0.90'), 1, tapered).toFixed(4)).toBe('0.9010');
    expect(nudgePrice(d('0.90'), -1, tapered).toFixed(4)).toBe('0.8900');
    expect(nudgePrice(d('0.999'), 1, tapered).toFixed(4)).toBe('0.9990');
    expect(nudgePrice(d('0.001'), -1, tapered).toFixed(4)).toBe('0.0010');
  });
});
