import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import type { LocalOrderSpec } from '../../src-shared/ipc/tools';
import { clampPrice, LocalOrderEngine, LocalRuleError, MAX_DONE_LOCAL, type LocalAction, type Quote } from './engine';

const D = (s: string) => new Decimal(s);
const CENT = D('0.01');
const q = (last: string | null, bid: string | null = null, ask: string | null = null): Quote => ({ last: last ? D(last) : null, bid: bid ? D(bid) : null, ask: ask ? D(ask) : null });

function engine() {
  let n = 0;
  return new LocalOrderEngine(() => `L${++n}`, () => 1_000);
}

const stopSell = (trigger: string, extra: Partial<LocalOrderSpec> = {}): LocalOrderSpec =>
  ({ kind: 'stop', ticker: 'KX', side: 'ask', count: '10', trigger, source: 'last', limit: { kind: 'through', ticks: 2 }, ...extra }) as LocalOrderSpec;

const sends = (a: LocalAction[]) => a.filter((x) => x.type === 'send');

describe('local order triggers', () => {
  it('a sell stop fires when the last trade gaps through the trigger, sending N ticks through the bid', () => {
    const e = engine();
    const [o] = e.add([stopSell('0.45')], false, CENT, q('0.50', '0.49', '0.51'));
    expect(e.observe('KX', q('0.47', '0.46', '0.48'))).toEqual([]);
    const a = e.observe('KX', q('0.40', '0.39', '0.41'));
    expect(sends(a)).toHaveLength(1);
    expect(sends(a)[0]).toMatchObject({ side: 'ask', ticker: 'KX' });
    expect((sends(a)[0] as { price: Decimal }).price.toFixed(2)).toBe('0.37');
    expect(e.need(o!.id).state).toBe('triggered');
    // fires once: the next quote beyond the trigger sends nothing more
    expect(e.observe('KX', q('0.38', '0.37', '0.39'))).toEqual([]);
  });

  it('fires exactly at the trigger, and a buy stop fires upward', () => {
    const e = engine();
    e.add([stopSell('0.45')], false, CENT, q('0.50'));
    expect(sends(e.observe('KX', q('0.45')))).toHaveLength(1);
    const b = engine();
    b.add([stopSell('0.55', { side: 'bid' })], false, CENT, q('0.50'));
    expect(b.observe('KX', q('0.54'))).toEqual([]);
    expect(sends(b.observe('KX', q('0.55', null, '0.56')))[0]).toMatchObject({ side: 'bid' });
  });

  it('refuses a trigger that is already reached, or off the price step', () => {
    const e = engine();
    expect(() => e.add([stopSell('0.45')], false, CENT, q('0.44'))).toThrow(LocalRuleError);
    expect(() => e.add([stopSell('0.455')], false, CENT, q('0.50'))).toThrow(/price step/);
    expect(e.orders.size).toBe(0);
  });

  it('watches the chosen source: a bid-triggered stop ignores the last trade', () => {
    const e = engine();
    e.add([stopSell('0.45', { source: 'bid' })], false, CENT, q('0.50', '0.49', '0.51'));
    expect(e.observe('KX', q('0.40', '0.46', '0.47'))).toEqual([]);
    expect(sends(e.observe('KX', q('0.40', '0.45', '0.47')))).toHaveLength(1);
  });

  it('a set limit price is sent as set', () => {
    const e = engine();
    e.add([stopSell('0.45', { limit: { kind: 'price', price: '0.44' } })], false, CENT, q('0.50'));
    expect((sends(e.observe('KX', q('0.30')))[0] as { price: Decimal }).price.toFixed(2)).toBe('0.44');
  });

  it('a trailing stop follows the best price and fires on the pull-back', () => {
    const e = engine();
    const [o] = e.add([{ kind: 'trailing_stop', ticker: 'KX', side: 'ask', count: '5', trailTicks: 3, source: 'last', limit: { kind: 'through', ticks: 0 } }], false, CENT, q('0.50'));
    expect(e.need(o!.id).trigger!.toFixed(2)).toBe('0.47');
    e.observe('KX', q('0.60'));
    expect(e.need(o!.id).trigger!.toFixed(2)).toBe('0.57');
    expect(e.observe('KX', q('0.58'))).toEqual([]); // below the best, above the trigger: it does not move down
    expect(e.need(o!.id).trigger!.toFixed(2)).toBe('0.57');
    expect(sends(e.observe('KX', q('0.57')))).toHaveLength(1);
  });

  it('OCO: when one fires the other is canceled and sends nothing', () => {
    const e = engine();
    const [tp, sl] = e.add(
      [
        { kind: 'take_profit', ticker: 'KX', side: 'ask', count: '10', trigger: '0.60', source: 'last', limit: { kind: 'price', price: '0.60' } },
        stopSell('0.40'),
      ],
      true,
      CENT,
      q('0.50'),
    );
    expect(sends(e.observe('KX', q('0.61')))).toHaveLength(1);
    expect(e.need(tp!.id).state).toBe('triggered');
    expect(e.need(sl!.id).state).toBe('canceled');
    expect(e.observe('KX', q('0.30'))).toEqual([]);
  });

  it('a cancel that races a trigger cancels the order that was on its way', () => {
    const e = engine();
    const [o] = e.add([stopSell('0.45')], false, CENT, q('0.50'));
    expect(sends(e.observe('KX', q('0.44')))).toHaveLength(1);
    expect(e.cancel(o!.id)).toEqual([]); // the send is in flight
    const after = e.sent(o!.id, 'ORD-1');
    expect(after).toEqual([expect.objectContaining({ type: 'cancel_order', orderId: 'ORD-1' })]);
    expect(e.need(o!.id).state).toBe('canceled');
  });

  it('a cancel before the trigger means it never fires', () => {
    const e = engine();
    const [o] = e.add([stopSell('0.45')], false, CENT, q('0.50'));
    e.cancel(o!.id);
    expect(e.observe('KX', q('0.30'))).toEqual([]);
  });

  it('a bracket follows partial fills of its entry, and the target filling in full cancels the stop', () => {
    const e = engine();
    const { target, stop } = e.addBracket({ ticker: 'KX', side: 'bid', price: D('0.50'), entryOrderId: 'E', targetTicks: 5, stopTicks: 5, stopThroughTicks: 1, stopSource: 'last', tick: CENT, subaccount: undefined });
    expect(target.trigger!.toFixed(2)).toBe('0.55');
    expect(stop.trigger!.toFixed(2)).toBe('0.45');
    // no fill: the stop does not fire whatever the price
    expect(e.observe('KX', q('0.40'))).toEqual([]);
    const f1 = e.onFill('E', D('3'));
    expect(f1.targets).toEqual([{ id: target.id, count: D('3'), price: D('0.55') }]);
    expect(e.need(stop.id)).toMatchObject({ state: 'armed' });
    expect(e.need(stop.id).count.toString()).toBe('3');
    e.sent(target.id, 'T1');
    e.onFill('E', D('2'));
    e.sent(target.id, 'T2');
    expect(e.need(stop.id).count.toString()).toBe('5');
    e.onFill('T1', D('3'));
    expect(e.need(stop.id).count.toString()).toBe('2');
    expect(e.need(stop.id).state).toBe('armed');
    e.onFill('T2', D('2'));
    expect(e.need(stop.id).state).toBe('canceled');
    expect(e.need(target.id).state).toBe('filled');
  });

  it("a bracket's stop firing cancels the target orders and the rest of the entry", () => {
    const e = engine();
    const { target, stop } = e.addBracket({ ticker: 'KX', side: 'bid', price: D('0.50'), entryOrderId: 'E', targetTicks: 5, stopTicks: 5, stopThroughTicks: 1, stopSource: 'last', tick: CENT, subaccount: undefined });
    e.onFill('E', D('4'));
    e.sent(target.id, 'T1');
    const a = e.observe('KX', q('0.45', '0.44', '0.46'));
    expect(sends(a)[0]).toMatchObject({ id: stop.id, side: 'ask' });
    expect((sends(a)[0] as { count: Decimal }).count.toString()).toBe('4');
    expect(a.filter((x) => x.type === 'cancel_order').map((x) => (x as { orderId: string }).orderId).sort()).toEqual(['E', 'T1']);
    expect(e.need(target.id).state).toBe('canceled');
  });

  it('after a restart an armed order waits for the choice, and a trigger passed meanwhile never fires without consent', () => {
    const a = engine();
    const [o] = a.add([stopSell('0.45')], false, CENT, q('0.50'));
    const saved = [...a.orders.values()].map((x) => ({ ...x }));
    const b = engine();
    b.restore(saved);
    expect(b.awaitingChoice).toBe(true);
    expect(b.observe('KX', q('0.40'))).toEqual([]); // held: nothing fires before the choice
    b.resume(true);
    expect(b.observe('KX', q('0.40'))).toEqual([]);
    expect(b.need(o!.id).state).toBe('missed');
    const fired = b.fireMissed(o!.id, q('0.40', '0.39', '0.41'));
    expect(sends(fired)).toHaveLength(1);
  });

  it('restored and kept: a trigger not yet reached fires normally later', () => {
    const a = engine();
    const [o] = a.add([stopSell('0.45')], false, CENT, q('0.50'));
    const b = engine();
    b.restore([...a.orders.values()].map((x) => ({ ...x })));
    b.resume(true);
    expect(b.observe('KX', q('0.48'))).toEqual([]);
    expect(sends(b.observe('KX', q('0.45')))).toHaveLength(1);
    expect(b.need(o!.id).state).toBe('triggered');
  });

  it('restored and disarmed: nothing fires', () => {
    const a = engine();
    a.add([stopSell('0.45')], false, CENT, q('0.50'));
    const b = engine();
    b.restore([...a.orders.values()].map((x) => ({ ...x })));
    b.resume(false);
    expect(b.observe('KX', q('0.30'))).toEqual([]);
    expect([...b.orders.values()][0]!.state).toBe('disarmed');
  });

  it('an order that was being sent when the terminal stopped is not sent again', () => {
    const a = engine();
    a.add([stopSell('0.45')], false, CENT, q('0.50'));
    a.observe('KX', q('0.40'));
    const b = engine();
    b.restore([...a.orders.values()].map((x) => ({ ...x })));
    expect([...b.orders.values()][0]!.state).toBe('failed');
    b.resume(true);
    expect(b.observe('KX', q('0.30'))).toEqual([]);
  });

  it('moving a trigger: onto the step, not already reached', () => {
    const e = engine();
    const [o] = e.add([stopSell('0.45')], false, CENT, q('0.50'));
    e.move(o!.id, D('0.43'), q('0.50'));
    expect(e.observe('KX', q('0.44'))).toEqual([]);
    expect(() => e.move(o!.id, D('0.52'), q('0.50'))).toThrow(/already reached/);
    expect(() => e.move(o!.id, D('0.425'), q('0.50'))).toThrow(/step/);
  });

  it('clamps a sent price onto the grid inside (0, 1), never further through than asked', () => {
    expect(clampPrice(D('-0.02'), CENT, 'ask').toFixed(2)).toBe('0.01');
    expect(clampPrice(D('1.03'), CENT, 'bid').toFixed(2)).toBe('0.99');
    expect(clampPrice(D('0.4567'), CENT, 'bid').toFixed(2)).toBe('0.45');
    expect(clampPrice(D('0.4567'), CENT, 'ask').toFixed(2)).toBe('0.46');
  });
});

describe('limits', () => {
  it('refuses more waiting local orders than the cap, and counts only those that can still fire', () => {
    let n = 0;
    const e = new LocalOrderEngine(() => `L${++n}`, () => 1_000, 3);
    e.add([stopSell('0.45')], false, CENT, q('0.50'));
    e.add([stopSell('0.44'), stopSell('0.43')], true, CENT, q('0.50'));
    expect(() => e.add([stopSell('0.42')], false, CENT, q('0.50'))).toThrow(/at most 3 local orders/);
    e.cancel('L1');
    expect(e.add([stopSell('0.42')], false, CENT, q('0.50'))).toHaveLength(1);
  });
});

describe('the kill switch holds local orders (issue 34)', () => {
  const trailing = (): LocalOrderSpec => ({ kind: 'trailing_stop', ticker: 'KX', side: 'ask', count: '5', trailTicks: 1, source: 'last', limit: { kind: 'through', ticks: 0 } });

  it('engaged: armed stops, take-profits and trailing stops are held and never fire, whatever the market does', () => {
    const e = engine();
    e.add([stopSell('0.45')], false, CENT, q('0.50'));
    e.add([{ ...stopSell('0.60'), kind: 'take_profit' } as LocalOrderSpec], false, CENT, q('0.50'));
    e.add([trailing()], false, CENT, q('0.50'));
    expect(e.holdForKill()).toEqual({ stop: 1, take_profit: 1, trailing_stop: 1 });
    expect([...e.orders.values()].map((o) => o.state)).toEqual(['kill_held', 'kill_held', 'kill_held']);
    expect(e.observe('KX', q('0.40'))).toEqual([]);
    expect(e.observe('KX', q('0.65'))).toEqual([]);
    expect(e.killHeld()).toEqual({ stop: 1, take_profit: 1, trailing_stop: 1 });
    // engaged again: nothing more to hold
    expect(e.holdForKill()).toEqual({});
  });

  it('released: the kinds the trader chose watch again (a trigger passed meanwhile asks), the rest are disarmed', () => {
    const e = engine();
    const [stop] = e.add([stopSell('0.45')], false, CENT, q('0.50'));
    const [trail] = e.add([trailing()], false, CENT, q('0.50'));
    e.holdForKill();
    e.observe('KX', q('0.44'));
    expect(e.releaseKillHeld(new Set(['stop']))).toEqual({ rearmed: 1, disarmed: 1 });
    expect(e.need(trail!.id).state).toBe('disarmed');
    expect(e.need(stop!.id).state).toBe('armed');
    // its trigger was passed while it was held: marked missed, not sent
    expect(e.observe('KX', q('0.44'))).toEqual([]);
    expect(e.need(stop!.id).state).toBe('missed');
  });
});

describe("a trailing stop's detail", () => {
  it('follows its trigger as the best price moves, at the market tick', () => {
    const e = engine();
    const [o] = e.add([{ kind: 'trailing_stop', ticker: 'KX', side: 'ask', count: '5', trailTicks: 1, source: 'last', limit: { kind: 'through', ticks: 0 } }], false, CENT, q('0.50'));
    expect(e.need(o!.id).detail).toContain('falls to 0.49');
    e.observe('KX', q('0.51'));
    expect(e.need(o!.id).trigger?.toFixed(2)).toBe('0.50');
    expect(e.need(o!.id).detail).toContain('falls to 0.50');
    expect(e.need(o!.id).detail).not.toContain('0.49');
  });
});

describe('the finished local orders kept', () => {
  it(`keeps every order that can fire and the newest ${MAX_DONE_LOCAL} finished ones, however many a session finishes`, () => {
    let n = 0;
    let t = 1_000;
    const e = new LocalOrderEngine(() => `L${++n}`, () => t);
    const [armed] = e.add([stopSell('0.10')], false, CENT, q('0.50'));
    for (let i = 0; i < MAX_DONE_LOCAL + 150; i++) {
      t += 1;
      const [o] = e.add([stopSell('0.40')], false, CENT, q('0.50'));
      e.cancel(o!.id);
      e.prune(t);
    }
    const states = [...e.orders.values()].map((o) => o.state);
    expect(states.filter((s) => s === 'canceled')).toHaveLength(MAX_DONE_LOCAL);
    expect(e.need(armed!.id).state).toBe('armed');
    expect(e.orders.has(`L${n}`)).toBe(true);
    expect(e.orders.has('L2')).toBe(false);
  });
});
