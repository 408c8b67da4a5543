import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  centiToCount,
  centsToMicro,
  countToCenti,
  dollarsToMicro,
  dollarsToTicks,
  isOrderCount,
  isOrderPrice,
  MAX_COUNT_CENTI,
  microToCents,
  microToDollars,
  ticksToDollars,
} from './units';

describe('units', () => {
  it('formats ticks as 4-decimal dollars', () => {
    expect(ticksToDollars(1234)).toBe('0.1234');
    expect(ticksToDollars(1)).toBe('0.0001');
    expect(ticksToDollars(10_000)).toBe('1.0000');
    expect(ticksToDollars(0)).toBe('0.0000');
  });

  it('parses dollar strings to ticks without floats', () => {
    expect(dollarsToTicks('0.1234')).toBe(1234);
    expect(dollarsToTicks('0.5')).toBe(5000);
    expect(dollarsToTicks('.07')).toBe(700);
    expect(dollarsToTicks('1')).toBe(10_000);
    expect(dollarsToTicks('0.12340')).toBe(1234);
    expect(dollarsToTicks('0.12345')).toBeUndefined();
    expect(dollarsToTicks('-0.1')).toBeUndefined();
    expect(dollarsToTicks('abc')).toBeUndefined();
    expect(dollarsToTicks('')).toBeUndefined();
    expect(dollarsToTicks('1e3')).toBeUndefined();
  });

  it('converts counts to and from 2-decimal strings, signed', () => {
    expect(centiToCount(1234)).toBe('12.34');
    expect(centiToCount(5)).toBe('0.05');
    expect(centiToCount(-5)).toBe('-0.05');
    expect(countToCenti('12.34')).toBe(1234);
    expect(countToCenti('10')).toBe(1000);
    expect(countToCenti('-1.5')).toBe(-150);
    expect(countToCenti('0.001')).toBeUndefined();
  });

  it('converts micro-dollars to 6-decimal strings and cents', () => {
    expect(microToDollars(1_234_567)).toBe('1.234567');
    expect(microToDollars(-70_000)).toBe('-0.070000');
    expect(dollarsToMicro('0.07')).toBe(70_000);
    expect(dollarsToMicro('-12.5')).toBe(-12_500_000);
    expect(microToCents(1_239_999)).toBe(123);
    expect(microToCents(-1)).toBe(-1);
    expect(microToCents(Number.MAX_SAFE_INTEGER)).toBe(900_719_925_474);
    expect(centsToMicro(123)).toBe(1_230_000);
    expect(centsToMicro(Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it('rejects values beyond the safe integer range', () => {
    expect(dollarsToMicro('99999999999.999999')).toBeUndefined();
    expect(countToCenti('123456789012345678')).toBeUndefined();
    expect(() => microToDollars(2 ** 60)).toThrow(RangeError);
    expect(isOrderCount(MAX_COUNT_CENTI)).toBe(true);
    expect(isOrderCount(MAX_COUNT_CENTI + 1)).toBe(false);
    expect(isOrderCount(1.5)).toBe(false);
    expect(isOrderPrice(0)).toBe(false);
    expect(isOrderPrice(10_000)).toBe(false);
    expect(isOrderPrice(9_999)).toBe(true);
  });

  it('round-trips every representable value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (t) => dollarsToTicks(ticksToDollars(t)) === t),
    );
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (c) => countToCenti(centiToCount(c)) === c && dollarsToMicro(microToDollars(c)) === c),
    );
  });
});
