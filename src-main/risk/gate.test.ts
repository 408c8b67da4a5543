// Every limit of the risk gate at its edge: exactly at the limit passes, one tick, contract or
// cent past it refuses, naming the limit, the value and the order.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../../src-shared/ipc/risk';
import { checkOrder, loosenedLimits, recentOf, reducesExposure, type BookTop, type OrderIntent, type RestingOrder, type RiskState } from './gate';

const D = (s: string) => new Decimal(s);
const T = 'KX-1';

function state(over: Partial<RiskState> & { top?: BookTop | null; positions?: Record<string, string> } = {}): RiskState {
  const top = over.top === undefined ? { stale: false, yesBid: D('0.50'), yesAsk: D('0.52') } : over.top;
  return {
    now: 1_000_000,
    killSwitch: false,
    book: (t) => (t === T && top ? top : undefined),
    position: (t) => D(over.positions?.[t] ?? '0'),
    resting: [],
    dailyPnl: D('0'),
    recent: [],
    ...over,
  };
}

const intent = (o: Partial<OrderIntent> = {}): OrderIntent => ({ action: 'place', ticker: T, side: 'bid', price: D('0.51'), count: D('10'), confirmed: true, ...o });
const limits = (o: Partial<RiskLimits> = {}): RiskLimits => ({ ...DEFAULT_RISK_LIMITS, ...o });

function refusal(v: ReturnType<typeof checkOrder>) {
  if (v.ok) throw new Error('expected a refusal');
  return v;
}

describe('risk gate', () => {
  it('passes an ordinary order', () => {
    expect(checkOrder(intent(), limits(), state())).toEqual({ ok: true });
  });

  it('max contracts per order: at the limit passes, 0.01 over refuses and names limit, value and order', () => {
    const l = limits({ maxOrderContracts: '100', maxOrderCost: '1000000', confirmAboveCost: '1000000', confirmAboveContracts: '100000' });
    expect(checkOrder(intent({ count: D('100') }), l, state()).ok).toBe(true);
    const r = refusal(checkOrder(intent({ count: D('100.01') }), l, state()));
    expect(r.code).toBe('max_order_contracts');
    expect(r.message).toBe('max contracts per order: 100.01 > 100 (buy 100.01 YES KX-1 @ 0.51)');
  });

  it('the default refuses a 100,000-contract fat finger', () => {
    const r = refusal(checkOrder(intent({ count: D('100000') }), limits(), state()));
    expect(r.code).toBe('max_order_contracts');
    expect(r.message).toContain('100000 > 1000');
  });

  it('max cost per order counts what the side buys: price for a bid, 1 - price for an ask', () => {
    const l = limits({ maxOrderCost: '51', maxOrderContracts: '100000' });
    expect(checkOrder(intent({ count: D('100') }), l, state())).toEqual({ ok: true }); // 100 x 0.51 = 51.00
    expect(refusal(checkOrder(intent({ count: D('100.01') }), l, state())).code).toBe('max_order_cost');
    // an ask at 0.51 costs 0.49 a contract: 104 x 0.49 = 50.96 passes, 105 x 0.49 = 51.45 refuses
    expect(checkOrder(intent({ side: 'ask', count: D('104') }), l, state()).ok).toBe(true);
    const r = refusal(checkOrder(intent({ side: 'ask', count: D('105') }), l, state()));
    expect(r.message).toContain('$51.45 > $51.00');
  });

  it('price collar: exactly the collar through the best ask passes, one tick more refuses', () => {
    const l = limits({ priceCollar: '0.10' });
    expect(checkOrder(intent({ price: D('0.62') }), l, state()).ok).toBe(true);
    const r = refusal(checkOrder(intent({ price: D('0.6201') }), l, state()));
    expect(r.code).toBe('price_collar');
    expect(r.message).toContain('0.6201 is more than 0.10 through the best ask 0.52');
    expect(checkOrder(intent({ side: 'ask', price: D('0.40') }), l, state()).ok).toBe(true);
    expect(refusal(checkOrder(intent({ side: 'ask', price: D('0.3999') }), l, state())).code).toBe('price_collar');
  });

  it('has no collar against an empty opposite side', () => {
    expect(checkOrder(intent({ price: D('0.99') }), limits(), state({ top: { stale: false, yesBid: D('0.5'), yesAsk: null } })).ok).toBe(true);
  });

  it('refuses any order while the book is stale or missing, but not an off-book RFQ quote', () => {
    expect(refusal(checkOrder(intent(), limits(), state({ top: { stale: true, yesBid: D('0.5'), yesAsk: D('0.52') } }))).code).toBe('stale_book');
    expect(refusal(checkOrder(intent(), limits(), state({ top: null }))).code).toBe('no_book');
    expect(checkOrder(intent({ offBook: true, price: D('0.95') }), limits(), state({ top: null })).ok).toBe(true);
  });

  it('max position counts the position and resting orders on the same side', () => {
    const l = limits({ maxPositionContracts: '100' });
    const resting: RestingOrder[] = [{ orderId: 'o1', ticker: T, side: 'bid', price: D('0.5'), remaining: D('30') }];
    expect(checkOrder(intent({ count: D('20') }), l, state({ positions: { [T]: '50' }, resting })).ok).toBe(true); // 50 + 30 + 20 = 100
    const r = refusal(checkOrder(intent({ count: D('20.01') }), l, state({ positions: { [T]: '50' }, resting })));
    expect(r.code).toBe('max_position');
    // a short (NO) position counts the other way
    expect(refusal(checkOrder(intent({ side: 'ask', count: D('51') }), l, state({ positions: { [T]: '-50' } }))).code).toBe('max_position');
  });

  it('an order that only reduces the position passes the position and daily-loss limits', () => {
    const l = limits({ maxPositionContracts: '10', maxDailyLoss: '100' });
    const s = state({ positions: { [T]: '500' }, dailyPnl: D('-5000') });
    expect(checkOrder(intent({ side: 'ask', count: D('500') }), l, s).ok).toBe(true);
    // one hundredth past flat is new exposure: the daily loss stops it
    expect(refusal(checkOrder(intent({ side: 'ask', count: D('500.01') }), l, s)).code).toBe('max_daily_loss');
    expect(reducesExposure('bid', D('5'), D('-5'))).toBe(true);
    expect(reducesExposure('bid', D('6'), D('-5'))).toBe(false);
  });

  it('max loss per day: a loss exactly at the limit still trades, a cent past it only reduces', () => {
    const l = limits({ maxDailyLoss: '250' });
    expect(checkOrder(intent(), l, state({ dailyPnl: D('-250') })).ok).toBe(true);
    const r = refusal(checkOrder(intent(), l, state({ dailyPnl: D('-250.01') })));
    expect(r.code).toBe('max_daily_loss');
    expect(r.message).toContain('$250.01 lost today > $250.00');
  });

  it('max open orders in total and per market', () => {
    const rest = (n: number, ticker = T): RestingOrder[] => Array.from({ length: n }, (_, k) => ({ orderId: `o${ticker}${k}`, ticker, side: 'ask', price: D('0.9'), remaining: D('1') }));
    const l = limits({ maxOpenOrders: 5, maxOpenOrdersPerMarket: 3 });
    expect(checkOrder(intent(), l, state({ resting: rest(2) })).ok).toBe(true);
    expect(refusal(checkOrder(intent(), l, state({ resting: rest(3) }))).code).toBe('max_open_orders_market');
    expect(checkOrder(intent(), l, state({ resting: [...rest(2), ...rest(2, 'KX-2')] })).ok).toBe(true);
    expect(refusal(checkOrder(intent(), l, state({ resting: [...rest(2), ...rest(3, 'KX-2')] }))).code).toBe('max_open_orders');
  });

  it('duplicate guard: the same order within the window needs a confirmation, after it does not', () => {
    const l = limits({ duplicateWindowMs: 500 });
    const first = intent({ confirmed: false });
    const s = (now: number) => state({ now, recent: [recentOf(first, 1_000_000)] });
    const r = refusal(checkOrder(first, l, s(1_000_500)));
    expect(r.code).toBe('duplicate');
    expect(r.confirmable).toBe(true);
    expect(checkOrder(first, l, s(1_000_501)).ok).toBe(true);
    expect(checkOrder({ ...first, confirmed: true }, l, s(1_000_100)).ok).toBe(true);
    expect(checkOrder({ ...first, count: D('11') }, l, s(1_000_100)).ok).toBe(true);
  });

  it('confirm threshold: above it main refuses until the trader confirms', () => {
    const l = limits({ confirmAboveContracts: '50', confirmAboveCost: '20' });
    expect(checkOrder(intent({ confirmed: false, count: D('39') }), l, state()).ok).toBe(true); // 39 x 0.51 = 19.89
    expect(refusal(checkOrder(intent({ confirmed: false, count: D('40') }), l, state())).code).toBe('confirm_required'); // $20.40
    expect(refusal(checkOrder(intent({ confirmed: false, count: D('51'), price: D('0.01') }), l, state())).message).toContain('51 contracts > 50');
    expect(checkOrder(intent({ confirmed: true, count: D('51') }), l, state()).ok).toBe(true);
  });

  it('kill switch refuses every new order, but an amend that shrinks passes', () => {
    const s = state({ killSwitch: true });
    expect(refusal(checkOrder(intent(), limits(), s)).code).toBe('kill_switch');
    const previous = { side: 'bid' as const, price: D('0.51'), count: D('10') };
    expect(checkOrder(intent({ action: 'amend', count: D('5'), previous }), limits(), s).ok).toBe(true);
    expect(refusal(checkOrder(intent({ action: 'amend', count: D('11'), previous }), limits(), s)).code).toBe('kill_switch');
    expect(refusal(checkOrder(intent({ action: 'amend', price: D('0.52'), previous }), limits(), s)).code).toBe('kill_switch');
  });

  it('an amend is gated on what it adds: a larger count or a more aggressive price', () => {
    const l = limits({ maxPositionContracts: '15' });
    const resting: RestingOrder[] = [{ orderId: 'o1', ticker: T, side: 'bid', price: D('0.51'), remaining: D('10') }];
    const previous = { side: 'bid' as const, price: D('0.51'), count: D('10') };
    // the 10 already rest; going to 15 adds 5: 10 + 5 = 15 passes, 16 refuses
    expect(checkOrder(intent({ action: 'amend', count: D('15'), previous }), l, state({ resting })).ok).toBe(true);
    expect(refusal(checkOrder(intent({ action: 'amend', count: D('16'), previous }), l, state({ resting }))).code).toBe('max_position');
    expect(refusal(checkOrder(intent({ action: 'amend', price: D('0.70'), previous }), l, state({ resting }))).code).toBe('price_collar');
  });

  it('refuses a zero count or a price outside (0, 1)', () => {
    expect(refusal(checkOrder(intent({ count: D('0') }), limits(), state())).code).toBe('invalid_order');
    expect(refusal(checkOrder(intent({ price: D('1') }), limits(), state())).code).toBe('invalid_order');
  });
});

describe('loosenedLimits', () => {
  it('names each limit that lets more through, and nothing for a tighter or equal set', () => {
    expect(loosenedLimits(DEFAULT_RISK_LIMITS, DEFAULT_RISK_LIMITS)).toEqual([]);
    expect(loosenedLimits(DEFAULT_RISK_LIMITS, { ...DEFAULT_RISK_LIMITS, maxOrderContracts: '999', priceCollar: '0.05', duplicateWindowMs: 900 })).toEqual([]);
    expect(loosenedLimits(DEFAULT_RISK_LIMITS, { ...DEFAULT_RISK_LIMITS, maxOrderCost: '5000.01', duplicateWindowMs: 100, maxOpenOrders: 201 })).toEqual([
      'maxOrderCost 5000 -> 5000.01',
      'maxOpenOrders 200 -> 201',
      'duplicateWindowMs 500 -> 100',
    ]);
    // decimal, not text: '1000.00' is the same limit as '1000'
    expect(loosenedLimits(DEFAULT_RISK_LIMITS, { ...DEFAULT_RISK_LIMITS, maxOrderContracts: '1000.00' })).toEqual([]);
  });

  it('counts what is reserved (passed, not yet answered): open orders, per market, and the position on its side', () => {
    const l = limits({ maxOpenOrdersPerMarket: 2, maxOpenOrders: 3, maxPositionContracts: '100' });
    const r = (count: string, opensOrder = true, side: 'bid' | 'ask' = 'bid', ticker = T) => ({ ticker, side, count: D(count), opensOrder });
    expect(checkOrder(intent(), l, state({ reserved: [r('1')] })).ok).toBe(true);
    expect(refusal(checkOrder(intent(), l, state({ reserved: [r('1'), r('1')] }))).code).toBe('max_open_orders_market');
    expect(refusal(checkOrder(intent({ ticker: T }), l, state({ reserved: [r('1', true, 'bid', 'KX-2'), r('1', true, 'bid', 'KX-3'), r('1', true, 'bid', 'KX-4')] }))).code).toBe('max_open_orders');
    // a filled part waiting for the position (not an open order) still counts toward the position
    expect(refusal(checkOrder(intent({ count: D('10') }), l, state({ reserved: [r('95', false)] }))).code).toBe('max_position');
    expect(checkOrder(intent({ count: D('10') }), l, state({ reserved: [r('95', false, 'ask')] })).ok).toBe(true);
  });

  it('orders that each reduce the position do not together go past it: what rests and is reserved on that side counts', () => {
    const l = limits({ maxPositionContracts: '100' });
    // long 100: one ask of 100 reduces; with 100 already reserved on the ask side the next one adds
    expect(checkOrder(intent({ side: 'ask', count: D('100') }), l, state({ positions: { [T]: '100' } })).ok).toBe(true);
    const v = checkOrder(intent({ side: 'ask', count: D('100') }), l, state({ positions: { [T]: '100' }, reserved: [{ ticker: T, side: 'ask', count: D('100'), opensOrder: true }] }));
    expect(v.ok).toBe(true); // to -100: at the limit
    const w = refusal(checkOrder(intent({ side: 'ask', count: D('101') }), l, state({ positions: { [T]: '100' }, reserved: [{ ticker: T, side: 'ask', count: D('100'), opensOrder: true }] })));
    expect(w.code).toBe('max_position');
  });
});
