import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countToCenti, dollarsToTicks } from '../../src-shared/money';
import { countToCentiFast, priceToTicks } from './fixed';

/** The slow, exact reference, with its throw turned into the fast parser's sentinel. */
const refTicks = (s: string) => {
  try {
    return dollarsToTicks(s);
  } catch {
    return -1;
  }
};
const refCenti = (s: string) => {
  try {
    return countToCenti(s);
  } catch {
    return NaN;
  }
};

const decimalish = fc.stringMatching(/^-?\d{0,3}(\.\d{0,7})?$/);

describe('priceToTicks', () => {
  it('reads prices on the tick', () => {
    expect(priceToTicks('0.5300')).toBe(5300);
    expect(priceToTicks('0.53')).toBe(5300);
    expect(priceToTicks('0.0001')).toBe(1);
    expect(priceToTicks('1')).toBe(10000);
    expect(priceToTicks('1.000000')).toBe(10000);
    expect(priceToTicks('0')).toBe(0);
    expect(priceToTicks('0.123400')).toBe(1234);
  });

  it('refuses everything else with -1', () => {
    for (const s of ['', '.5', '0.', '1.0001', '2', '0.12345', '-0.5', '0,5', '1e-4', ' 0.5', '0.5 ']) expect(priceToTicks(s)).toBe(-1);
  });

  it('agrees with dollarsToTicks on arbitrary decimal-looking strings', () => {
    fc.assert(
      fc.property(decimalish, (s) => {
        const ref = refTicks(s);
        const fast = priceToTicks(s);
        // The reference also accepts "-0" and "-0.0000" (zero); the fast reader never signs a price.
        if (s.startsWith('-')) expect(fast).toBe(-1);
        else expect(fast).toBe(ref);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('countToCentiFast', () => {
  it('reads signed counts', () => {
    expect(countToCentiFast('12.34')).toBe(1234);
    expect(countToCentiFast('-12.5')).toBe(-1250);
    expect(countToCentiFast('7')).toBe(700);
    expect(countToCentiFast('0.010000')).toBe(1);
  });

  it('refuses everything else with NaN', () => {
    for (const s of ['', '-', '.5', '1.', '1.001', '1e3', '+1', '1,5', '--1', '99999999999999999']) expect(countToCentiFast(s)).toBeNaN();
  });

  it('agrees with countToCenti on arbitrary decimal-looking strings', () => {
    fc.assert(
      fc.property(decimalish, (s) => {
        const ref = refCenti(s);
        const fast = countToCentiFast(s);
        if (Number.isNaN(ref)) expect(fast).toBeNaN();
        else expect(fast === ref || (fast === 0 && ref === 0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
