// The NewOrderSingle a draft becomes, and the order row an ExecutionReport becomes, read back
// through the shared codec (what goes on the wire and what comes off it).
import { describe, expect, it } from 'vitest';
import { FixParser, encode, latin1Bytes } from '../../src-shared/fix/codec';
import { newOrderSingle, orderRowOf } from './order-entry';

function roundTrip(fields: Array<readonly [number, string | number]>) {
  const [r] = new FixParser().push(latin1Bytes(encode([[35, '8'], ...fields])));
  if (!r?.ok) throw new Error('did not parse');
  return r.msg;
}

describe('newOrderSingle', () => {
  it('maps a draft to the order entry tags (prices in dollars, UseDollars)', () => {
    const f = newOrderSingle({ ticker: 'M-1', side: 'ask', count: '2.50', price: '0.4200', time_in_force: 'immediate_or_cancel', post_only: true, self_trade_prevention_type: 'maker', subaccount: 3, order_group_id: 'g1' }, 'c1');
    expect(Object.fromEntries(f)).toEqual({ 11: 'c1', 55: 'M-1', 54: '2', 38: '2.50', 40: '2', 44: '0.4200', 59: '3', 18: '6', 2964: '2', 79: 3, 526: 'g1' });
  });

  it('an expiration time is GTD (59=6) with ExpireTime (126) in UTC', () => {
    const f = Object.fromEntries(newOrderSingle({ ticker: 'M', side: 'bid', count: '1', price: '0.10', expiration_time: 1_800_000_000 }, 'c'));
    expect(f[59]).toBe('6');
    expect(f[126]).toBe('20270115-08:00:00');
  });
});

describe('orderRowOf', () => {
  it('reads an ExecutionReport as the order row the store keeps', () => {
    const m = roundTrip([[37, 'o1'], [11, 'c1'], [150, 'F'], [39, '1'], [55, 'M'], [54, '1'], [38, '3.00'], [44, '0.4200'], [59, '1'], [14, '1.00'], [151, '2.00'], [79, 0]]);
    expect(orderRowOf(m)).toEqual({ order_id: 'o1', client_order_id: 'c1', ticker: 'M', market_ticker: 'M', status: 'resting', side: 'bid', yes_price_dollars: '0.4200', initial_count_fp: '3.00', fill_count_fp: '1.00', remaining_count_fp: '2.00', time_in_force: 'good_till_canceled', subaccount: 0 });
  });

  it('a rejected order (no OrderID) is no row', () => {
    expect(orderRowOf(roundTrip([[37, 'NONE'], [11, 'c'], [150, '8'], [39, '8']]))).toBeNull();
  });
});
