import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ceilDiv, chargeFee, feeReserveMicro, fillFeeCents, makerK, MAKER_K, TAKER_K, worstVariance, priceVariance, FEE_DENOMINATOR } from './fees';

describe('fees', () => {
  it('matches hand-computed taker fees (0.07 x C x P x (1-P), rounded up to the cent)', () => {
    // 10 contracts at 0.50: 0.07 * 10 * 0.25 = 0.175 -> 0.18
    expect(fillFeeCents(TAKER_K, 10_000, 1_000, 5_000)).toBe(18);
    // 1 contract at 0.50: 0.0175 -> 0.02
    expect(fillFeeCents(TAKER_K, 10_000, 100, 5_000)).toBe(2);
    // 100 contracts at 0.30: 0.07 * 100 * 0.21 = 1.47 exactly
    expect(fillFeeCents(TAKER_K, 10_000, 10_000, 3_000)).toBe(147);
    // 0.01 contract at 0.0001: tiny but positive -> one cent
    expect(fillFeeCents(TAKER_K, 10_000, 1, 1)).toBe(1);
    // 3 contracts at 0.1234: 0.07 * 3 * 0.1234 * 0.8766 = 0.022716... -> 0.03
    expect(fillFeeCents(TAKER_K, 10_000, 300, 1_234)).toBe(3);
  });

  it('matches hand-computed maker fees (0.0175) and the multiplier', () => {
    // 100 contracts at 0.50: 0.0175 * 100 * 0.25 = 0.4375 -> 0.44
    expect(fillFeeCents(MAKER_K, 10_000, 10_000, 5_000)).toBe(44);
    // multiplier 0.5: 0.07 * 0.5 * 10 * 0.25 = 0.0875 -> 0.09
    expect(fillFeeCents(TAKER_K, 5_000, 1_000, 5_000)).toBe(9);
    expect(fillFeeCents(0, 10_000, 10_000, 5_000)).toBe(0);
    expect(fillFeeCents(TAKER_K, 0, 10_000, 5_000)).toBe(0);
  });

  it('computes exactly for huge counts (BigInt path)', () => {
    // 9e9 contracts at 0.50: 0.07 * 9e9 * 0.25 = 157,500,000 dollars
    expect(fillFeeCents(TAKER_K, 10_000, 900_000_000_000, 5_000)).toBe(15_750_000_000);
  });

  it('charges an order the rounded-up total of its fills, never a cent per fill', () => {
    let carry = 0;
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const r = chargeFee(TAKER_K, 10_000, 100, 5_000, carry);
      total += r.cents;
      carry = r.carry;
    }
    // ten 1-contract fills at 0.50 = 0.175 in all -> 18 cents, not 10 x 2
    expect(total).toBe(18);
    const first = chargeFee(TAKER_K, 10_000, 100, 5_000, 0);
    expect(first.cents).toBe(2);
  });

  it('the fee reserve bounds every sequence of fills', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9_999 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.record({ count: fc.integer({ min: 1, max: 500 }), maker: fc.boolean(), improve: fc.integer({ min: 0, max: 3_000 }) }), { maxLength: 30 }),
        (own, mult, fills) => {
          const total = fills.reduce((a, f) => a + f.count, 0);
          const reserve = feeReserveMicro(mult, total, own);
          let tc = 0;
          let mc = 0;
          let paid = 0;
          for (const f of fills) {
            const price = f.maker ? own : Math.max(1, own - f.improve);
            if (f.maker) {
              const r = chargeFee(MAKER_K, mult, f.count, price, mc);
              mc = r.carry;
              paid += r.cents;
            } else {
              const r = chargeFee(TAKER_K, mult, f.count, price, tc);
              tc = r.carry;
              paid += r.cents;
            }
          }
          return paid * 10_000 <= reserve;
        },
      ),
    );
  });
});

// What mutation testing found unguarded (npm run mutation): an exact cent below the BigInt
// threshold, fractions under half a cent (rounding half-up instead of up), the maker rate per fee
// type, the reserve's worst price, and the float path against an exact reference on both sides of
// the threshold.
describe('fees: rounding and references', () => {
  const exact = (k: number, m: number, c: number, t: number) => {
    const x = BigInt(k) * BigInt(m) * BigInt(c) * BigInt(t * (10_000 - t));
    const d = BigInt(FEE_DENOMINATOR);
    return Number((x + d - 1n) / d);
  };

  it('charges an exact cent amount as is, and any fraction of a cent as a whole cent', () => {
    // 4 contracts at 0.50: 0.07 x 4 x 0.25 = 0.07 exactly (the float path)
    expect(fillFeeCents(TAKER_K, 10_000, 400, 5_000)).toBe(7);
    expect(chargeFee(TAKER_K, 10_000, 400, 5_000, 0)).toEqual({ cents: 7, carry: 0 });
    // 0.01 contract at 0.50: 0.0000175 dollars, far under half a cent: still one cent
    expect(fillFeeCents(TAKER_K, 10_000, 1, 5_000)).toBe(1);
    // 1 contract at 0.01: 0.07 x 0.0099 = 0.000693: one cent, not zero (half-up would give 0)
    expect(fillFeeCents(TAKER_K, 10_000, 100, 100)).toBe(1);
    // 2.01 dollars and a hair: 0.07 x 115 x 0.25 = 2.0125 -> 2.02 (a quarter cent over: up, not down)
    expect(fillFeeCents(TAKER_K, 10_000, 11_500, 5_000)).toBe(202);
  });

  it('matches the exact formula on either side of the float path', () => {
    fc.assert(
      fc.property(fc.constantFrom(TAKER_K, MAKER_K), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 100_000_000_000 }), fc.integer({ min: 1, max: 9_999 }), (k, m, c, t) => {
        expect(fillFeeCents(k, m, c, t)).toBe(exact(k, m, c, t));
        expect(chargeFee(k, m, c, t, 0).cents).toBe(exact(k, m, c, t));
      }),
      { seed: 20261126, numRuns: 2_000 },
    );
  });

  it('charges pieces of an order the exact fee of their total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 9_999 }), fc.array(fc.integer({ min: 1, max: 10_000_000_000 }), { minLength: 1, maxLength: 12 }), (m, t, pieces) => {
        let carry = 0;
        let paid = 0;
        for (const c of pieces) {
          const r = chargeFee(TAKER_K, m, c, t, carry);
          paid += r.cents;
          carry = r.carry;
          expect(carry).toBeGreaterThanOrEqual(0);
          expect(carry).toBeLessThan(FEE_DENOMINATOR);
        }
        expect(paid).toBe(exact(TAKER_K, m, pieces.reduce((a, b) => a + b, 0), t));
      }),
      { seed: 20261126, numRuns: 500 },
    );
  });

  it('divides up exactly next to an integer and for a carry larger than the fee', () => {
    const d = FEE_DENOMINATOR;
    // 8e15 - 1 over 4e14 is 19.9999999999999975: floor 19, so 20
    expect(ceilDiv(20 * d - 1, d)).toBe(20);
    expect(ceilDiv(20 * d, d)).toBe(20);
    expect(ceilDiv(20 * d + 1, d)).toBe(21);
    expect(ceilDiv(22 * d - 1, d)).toBe(22);
    expect(ceilDiv(0, d)).toBe(0);
    expect(ceilDiv(-1, d)).toBe(0);
    expect(ceilDiv(-(d - 1), d)).toBe(0);
    expect(ceilDiv(1, d)).toBe(1);
  });

  it('takes the exact path where the float product is no longer exact', () => {
    // found by search: in floats this product rounds and the fee comes out a cent short
    const [m, c, t] = [890_898, 43_061_520_020, 4_522];
    expect(exact(TAKER_K, m, c, t)).toBe(66_522_408_642);
    expect(fillFeeCents(TAKER_K, m, c, t)).toBe(66_522_408_642);
    expect(chargeFee(TAKER_K, m, c, t, 0).cents).toBe(66_522_408_642);
    expect(feeReserveMicro(m, c, t)).toBe(66_522_408_643 * 10_000);
  });

  it('charges an exact number of cents as is on the BigInt path too', () => {
    // 400,000,000 contracts at 0.50: 0.07 x 4e8 x 0.25 = 7,000,000.00 dollars exactly
    expect(chargeFee(TAKER_K, 10_000, 40_000_000_000, 5_000, 0)).toEqual({ cents: 700_000_000, carry: 0 });
    expect(fillFeeCents(TAKER_K, 10_000, 40_000_000_000, 5_000)).toBe(700_000_000);
    // a carry (always under a cent) that covers a fill in full, or exactly
    expect(chargeFee(TAKER_K, 10_000, 10, 5_000, 1e14)).toEqual({ cents: 0, carry: 3e13 });
    expect(chargeFee(TAKER_K, 10_000, 10, 5_000, 7e13)).toEqual({ cents: 0, carry: 0 });
    expect(chargeFee(TAKER_K, 10_000, 10, 5_000, 7e13 - 1)).toEqual({ cents: 1, carry: 4e14 - 1 });
  });

  it('charges makers only where the fee type says so', () => {
    expect(makerK('quadratic_with_maker_fees')).toBe(MAKER_K);
    expect(makerK('quadratic')).toBe(0);
    expect(chargeFee(0, 10_000, 1_000, 5_000, 123)).toEqual({ cents: 0, carry: 123 });
    expect(chargeFee(TAKER_K, 10_000, 0, 5_000, 7)).toEqual({ cents: 0, carry: 7 });
  });

  it('reserves for the worst price an order can trade at, plus a cent', () => {
    expect(priceVariance(5_000)).toBe(25_000_000);
    expect(worstVariance(3_000)).toBe(priceVariance(3_000));
    expect(worstVariance(5_000)).toBe(priceVariance(5_000));
    expect(worstVariance(8_000)).toBe(priceVariance(5_000));
    // 10 contracts: taker fee at 0.50 = 0.175 -> 18 cents, + 1 cent, in micro-dollars
    expect(feeReserveMicro(10_000, 1_000, 9_000)).toBe(19 * 10_000);
    expect(feeReserveMicro(10_000, 1_000, 2_000)).toBe((exact(TAKER_K, 10_000, 1_000, 2_000) + 1) * 10_000);
    expect(feeReserveMicro(0, 1_000, 5_000)).toBe(0);
    expect(feeReserveMicro(10_000, 0, 5_000)).toBe(0);
    // past the float path
    expect(feeReserveMicro(1_000_000, 100_000_000_000, 5_000)).toBe((exact(TAKER_K, 1_000_000, 100_000_000_000, 5_000) + 1) * 10_000);
  });
});
