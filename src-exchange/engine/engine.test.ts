import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';
import type { Command } from './types';

describe('engine facade', () => {
  it('reports a crossing order as book, trade, fill, order, position and balance events in order', () => {
    const e = setup();
    place(e, 'bob', 'ask', 4000, 100, { clientOrderId: 'bob-1' });
    const r = ok(e, { type: 'createOrder', nowMs: T0 + 7, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 4000, countCenti: 300, clientOrderId: 'al-1' });
    expect(r.events.map((x) => x.type)).toEqual(['book', 'trade', 'fill', 'fill', 'order', 'book', 'order', 'position', 'position', 'balance', 'balance']);
    expect(r.events[0]).toMatchObject({ type: 'book', side: 'no', price: 6000, delta: -100, client_order_id: 'bob-1', user_id: 'bob', ts: T0 + 7 });
    expect(r.events[5]).toMatchObject({ type: 'book', side: 'yes', price: 4000, delta: 200, client_order_id: 'al-1' });
    expect(r.mutated).toBe(true);
  });

  it('rejects malformed commands without touching state', () => {
    const e = setup();
    const snap = JSON.stringify(e.toSnapshot());
    expect(e.apply({ type: 'nope', nowMs: T0 } as unknown as Command)).toMatchObject({ ok: false, code: 'invalid_parameters', mutated: false });
    expect(e.apply({ type: 'expire' } as unknown as Command)).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(null as unknown as Command)).toMatchObject({ ok: false });
    expect(ok(e, { type: 'expire', nowMs: T0 }).mutated).toBe(false);
    expect(ok(e, { type: 'cancelAllOrders', nowMs: T0, userId: 'alice' }).mutated).toBe(false);
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
  });

  it('generates ids from counters and the seed only', () => {
    const a = setup({ idSeed: 5 });
    const b = setup({ idSeed: 5 });
    const c = setup({ idSeed: 6 });
    const ids = [a, b, c].map((e) => place(e, 'alice', 'bid', 5000, 100).order_id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[0]).not.toBe(ids[2]);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('restores from a JSON snapshot and continues identically (queue priority included)', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 100, { expirationTime: Math.floor(T0 / 1000) + 30 });
    const b = place(e, 'bob', 'bid', 5000, 100);
    ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 200 });
    const g = ok(e, { type: 'createOrderGroup', nowMs: T0, userId: 'carol', contractsLimitCenti: 150 }).group.order_group_id;
    place(e, 'carol', 'ask', 6000, 100, { orderGroupId: g });
    const text = JSON.stringify(e.toSnapshot());
    const r = Engine.fromSnapshot(JSON.parse(text));
    expect(JSON.stringify(r.toSnapshot())).toBe(text);
    expect(r.queuePosition(a.order_id)).toBe(100);
    expect(r.queuePosition(b.order_id)).toBe(0);
    expectClean(r);
    const next: Command[] = [
      { type: 'createOrder', nowMs: T0 + 1, userId: 'carol', ticker: TICKER, side: 'ask', priceTicks: 5000, countCenti: 150, orderGroupId: g },
      { type: 'createOrder', nowMs: T0 + 2, userId: 'bob', ticker: TICKER, side: 'bid', priceTicks: 6000, countCenti: 500 },
      { type: 'expire', nowMs: T0 + 31_000 },
    ];
    for (const c of next) expect(JSON.stringify(r.apply(c))).toBe(JSON.stringify(e.apply(c)));
    expect(JSON.stringify(r.toSnapshot())).toBe(JSON.stringify(e.toSnapshot()));
    expect(() => Engine.fromSnapshot({ ...JSON.parse(text), version: 99 })).toThrow(/version/);
  });

  it('lists a level\'s queue first in line first, with what each order still offers', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 300);
    const b = place(e, 'bob', 'bid', 5000, 200);
    place(e, 'carol', 'bid', 4900, 100);
    expect(e.levelQueue(TICKER, 0, 5000)).toEqual([
      { orderId: a.order_id, userId: 'alice', remaining: 300 },
      { orderId: b.order_id, userId: 'bob', remaining: 200 },
    ]);
    // a seller takes 100 from the first in line
    place(e, 'carol', 'ask', 5000, 100);
    expect(e.levelQueue(TICKER, 0, 5000).map((q) => q.remaining)).toEqual([200, 200]);
    expect(e.levelQueue(TICKER, 1, 5000)).toEqual([]);
    expect(e.levelQueue('NOPE', 0, 5000)).toEqual([]);
  });
});
