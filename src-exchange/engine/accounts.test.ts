import { describe, expect, it } from 'vitest';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';

describe('cash and subaccounts', () => {
  it('deposits, withdraws only free cash, and guards the safe-integer range', () => {
    const e = setup({ users: { alice: 10 } });
    expect(e.getBalance('alice')).toMatchObject({ cash: 10_000_000, locked: 0, available: 10_000_000 });
    place(e, 'alice', 'bid', 5000, 1000); // holds 5.00 + 0.19
    expect(e.apply({ type: 'withdraw', nowMs: T0, userId: 'alice', amountMicro: 5_000_000 })).toMatchObject({ ok: false, code: 'insufficient_balance' });
    expect(ok(e, { type: 'withdraw', nowMs: T0, userId: 'alice', amountMicro: 4_810_000 }).balance.available).toBe(0);
    expect(e.apply({ type: 'deposit', nowMs: T0, userId: 'alice', amountMicro: Number.MAX_SAFE_INTEGER })).toMatchObject({
      ok: false,
      code: 'invalid_parameters',
      message: expect.stringMatching(/largest supported/),
    });
    expect(e.apply({ type: 'deposit', nowMs: T0, userId: 'alice', amountMicro: 1.5 })).toMatchObject({ ok: false });
    expect(e.audit().imbalance).toBe(0);
  });

  it('opens subaccounts in order and transfers idempotently by client_transfer_id', () => {
    const e = setup({ users: { alice: 100 } });
    expect(ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'alice' }).subaccount).toBe(1);
    expect(ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'alice' }).subaccount).toBe(2);
    const cmd = { type: 'transfer', nowMs: T0, userId: 'alice', clientTransferId: 'tr-1', fromSubaccount: 0, toSubaccount: 2, amountMicro: 30_000_000 } as const;
    const first = ok(e, cmd);
    expect(first).toMatchObject({ duplicate: false, transfer: { from_subaccount: 0, to_subaccount: 2, amount: 30_000_000 } });
    const again = ok(e, { ...cmd, nowMs: T0 + 1, amountMicro: 1 });
    expect(again).toMatchObject({ duplicate: true, mutated: false });
    expect(again.transfer).toEqual(first.transfer);
    expect(e.getBalance('alice', 0)!.cash).toBe(70_000_000);
    expect(e.getBalance('alice', 2)!.cash).toBe(30_000_000);
    expect(e.apply({ ...cmd, clientTransferId: 'tr-2', toSubaccount: 9 })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply({ ...cmd, clientTransferId: 'tr-3', amountMicro: 71_000_000 })).toMatchObject({ ok: false, code: 'insufficient_balance' });
    expect(e.apply({ ...cmd, clientTransferId: 'tr-4', toSubaccount: 0 })).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.listSubaccounts('alice')).toEqual([0, 1, 2]);
    expect(e.getTransfers('alice')).toHaveLength(1);
    // orders in a subaccount use its own cash
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100, subaccount: 1 })).toMatchObject({
      ok: false,
      code: 'insufficient_balance',
    });
    expect(place(e, 'alice', 'bid', 5000, 100, { subaccount: 2 }).subaccount).toBe(2);
    expect(e.getBalance('alice', 2)!.locked).toBeGreaterThan(0);
    expectClean(e);
  });
});

describe('positions', () => {
  it('nets YES against NO: each pair pays one dollar back and realizes PnL', () => {
    const e = setup();
    place(e, 'bob', 'ask', 4000, 1000);
    place(e, 'alice', 'bid', 4000, 1000); // alice long 10 YES at 0.40, bob long 10 NO at 0.60
    expect(e.getMarket(TICKER)!.open_interest).toBe(1000);
    const cashBefore = e.getBalance('alice')!.cash;
    place(e, 'carol', 'bid', 7000, 400); // carol bids YES at 0.70
    const sell = place(e, 'alice', 'ask', 7000, 400); // alice buys NO at 0.30 = sells 4 YES at 0.70
    expect(sell.status).toBe('executed');
    const pos = e.getPositions('alice')[0]!;
    expect(pos).toMatchObject({ position: 600, market_exposure: 2_400_000, realized_pnl: 1_200_000 });
    // she paid 0.30 x 4 and a fee, and got 4 dollars back for 4 pairs
    const fee = e.getFills('alice')[0]!.fee;
    expect(e.getBalance('alice')!.cash - cashBefore).toBe(4_000_000 - 1_200_000 - fee);
    expect(e.getFills('alice')[0]).toMatchObject({ post_position: 600, is_taker: true, side: 'no', book_side: 'ask' });
    expect(e.getMarket(TICKER)!.open_interest).toBe(1000);
    // flipping through zero: buy 10 NO at 0.30 closes 6 and opens 4 NO
    place(e, 'carol', 'bid', 7000, 1000);
    place(e, 'alice', 'ask', 7000, 1000);
    expect(e.getPositions('alice')[0]).toMatchObject({ position: -400, market_exposure: 3000 * 400 });
    expect(e.audit().imbalance).toBe(0);
    expectClean(e);
  });

  it('charges taker fees, and maker fees only under quadratic_with_maker_fees', () => {
    const plain = setup();
    place(plain, 'bob', 'ask', 5000, 10_000);
    place(plain, 'alice', 'bid', 5000, 10_000);
    expect(plain.getFills('bob')[0]!.fee).toBe(0);
    expect(plain.getFills('alice')[0]!.fee).toBe(1_750_000); // 0.07 x 100 x 0.25 = 1.75
    expect(plain.audit().fees).toBe(1_750_000);
    const makers = setup({ feeType: 'quadratic_with_maker_fees' });
    place(makers, 'bob', 'ask', 5000, 10_000);
    place(makers, 'alice', 'bid', 5000, 10_000);
    expect(makers.getFills('bob')[0]!.fee).toBe(440_000); // 0.0175 x 100 x 0.25 = 0.4375 -> 0.44
    expect(makers.getPositions('bob')[0]!.fees_paid).toBe(440_000);
    expect(makers.getOrder(makers.getFills('bob')[0]!.order_id)!.maker_fees).toBe(440_000);
    const half = setup({ feeMultiplierE4: 5_000 });
    place(half, 'bob', 'ask', 5000, 1000);
    place(half, 'alice', 'bid', 5000, 1000);
    expect(half.getFills('alice')[0]!.fee).toBe(90_000); // 0.0875 -> 0.09
  });

  it('a fee change re-reserves resting orders and cancels those it cannot fund', () => {
    const e = setup({ users: { alice: 5.2, bob: 100 } });
    const a = place(e, 'alice', 'bid', 5000, 1000); // 5.00 + 0.19 reserve
    const b = place(e, 'bob', 'bid', 4000, 1000);
    const r = ok(e, { type: 'updateMarketFees', nowMs: T0, ticker: TICKER, feeType: 'quadratic_with_maker_fees', feeMultiplierE4: 20_000 });
    expect(r.canceled).toEqual([a.order_id]);
    expect(e.getOrder(b.order_id)!.status).toBe('resting');
    expect(e.getMarket(TICKER)).toMatchObject({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: 20_000 });
    expectClean(e);
  });
});

describe('market lifecycle and settlement', () => {
  it('close cancels resting orders; determine then settle pays 1 dollar per winning contract', () => {
    const e = setup();
    place(e, 'bob', 'ask', 3000, 1000);
    place(e, 'alice', 'bid', 3000, 1000); // alice 10 YES at 0.30, bob 10 NO at 0.70
    const resting = place(e, 'carol', 'bid', 1000, 500);
    expect(e.apply({ type: 'settleMarket', nowMs: T0, ticker: TICKER })).toMatchObject({ ok: false });
    const closed = ok(e, { type: 'closeMarket', nowMs: T0 + 1, ticker: TICKER });
    expect(closed.canceled).toEqual([resting.order_id]);
    expect(e.getBalance('carol')!.locked).toBe(0);
    ok(e, { type: 'determineMarket', nowMs: T0 + 2, ticker: TICKER, result: 'yes' });
    const aliceCash = e.getBalance('alice')!.cash;
    const bobCash = e.getBalance('bob')!.cash;
    const s = ok(e, { type: 'settleMarket', nowMs: T0 + 3_000, ticker: TICKER });
    expect(s.market).toMatchObject({ status: 'settled', result: 'yes', open_interest: 0 });
    expect(s.settlements.map((x) => [x.user_id, x.market_result, x.yes_count, x.no_count, x.revenue, x.settled_at])).toEqual([
      ['alice', 'yes', 1000, 0, 10_000_000, Math.floor((T0 + 3_000) / 1000)],
      ['bob', 'yes', 0, 1000, 0, Math.floor((T0 + 3_000) / 1000)],
    ]);
    expect(e.getBalance('alice')!.cash - aliceCash).toBe(10_000_000);
    expect(e.getBalance('bob')!.cash).toBe(bobCash);
    expect(e.getPositions('alice')[0]).toMatchObject({ position: 0, market_exposure: 0, realized_pnl: 7_000_000, settled: true });
    expect(e.getPositions('bob')[0]).toMatchObject({ realized_pnl: -7_000_000 });
    expect(e.getSettlements('alice')).toHaveLength(1);
    expect(e.apply({ type: 'settleMarket', nowMs: T0, ticker: TICKER })).toMatchObject({ ok: false });
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 1 })).toMatchObject({ ok: false });
    expect(e.audit()).toMatchObject({ imbalance: 0, openPairs: 0 });
    expectClean(e);
  });

  it('settles a NO result and emits lifecycle events', () => {
    const e = setup();
    place(e, 'bob', 'ask', 6000, 200);
    place(e, 'alice', 'bid', 6000, 200);
    const d = ok(e, { type: 'determineMarket', nowMs: T0, ticker: TICKER, result: 'no' });
    expect(d.events.filter((x) => x.type === 'market').map((x) => x.type === 'market' && x.event)).toEqual(['determined']);
    const s = ok(e, { type: 'settleMarket', nowMs: T0, ticker: TICKER });
    expect(s.settlements.find((x) => x.user_id === 'bob')!.revenue).toBe(2_000_000);
    expect(s.events.some((x) => x.type === 'settlement')).toBe(true);
    expect(e.audit().imbalance).toBe(0);
  });

  it('refuses bad transitions and duplicate markets', () => {
    const e = setup();
    expect(e.apply({ type: 'addMarket', nowMs: T0, ticker: TICKER, eventTicker: 'E', seriesTicker: 'S' })).toMatchObject({ ok: false });
    expect(e.apply({ type: 'openMarket', nowMs: T0, ticker: TICKER })).toMatchObject({ ok: false });
    expect(e.apply({ type: 'openMarket', nowMs: T0, ticker: 'NOPE' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply({ type: 'determineMarket', nowMs: T0, ticker: TICKER, result: 'maybe' as 'yes' })).toMatchObject({ ok: false });
    expect(e.listMarkets({ status: 'open' }).map((m) => m.ticker)).toEqual([TICKER]);
  });
});

describe('settling straight from an open market', () => {
  it('determines with the given result first, cancelling resting orders', () => {
    const e = setup();
    place(e, 'bob', 'ask', 2500, 400);
    place(e, 'alice', 'bid', 2500, 400);
    const resting = place(e, 'carol', 'bid', 1000, 100);
    expect(e.apply({ type: 'settleMarket', nowMs: T0, ticker: TICKER })).toMatchObject({ ok: false });
    const s = ok(e, { type: 'settleMarket', nowMs: T0, ticker: TICKER, result: 'no' });
    expect(s.events.filter((x) => x.type === 'market').map((x) => x.type === 'market' && x.event)).toEqual(['determined', 'settled']);
    expect(e.getOrder(resting.order_id)!.status).toBe('canceled');
    expect(s.settlements.find((x) => x.user_id === 'bob')!.revenue).toBe(4_000_000);
    expect(e.audit()).toMatchObject({ imbalance: 0, openPairs: 0 });
    expectClean(e);
  });
});
