import { describe, expect, it } from 'vitest';
import { Engine } from './engine';

function setup() {
  const e = new Engine();
  let t = 1_000_000;
  const at = () => (t += 1000);
  e.apply({ type: 'addMarket', nowMs: at(), ticker: 'M', eventTicker: 'E', seriesTicker: 'S' });
  e.apply({ type: 'openMarket', nowMs: at(), ticker: 'M' });
  for (const userId of ['sim', 'human']) e.apply({ type: 'deposit', nowMs: at(), userId, amountMicro: 1_000_000_000 });
  return { e, at, now: () => t };
}

describe('pruneOrders', () => {
  it('drops old finished orders and fills of the named accounts only', () => {
    const { e, at } = setup();
    const ids: Record<string, string> = {};
    const place = (userId: string, key: string, price: number, clientOrderId?: string) => {
      const r = e.apply({ type: 'createOrder', nowMs: at(), userId, ticker: 'M', side: 'bid', priceTicks: price, countCenti: 100, ...(clientOrderId ? { clientOrderId } : {}) });
      if (!r.ok) throw new Error(r.message);
      ids[key] = r.order.order_id;
    };
    place('sim', 'oldCanceled', 4000, 'c-1');
    e.apply({ type: 'cancelOrder', nowMs: at(), userId: 'sim', orderId: ids.oldCanceled! });
    place('sim', 'resting', 4100);
    place('human', 'humanCanceled', 4200);
    e.apply({ type: 'cancelOrder', nowMs: at(), userId: 'human', orderId: ids.humanCanceled! });
    // a filled sim order: human sells into the sim's resting bid
    e.apply({ type: 'createOrder', nowMs: at(), userId: 'human', ticker: 'M', side: 'ask', priceTicks: 4100, countCenti: 100 });
    const cutoff = at();
    place('sim', 'recentCanceled', 3900);
    e.apply({ type: 'cancelOrder', nowMs: at(), userId: 'sim', orderId: ids.recentCanceled! });

    const before = e.audit();
    const r = e.apply({ type: 'pruneOrders', nowMs: at(), userIds: ['sim'], olderThanMs: cutoff });
    expect(r.ok && r.pruned).toBe(2);
    expect(e.getOrder(ids.oldCanceled!)).toBeUndefined();
    expect(e.getOrderByClientId('sim', 'c-1')).toBeUndefined();
    // the sim's bid filled before the cutoff: the order and its fill go, its position stays
    expect(e.getOrder(ids.resting!)).toBeUndefined();
    expect(e.getFills('sim')).toEqual([]);
    expect(e.getFills('human')).toHaveLength(1);
    expect(e.getPositions('sim').length).toBe(1);
    expect(e.getOrder(ids.humanCanceled!)).toBeDefined();
    expect(e.getOrder(ids.recentCanceled!)).toBeDefined();
    expect(e.audit()).toEqual(before);
    expect(e.checkInvariants()).toEqual([]);
    // snapshots round-trip without the pruned order
    const restored = Engine.fromSnapshot(e.toSnapshot());
    expect(restored.listOrders({ userId: 'sim' }).map((o) => o.order_id).sort()).toEqual(e.listOrders({ userId: 'sim' }).map((o) => o.order_id).sort());
  });
});
