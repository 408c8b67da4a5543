// Finished orders move into columns at the end of each command (order-columns.ts): what comes
// back must be the order as it was, field for field and in the same field order, and an order in
// any other form must stay whole.

import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import type { EngineSnapshot } from './snapshot';
import type { State } from './engine-state';
import { T0, TICKER, expectClean, ok, place, setup } from '../../test-support/exchange/engine';

const stateOf = (e: Engine) => (e as unknown as { st: State }).st;
/** The columns answer with a new object on each read; a live order is the same object. */
const inColumns = (e: Engine, id: string): boolean => stateOf(e).orders.get(id) !== stateOf(e).orders.get(id);

/** Each order as it was (its JSON) when the index moved it into the columns. */
function watchSettle(e: Engine): Map<string, string> {
  const seen = new Map<string, string>();
  const index = stateOf(e).orders as unknown as { settle(): void; retiring: Array<{ order_id: string } | undefined>; retiringCount: number };
  const settle = index.settle.bind(index);
  index.settle = () => {
    for (let i = 0; i < index.retiringCount; i++) seen.set(index.retiring[i]!.order_id, JSON.stringify(index.retiring[i]));
    settle();
  };
  return seen;
}

/** Finished orders of every form the engine makes: each side, status, time in force, group, client id, expiry, subaccount. */
function history(): { e: Engine; finished: string[]; resting: string; before: Map<string, string> } {
  const e = setup({ feeType: 'quadratic_with_maker_fees' }); // every fee field of a filled order is non-zero
  const before = watchSettle(e);
  const finished: string[] = [];
  const group = ok(e, { type: 'createOrderGroup', nowMs: T0, userId: 'alice', contractsLimitCenti: 1_000_000 }).group.order_group_id;
  ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'bob' });
  ok(e, { type: 'transfer', nowMs: T0, userId: 'bob', fromSubaccount: 0, toSubaccount: 1, amountMicro: 100_000_000, clientTransferId: 't1' });
  const maker = place(e, 'alice', 'ask', 4_500, 300, { clientOrderId: 'mk-1', orderGroupId: group, expirationTime: T0 / 1000 + 3600, selfTradePreventionType: 'maker' });
  finished.push(place(e, 'bob', 'bid', 4_600, 300, { timeInForce: 'immediate_or_cancel', subaccount: 1 }).order_id); // executed taker
  finished.push(maker.order_id); // executed maker
  finished.push(place(e, 'carol', 'bid', 100, 250, { timeInForce: 'fill_or_kill' }).order_id); // canceled: nothing to fill
  const posted = place(e, 'carol', 'bid', 4_000, 170, { postOnly: true, clientOrderId: 'c-9' });
  ok(e, { type: 'cancelOrder', nowMs: T0 + 5, userId: 'carol', orderId: posted.order_id });
  finished.push(posted.order_id);
  const partly = place(e, 'bob', 'ask', 6_000, 500);
  finished.push(place(e, 'carol', 'bid', 6_000, 120, { timeInForce: 'immediate_or_cancel' }).order_id); // executed, its maker partly
  ok(e, { type: 'cancelOrder', nowMs: T0 + 9, userId: 'bob', orderId: partly.order_id });
  finished.push(partly.order_id); // canceled after a partial fill
  const resting = place(e, 'alice', 'bid', 3_000, 100).order_id;
  return { e, finished, resting, before };
}

describe('finished orders in columns', () => {
  it('moves every finished order out of the live index and reads it back as it was', () => {
    const { e, finished, resting, before } = history();
    for (const id of finished) {
      expect(inColumns(e, id), id).toBe(true);
      expect(JSON.stringify(stateOf(e).orders.get(id)), id).toBe(before.get(id));
    }
    expect(before.size).toBe(finished.length);
    expect(inColumns(e, resting)).toBe(false);
    // every read path sees the same orders; the snapshot's JSON (field order included) survives a restore
    const snap = e.toSnapshot();
    const text = JSON.stringify(snap);
    for (const o of snap.orders) expect(Object.keys(o)[0]).toBe('order_id');
    const again = Engine.fromSnapshot(JSON.parse(text) as EngineSnapshot);
    expect(JSON.stringify(again.toSnapshot())).toBe(text);
    for (const id of finished) {
      expect(inColumns(again, id)).toBe(true);
      expect(again.getOrder(id)).toEqual(e.getOrder(id));
    }
    expect(e.listOrders({ userId: 'carol' }).map((o) => o.status)).toEqual(['executed', 'canceled', 'canceled']);
    expect(e.getOrderByClientId('alice', 'mk-1')?.status).toBe('executed');
    expectClean(e);
    expectClean(again);
  });

  it('answers a finished order as the engine did: a repeat by client id, a cancel or amend of it', () => {
    const { e } = history();
    const repeat = ok(e, { type: 'createOrder', nowMs: T0 + 20, userId: 'carol', ticker: TICKER, side: 'bid', priceTicks: 4_000, countCenti: 170, clientOrderId: 'c-9' });
    expect(repeat.duplicate).toBe(true);
    expect(repeat.order.status).toBe('canceled');
    const done = e.getOrderByClientId('carol', 'c-9')!;
    const cancel = e.apply({ type: 'cancelOrder', nowMs: T0 + 21, userId: 'carol', orderId: done.order_id });
    expect(cancel.ok).toBe(false);
    expect(e.getOrder(done.order_id)).toEqual(done);
  });

  it('prunes from the columns', () => {
    const e = setup({ users: { sim: 1000, alice: 1000 } });
    const gone = place(e, 'sim', 'bid', 4_000, 100);
    ok(e, { type: 'cancelOrder', nowMs: T0 + 1, userId: 'sim', orderId: gone.order_id });
    expect(inColumns(e, gone.order_id)).toBe(true);
    const r = ok(e, { type: 'pruneOrders', nowMs: T0 + 100, userIds: ['sim'], olderThanMs: T0 + 50 });
    expect(r.pruned).toBe(1);
    expect(e.getOrder(gone.order_id)).toBeUndefined();
    expect(e.listOrders({ userId: 'sim' })).toEqual([]);
    expect(e.toSnapshot().orders).toEqual([]);
  });

  it('reuses the rows of pruned orders: the columns follow the finished orders kept, not every order made', () => {
    const e = setup({ users: { sim: 100_000, alice: 1000 } });
    const kept = place(e, 'alice', 'bid', 1_000, 100);
    ok(e, { type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: kept.order_id });
    let now = T0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 200; i++) {
        const clientOrderId = round === 0 ? `first-${i}` : undefined; // rows reused later must not keep these
        const o = ok(e, { type: 'createOrder', nowMs: ++now, userId: 'sim', ticker: TICKER, side: 'bid', priceTicks: 2_000, countCenti: 100, clientOrderId }).order;
        ok(e, { type: 'cancelOrder', nowMs: now, userId: 'sim', orderId: o.order_id });
      }
      ok(e, { type: 'pruneOrders', nowMs: ++now, userIds: ['sim'], olderThanMs: now });
    }
    expect(stateOf(e).orders.columnRows).toBeLessThanOrEqual(201);
    expect(stateOf(e).orders.size).toBe(1);
    // a reused row gives back the new order, the kept one is untouched
    const last = ok(e, { type: 'createOrder', nowMs: ++now, userId: 'sim', ticker: TICKER, side: 'ask', priceTicks: 9_000, countCenti: 300 }).order;
    const gone = ok(e, { type: 'cancelOrder', nowMs: now, userId: 'sim', orderId: last.order_id }).order;
    expect(inColumns(e, last.order_id)).toBe(true);
    expect(e.getOrder(last.order_id)).toEqual(gone);
    expect(gone.client_order_id).toBe('');
    expect(e.getOrderByClientId('sim', 'first-0')).toBeUndefined();
    expect(e.getOrder(kept.order_id)?.status).toBe('canceled');
    expect(e.listOrders({ userId: 'alice' })).toHaveLength(1);
    expectClean(e);
  });

  it('keeps whole an order restored in another form: other field order, an extra field, another seed, a foreign id', () => {
    const { e, finished } = history();
    const snap = e.toSnapshot();
    const [first, second, third, fourth] = snap.orders;
    const reordered = Object.fromEntries(Object.entries(first!).reverse());
    const extra = { ...second!, legacy_note: 'kept' };
    const foreign = { ...third!, order_id: 'legacy-order-1' };
    // (an order under a foreign id is listed after the engine's own, as the index iterates them)
    const holding = { ...fourth!, seq: 3, locked: 7 }; // a finished order never holds a lock or a queue place; written so, it is kept as written
    snap.orders = [reordered as typeof first & object, extra, holding, ...snap.orders.slice(4), foreign];
    for (const a of snap.accounts) {
      a.orders = a.orders.map((id) => (id === third!.order_id ? 'legacy-order-1' : id));
      a.client_orders = a.client_orders.map(([c, id]) => [c, id === third!.order_id ? 'legacy-order-1' : id]);
    }
    const text = JSON.stringify(snap);
    const restored = Engine.fromSnapshot(JSON.parse(text) as EngineSnapshot);
    expect(JSON.stringify(restored.toSnapshot())).toBe(text);
    expect(inColumns(restored, first!.order_id)).toBe(false);
    expect(inColumns(restored, second!.order_id)).toBe(false);
    expect(inColumns(restored, 'legacy-order-1')).toBe(false);
    expect(inColumns(restored, fourth!.order_id)).toBe(false);
    expect(restored.getOrder('legacy-order-1')?.status).toBe(third!.status);
    for (const id of finished.slice(4)) expect(inColumns(restored, id)).toBe(true);

    // a field the row would not hold exactly, each alone: kept whole, read back as written
    const base = e.toSnapshot();
    const target = base.orders.findIndex((o) => o.order_id === finished[4]);
    const odd: Array<Record<string, unknown>> = [
      { yes_price: 4500.5 },
      { subaccount: -1 },
      { subaccount: 2 ** 24 },
      { expiration_time: 'soon' },
      { post_only: 1 },
      { order_group_id: 5 },
      { client_order_id: 7 },
      { status: 'resting_elsewhere' },
      { time_in_force: 'good_till_date' },
      { self_trade_prevention_type: 'cancel_both' },
      { side: 'buy' },
      { fill_count: '120' },
      { reserve: 1 },
    ];
    for (const change of odd) {
      const variant = e.toSnapshot();
      variant.orders[target] = { ...base.orders[target]!, ...change } as (typeof variant.orders)[number];
      const written = JSON.stringify(variant);
      const back = Engine.fromSnapshot(JSON.parse(written) as EngineSnapshot);
      expect(JSON.stringify(back.toSnapshot()), JSON.stringify(change)).toBe(written);
      expect(inColumns(back, finished[4]!), JSON.stringify(change)).toBe(false);
    }

    // the same number made with another seed is not the engine's id: kept whole, read back as written
    const other = setup({ idSeed: 99 });
    const seeded = other.toSnapshot();
    const mine = e.toSnapshot();
    const restoredOther = Engine.fromSnapshot({ ...mine, id_seed: seeded.id_seed });
    expect(JSON.stringify(restoredOther.toSnapshot().orders)).toBe(JSON.stringify(mine.orders));
    for (const id of finished) expect(inColumns(restoredOther, id)).toBe(false);
  });
});
