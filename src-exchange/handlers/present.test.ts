// The presenters turn engine views into objects the shared wire schemas accept, with the
// exact decimal text the protocol notes (docs/spec/protocol-notes.md) ask for.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine/engine';
import { Order, OrderGroup, OrderGroupDetail } from '../../src-shared/wire/orders';
import { Balance, EventPosition, Fill, MarketPosition, Settlement } from '../../src-shared/wire/portfolio';
import {
  dollarsText,
  positionsValueMicro,
  presentBalance,
  presentEventPositions,
  presentFill,
  presentOrder,
  presentOrderGroup,
  presentPosition,
  presentSettlement,
} from './present';

function ok<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r as Extract<T, { ok: true }>;
}

function tradedEngine() {
  const e = new Engine();
  let now = 1_700_000_000_000;
  const at = () => (now += 1000);
  ok(e.apply({ type: 'addMarket', nowMs: at(), ticker: 'M-1', eventTicker: 'EV', seriesTicker: 'S' }));
  ok(e.apply({ type: 'addMarket', nowMs: at(), ticker: 'M-2', eventTicker: 'EV', seriesTicker: 'S' }));
  ok(e.apply({ type: 'openMarket', nowMs: at(), ticker: 'M-1' }));
  ok(e.apply({ type: 'openMarket', nowMs: at(), ticker: 'M-2' }));
  for (const u of ['a', 'b']) ok(e.apply({ type: 'deposit', nowMs: at(), userId: u, amountMicro: 1_000_000_000 }));
  const g = ok(e.apply({ type: 'createOrderGroup', nowMs: at(), userId: 'a', contractsLimitCenti: 5_000 }));
  const bid = ok(e.apply({ type: 'createOrder', nowMs: at(), userId: 'a', ticker: 'M-1', side: 'bid', priceTicks: 6_000, countCenti: 1_000, clientOrderId: 'c1', orderGroupId: g.group.order_group_id }));
  ok(e.apply({ type: 'createOrder', nowMs: at(), userId: 'b', ticker: 'M-1', side: 'ask', priceTicks: 5_500, countCenti: 250 }));
  ok(e.apply({ type: 'createOrder', nowMs: at(), userId: 'b', ticker: 'M-2', side: 'bid', priceTicks: 2_000, countCenti: 300 }));
  ok(e.apply({ type: 'createOrder', nowMs: at(), userId: 'a', ticker: 'M-2', side: 'ask', priceTicks: 2_000, countCenti: 300 }));
  return { e, at, bid: bid.order, group: g.group };
}

describe('dollarsText', () => {
  it('is exact with at least two decimals', () => {
    expect(dollarsText(0)).toBe('0.00');
    expect(dollarsText(1_000_000)).toBe('1.00');
    expect(dollarsText(1_500_000)).toBe('1.50');
    expect(dollarsText(1_230_400)).toBe('1.2304');
    expect(dollarsText(123_456)).toBe('0.123456');
    expect(dollarsText(-2_500_000)).toBe('-2.50');
    expect(dollarsText(100_000_000_000)).toBe('100000.00');
  });
});

describe('presenters', () => {
  it('orders parse as the wire Order with prices, counts and times as text', () => {
    const { e, bid } = tradedEngine();
    const o = presentOrder(e.getOrder(bid.order_id)!);
    expect(Order.parse(o)).toMatchObject({
      order_id: bid.order_id,
      client_order_id: 'c1',
      status: 'resting',
      book_side: 'bid',
      yes_price_dollars: '0.6000',
      no_price_dollars: '0.4000',
      fill_count_fp: '2.50',
      remaining_count_fp: '7.50',
      initial_count_fp: '10.00',
      maker_fill_cost_dollars: '1.50',
      subaccount_number: 0,
      exchange_index: 0,
    });
    expect(o.created_time).toBe(new Date(1_700_000_008_000).toISOString()); // the 8th command
    expect(o.expiration_time).toBeNull();
  });

  it('fills, positions, event positions and balances parse as their wire schemas', () => {
    const { e } = tradedEngine();
    const fills = e.getFills('b');
    expect(fills).toHaveLength(2);
    for (const f of fills) Fill.parse(presentFill(f));
    const taker = presentFill(fills.find((f) => f.ticker === 'M-1')!);
    expect(taker).toMatchObject({ ticker: 'M-1', market_ticker: 'M-1', yes_price_dollars: '0.6000', count_fp: '2.50', is_taker: true, fee_cost: '0.05', outcome_side: 'no' });

    const positions = e.getPositions('a');
    for (const p of positions) MarketPosition.parse(presentPosition(p));
    expect(presentPosition(positions.find((p) => p.ticker === 'M-1')!)).toMatchObject({ position_fp: '2.50', market_exposure_dollars: '1.50' });
    expect(presentPosition(positions.find((p) => p.ticker === 'M-2')!)).toMatchObject({ position_fp: '-3.00', market_exposure_dollars: '2.40' });
    const events = presentEventPositions(positions);
    expect(events).toHaveLength(1);
    expect(EventPosition.parse(events[0])).toMatchObject({ event_ticker: 'EV', event_exposure_dollars: '3.90', total_cost_shares_fp: '5.50' });

    // marked at the last prices: 2.5 YES at 0.60 and 3 NO at 1 - 0.20
    const value = positionsValueMicro(e, positions);
    expect(value).toBe(1_500_000 + 2_400_000);
    const balance = presentBalance(e.getBalance('a')!, value);
    expect(Balance.parse(balance)).toMatchObject({ portfolio_value: 390, balance_breakdown: [{ exchange_index: 0, balance: balance.balance_dollars }] });
  });

  it('settlements carry revenue in cents and both time spellings', () => {
    const { e, at } = tradedEngine();
    ok(e.apply({ type: 'determineMarket', nowMs: at(), ticker: 'M-2', result: 'no' }));
    ok(e.apply({ type: 'settleMarket', nowMs: at(), ticker: 'M-2' }));
    const [s] = e.getSettlements('a');
    const wire = presentSettlement(s!);
    expect(Settlement.parse(wire)).toMatchObject({ ticker: 'M-2', market_result: 'no', revenue: 300, no_count_fp: '3.00', value: 0 });
    expect(wire.settled_time).toBe(new Date(s!.settled_at * 1000).toISOString());
  });

  it('order groups: spec and SDK names, detail with order ids', () => {
    const { e, group, bid } = tradedEngine();
    const g = e.getOrderGroup('a', group.order_group_id)!;
    expect(OrderGroup.parse(presentOrderGroup(g))).toMatchObject({ order_group_id: g.order_group_id, contracts_limit: '50.00', contracts_used: '2.50' });
    expect(presentOrderGroup(g)).not.toHaveProperty('orders');
    expect(OrderGroupDetail.parse(presentOrderGroup(g, true)).orders).toEqual([bid.order_id]);
  });
});
