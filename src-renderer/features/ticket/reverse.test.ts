import { describe, expect, it } from 'vitest';
import { planReverse } from './reverse';

describe('planReverse: the one order that turns a position into the other side', () => {
  it('YES 3 sells 6 at the best bid', () => {
    expect(planReverse('T', '3.00', { bid: 4800, ask: 5000 })).toEqual({ ok: true, side: 'ask', count: '6.00', priceTicks: 4800, holds: '3 YES', becomes: '3 NO' });
  });
  it('NO 2 buys 4 at the best offer', () => {
    expect(planReverse('T', '-2.00', { bid: 4800, ask: 5000 })).toEqual({ ok: true, side: 'bid', count: '4.00', priceTicks: 5000, holds: '2 NO', becomes: '2 YES' });
  });
  it('no position, or no side to cross into, is nothing to send', () => {
    expect(planReverse('T', '0.00', { bid: 4800, ask: 5000 }).ok).toBe(false);
    expect(planReverse('T', undefined, { bid: 4800, ask: 5000 }).ok).toBe(false);
    expect(planReverse('T', '3.00', { bid: null, ask: 5000 }).ok).toBe(false);
    expect(planReverse('T', '-3.00', { bid: 4800, ask: null }).ok).toBe(false);
  });
});
