import { describe, expect, it } from 'vitest';
import type { PlacedOrder } from '../api/orders';
import { ackOf, lifecycleView, pythView, tickerView, tradeView } from './views';

describe('stream messages as the page views them', () => {
  it('names a ticker by its market and keeps its prices and sizes as the exchange sent them', () => {
    const v = tickerView({ market_ticker: 'KX-1', market_id: 'm1', yes_bid_dollars: '0.4100', yes_ask_dollars: '0.4300', price_dollars: '0.4200', volume_fp: '12.00', open_interest_fp: '3.00', ts: 1700 } as Parameters<typeof tickerView>[0]);
    expect(v).toEqual({ ticker: 'KX-1', yes_bid_dollars: '0.4100', yes_ask_dollars: '0.4300', price_dollars: '0.4200', volume_fp: '12.00', open_interest_fp: '3.00', ts: 1700 });
  });

  it('marks a block trade as one, and says nothing of it for a trade on the book', () => {
    const t = { trade_id: 't1', market_ticker: 'KX-1', yes_price_dollars: '0.6000', no_price_dollars: '0.4000', count_fp: '2.00', taker_side: 'yes', ts: 1800 } as Parameters<typeof tradeView>[0];
    expect(tradeView(t)).toEqual({ trade_id: 't1', ticker: 'KX-1', yes_price_dollars: '0.6000', no_price_dollars: '0.4000', count_fp: '2.00', taker_side: 'yes', ts: 1800 });
    expect('is_block_trade' in tradeView({ ...t, is_block_trade: false })).toBe(false);
    expect(tradeView({ ...t, is_block_trade: true }).is_block_trade).toBe(true);
  });

  it('stamps a lifecycle event with the time main read it, and reads a missing field as empty', () => {
    expect(lifecycleView({ market_ticker: 'KX-1', event_type: 'settled', extra: 1 }, 42)).toEqual({ ticker: 'KX-1', event_type: 'settled', ts: 42 });
    expect(lifecycleView({}, 7)).toEqual({ ticker: '', event_type: '', ts: 7 });
  });

  it('keeps only the fields of a Pyth value the page shows', () => {
    const v = pythView({ underlying_ticker: 'BTC', value_usd: '97000.12', source_ts_ms: 5, received_at: 6, feed_id: 'x' } as unknown as Parameters<typeof pythView>[0]);
    expect(v).toEqual({ underlying_ticker: 'BTC', value_usd: '97000.12', source_ts_ms: 5, received_at: 6 });
  });
});

describe('an order answer as its ack', () => {
  const base = { clientOrderId: 'c1', orderId: 'o1', sends: 1 };
  it("takes the create answer's counts", () => {
    const placed = { ...base, source: 'create', created: { fill_count: '1.00', remaining_count: '4.00' } } as unknown as PlacedOrder;
    expect(ackOf(placed)).toEqual({ client_order_id: 'c1', order_id: 'o1', fill_count: '1.00', remaining_count: '4.00' });
  });
  it('takes the listed order\'s counts after a lost answer, and zero where it has none', () => {
    const listed = { ...base, source: 'lookup', listed: { order_id: 'o1', fill_count_fp: '2.00', remaining_count_fp: '3.00' } } as unknown as PlacedOrder;
    expect(ackOf(listed)).toEqual({ client_order_id: 'c1', order_id: 'o1', fill_count: '2.00', remaining_count: '3.00' });
    expect(ackOf({ ...base, source: 'lookup' } as PlacedOrder)).toEqual({ client_order_id: 'c1', order_id: 'o1', fill_count: '0', remaining_count: '0' });
  });
});
