import { describe, expect, it } from 'vitest';
import {
  Decimal,
  MoneyError,
  centiCentsToDollars,
  centiToCount,
  centsToDollars,
  checkOrderCount,
  checkOrderPrice,
  countToCenti,
  dollarsToCentiCents,
  dollarsToCents,
  dollarsToTicks,
  fillFee,
  formatCount,
  formatDollars,
  orderCost,
  parseDecimal,
  roundUpToCent,
  stepPrice,
  ticksToDollars,
  TAKER_FEE_RATE,
  MAKER_FEE_RATE,
  priceText,
  isDecimalString,
  PRICE_TICK,
} from './money';

describe('parseDecimal', () => {
  it('reads plain decimal strings exactly', () => {
    expect(parseDecimal('0.1').add(parseDecimal('0.2')).toString()).toBe('0.3');
    expect(parseDecimal('-12.345600').toFixed(6)).toBe('-12.345600');
  });
  it.each(['', ' 1', '1e3', 'NaN', 'Infinity', '.5', '1.', '0x10', '1,5'])('rejects %j', (text) => {
    expect(() => parseDecimal(text)).toThrow(MoneyError);
  });
  it('rejects non-strings (a float must never sneak in)', () => {
    expect(() => parseDecimal(0.5 as unknown as string)).toThrow(/decimal string/);
  });
});

describe('price ticks', () => {
  it('converts at the tick edges', () => {
    expect(dollarsToTicks('0.0001')).toBe(1);
    expect(dollarsToTicks('0.9999')).toBe(9999);
    expect(dollarsToTicks('1')).toBe(10000);
    expect(dollarsToTicks('0')).toBe(0);
    expect(dollarsToTicks('0.53')).toBe(5300);
    expect(ticksToDollars(1)).toBe('0.0001');
    expect(ticksToDollars(5300)).toBe('0.5300');
  });
  it('rejects sub-tick and out-of-range prices', () => {
    expect(() => dollarsToTicks('0.00005')).toThrow(/multiple of 0.0001/);
    expect(() => dollarsToTicks('1.0001')).toThrow(MoneyError);
    expect(() => dollarsToTicks('-0.1')).toThrow(MoneyError);
    expect(() => ticksToDollars(1.5)).toThrow(MoneyError);
  });
  it('checks order prices: above 0, below 1, on the tick', () => {
    expect(checkOrderPrice(new Decimal('0.0001')).ok).toBe(true);
    expect(checkOrderPrice(new Decimal('0.9999')).ok).toBe(true);
    expect(checkOrderPrice(new Decimal('0')).reason).toMatch(/above 0/);
    expect(checkOrderPrice(new Decimal('1')).ok).toBe(false);
    expect(checkOrderPrice(new Decimal('0.12345')).reason).toMatch(/0.0001/);
  });
  it('judges the tick by the digits typed, never by a rounded division', () => {
    // wider than the working precision (40 digits): a division would round these onto the tick
    for (const text of ['0.53000000000000000001', '0.5300000000000000000000000000000000000000001', '0.530000000000000000000000000000000000000000000000001']) {
      expect(checkOrderPrice(new Decimal(text)).ok, text).toBe(false);
      expect(() => dollarsToTicks(text), text).toThrow(MoneyError);
    }
    expect(checkOrderCount(new Decimal('5.0000000000000000000000000000000000000000001')).ok).toBe(false);
    expect(() => formatCount(new Decimal('5.0000000000000000000000000000000000000000001'))).toThrow(MoneyError);
    expect(checkOrderPrice(new Decimal('0.5300')).ok).toBe(true);
    expect(dollarsToTicks('0.530000')).toBe(5300);
  });
  it('steps by ticks and clamps to the valid range', () => {
    expect(stepPrice(new Decimal('0.5'), 3).toString()).toBe('0.5003');
    expect(stepPrice(new Decimal('0.0002'), -5).toString()).toBe('0.0001');
    expect(stepPrice(new Decimal('0.9998'), 5).toString()).toBe('0.9999');
  });
});

describe('counts', () => {
  it('round-trips centi-contracts', () => {
    expect(countToCenti('12.34')).toBe(1234);
    expect(countToCenti('-0.01')).toBe(-1);
    expect(centiToCount(1234)).toBe('12.34');
    expect(centiToCount(-1)).toBe('-0.01');
  });
  it('rejects counts finer than 0.01', () => {
    expect(() => countToCenti('1.001')).toThrow(/0.01/);
    expect(checkOrderCount(new Decimal('0.001')).ok).toBe(false);
    expect(checkOrderCount(new Decimal('0')).ok).toBe(false);
    expect(checkOrderCount(new Decimal('0.01')).ok).toBe(true);
    expect(() => formatCount(new Decimal('0.005'))).toThrow(MoneyError);
  });
  it('handles huge counts exactly, and refuses ones beyond safe integers', () => {
    expect(countToCenti('90071992547409.91')).toBe(9007199254740991);
    expect(() => countToCenti('90071992547409.92')).toThrow(/too large/);
    const big = parseDecimal('123456789012345678901234567890.12');
    expect(formatCount(big.add(parseDecimal('0.01')))).toBe('123456789012345678901234567890.13');
  });
});

describe('cash units', () => {
  it('converts cents, dollars and centi-cents exactly', () => {
    expect(centsToDollars(12345)).toBe('123.45');
    expect(dollarsToCents('123.45')).toBe(12345);
    expect(() => dollarsToCents('1.234')).toThrow(/cent/);
    expect(centiCentsToDollars(5300)).toBe('0.5300');
    expect(dollarsToCentiCents('0.5301')).toBe(5301);
    expect(() => dollarsToCentiCents('0.00001')).toThrow(MoneyError);
  });
  it('formats dollars with the requested decimals using banker-free exact output', () => {
    expect(formatDollars(new Decimal('0.1').add('0.2'), 4)).toBe('0.3000');
    expect(formatDollars(new Decimal('1.000005'), 6)).toBe('1.000005');
  });
});

describe('fees', () => {
  it('rounds a taker fee up to the cent: 0.07 x 10 x 0.5 x 0.5 = 0.175 -> 0.18', () => {
    expect(fillFee(TAKER_FEE_RATE, new Decimal(1), new Decimal(10), new Decimal('0.5')).toFixed(2)).toBe('0.18');
  });
  it('charges a whole cent for a tiny fill', () => {
    expect(fillFee(TAKER_FEE_RATE, new Decimal(1), new Decimal('0.01'), new Decimal('0.01')).toFixed(2)).toBe('0.01');
  });
  it('is exact at a cent boundary: 0.07 x 100 x 0.5 x 0.5 = 1.75', () => {
    expect(fillFee(TAKER_FEE_RATE, new Decimal(1), new Decimal(100), new Decimal('0.5')).toFixed(2)).toBe('1.75');
  });
  it('applies the maker rate and a multiplier', () => {
    // 0.0175 x 0.5 x 100 x 0.3 x 0.7 = 0.18375 -> 0.19
    expect(fillFee(MAKER_FEE_RATE, new Decimal('0.5'), new Decimal(100), new Decimal('0.3')).toFixed(2)).toBe('0.19');
  });
  it('rounds up only when needed', () => {
    expect(roundUpToCent(new Decimal('1.00')).toFixed(2)).toBe('1.00');
    expect(roundUpToCent(new Decimal('1.0000001')).toFixed(2)).toBe('1.01');
  });
});

describe('orderCost', () => {
  it('buys YES at the price and NO at one minus the price', () => {
    expect(orderCost('bid', new Decimal('0.53'), new Decimal('10')).toString()).toBe('5.3');
    expect(orderCost('ask', new Decimal('0.53'), new Decimal('10')).toString()).toBe('4.7');
  });
});

describe('priceText', () => {
  it('shows a cent price with two decimals and a finer one with four, never rounded', () => {
    expect(priceText(new Decimal('0.52'))).toBe('0.52');
    expect(priceText(new Decimal('0.5200'))).toBe('0.52');
    expect(priceText(new Decimal('0.5203'))).toBe('0.5203');
    expect(priceText(new Decimal('0.521'))).toBe('0.5210');
  });
});

// What mutation testing found unguarded (npm run mutation): the exact refusals, the non-string
// guard, the Decimal clone's plain notation and the fee rates themselves.
describe('money: the exact refusals and settings', () => {
  it('refuses with the field named and the value quoted', () => {
    expect(() => parseDecimal('1e3', 'price')).toThrow('price must be a decimal string like "0.5300", got "1e3"');
    expect(() => parseDecimal(5 as unknown as string)).toThrow('value must be a decimal string like "0.5300", got 5');
    expect(() => parseDecimal('x')).toThrow(MoneyError);
    try {
      parseDecimal('x');
    } catch (e) {
      expect((e as Error).name).toBe('MoneyError');
    }
    expect(() => dollarsToTicks('0.53001')).toThrow('price 0.53001 is not a multiple of 0.0001 between 0 and 1');
    expect(() => ticksToDollars(1.5)).toThrow('ticks must be an integer, got 1.5');
    expect(() => countToCenti('1.001')).toThrow('count 1.001 is finer than 0.01 contract');
    expect(() => countToCenti('99999999999999999999')).toThrow('count 99999999999999999999 is too large');
    expect(() => centiToCount(1.5)).toThrow('centi-count must be a safe integer, got 1.5');
    expect(() => dollarsToCents('0.001')).toThrow('amount 0.001 is finer than a cent');
    expect(() => dollarsToCentiCents('0.00001')).toThrow('amount 0.00001 is finer than a centi-cent');
    expect(() => formatCount(new Decimal('0.001'))).toThrow('count 0.001 is finer than 0.01 contract');
  });

  it('says why a price or a count is refused, including one that is not a number', () => {
    expect(checkOrderPrice(new Decimal(NaN))).toEqual({ ok: false, reason: 'price is not a number' });
    expect(checkOrderPrice(new Decimal(0))).toEqual({ ok: false, reason: 'price must be above 0 and below 1 dollar' });
    expect(checkOrderPrice(new Decimal('0.12345'))).toEqual({ ok: false, reason: 'price must be a multiple of 0.0001' });
    expect(checkOrderPrice(new Decimal('0.1234'))).toEqual({ ok: true });
    expect(checkOrderCount(new Decimal(NaN))).toEqual({ ok: false, reason: 'count is not a number' });
    expect(checkOrderCount(new Decimal(0))).toEqual({ ok: false, reason: 'count must be positive' });
    expect(checkOrderCount(new Decimal('1.001'))).toEqual({ ok: false, reason: 'count must be a multiple of 0.01' });
    expect(checkOrderCount(new Decimal('1.01'))).toEqual({ ok: true });
  });

  it('tells a wire decimal from anything else without throwing', () => {
    expect(isDecimalString('0.53')).toBe(true);
    expect(isDecimalString('-2')).toBe(true);
    for (const v of [0.53, null, undefined, '1e3', '.5', '', ' 1', {}]) expect(isDecimalString(v)).toBe(false);
  });

  it('prints small and large decimals plainly, never in exponent notation', () => {
    expect(new Decimal('0.00000001').toString()).toBe('0.00000001');
    expect(new Decimal('0.000000000000000000000000001').toString()).toBe('0.000000000000000000000000001');
    expect(new Decimal('123456789012345678901234567890').toString()).toBe('123456789012345678901234567890');
    expect(PRICE_TICK.toString()).toBe('0.0001');
  });

  it('uses the published fee rates', () => {
    expect(TAKER_FEE_RATE.toString()).toBe('0.07');
    expect(MAKER_FEE_RATE.toString()).toBe('0.0175');
  });
});
