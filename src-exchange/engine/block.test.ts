import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';
import type { ExecuteBlockTradeCommand } from './types';
import { MICRO_PER_DOLLAR } from './units';

const D = MICRO_PER_DOLLAR;

function block(over: Partial<ExecuteBlockTradeCommand> = {}): ExecuteBlockTradeCommand {
  return {
    type: 'executeBlockTrade',
    nowMs: T0 + 1,
    buyerUserId: 'alice',
    sellerUserId: 'bob',
    ticker: TICKER,
    yesPriceTicks: 4000,
    countCenti: 1000,
    makerSide: 'no',
    ...over,
  };
}

describe('executeBlockTrade', () => {
  it('moves cash and positions like a fill: the buyer buys YES at p, the seller buys NO at 1 - p', () => {
    const e = setup();
    const resting = place(e, 'carol', 'bid', 3000, 500);
    const bookBefore = e.getBook(TICKER);
    const r = ok(e, block());
    // 10 contracts at 0.40: buyer pays $4.00 plus the taker fee ceil(0.07 x 10 x 0.4 x 0.6) = $0.17;
    // the seller (maker, quadratic fee type: makers pay nothing) pays $6.00.
    expect(e.getBalance('alice')!.cash).toBe(1000 * D - 4 * D - 170_000);
    expect(e.getBalance('bob')!.cash).toBe(1000 * D - 6 * D);
    expect(e.getPositions('alice')[0]).toMatchObject({ position: 1000, market_exposure: 4 * D, fees_paid: 170_000 });
    expect(e.getPositions('bob')[0]).toMatchObject({ position: -1000, market_exposure: 6 * D, fees_paid: 0 });
    expect(r.trade).toMatchObject({ is_block_trade: true, taker_side: 'yes', taker_book_side: 'bid', yes_price: 4000, no_price: 6000, count: 1000 });
    expect(r.buyerFill).toMatchObject({ user_id: 'alice', side: 'yes', book_side: 'bid', is_taker: true, fee: 170_000, post_position: 1000, trade_id: r.trade.trade_id });
    expect(r.sellerFill).toMatchObject({ user_id: 'bob', side: 'no', book_side: 'ask', is_taker: false, fee: 0, post_position: -1000 });
    expect(r.buyerOrder).toMatchObject({ status: 'executed', fill_count: 1000, remaining_count: 0, side: 'bid', taker_fill_cost: 4 * D, taker_fees: 170_000 });
    expect(r.sellerOrder).toMatchObject({ status: 'executed', side: 'ask', maker_fill_cost: 6 * D, yes_price: 4000 });
    expect(e.getOrder(r.buyerFill.order_id)?.order_id).toBe(r.buyerOrder.order_id);
    expect(e.getFills('alice')[0]?.fill_id).toBe(r.buyerFill.fill_id);
    expect(e.getTrades({ ticker: TICKER })[0]).toMatchObject({ is_block_trade: true });
    expect(e.getMarket(TICKER)).toMatchObject({ volume: 1000, open_interest: 1000 });
    // the book is not touched
    expect(e.getBook(TICKER)).toEqual(bookBefore);
    expect(e.getOrder(resting.order_id)?.status).toBe('resting');
    const kinds = r.events.map((x) => x.type);
    expect(kinds).not.toContain('book');
    expect(kinds.filter((k) => k === 'fill')).toHaveLength(2);
    expect(kinds).toContain('trade');
    expect(kinds).toContain('position');
    expect(kinds).toContain('balance');
    expectClean(e);
    expect(e.audit().imbalance).toBe(0);
  });

  it('charges the maker rate when the fee type charges makers, and makerSide yes makes the seller the taker', () => {
    const e = setup({ feeType: 'quadratic_with_maker_fees' });
    const r = ok(e, block({ makerSide: 'yes' }));
    // maker fee ceil(0.0175 x 10 x 0.24) = 5 cents on the buyer; taker fee 17 cents on the seller
    expect(r.buyerFill).toMatchObject({ is_taker: false, fee: 50_000 });
    expect(r.sellerFill).toMatchObject({ is_taker: true, fee: 170_000 });
    expect(r.trade.taker_side).toBe('no');
    expect(r.buyerOrder.maker_fees).toBe(50_000);
    expect(r.sellerOrder.taker_fees).toBe(170_000);
    expect(e.getBalance('alice')!.cash).toBe(1000 * D - 4 * D - 50_000);
    expect(e.getBalance('bob')!.cash).toBe(1000 * D - 6 * D - 170_000);
    expectClean(e);
  });

  it('nets against an opposite position like a book fill', () => {
    const e = setup();
    ok(e, block({ buyerUserId: 'bob', sellerUserId: 'alice', yesPriceTicks: 5000 })); // alice holds 10 NO
    const before = e.getBalance('alice')!.cash;
    ok(e, block({ buyerUserId: 'alice', sellerUserId: 'carol', yesPriceTicks: 6000, makerSide: 'yes' }));
    // alice pays $6 for 10 YES and the 10 pairs pay $10 back at once: the position is flat
    expect(e.getPositions('alice')[0]).toMatchObject({ position: 0, market_exposure: 0, realized_pnl: 10 * D - 6 * D - 5 * D });
    expect(e.getBalance('alice')!.cash - before).toBeGreaterThanOrEqual(4 * D - 1);
    expectClean(e);
  });

  it('rejects without changing anything when either side cannot pay', () => {
    const e = setup({ users: { alice: 1000, bob: 3 } });
    const snap = JSON.stringify(e.toSnapshot());
    const r = e.apply(block());
    expect(r).toMatchObject({ ok: false, code: 'insufficient_balance', mutated: false });
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
    const poor = e.apply(block({ buyerUserId: 'nobody' }));
    expect(poor).toMatchObject({ ok: false, code: 'insufficient_balance' });
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
  });

  it('rejects a self trade, a bad price or count, an unknown subaccount and a market that is not open', () => {
    const e = setup();
    const snap = JSON.stringify(e.toSnapshot());
    expect(e.apply(block({ sellerUserId: 'alice', sellerSubaccount: 1 }))).toMatchObject({ ok: false, code: 'invalid_order' });
    expect(e.apply(block({ yesPriceTicks: 0 }))).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(block({ yesPriceTicks: 10_000 }))).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(block({ countCenti: 0 }))).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(block({ countCenti: 1.5 }))).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(block({ buyerSubaccount: 5 }))).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply(block({ makerSide: 'maybe' as 'yes' }))).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply(block({ ticker: 'NOPE' }))).toMatchObject({ ok: false, code: 'not_found' });
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
    ok(e, { type: 'pauseMarket', nowMs: T0, ticker: TICKER });
    const paused = JSON.stringify(e.toSnapshot());
    expect(e.apply(block())).toMatchObject({ ok: false, code: 'invalid_order', details: 'market_not_open', mutated: false });
    expect(JSON.stringify(e.toSnapshot())).toBe(paused);
  });

  it('trades from a subaccount and survives a snapshot round trip', () => {
    const e = setup();
    ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'bob' });
    ok(e, { type: 'transfer', nowMs: T0, userId: 'bob', clientTransferId: 't1', fromSubaccount: 0, toSubaccount: 1, amountMicro: 100 * D });
    const r = ok(e, block({ sellerSubaccount: 1 }));
    expect(r.sellerFill.subaccount).toBe(1);
    expect(e.getBalance('bob', 1)!.cash).toBe(94 * D);
    const copy = Engine.fromSnapshot(e.toSnapshot());
    expect(copy.toSnapshot()).toEqual(e.toSnapshot());
    expect(copy.getFills('bob')[0]).toEqual(e.getFills('bob')[0]);
    expect(copy.getOrder(r.sellerOrder.order_id)).toEqual(r.sellerOrder);
    expectClean(copy);
  });

  it('is deterministic: the same commands give the same ids and state', () => {
    const run = () => {
      const e = setup();
      place(e, 'carol', 'ask', 6000, 100);
      ok(e, block());
      return e.toSnapshot();
    };
    expect(run()).toEqual(run());
  });
});
