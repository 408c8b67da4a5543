// The orders module remembers which orders came through the API, newest API_ORDER_WINDOW per user.
import { describe, expect, it } from 'vitest';
import { API_ORDER_WINDOW, apiOrdersOf, emptyOrders, recordApiOrder } from './orders-module';

describe('orders module', () => {
  it('remembers only the newest API orders, per user', () => {
    const s = emptyOrders();
    for (let i = 0; i < API_ORDER_WINDOW + 5; i++) recordApiOrder(s, 'u', `o${i}`);
    recordApiOrder(s, 'v', 'x1');
    const kept = apiOrdersOf(s, 'u');
    expect(kept).toHaveLength(API_ORDER_WINDOW);
    expect(kept[0]).toBe('o5');
    expect(kept.at(-1)).toBe(`o${API_ORDER_WINDOW + 4}`);
    expect(apiOrdersOf(s, 'v')).toEqual(['x1']);
    expect(apiOrdersOf(s, 'nobody')).toEqual([]);
  });
});
