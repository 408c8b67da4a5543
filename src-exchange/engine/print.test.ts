// printTrade (print.ts): a recorded trade printed without a taker order. Held to the order path it
// replaces: the same book, tape, volume, open interest and the other accounts' fills, orders,
// positions and ids as an immediate-or-cancel order of the taker account, on twin engines.
import { describe, expect, it } from 'vitest';
import type { Engine } from './engine';
import { expectClean, ok, place, setup, T0, TICKER } from '../../test-support/exchange/engine';
import type { BookSide, Command, EngineEvent, PrintTradeCommand } from './types';

const USERS = { maker: 1_000_000, taker: 1_000_000, alice: 1000, bob: 1000 };

/** The replay's book account (`maker`) and the trader (`alice`) sharing the YES bids at 0.50, and more at 0.49. */
function book(): { e: Engine; alice: string } {
  const e = setup({ users: USERS });
  place(e, 'maker', 'bid', 5000, 500);
  const alice = place(e, 'alice', 'bid', 5000, 300).order_id;
  place(e, 'maker', 'bid', 5000, 400);
  place(e, 'maker', 'bid', 4900, 1000);
  place(e, 'bob', 'ask', 5300, 200);
  return { e, alice };
}

function print(side: BookSide, priceTicks: number, countCenti: number, nowMs = T0 + 5): PrintTradeCommand {
  return { type: 'printTrade', nowMs, userId: 'taker', ticker: TICKER, side, priceTicks, countCenti, quietUserId: 'maker' };
}

function ioc(side: BookSide, priceTicks: number, countCenti: number, nowMs = T0 + 5): Command {
  return { type: 'createOrder', nowMs, userId: 'taker', ticker: TICKER, side, priceTicks, countCenti, timeInForce: 'immediate_or_cancel' };
}

/** What anyone but the two replay accounts can see of an engine's events. */
function visible(ev: readonly EngineEvent[]): unknown[] {
  const quiet = (u: string) => u === 'maker' || u === 'taker';
  return ev.filter((x) => {
    if (x.type === 'book' || x.type === 'trade') return true;
    if (x.type === 'fill') return !quiet(x.fill.user_id);
    if (x.type === 'order') return !quiet(x.order.user_id);
    if (x.type === 'position') return !quiet(x.position.user_id);
    if (x.type === 'balance') return !quiet(x.balance.user_id);
    return true;
  }).map((x) => (x.type === 'book' && quiet(x.user_id) ? { ...x, order_id: '', user_id: '' } : x));
}

/** Everything but the replay accounts' own records, as REST would show it. */
function seen(e: Engine): unknown {
  return {
    book: e.getBook(TICKER),
    market: e.getMarket(TICKER),
    trades: e.getTrades({ ticker: TICKER }),
    alice: { fills: e.getFills('alice'), orders: e.listOrders({ userId: 'alice' }), positions: e.getPositions('alice'), balance: e.getBalance('alice') },
    bob: { fills: e.getFills('bob'), orders: e.listOrders({ userId: 'bob' }), positions: e.getPositions('bob'), balance: e.getBalance('bob') },
    makerPositions: e.getPositions('maker').map((p) => p.position),
    takerPositions: e.getPositions('taker').map((p) => p.position),
    makerCash: e.getBalance('maker'),
    takerCash: e.getBalance('taker'),
  };
}

describe('printTrade', () => {
  it('takes the queue in time order: the replay size ahead first, then the trader\'s order, with the fills an order of the taker gives', () => {
    const a = book();
    const b = book();
    const rp = ok(a.e, print('ask', 5000, 600));
    const ro = b.e.apply(ioc('ask', 5000, 600));
    expect(rp.count).toBe(600);
    expect(rp.trades).toBe(2);
    // 500 of the replay's ahead, then 100 of alice's 300: she is filled as maker, 200 left in place
    const fills = a.e.getFills('alice');
    expect(fills.map((f) => [f.count, f.yes_price, f.is_taker])).toEqual([[100, 5000, false]]);
    expect(a.e.getOrder(a.alice)).toMatchObject({ status: 'resting', remaining_count: 200, fill_count: 100 });
    expect(a.e.queuePosition(a.alice)).toBe(0);
    expect(a.e.levelQueue(TICKER, 0, 5000).map((q) => [q.userId, q.remaining])).toEqual([['alice', 200], ['maker', 400]]);
    expect(seen(a.e)).toEqual(seen(b.e));
    expect(visible(rp.events)).toEqual(visible(ro.events));
    // the next order and its fills get the ids the order path gives
    const next = (e: Engine) => ok(e, { type: 'createOrder', nowMs: T0 + 6, userId: 'bob', ticker: TICKER, side: 'ask', priceTicks: 5000, countCenti: 50 });
    expect(next(a.e)).toEqual(next(b.e));
    expect(seen(a.e)).toEqual(seen(b.e));
    expectClean(a.e);
  });

  it('keeps no order or fill record for the taker, nor fills, order, position or balance events for the quiet account', () => {
    const { e } = book();
    const orders = e.listOrders({ userId: 'maker' }).length;
    const r = ok(e, print('ask', 5000, 600));
    expect(e.listOrders({ userId: 'taker' })).toEqual([]);
    expect(e.getFills('taker')).toEqual([]);
    expect(e.getFills('maker')).toEqual([]);
    expect(e.listOrders({ userId: 'maker' }).length).toBe(orders);
    const users = r.events.flatMap((x) => (x.type === 'order' ? [x.order.user_id] : x.type === 'fill' ? [x.fill.user_id] : x.type === 'position' ? [x.position.user_id] : x.type === 'balance' ? [x.balance.user_id] : []));
    expect(new Set(users)).toEqual(new Set(['alice']));
    expect(r.events.map((x) => x.type)).toEqual(['book', 'trade', 'book', 'trade', 'fill', 'order', 'position', 'balance']);
    // the replay's positions still move (open interest is what the order path makes)
    expect(e.getPositions('maker')[0]!.position).toBe(500);
    expect(e.getMarket(TICKER)!.open_interest).toBe(600);
    expectClean(e);
  });

  it('prints through its price: a better bid is met first, as by an order', () => {
    const a = book();
    const b = book();
    for (const e of [a.e, b.e]) place(e, 'alice', 'bid', 5100, 100);
    const rp = ok(a.e, print('ask', 4900, 1500));
    const ro = b.e.apply(ioc('ask', 4900, 1500));
    // newest first
    expect(a.e.getFills('alice').map((f) => [f.count, f.yes_price])).toEqual([[300, 5000], [100, 5100]]);
    expect(rp.count).toBe(1500);
    expect(seen(a.e)).toEqual(seen(b.e));
    expect(visible(rp.events)).toEqual(visible(ro.events));
    expectClean(a.e);
  });

  it('hits the NO bids for a taker bid, and trades nothing on an empty side (a print still takes its order number)', () => {
    const a = book();
    const b = book();
    // bob's ask at 0.53 is a NO bid at 0.47: a YES buyer at 0.55 takes it
    const rp = ok(a.e, print('bid', 5500, 300));
    const ro = b.e.apply(ioc('bid', 5500, 300));
    expect(rp.count).toBe(200);
    expect(a.e.getFills('bob').map((f) => [f.count, f.yes_price, f.is_taker])).toEqual([[200, 5300, false]]);
    expect(seen(a.e)).toEqual(seen(b.e));
    expect(visible(rp.events)).toEqual(visible(ro.events));
    const none = ok(a.e, print('bid', 5500, 100, T0 + 6));
    b.e.apply(ioc('bid', 5500, 100, T0 + 6));
    expect(none).toMatchObject({ count: 0, trades: 0, mutated: true });
    expect(place(a.e, 'bob', 'bid', 4000, 100).order_id).toBe(place(b.e, 'bob', 'bid', 4000, 100).order_id);
    expectClean(a.e);
  });

  it('refuses bad input with a clear error and changes nothing', () => {
    const { e } = book();
    const before = JSON.stringify(e.toSnapshot());
    const bad: [Partial<Record<string, unknown>>, RegExp][] = [
      [{ userId: '' }, /user id/],
      [{ userId: 'nobody' }, /not found/],
      [{ quietUserId: 'nobody' }, /not found/],
      [{ quietUserId: 7 }, /quietUserId/],
      [{ quietUserId: 'taker' }, /another account/],
      [{ side: 'sell' }, /side/],
      [{ priceTicks: 0 }, /price/],
      [{ priceTicks: 10_000 }, /price/],
      [{ countCenti: 0 }, /count/],
      [{ countCenti: 1.5 }, /count/],
      [{ ticker: 'NOPE' }, /not found/],
    ];
    for (const [patch, message] of bad) {
      const r = e.apply({ ...print('ask', 5000, 100), ...patch } as Command);
      expect(r.ok).toBe(false);
      expect(r.mutated).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
    ok(e, { type: 'pauseMarket', nowMs: T0, ticker: TICKER });
    const paused = JSON.stringify(e.toSnapshot());
    expect(e.apply(print('ask', 5000, 100))).toMatchObject({ ok: false, mutated: false });
    expect(JSON.stringify(e.toSnapshot())).toBe(paused);
    expect(paused).not.toBe(before);
  });
});
