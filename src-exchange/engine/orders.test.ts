import { describe, expect, it } from 'vitest';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';
import type { BookEvent, EngineEvent } from './types';
import { MAX_COUNT_CENTI } from './units';

const bookOf = (e: ReturnType<typeof setup>) => e.getBook(TICKER)!;
const books = (events: EngineEvent[]) => events.filter((x): x is BookEvent => x.type === 'book');

describe('order entry', () => {
  it('rests a good-till-canceled bid on the YES side and an ask as a NO bid', () => {
    const e = setup();
    const bid = place(e, 'alice', 'bid', 4200, 1000);
    const ask = place(e, 'bob', 'ask', 4800, 500);
    expect(bid).toMatchObject({ status: 'resting', fill_count: 0, remaining_count: 1000, yes_price: 4200, no_price: 5800, side: 'bid' });
    expect(ask).toMatchObject({ status: 'resting', outcome_side: 'no', yes_price: 4800, no_price: 5200 });
    expect(bookOf(e)).toEqual({ ticker: TICKER, yes: [[4200, 1000]], no: [[5200, 500]] });
    const market = e.getMarket(TICKER)!;
    expect([market.yes_bid, market.yes_ask, market.no_bid, market.no_ask]).toEqual([4200, 4800, 5200, 5800]);
    expectClean(e);
  });

  it('crosses a YES bid with a NO bid at the maker price', () => {
    const e = setup();
    const maker = place(e, 'bob', 'ask', 4000, 1000); // NO bid at 0.60
    const r = ok(e, { type: 'createOrder', nowMs: T0 + 1, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 4500, countCenti: 400 });
    expect(r.order).toMatchObject({ status: 'executed', fill_count: 400, remaining_count: 0, taker_fill_cost: 4000 * 400 });
    const fills = r.events.filter((x) => x.type === 'fill').map((x) => (x.type === 'fill' ? x.fill : undefined)!);
    expect(fills.map((f) => [f.user_id, f.is_taker, f.yes_price, f.count, f.side])).toEqual([
      ['bob', false, 4000, 400, 'no'],
      ['alice', true, 4000, 400, 'yes'],
    ]);
    const trade = r.events.find((x) => x.type === 'trade');
    expect(trade).toMatchObject({ trade: { taker_side: 'yes', yes_price: 4000, no_price: 6000, count: 400, is_block_trade: false } });
    expect(e.getOrder(maker.order_id)).toMatchObject({ status: 'resting', fill_count: 400, remaining_count: 600, maker_fill_cost: 6000 * 400 });
    expect(e.getPositions('alice')[0]).toMatchObject({ position: 400, market_exposure: 1_600_000 });
    expect(e.getPositions('bob')[0]).toMatchObject({ position: -400, market_exposure: 2_400_000 });
    expect(bookOf(e).no).toEqual([[6000, 600]]);
    expect(e.getTrades({ ticker: TICKER })).toHaveLength(1);
    expectClean(e);
  });

  it('fills the better price first and FIFO within a level', () => {
    const e = setup();
    const first = place(e, 'alice', 'bid', 5000, 100);
    const second = place(e, 'bob', 'bid', 5000, 100);
    const better = place(e, 'alice', 'bid', 5100, 100);
    const r = ok(e, { type: 'createOrder', nowMs: T0, userId: 'carol', ticker: TICKER, side: 'ask', priceTicks: 5000, countCenti: 250 });
    const makerFills = r.events.flatMap((x) => (x.type === 'fill' && !x.fill.is_taker ? [x.fill] : []));
    expect(makerFills.map((f) => [f.order_id, f.count, f.yes_price])).toEqual([
      [better.order_id, 100, 5100],
      [first.order_id, 100, 5000],
      [second.order_id, 50, 5000],
    ]);
    expectClean(e);
  });

  it('immediate_or_cancel fills what it can and cancels the rest', () => {
    const e = setup();
    place(e, 'bob', 'ask', 5000, 300);
    const partial = place(e, 'alice', 'bid', 5000, 500, { timeInForce: 'immediate_or_cancel' });
    expect(partial).toMatchObject({ status: 'canceled', fill_count: 300, remaining_count: 0 });
    const none = place(e, 'alice', 'bid', 5000, 500, { timeInForce: 'immediate_or_cancel' });
    expect(none).toMatchObject({ status: 'canceled', fill_count: 0 });
    const full = (place(e, 'bob', 'ask', 5000, 100), place(e, 'alice', 'bid', 5000, 100, { timeInForce: 'immediate_or_cancel' }));
    expect(full.status).toBe('executed');
    expect(bookOf(e)).toEqual({ ticker: TICKER, yes: [], no: [] });
    expect(e.getBalance('alice')!.locked).toBe(0);
    expectClean(e);
  });

  it('fill_or_kill fills in full or trades nothing', () => {
    const e = setup();
    place(e, 'bob', 'ask', 5000, 300);
    const before = e.toSnapshot().accounts;
    const killed = place(e, 'alice', 'bid', 5000, 301, { timeInForce: 'fill_or_kill' });
    expect(killed).toMatchObject({ status: 'canceled', fill_count: 0 });
    expect(bookOf(e).no).toEqual([[5000, 300]]);
    expect(e.toSnapshot().accounts.find((a) => a.user_id === 'bob')).toEqual(before.find((a) => a.user_id === 'bob'));
    const filled = place(e, 'alice', 'bid', 5000, 300, { timeInForce: 'fill_or_kill' });
    expect(filled).toMatchObject({ status: 'executed', fill_count: 300 });
    expectClean(e);
  });

  it('post_only refuses an order that would cross', () => {
    const e = setup();
    place(e, 'bob', 'ask', 5000, 100);
    const r = e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100, postOnly: true });
    expect(r).toMatchObject({ ok: false, code: 'invalid_order', details: 'post only cross' });
    expect(place(e, 'alice', 'bid', 4999, 100, { postOnly: true }).status).toBe('resting');
  });
});

describe('self-trade prevention', () => {
  it('taker_at_cross cancels the taker at its own resting order, after trading what came before', () => {
    const e = setup();
    place(e, 'bob', 'ask', 4900, 100);
    const own = place(e, 'alice', 'ask', 5000, 100);
    place(e, 'bob', 'ask', 5000, 100);
    const taker = place(e, 'alice', 'bid', 5000, 300, { selfTradePreventionType: 'taker_at_cross' });
    expect(taker).toMatchObject({ status: 'canceled', fill_count: 100 });
    expect(e.getOrder(own.order_id)!.status).toBe('resting');
    expect(bookOf(e).no).toEqual([[5000, 200]]);
    expectClean(e);
  });

  it('maker cancels the own resting order and keeps matching', () => {
    const e = setup();
    const own = place(e, 'alice', 'ask', 5000, 100);
    place(e, 'bob', 'ask', 5000, 100);
    const taker = place(e, 'alice', 'bid', 5000, 300, { selfTradePreventionType: 'maker' });
    expect(taker).toMatchObject({ status: 'resting', fill_count: 100, remaining_count: 200 });
    expect(e.getOrder(own.order_id)).toMatchObject({ status: 'canceled', fill_count: 0 });
    expect(bookOf(e)).toEqual({ ticker: TICKER, yes: [[5000, 200]], no: [] });
    expectClean(e);
  });

  it('defaults to taker_at_cross, across subaccounts of one account', () => {
    const e = setup();
    ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'alice' });
    ok(e, { type: 'transfer', nowMs: T0, userId: 'alice', clientTransferId: 't1', fromSubaccount: 0, toSubaccount: 1, amountMicro: 100_000_000 });
    place(e, 'alice', 'ask', 5000, 100, { subaccount: 1 });
    const taker = place(e, 'alice', 'bid', 5000, 100);
    expect(taker).toMatchObject({ status: 'canceled', fill_count: 0, self_trade_prevention_type: 'taker_at_cross' });
  });
});

describe('amend and decrease', () => {
  it('a price change or a larger count loses queue priority; a pure decrease keeps it', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 100);
    const b = place(e, 'bob', 'bid', 5000, 100);
    expect(e.queuePosition(b.order_id)).toBe(100);
    const dec = ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 60 });
    expect(dec.oldOrder.remaining_count).toBe(100);
    expect(dec.order.remaining_count).toBe(60);
    expect(e.queuePosition(a.order_id)).toBe(0);
    expect(e.queuePosition(b.order_id)).toBe(60);
    ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 70 });
    expect(e.queuePosition(a.order_id)).toBe(100);
    expect(e.queuePosition(b.order_id)).toBe(0);
    ok(e, { type: 'amendOrder', nowMs: T0, userId: 'bob', orderId: b.order_id, ticker: TICKER, side: 'bid', priceTicks: 5001, countCenti: 100 });
    ok(e, { type: 'amendOrder', nowMs: T0, userId: 'bob', orderId: b.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100 });
    expect(e.queuePosition(b.order_id)).toBe(70);
    expect(bookOf(e).yes).toEqual([[5000, 170]]);
    expectClean(e);
  });

  it('an amend that crosses trades as a taker and counts the filled part in the total', () => {
    const e = setup();
    place(e, 'bob', 'ask', 5500, 100);
    const a = place(e, 'alice', 'bid', 5000, 300);
    const r = ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5500, countCenti: 300 });
    expect(r.order).toMatchObject({ status: 'resting', fill_count: 100, remaining_count: 200, yes_price: 5500, taker_fill_cost: 550_000 });
    const more = ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5500, countCenti: 150 });
    expect(more.order).toMatchObject({ fill_count: 100, remaining_count: 50, initial_count: 150 });
    const bad = e.apply({ type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5500, countCenti: 100 });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_parameters' });
    const wrongSide = e.apply({ type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'ask', priceTicks: 5500, countCenti: 200 });
    expect(wrongSide).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expectClean(e);
  });

  it('decrease takes exactly one of reduce_by and reduce_to and keeps priority', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 500);
    const b = place(e, 'bob', 'bid', 5000, 100);
    expect(e.apply({ type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id })).toMatchObject({ ok: false, code: 'invalid_parameters' });
    expect(e.apply({ type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, reduceBy: 1, reduceTo: 1 })).toMatchObject({
      ok: false,
      code: 'invalid_parameters',
    });
    expect(ok(e, { type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, reduceBy: 100 }).reducedBy).toBe(100);
    expect(ok(e, { type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, reduceTo: 150 }).order.remaining_count).toBe(150);
    expect(e.queuePosition(b.order_id)).toBe(150);
    expect(e.apply({ type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, reduceTo: 151 })).toMatchObject({ ok: false });
    const gone = ok(e, { type: 'decreaseOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, reduceBy: 1000 });
    expect(gone).toMatchObject({ reducedBy: 150, order: { status: 'canceled' } });
    expect(e.getBalance('alice')!.locked).toBe(0);
    expectClean(e);
  });
});

describe('cancel', () => {
  it('answers reduced_by, then not_found on a repeat, an executed, a foreign or an unknown order', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 500);
    const r = ok(e, { type: 'cancelOrder', nowMs: T0 + 5, userId: 'alice', orderId: a.order_id });
    expect(r.reducedBy).toBe(500);
    expect(r.order).toMatchObject({ status: 'canceled', remaining_count: 0, last_update_time: T0 + 5 });
    expect(e.apply({ type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: a.order_id })).toMatchObject({ ok: false, code: 'not_found' });
    place(e, 'bob', 'ask', 5000, 100);
    const done = place(e, 'alice', 'bid', 5000, 100);
    expect(done.status).toBe('executed');
    expect(e.apply({ type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: done.order_id })).toMatchObject({ ok: false, code: 'not_found' });
    const bobs = place(e, 'bob', 'bid', 4000, 100);
    expect(e.apply({ type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: bobs.order_id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply({ type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: 'nope' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(e.apply({ type: 'cancelOrder', nowMs: T0, userId: 'bob', orderId: bobs.order_id, subaccount: 3 })).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('cancel-all takes the caller resting orders, of one subaccount or all', () => {
    const e = setup();
    ok(e, { type: 'createSubaccount', nowMs: T0, userId: 'alice' });
    ok(e, { type: 'transfer', nowMs: T0, userId: 'alice', clientTransferId: 'x', fromSubaccount: 0, toSubaccount: 1, amountMicro: 50_000_000 });
    const a1 = place(e, 'alice', 'bid', 4000, 100);
    const a2 = place(e, 'alice', 'ask', 6000, 100, { subaccount: 1 });
    const b1 = place(e, 'bob', 'bid', 4000, 100);
    expect(ok(e, { type: 'cancelAllOrders', nowMs: T0, userId: 'alice', subaccount: 1 }).canceled).toEqual([a2.order_id]);
    expect(ok(e, { type: 'cancelAllOrders', nowMs: T0, userId: 'alice' }).canceled).toEqual([a1.order_id]);
    expect(e.getOrder(b1.order_id)!.status).toBe('resting');
    expectClean(e);
  });
});

describe('idempotency and rejections', () => {
  it('a reused client_order_id returns the original order and places nothing', () => {
    const e = setup();
    const first = place(e, 'alice', 'bid', 5000, 100, { clientOrderId: 'c-1' });
    const snap = JSON.stringify(e.toSnapshot());
    const again = e.apply({ type: 'createOrder', nowMs: T0 + 9, userId: 'alice', ticker: TICKER, side: 'ask', priceTicks: 100, countCenti: 7, clientOrderId: 'c-1' });
    expect(again).toMatchObject({ ok: true, duplicate: true, mutated: false, events: [] });
    expect(again.ok && again.order).toEqual(first);
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
    const bobs = place(e, 'bob', 'bid', 5000, 100, { clientOrderId: 'c-1' });
    expect(bobs.order_id).not.toBe(first.order_id);
    expect(e.getOrderByClientId('alice', 'c-1')!.order_id).toBe(first.order_id);
  });

  it('rejects an order that cannot be funded (cost plus fee reserve) and changes nothing', () => {
    const e = setup({ users: { alice: 5, bob: 100 } });
    // 10 contracts at 0.50 cost 5.00 plus a fee reserve of 0.18 + 0.01
    const snap = JSON.stringify(e.toSnapshot());
    const r = e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 1000 });
    expect(r).toMatchObject({ ok: false, code: 'insufficient_balance', mutated: false, events: [] });
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
    const fits = place(e, 'alice', 'bid', 5000, 900);
    expect(fits.status).toBe('resting');
    expect(e.getBalance('alice')).toMatchObject({ cash: 5_000_000, locked: 4_500_000 + 170_000, available: 330_000 });
    const nobody = e.apply({ type: 'createOrder', nowMs: T0, userId: 'zed', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 1 });
    expect(nobody).toMatchObject({ ok: false, code: 'insufficient_balance' });
    expect(e.getBalance('zed')).toBeUndefined();
  });

  it('validates every field before changing anything', () => {
    const e = setup();
    const snap = JSON.stringify(e.toSnapshot());
    const base = { type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100 } as const;
    const bad = [
      { ...base, priceTicks: 0 },
      { ...base, priceTicks: 10_000 },
      { ...base, priceTicks: 50.5 },
      { ...base, countCenti: 0 },
      { ...base, countCenti: MAX_COUNT_CENTI + 1 },
      { ...base, side: 'yes' as 'bid' },
      { ...base, timeInForce: 'day' as 'fill_or_kill' },
      { ...base, subaccount: 64 },
      { ...base, ticker: 'NOPE' },
      { ...base, subaccount: 5 },
      { ...base, orderGroupId: 'nope' },
      { ...base, expirationTime: 1 },
      { ...base, timeInForce: 'immediate_or_cancel' as const, expirationTime: 2_000_000_000 },
      { ...base, nowMs: -1 },
    ];
    for (const cmd of bad) {
      const r = e.apply(cmd);
      expect(r.ok, JSON.stringify(cmd)).toBe(false);
    }
    expect(e.apply({ ...base, countCenti: MAX_COUNT_CENTI + 1 })).toMatchObject({ message: expect.stringMatching(/at most/) });
    expect(JSON.stringify(e.toSnapshot())).toBe(snap);
  });

  it('refuses orders unless the market is open; a paused market still takes cancels', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 100);
    ok(e, { type: 'pauseMarket', nowMs: T0, ticker: TICKER });
    expect(e.apply({ type: 'createOrder', nowMs: T0, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 1 })).toMatchObject({
      ok: false,
      code: 'invalid_order',
      details: 'market_not_open',
    });
    ok(e, { type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: a.order_id });
    ok(e, { type: 'openMarket', nowMs: T0, ticker: TICKER });
    place(e, 'alice', 'bid', 5000, 1);
  });
});

describe('expiry', () => {
  it('cancels a resting order once a command at or past its expiration arrives', () => {
    const e = setup();
    const exp = Math.floor(T0 / 1000) + 60;
    const a = place(e, 'alice', 'bid', 5000, 100, { expirationTime: exp });
    expect(ok(e, { type: 'expire', nowMs: exp * 1000 - 1 }).expired).toEqual([]);
    // a rejected command still expires what is due (so it must be journaled: mutated)
    const r = e.apply({ type: 'cancelOrder', nowMs: exp * 1000, userId: 'alice', orderId: a.order_id });
    expect(r).toMatchObject({ ok: false, code: 'not_found', mutated: true });
    expect(e.getOrder(a.order_id)).toMatchObject({ status: 'canceled', last_update_time: exp * 1000 });
    expect(e.getBalance('alice')!.locked).toBe(0);
    const b = place(e, 'alice', 'bid', 5000, 100, { expirationTime: exp + 10 });
    expect(ok(e, { type: 'expire', nowMs: (exp + 10) * 1000 }).expired).toEqual([b.order_id]);
    expect(e.apply({ type: 'createOrder', nowMs: T0 + 200_000, userId: 'alice', ticker: TICKER, side: 'bid', priceTicks: 1, countCenti: 1, expirationTime: exp })).toMatchObject({
      ok: false,
      code: 'invalid_order',
    });
    expectClean(e);
  });

  it('amend can clear or move the expiry', () => {
    const e = setup();
    const s = Math.floor(T0 / 1000);
    const a = place(e, 'alice', 'bid', 5000, 100, { expirationTime: s + 10 });
    ok(e, { type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100, expirationTime: 0 });
    expect(ok(e, { type: 'expire', nowMs: (s + 100) * 1000 }).expired).toEqual([]);
    ok(e, { type: 'amendOrder', nowMs: (s + 100) * 1000, userId: 'alice', orderId: a.order_id, ticker: TICKER, side: 'bid', priceTicks: 5000, countCenti: 100, expirationTime: s + 200 });
    expect(ok(e, { type: 'expire', nowMs: (s + 200) * 1000 }).expired).toEqual([a.order_id]);
  });
});

describe('book events and reads', () => {
  it('book events sum to the book', () => {
    const e = setup();
    const levels = new Map<string, number>();
    const track = (events: EngineEvent[]) => {
      for (const b of books(events)) {
        const k = `${b.side}:${b.price}`;
        levels.set(k, (levels.get(k) ?? 0) + b.delta);
      }
    };
    const run = (cmd: Parameters<typeof e.apply>[0]) => track(e.apply(cmd).events);
    const mk = (userId: string, side: 'bid' | 'ask', priceTicks: number, countCenti: number, extra = {}) =>
      run({ type: 'createOrder', nowMs: T0, userId, ticker: TICKER, side, priceTicks, countCenti, ...extra });
    mk('alice', 'bid', 5000, 300);
    mk('alice', 'bid', 4900, 300);
    mk('bob', 'ask', 5200, 300);
    mk('carol', 'ask', 4900, 450);
    mk('carol', 'bid', 5300, 100, { timeInForce: 'immediate_or_cancel' });
    const order = e.listOrders({ userId: 'alice', status: 'resting' })[0]!;
    run({ type: 'amendOrder', nowMs: T0, userId: 'alice', orderId: order.order_id, ticker: TICKER, side: 'bid', priceTicks: 4800, countCenti: order.fill_count + 50 });
    const want = new Map<string, number>();
    const book = bookOf(e);
    for (const [p, q] of book.yes) want.set(`yes:${p}`, q);
    for (const [p, q] of book.no) want.set(`no:${p}`, q);
    const got = new Map([...levels].filter(([, q]) => q !== 0));
    expect(got).toEqual(want);
  });

  it('lists orders newest first with filters and reports the queue position', () => {
    const e = setup();
    const a = place(e, 'alice', 'bid', 5000, 100);
    const b = place(e, 'alice', 'ask', 6000, 100);
    ok(e, { type: 'cancelOrder', nowMs: T0, userId: 'alice', orderId: a.order_id });
    expect(e.listOrders({ userId: 'alice' }).map((o) => o.order_id)).toEqual([b.order_id, a.order_id]);
    expect(e.listOrders({ userId: 'alice', status: 'resting' }).map((o) => o.order_id)).toEqual([b.order_id]);
    expect(e.queuePosition(b.order_id)).toBe(0);
    expect(e.queuePosition(a.order_id)).toBeUndefined();
  });
});
