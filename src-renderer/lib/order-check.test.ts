import { describe, expect, it } from 'vitest';
import { checkCountText, checkPriceText, parseUserDecimal, validateTicket } from './order-check';

describe('order ticket validation', () => {
  it('asks for a price and a count when blank', () => {
    expect(checkPriceText('').message).toBe('Enter a price');
    expect(checkCountText(' ').message).toBe('Enter a count');
  });

  it('rejects text that is not a plain decimal', () => {
    expect(checkPriceText('abc').message).toBe('Price must be a number like 0.53');
    expect(checkPriceText('1e-2').message).toBe('Price must be a number like 0.53');
    expect(checkCountText('-3').message).toBe('Count must be a number like 10');
  });

  it('checks the tick and the price range with the money rules', () => {
    expect(checkPriceText('0.53').ok).toBe(true);
    expect(checkPriceText('.5312').ok).toBe(true);
    expect(checkPriceText('0.53125').message).toBe('Price must be a multiple of 0.0001');
    expect(checkPriceText('0').message).toBe('Price must be above 0 and below 1 dollar');
    expect(checkPriceText('53').message).toBe('Price must be above 0 and below 1 dollar (did you mean 0.53?)');
  });

  it('checks the count granularity', () => {
    expect(checkCountText('10').ok).toBe(true);
    expect(checkCountText('0.5').ok).toBe(true);
    expect(checkCountText('0.001').message).toBe('Count must be a multiple of 0.01');
    expect(checkCountText('0').message).toBe('Count must be positive');
  });

  it('prices a bid: cost, taker fee rounded up to the cent, payout and profit', () => {
    const t = validateTicket({ side: 'bid', price: '0.53', count: '10' }, { multiplier: '1', makerFees: false });
    expect(t.ready).toBe(true);
    // 0.07 x 10 x 0.53 x 0.47 = 0.17437 -> 0.18
    expect(t.quote).toEqual({ cost: '5.30', takerFee: '0.18', makerFee: null, payout: '10.00', maxProfit: '4.52' });
  });

  it('prices an ask on the NO collateral and applies the series multiplier and maker fee', () => {
    const t = validateTicket({ side: 'ask', price: '0.53', count: '10' }, { multiplier: '0.5', makerFees: true });
    expect(t.quote?.cost).toBe('4.70');
    expect(t.quote?.takerFee).toBe('0.09');
    expect(t.quote?.makerFee).toBe('0.03');
  });

  it('keeps exact sub-cent costs', () => {
    const t = validateTicket({ side: 'bid', price: '0.5312', count: '0.01' }, { multiplier: null, makerFees: false });
    expect(t.quote?.cost).toBe('0.005312');
  });

  it('is not ready while a field is invalid', () => {
    const t = validateTicket({ side: 'bid', price: '1.2', count: '10' }, { multiplier: '1', makerFees: false });
    expect(t.ready).toBe(false);
    expect(t.quote).toBeNull();
  });

  it('reads what people type', () => {
    expect(parseUserDecimal('.5')?.toString()).toBe('0.5');
    expect(parseUserDecimal('5.')?.toString()).toBe('5');
    expect(parseUserDecimal('5,5')).toBeNull();
  });
});

describe('the ticket never rounds what was typed', () => {
  it('refuses a price with digits past the tick, however far out, instead of sending 0.53', () => {
    for (const text of ['0.53000000000000000001', '0.5300000000000000000000000000000000000000001']) {
      const c = checkPriceText(text);
      expect(c.ok, text).toBe(false);
      expect(c.message).toMatch(/0\.0001/);
    }
    expect(checkCountText('5.0000000000000000000000000000000000000000001').ok).toBe(false);
  });
});
