import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { AlertEngine, summarize, type MarketQuote } from './engine';

const D = (s: string) => new Decimal(s);
const q = (last: string | null, bid: string | null = null, ask: string | null = null): MarketQuote => ({ last: last ? D(last) : null, bid: bid ? D(bid) : null, ask: ask ? D(ask) : null });

function engine(clock = { t: 0 }) {
  let n = 0;
  return new AlertEngine(() => `A${++n}`, () => clock.t);
}

describe('alerts', () => {
  it('fires once when the last trade crosses above a level, not again while it stays above', () => {
    const e = engine();
    e.upsert({ condition: { kind: 'price', ticker: 'KX', source: 'last', direction: 'above', level: '0.55' }, rearm: false, sound: false });
    expect(e.observe('KX', q('0.50'))).toHaveLength(0);
    const f = e.observe('KX', q('0.56'));
    expect(f).toHaveLength(1);
    expect(f[0]!.body).toContain('0.56');
    expect(e.observe('KX', q('0.57'))).toHaveLength(0);
    // without re-arm it stays fired even after going back and crossing again
    e.observe('KX', q('0.50'));
    expect(e.observe('KX', q('0.60'))).toHaveLength(0);
    expect([...e.rules.values()][0]!.state).toBe('fired');
  });

  it('a value first seen beyond the level waits for a real crossing', () => {
    const e = engine();
    e.upsert({ condition: { kind: 'price', ticker: 'KX', source: 'bid', direction: 'below', level: '0.40' }, rearm: true, sound: false });
    expect(e.observe('KX', q(null, '0.35', '0.36'))).toHaveLength(0);
    expect(e.observe('KX', q(null, '0.41', '0.42'))).toHaveLength(0);
    expect(e.observe('KX', q(null, '0.40', '0.42'))).toHaveLength(1); // exactly at the level counts
  });

  it('the boundary: a level reached exactly fires (at or beyond it, said in the rule\'s words), one tick short does not', () => {
    const e = engine();
    const below = e.upsert({ condition: { kind: 'price', ticker: 'KX', source: 'bid', direction: 'below', level: '0.66' }, rearm: false, sound: false });
    const above = e.upsert({ condition: { kind: 'price', ticker: 'KY', source: 'ask', direction: 'above', level: '0.70' }, rearm: false, sound: false });
    expect(summarize(below.condition)).toBe('KX best bid falls to 0.66 or below');
    expect(summarize(above.condition)).toBe('KY best ask rises to 0.70 or above');
    e.observe('KX', q(null, '0.67', '0.70'));
    e.observe('KY', q(null, '0.60', '0.69'));
    expect(e.observe('KX', q(null, '0.6601', '0.70'))).toHaveLength(0);
    expect(e.observe('KY', q(null, '0.60', '0.6999'))).toHaveLength(0);
    expect(e.observe('KX', q(null, '0.66', '0.70'))).toHaveLength(1);
    expect(e.observe('KY', q(null, '0.60', '0.70'))).toHaveLength(1);
  });

  it('with re-arm it fires again on the next crossing only after going back', () => {
    const clock = { t: 0 };
    const e = engine(clock);
    e.upsert({ condition: { kind: 'price', ticker: 'KX', source: 'ask', direction: 'above', level: '0.60' }, rearm: true, sound: true });
    e.observe('KX', q(null, '0.50', '0.55'));
    expect(e.observe('KX', q(null, '0.50', '0.61'))).toHaveLength(1);
    clock.t = 5_000;
    expect(e.observe('KX', q(null, '0.50', '0.62'))).toHaveLength(0);
    e.observe('KX', q(null, '0.50', '0.59'));
    const again = e.observe('KX', q(null, '0.50', '0.60'));
    expect(again).toHaveLength(1);
    expect(again[0]!.sound).toBe(true);
  });

  it('other markets and silenced rules never fire', () => {
    const e = engine();
    const r = e.upsert({ condition: { kind: 'price', ticker: 'KX', source: 'last', direction: 'above', level: '0.55' }, rearm: true, sound: false });
    e.observe('KY', q('0.50'));
    expect(e.observe('KY', q('0.60'))).toHaveLength(0);
    e.act(r.id, 'silence');
    e.observe('KX', q('0.50'));
    expect(e.observe('KX', q('0.60'))).toHaveLength(0);
  });

  it('spread wider than a value', () => {
    const e = engine();
    e.upsert({ condition: { kind: 'spread', ticker: 'KX', direction: 'wider', value: '0.05' }, rearm: true, sound: false });
    e.observe('KX', q(null, '0.50', '0.52'));
    expect(e.observe('KX', q(null, '0.50', '0.55'))).toHaveLength(0); // exactly 0.05 is not wider
    expect(e.observe('KX', q(null, '0.49', '0.55'))).toHaveLength(1);
  });

  it('volume over a window counts only the trades inside it', () => {
    const clock = { t: 100_000 };
    const e = engine(clock);
    e.upsert({ condition: { kind: 'volume', ticker: 'KX', contracts: '100', windowSec: 60 }, rearm: true, sound: false });
    e.observe('KX', q('0.5'));
    e.trade('KX', D('60'), 100_000);
    expect(e.observe('KX', q('0.5'))).toHaveLength(0);
    clock.t = 170_000;
    e.trade('KX', D('60'), 170_000); // the first trade left the window
    expect(e.observe('KX', q('0.5'))).toHaveLength(0);
    e.trade('KX', D('40'), 171_000);
    expect(e.observe('KX', q('0.5'))).toHaveLength(1);
  });

  it('lifecycle and my order events fire as they come, a cancel once per order', () => {
    const e = engine();
    e.upsert({ condition: { kind: 'lifecycle', ticker: 'KX', when: 'settled' }, rearm: false, sound: false });
    e.upsert({ condition: { kind: 'order', when: 'canceled' }, rearm: false, sound: false });
    expect(e.lifecycle('KX', 'determined')).toHaveLength(0);
    expect(e.lifecycle('KX', 'settled')).toHaveLength(1);
    expect(e.orderEvent({ ticker: 'KX', when: 'canceled', orderId: 'o1', text: 'canceled' })).toHaveLength(1);
    expect(e.orderEvent({ ticker: 'KX', when: 'canceled', orderId: 'o1', text: 'canceled' })).toHaveLength(0);
  });

  it('never spams: a burst beyond five notices in ten seconds is held back, counted and kept in the history', () => {
    const clock = { t: 0 };
    const e = engine(clock);
    e.upsert({ condition: { kind: 'order', when: 'filled' }, rearm: false, sound: false });
    const out = [];
    for (let i = 0; i < 20; i++) {
      clock.t = i * 10;
      out.push(...e.orderEvent({ ticker: 'KX', when: 'filled', orderId: `o${i}`, text: 'filled' }));
    }
    expect(out.filter((f) => f.notify)).toHaveLength(1); // one per rule per 2 s
    expect(e.takeHeldBack()).toBe(19);
    expect(e.history).toHaveLength(20);
  });
});

describe('alert limits', () => {
  it('refuses a new alert past the cap, still edits existing ones', () => {
    let n = 0;
    const e = new AlertEngine(() => `A${++n}`, () => 0, 2);
    const cond = { kind: 'price' as const, ticker: 'KX', source: 'last' as const, direction: 'above' as const, level: '0.55' };
    const a = e.upsert({ condition: cond, rearm: false, sound: false });
    e.upsert({ condition: cond, rearm: false, sound: false });
    expect(() => e.upsert({ condition: cond, rearm: false, sound: false })).toThrow(/at most 2 alerts/);
    expect(e.upsert({ id: a.id, condition: { ...cond, level: '0.60' }, rearm: true, sound: false }).rearm).toBe(true);
    expect(e.rules.size).toBe(2);
  });
});
