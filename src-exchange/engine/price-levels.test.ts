import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { checkTick, onTick } from './price-levels';
import { expectClean, ok, place, T0 } from '../../test-support/exchange/engine';
import type { PriceLevelStructure } from './price-levels';
import { MICRO_PER_DOLLAR } from './units';

function market(structure?: PriceLevelStructure): Engine {
  const e = new Engine({ idSeed: 1 });
  ok(e, { type: 'addMarket', nowMs: T0, ticker: 'MKT-1', eventTicker: 'EVT-1', seriesTicker: 'SER', ...(structure ? { priceLevelStructure: structure } : {}) });
  ok(e, { type: 'openMarket', nowMs: T0, ticker: 'MKT-1' });
  for (const u of ['alice', 'bob']) ok(e, { type: 'deposit', nowMs: T0, userId: u, amountMicro: 1000 * MICRO_PER_DOLLAR });
  return e;
}

const create = (e: Engine, side: 'bid' | 'ask', priceTicks: number) => e.apply({ type: 'createOrder', nowMs: T0 + 1, userId: 'alice', ticker: 'MKT-1', side, priceTicks, countCenti: 100 });

describe('price grids on integer ticks', () => {
  it('cents, tenths of a cent, the tapered tails and their boundaries', () => {
    expect(onTick('linear_cent', 4300)).toBe(true);
    expect(onTick('linear_cent', 4310)).toBe(false);
    expect(onTick('deci_cent', 4310)).toBe(true);
    expect(onTick('deci_cent', 4311)).toBe(false);
    expect(onTick('linear_centi_cent', 4311)).toBe(true);
    // tapered: 0.001 below 0.10 and above 0.90, 0.01 between; both boundaries on the grid
    expect([950, 1000, 1010, 1050, 1100, 8990, 9000, 9010, 9995].map((t) => onTick('tapered_deci_cent', t))).toEqual([true, true, false, false, true, false, true, true, false]);
  });
  it("a refusal names the tick that applies there", () => {
    expect(checkTick('linear_cent', 4300)).toBeUndefined();
    expect(checkTick('tapered_deci_cent', 1050)).toEqual({ ok: false, code: 'invalid_price', message: 'invalid price', details: "price 0.1050 is not on the market's tick: 0.0100 there (tapered_deci_cent)" });
    expect(checkTick('tapered_deci_cent', 9995, 'yes_bid')?.details).toBe("yes_bid 0.9995 is not on the market's tick: 0.0010 there (tapered_deci_cent)");
  });
});

describe("orders off the market's tick", () => {
  it('a create is refused with invalid_price and changes nothing', () => {
    const e = market('linear_cent');
    const before = JSON.stringify(e.toSnapshot());
    const r = create(e, 'bid', 4312);
    expect(r).toMatchObject({ ok: false, code: 'invalid_price', message: 'invalid price' });
    expect(r.mutated).toBe(false);
    expect(JSON.stringify(e.toSnapshot())).toBe(before);
    expect(create(e, 'ask', 4350)).toMatchObject({ ok: false, code: 'invalid_price' });
    expect(create(e, 'bid', 4300)).toMatchObject({ ok: true, order: { status: 'resting', yes_price: 4300 } });
    expectClean(e);
  });

  it('a tapered market takes tenths of a cent only in its tails', () => {
    const e = market('tapered_deci_cent');
    expect(create(e, 'bid', 950)).toMatchObject({ ok: true });
    expect(create(e, 'ask', 9050)).toMatchObject({ ok: true });
    expect(create(e, 'bid', 1000)).toMatchObject({ ok: true });
    expect(create(e, 'bid', 1010)).toMatchObject({ ok: false, code: 'invalid_price' });
    expect(create(e, 'ask', 8995)).toMatchObject({ ok: false, code: 'invalid_price' });
    expectClean(e);
  });

  it('an amend to an off-tick price is refused and the order stays as it was', () => {
    const e = market('linear_cent');
    const o = place(e, 'alice', 'bid', 4300, 500);
    const r = e.apply({ type: 'amendOrder', nowMs: T0 + 2, userId: 'alice', orderId: o.order_id, ticker: 'MKT-1', side: 'bid', priceTicks: 4305, countCenti: 500 });
    expect(r).toMatchObject({ ok: false, code: 'invalid_price' });
    expect(e.getOrder(o.order_id)).toMatchObject({ status: 'resting', yes_price: 4300, remaining_count: 500 });
    expect(e.apply({ type: 'amendOrder', nowMs: T0 + 3, userId: 'alice', orderId: o.order_id, ticker: 'MKT-1', side: 'bid', priceTicks: 4400, countCenti: 500 })).toMatchObject({ ok: true });
    expectClean(e);
  });

  it('a market made without a structure keeps the engine grid (old journals replay unchanged); an unknown structure is refused', () => {
    const e = market();
    expect(e.getMarket('MKT-1')?.price_level_structure).toBe('linear_centi_cent');
    expect(create(e, 'bid', 4311)).toMatchObject({ ok: true });
    const bad = e.apply({ type: 'addMarket', nowMs: T0, ticker: 'MKT-2', eventTicker: 'EVT-1', seriesTicker: 'SER', priceLevelStructure: 'quarter_cent' as PriceLevelStructure });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.getMarket('MKT-2')).toBeUndefined();
  });

  it('the structure survives a snapshot; a snapshot from before structures restores on the engine grid', () => {
    const e = market('tapered_deci_cent');
    const snap = e.toSnapshot();
    expect(Engine.fromSnapshot(JSON.parse(JSON.stringify(snap))).getMarket('MKT-1')?.price_level_structure).toBe('tapered_deci_cent');
    const old = JSON.parse(JSON.stringify(snap)) as { markets: { price_level_structure?: string }[] };
    delete old.markets[0]!.price_level_structure;
    expect(Engine.fromSnapshot(old as never).getMarket('MKT-1')?.price_level_structure).toBe('linear_centi_cent');
  });
});
