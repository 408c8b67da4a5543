import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chargeFee, feeReserveMicro, fillFeeCents, MAKER_K, TAKER_K } from './fees';

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
