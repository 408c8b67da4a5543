// Order entry against the real embedded exchange through the terminal's own client: create,
// idempotency, crossing two accounts, time in force, batches, cancel, amend, decrease, reads,
// queue positions, and restart durability. Order groups are in order-groups.int.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, centiOf, centsOf, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
});
afterAll(async () => {
  await t?.close();
});

async function market(event = 'TEST'): Promise<string> {
  const ticker = freshTicker(event);
  await openMarket(t, ticker, event);
  return ticker;
}

const cid = () => randomUUID();

describe('create', () => {
  it('rests a bid and answers order_id, counts and ts_ms; the order reads back', async () => {
    const ticker = await market();
    const before = Date.now();
    const r = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '10', price: '0.40' } });
    expect(r.order_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.fill_count).toBe('0.00');
    expect(r.remaining_count).toBe('10.00');
    expect(r.ts_ms).toBeGreaterThanOrEqual(before - 5);
    const { order } = await trader.getOrder({ params: { order_id: r.order_id } });
    expect(order).toMatchObject({
      order_id: r.order_id,
      ticker,
      status: 'resting',
      book_side: 'bid',
      yes_price_dollars: '0.4000',
      no_price_dollars: '0.6000',
      remaining_count_fp: '10.00',
      fill_count_fp: '0.00',
      subaccount_number: 0,
      exchange_index: 0,
    });
  });

  it('returns the original order for a reused client_order_id and places nothing', async () => {
    const ticker = await market();
    const id = cid();
    const first = await trader.createOrder({ body: { ticker, client_order_id: id, side: 'bid', count: '3', price: '0.20' } });
    const countBefore = (await trader.getOrders({ query: { ticker } })).orders.length;
    const again = await trader.createOrder({ body: { ticker, client_order_id: id, side: 'ask', count: '7', price: '0.90' } });
    expect(again.order_id).toBe(first.order_id);
    expect(again.client_order_id).toBe(id);
    expect(again.remaining_count).toBe('3.00');
    const after = await trader.getOrders({ query: { ticker } });
    expect(after.orders.length).toBe(countBefore);
    expect(after.orders.map((o) => o.order_id)).toEqual([first.order_id]);
  });

  it('rejects unknown create fields, yes/no sides and sub-tick prices with 400 and places nothing', async () => {
    const ticker = await market();
    const extra = await rawSigned(t, 'trader', 'POST', '/portfolio/events/orders', { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.5', colour: 'red' });
    expect(extra.status).toBe(400);
    const yes = await rawSigned(t, 'trader', 'POST', '/portfolio/events/orders', { ticker, client_order_id: cid(), side: 'yes', count: '1', price: '0.5' });
    expect(yes.status).toBe(400);
    const fine = await rawSigned(t, 'trader', 'POST', '/portfolio/events/orders', { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.50001' });
    expect(fine.status).toBe(400);
    expect((await trader.getOrders({ query: { ticker } })).orders).toEqual([]);
  });

  it('refuses prices outside 0.0001-0.9999, unknown markets and unknown exchange indexes', async () => {
    const ticker = await market();
    expect((await apiError(trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '1.00' } }))).status).toBe(400);
    expect((await apiError(trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0' } }))).status).toBe(400);
    expect((await apiError(trader.createOrder({ body: { ticker: 'NOPE-1', client_order_id: cid(), side: 'bid', count: '1', price: '0.5' } }))).status).toBe(404);
    const shard = await apiError(trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.5', exchange_index: 4 } }));
    expect(shard.status).toBe(400);
    const routed = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.5', exchange_index: -1 } });
    expect(routed.remaining_count).toBe('1.00');
  });
});

describe('two accounts cross', () => {
  it('both see the fill, opposite positions and balances that conserve cash', async () => {
    const ticker = await market();
    const [tb0, cb0] = await Promise.all([trader.getBalance(), counterparty.getBalance()]);
    const bid = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '5', price: '0.60' } });
    const ask = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '5', price: '0.55' } });
    expect(ask.fill_count).toBe('5.00');
    expect(ask.remaining_count).toBe('0.00');
    expect(ask.average_fill_price).toBe('0.60'); // the maker's price, on the YES leg

    const tf = (await trader.getFills({ query: { ticker: [ticker] } })).fills;
    const cf = (await counterparty.getFills({ query: { ticker: [ticker] } })).fills;
    expect(tf).toHaveLength(1);
    expect(cf).toHaveLength(1);
    expect(tf[0]).toMatchObject({ order_id: bid.order_id, ticker, yes_price_dollars: '0.6000', count_fp: '5.00', is_taker: false, exchange_index: 0 });
    expect(cf[0]).toMatchObject({ order_id: ask.order_id, ticker, yes_price_dollars: '0.6000', count_fp: '5.00', is_taker: true, exchange_index: 0 });
    expect(tf[0]!.trade_id).toBe(cf[0]!.trade_id);
    // taker fee: ceil(0.07 x 5 x 0.60 x 0.40 dollars) = 9 cents; makers pay nothing on this series
    expect(cf[0]!.fee_cost).toBe('0.09');
    expect(tf[0]!.fee_cost).toBe('0.00');

    const tp = (await trader.getPositions({ query: { ticker } })).market_positions;
    const cp = (await counterparty.getPositions({ query: { ticker } })).market_positions;
    expect(tp).toEqual([expect.objectContaining({ ticker, position_fp: '5.00', market_exposure_dollars: '3.00', exchange_index: 0 })]);
    expect(cp).toEqual([expect.objectContaining({ ticker, position_fp: '-5.00', market_exposure_dollars: '2.00', fees_paid_dollars: '0.09' })]);

    const [tb1, cb1] = await Promise.all([trader.getBalance(), counterparty.getBalance()]);
    expect(tb0.balance - tb1.balance).toBe(300); // 5 YES at 0.60
    expect(cb0.balance - cb1.balance).toBe(200 + 9); // 5 NO at 0.40 plus the fee
    // cash conservation: what left both balances is $1 per open pair plus the fee
    expect(tb0.balance + cb0.balance - (tb1.balance + cb1.balance)).toBe(5 * 100 + centsOf(cf[0]!.fee_cost!));
    expect(centsOf(tb1.balance_dollars)).toBe(tb1.balance);
    // both sides now hold a position marked at the last price
    expect(tb1.portfolio_value).toBe(300);
    expect(cb1.portfolio_value).toBe(200);
  });
});

describe('time in force', () => {
  it('immediate_or_cancel fills what it can and cancels the rest', async () => {
    const ticker = await market();
    await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '2', price: '0.50' } });
    const ioc = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '5', price: '0.50', time_in_force: 'immediate_or_cancel' } });
    expect(ioc.fill_count).toBe('2.00');
    expect(ioc.remaining_count).toBe('0.00');
    const { order } = await counterparty.getOrder({ params: { order_id: ioc.order_id } });
    expect(order.status).toBe('canceled');
    expect(order.fill_count_fp).toBe('2.00');
    expect((await counterparty.getOrders({ query: { ticker, status: 'resting' } })).orders).toEqual([]);
  });

  it('fill_or_kill fills in full or not at all', async () => {
    const ticker = await market();
    await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '3', price: '0.45' } });
    const killed = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '4', price: '0.45', time_in_force: 'fill_or_kill' } });
    expect(killed.fill_count).toBe('0.00');
    expect((await counterparty.getOrder({ params: { order_id: killed.order_id } })).order.status).toBe('canceled');
    expect((await counterparty.getFills({ query: { ticker: [ticker] } })).fills).toEqual([]);
    const filled = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '3', price: '0.45', time_in_force: 'fill_or_kill' } });
    expect(filled.fill_count).toBe('3.00');
    expect((await counterparty.getOrder({ params: { order_id: filled.order_id } })).order.status).toBe('executed');
  });
});

describe('batch create', () => {
  it('reports a bad entry as an error object with the other fields null, and places the good ones', async () => {
    const ticker = await market();
    const r = await trader.batchCreateOrders({
      body: {
        orders: [
          { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.30' },
          { ticker: 'NO-SUCH-MARKET', client_order_id: cid(), side: 'bid', count: '1', price: '0.30' },
          { ticker, client_order_id: cid(), side: 'ask', count: '2', price: '0.70' },
        ],
      },
    });
    expect(r.orders).toHaveLength(3);
    expect(r.orders[0]).toMatchObject({ remaining_count: '1.00', fill_count: '0.00' });
    expect(r.orders[0]!.error ?? null).toBeNull();
    expect(r.orders[1]).toMatchObject({ order_id: null, fill_count: null, remaining_count: null, error: { code: 'not_found' } });
    expect(r.orders[2]).toMatchObject({ remaining_count: '2.00' });
    const resting = await trader.getOrders({ query: { ticker, status: 'resting' } });
    expect(resting.orders.map((o) => o.order_id).sort()).toEqual([r.orders[0]!.order_id, r.orders[2]!.order_id].sort());
  });
});

describe('cancel', () => {
  it('answers reduced_by and ts_ms with a body; a repeat, an unknown id and an executed order are 404', async () => {
    const ticker = await market();
    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '4', price: '0.25' } });
    const r = await trader.cancelOrder({ params: { order_id: o.order_id } });
    expect(r.reduced_by).toBe('4.00');
    expect(r.ts_ms).toBeGreaterThan(0);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.status).toBe('canceled');
    expect((await apiError(trader.cancelOrder({ params: { order_id: o.order_id } }))).status).toBe(404);
    expect((await apiError(trader.cancelOrder({ params: { order_id: randomUUID() } }))).status).toBe(404);
    // someone else's order is unknown to the caller
    const theirs = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.10' } });
    expect((await apiError(trader.cancelOrder({ params: { order_id: theirs.order_id } }))).status).toBe(404);
    // an executed order
    await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.50' } });
    const taker = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '1', price: '0.50' } });
    expect(taker.fill_count).toBe('1.00');
    expect((await apiError(counterparty.cancelOrder({ params: { order_id: taker.order_id } }))).status).toBe(404);
  });

  it('routes by query: exchange_index -1 needs market_ticker, which must be the order market', async () => {
    const ticker = await market();
    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '2', price: '0.25' } });
    const noTicker = await rawSigned(t, 'trader', 'DELETE', `/portfolio/events/orders/${o.order_id}?exchange_index=-1`);
    expect(noTicker.status).toBe(400);
    expect((await apiError(trader.cancelOrder({ params: { order_id: o.order_id }, query: { exchange_index: -1, market_ticker: 'OTHER-1' } }))).status).toBe(404);
    expect((await apiError(trader.cancelOrder({ params: { order_id: o.order_id }, query: { exchange_index: 2 } }))).status).toBe(400);
    expect((await apiError(trader.cancelOrder({ params: { order_id: o.order_id }, query: { subaccount: 5 } }))).status).toBe(404);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.status).toBe('resting');
    const r = await trader.cancelOrder({ params: { order_id: o.order_id }, query: { exchange_index: -1, market_ticker: ticker, subaccount: 0 } });
    expect(r.reduced_by).toBe('2.00');
  });

  it('cancel-all takes every resting order of the caller (204) and leaves others alone', async () => {
    const ticker = await market();
    for (const p of ['0.11', '0.12', '0.13']) await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: p } });
    const theirs = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.14' } });
    const r = await trader.cancelAllOrders();
    expect(r).toEqual({});
    expect((await trader.getOrders({ query: { status: 'resting' } })).orders).toEqual([]);
    expect((await counterparty.getOrder({ params: { order_id: theirs.order_id } })).order.status).toBe('resting');
  });

  it('batch cancel reports per-entry results with counts zeroed on error', async () => {
    const ticker = await market();
    const a = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '2', price: '0.21' } });
    const b = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '3', price: '0.81' } });
    const missing = randomUUID();
    const r = await trader.batchCancelOrders({ body: { orders: [{ order_id: a.order_id }, { order_id: missing }, { order_id: b.order_id, market_ticker: ticker, exchange_index: -1 }] } });
    expect(r.orders).toHaveLength(3);
    expect(r.orders[0]).toMatchObject({ order_id: a.order_id, reduced_by: '2.00' });
    expect(r.orders[0]!.error ?? null).toBeNull();
    expect(r.orders[1]).toMatchObject({ order_id: missing, reduced_by: '0.00', error: { code: 'not_found' } });
    expect(r.orders[2]).toMatchObject({ order_id: b.order_id, reduced_by: '3.00' });
    const again = await trader.batchCancelOrders({ body: { orders: [{ order_id: a.order_id }] } });
    expect(again.orders[0]).toMatchObject({ reduced_by: '0.00', error: { code: 'not_found' } });
  });
});

describe('amend and decrease', () => {
  it('amend answers old_order and order', async () => {
    const ticker = await market();
    const id = cid();
    const o = await trader.createOrder({ body: { ticker, client_order_id: id, side: 'bid', count: '5', price: '0.30' } });
    const r = await trader.amendOrder({ params: { order_id: o.order_id }, body: { ticker, side: 'bid', price: '0.32', count: '8', client_order_id: id, exchange_index: 0 } });
    expect(r.old_order).toMatchObject({ order_id: o.order_id, yes_price_dollars: '0.3000', remaining_count_fp: '5.00' });
    expect(r.order).toMatchObject({ order_id: o.order_id, yes_price_dollars: '0.3200', remaining_count_fp: '8.00', status: 'resting' });
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.yes_price_dollars).toBe('0.3200');
    // a wrong client_order_id, the wrong side and another subaccount are refused; nothing changes
    expect((await apiError(trader.amendOrder({ params: { order_id: o.order_id }, body: { ticker, side: 'bid', price: '0.40', count: '8', client_order_id: 'other' } }))).status).toBe(400);
    expect((await apiError(trader.amendOrder({ params: { order_id: o.order_id }, body: { ticker, side: 'ask', price: '0.40', count: '8' } }))).status).toBe(400);
    expect((await apiError(trader.amendOrder({ params: { order_id: o.order_id }, query: { subaccount: 3 }, body: { ticker, side: 'bid', price: '0.40', count: '8' } }))).status).toBe(404);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order).toMatchObject({ yes_price_dollars: '0.3200', remaining_count_fp: '8.00' });
  });

  it('decrease by and to; both or neither is 400 and changes nothing', async () => {
    const ticker = await market();
    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '10', price: '0.30' } });
    const by = await trader.decreaseOrder({ params: { order_id: o.order_id }, body: { reduce_by: '3' } });
    expect(by.remaining_count).toBe('7.00');
    const both = await rawSigned(t, 'trader', 'POST', `/portfolio/events/orders/${o.order_id}/decrease`, { reduce_by: '1', reduce_to: '2' });
    expect(both.status).toBe(400);
    expect((both.body as { error: { code: string } }).error.code).toBe('invalid_parameters');
    const neither = await rawSigned(t, 'trader', 'POST', `/portfolio/events/orders/${o.order_id}/decrease`, {});
    expect(neither.status).toBe(400);
    const autoRoute = await rawSigned(t, 'trader', 'POST', `/portfolio/events/orders/${o.order_id}/decrease`, { reduce_by: '1', exchange_index: -1 });
    expect(autoRoute.status).toBe(400);
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.remaining_count_fp).toBe('7.00');
    const to = await trader.decreaseOrder({ params: { order_id: o.order_id }, query: { subaccount: 0 }, body: { reduce_to: '2', exchange_index: -1, market_ticker: ticker } });
    expect(to.remaining_count).toBe('2.00');
    const { order } = await trader.getOrder({ params: { order_id: o.order_id } });
    expect(order).toMatchObject({ status: 'resting', remaining_count_fp: '2.00' });
    const zero = await trader.decreaseOrder({ params: { order_id: o.order_id }, body: { reduce_to: '0' } });
    expect(zero.remaining_count).toBe('0.00');
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.status).toBe('canceled');
    expect((await apiError(trader.decreaseOrder({ params: { order_id: o.order_id }, body: { reduce_by: '1' } }))).status).toBe(404);
  });
});

describe('order reads', () => {
  it('filters by ticker, event list, status, created time, subaccount and exchange index, in cursor pages', async () => {
    const a = await market('EVA');
    const b = await market('EVB');
    const c = await market('EVC');
    const created: string[] = [];
    for (const tk of [a, a, b, c]) {
      created.push((await trader.createOrder({ body: { ticker: tk, client_order_id: cid(), side: 'bid', count: '1', price: '0.05' } })).order_id);
    }
    await trader.cancelOrder({ params: { order_id: created[0]! } });

    expect((await trader.getOrders({ query: { ticker: a } })).orders.map((o) => o.order_id)).toEqual([created[1], created[0]]);
    const events = await trader.getOrders({ query: { event_ticker: ['EVA', 'EVB'] } });
    expect(new Set(events.orders.map((o) => o.order_id))).toEqual(new Set(created.slice(0, 3)));
    expect((await trader.getOrders({ query: { ticker: a, status: 'canceled' } })).orders.map((o) => o.order_id)).toEqual([created[0]]);
    expect((await trader.getOrders({ query: { ticker: a, exchange_index: 1 } })).orders).toEqual([]);
    expect((await trader.getOrders({ query: { ticker: a, exchange_index: 0, subaccount: 0 } })).orders).toHaveLength(2);
    expect((await trader.getOrders({ query: { ticker: a, subaccount: 9 } })).orders).toEqual([]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await trader.getOrders({ query: { ticker: a, min_ts: future } })).orders).toEqual([]);
    expect((await trader.getOrders({ query: { ticker: a, max_ts: future } })).orders).toHaveLength(2);

    const p1 = await trader.getOrders({ query: { event_ticker: ['EVA', 'EVB', 'EVC'], limit: 3 } });
    expect(p1.orders).toHaveLength(3);
    expect(p1.has_next).toBe(true);
    const p2 = await trader.getOrders({ query: { event_ticker: ['EVA', 'EVB', 'EVC'], limit: 3, cursor: p1.cursor ?? '' } });
    expect(p2.orders).toHaveLength(1);
    expect(p2.has_next).toBe(false);
    expect(new Set([...p1.orders, ...p2.orders].map((o) => o.order_id))).toEqual(new Set(created));
    expect((await apiError(trader.getOrder({ params: { order_id: randomUUID() } }))).status).toBe(404);
  });

  it('pages of resting orders lose none when orders of an earlier page leave between the reads, nor repeat any', async () => {
    const ticker = await market('PG');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.05' } })).order_id);
    const newestFirst = [...ids].reverse();
    const p1 = await trader.getOrders({ query: { ticker, status: 'resting', limit: 3 } });
    expect(p1.orders.map((o) => o.order_id)).toEqual(newestFirst.slice(0, 3));
    // two orders of page 1 leave the resting list, and a new one arrives, before page 2 is read
    await trader.cancelOrder({ params: { order_id: newestFirst[0]! } });
    await trader.cancelOrder({ params: { order_id: newestFirst[2]! } });
    const late = (await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '1', price: '0.05' } })).order_id;
    const p2 = await trader.getOrders({ query: { ticker, status: 'resting', limit: 3, cursor: p1.cursor ?? '' } });
    expect(p2.orders.map((o) => o.order_id)).toEqual(newestFirst.slice(3, 6));
    const p3 = await trader.getOrders({ query: { ticker, status: 'resting', limit: 3, cursor: p2.cursor ?? '' } });
    expect(p3.orders.map((o) => o.order_id)).toEqual(newestFirst.slice(6));
    expect(p3.has_next).toBe(false);
    // the late order is on a new first page, as a client starting again finds it
    expect((await trader.getOrders({ query: { ticker, status: 'resting', limit: 3 } })).orders[0]!.order_id).toBe(late);
    // a cursor of another list (an offset) or of nothing is refused, not read as the start
    for (const cursor of [Buffer.from(JSON.stringify({ o: 3 })).toString('base64url'), 'not-a-cursor']) {
      const e = await apiError(trader.getOrders({ query: { ticker, limit: 3, cursor } }));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(/cursor is not one this exchange issued/);
    }
  });

  it('queue positions: contracts ahead at the level, for a list and for one order', async () => {
    const ticker = await market('QP');
    const first = await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '4', price: '0.33' } });
    const mine = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '2', price: '0.33' } });
    expect(await trader.getOrderQueuePosition({ params: { order_id: mine.order_id } })).toBe('4.00');
    expect(await counterparty.getOrderQueuePosition({ params: { order_id: first.order_id } })).toBe('0.00');
    const list = await trader.getQueuePositions({ query: { market_tickers: [ticker] } });
    expect(list.queue_positions).toEqual([expect.objectContaining({ order_id: mine.order_id, queue_position: '4.00' })]);
    const byEvent = await trader.getQueuePositions({ query: { event_ticker: 'QP' } });
    expect(byEvent.queue_positions.map((q) => q.order_id)).toContain(mine.order_id);
    expect((await apiError(trader.getQueuePositions())).status).toBe(400);
    await trader.cancelOrder({ params: { order_id: mine.order_id } });
    expect((await apiError(trader.getOrderQueuePosition({ params: { order_id: mine.order_id } }))).status).toBe(404);
  });
});

describe('durability', () => {
  it('orders and fills survive a restart', async () => {
    const ticker = await market();
    const resting = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '6', price: '0.44' } });
    await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '1', price: '0.44' } });
    const before = await trader.getOrders({ query: { ticker } });
    const balanceBefore = await trader.getBalance();
    await t.restart();
    trader = t.client('trader');
    counterparty = t.client('counterparty');
    const after = await trader.getOrders({ query: { ticker } });
    expect(after.orders).toEqual(before.orders);
    expect(after.orders[0]).toMatchObject({ order_id: resting.order_id, status: 'resting', remaining_count_fp: '5.00', fill_count_fp: '1.00' });
    expect(await trader.getBalance()).toEqual(balanceBefore);
    expect(centiOf((await trader.getFills({ query: { ticker: [ticker] } })).fills[0]!.count_fp)).toBe(100);
    // the reused client_order_id rule still holds for orders from before the restart
    const again = await trader.createOrder({ body: { ticker, client_order_id: before.orders[0]!.client_order_id!, side: 'bid', count: '1', price: '0.10' } });
    expect(again.order_id).toBe(resting.order_id);
  });
});
