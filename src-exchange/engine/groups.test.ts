import { describe, expect, it } from 'vitest';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';

function group(e: ReturnType<typeof setup>, userId: string, limit: number): string {
  return ok(e, { type: 'createOrderGroup', nowMs: T0, userId, contractsLimitCenti: limit }).group.order_group_id;
}

describe('order groups', () => {
  it('counts fills of the group orders and trips at the limit, cancelling its resting orders', () => {
    const e = setup();
    const g = group(e, 'alice', 500);
    const a = place(e, 'alice', 'bid', 5000, 400, { orderGroupId: g });
    const b = place(e, 'alice', 'bid', 4000, 400, { orderGroupId: g });
    expect(e.getOrderGroup('alice', g)).toMatchObject({ contracts_used: 0, tripped: false, orders: [a.order_id, b.order_id] });
    place(e, 'bob', 'ask', 5000, 300);
    expect(e.getOrderGroup('alice', g)).toMatchObject({ contracts_used: 300, tripped: false });
    // bob sells 400 more: the group can only take 200 more before it trips
    const r = ok(e, { type: 'createOrder', nowMs: T0, userId: 'bob', ticker: TICKER, side: 'ask', priceTicks: 4000, countCenti: 400 });
    expect(r.order.fill_count).toBe(200);
    expect(e.getOrderGroup('alice', g)).toMatchObject({ contracts_used: 500, tripped: true, orders: [] });
    expect(e.getOrder(a.order_id)!.status).toBe('executed');
    expect(e.getOrder(b.order_id)).toMatchObject({ status: 'canceled', fill_count: 100 });
    expect(r.events.some((x) => x.type === 'orderGroup' && x.event === 'triggered')).toBe(true);
    // new orders in a tripped group are refused until reset
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 100, countCenti: 1, orderGroupId: g })).toMatchObject({
      ok: false,
      code: 'invalid_order',
      details: 'order_group_tripped',
    });
    ok(e, { type: 'resetOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g });
    expect(e.getOrderGroup('alice', g)).toMatchObject({ contracts_used: 0, tripped: false });
    expect(place(e, 'alice', 'bid', 100, 1, { orderGroupId: g }).status).toBe('resting');
    expectClean(e);
  });

  it('caps a taker in a group at what the group has left', () => {
    const e = setup();
    const g = group(e, 'alice', 150);
    place(e, 'bob', 'ask', 5000, 1000);
    const t = place(e, 'alice', 'bid', 5000, 1000, { orderGroupId: g });
    expect(t).toMatchObject({ status: 'canceled', fill_count: 150 });
    expect(e.getOrderGroup('alice', g)!.tripped).toBe(true);
    expectClean(e);
  });

  it('trigger trips at once; a lower limit trips when already reached', () => {
    const e = setup();
    const g = group(e, 'alice', 1000);
    const a = place(e, 'alice', 'bid', 5000, 100, { orderGroupId: g });
    const t = ok(e, { type: 'triggerOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g });
    expect(t.canceled).toEqual([a.order_id]);
    expect(t.group.tripped).toBe(true);
    ok(e, { type: 'resetOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g });
    place(e, 'alice', 'bid', 5000, 300, { orderGroupId: g });
    place(e, 'bob', 'ask', 5000, 200);
    const b = place(e, 'alice', 'bid', 4000, 100, { orderGroupId: g });
    const u = ok(e, { type: 'updateOrderGroupLimit', nowMs: T0, userId: 'alice', orderGroupId: g, contractsLimitCenti: 200 });
    expect(u.group).toMatchObject({ contracts_limit: 200, tripped: true });
    expect(e.getOrder(b.order_id)!.status).toBe('canceled');
    const up = ok(e, { type: 'updateOrderGroupLimit', nowMs: T0, userId: 'alice', orderGroupId: g, contractsLimitCenti: 5000 });
    expect(up.group.tripped).toBe(true); // stays tripped until reset
    expectClean(e);
  });

  it('delete cancels the group orders; a repeat delete is not_found', () => {
    const e = setup();
    const g = group(e, 'alice', 1000);
    const a = place(e, 'alice', 'bid', 5000, 100, { orderGroupId: g });
    expect(e.apply({ type: 'deleteOrderGroup', nowMs: T0, userId: 'bob', orderGroupId: g })).toMatchObject({ ok: false, code: 'not_found' });
    const d = ok(e, { type: 'deleteOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g });
    expect(d.canceled).toEqual([a.order_id]);
    expect(e.apply({ type: 'deleteOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply({ type: 'resetOrderGroup', nowMs: T0, userId: 'alice', orderGroupId: g })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.listOrderGroups('alice')).toEqual([]);
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 1, countCenti: 1, orderGroupId: g })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it('groups belong to one account and subaccount', () => {
    const e = setup();
    const g = group(e, 'alice', 1000);
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'bob', ticker: TICKER, side: 'bid', priceTicks: 1, countCenti: 1, orderGroupId: g })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(e.getOrderGroup('bob', g)).toBeUndefined();
    expect(e.apply({ type: 'createOrderGroup', nowMs: T0, userId: 'alice', contractsLimitCenti: 0 })).toMatchObject({ ok: false });
    expect(e.apply({ type: 'createOrderGroup', nowMs: T0, userId: 'alice', contractsLimitCenti: 10, subaccount: 7 })).toMatchObject({ ok: false, code: 'not_found' });
  });
});
