import { describe, expect, it } from 'vitest';
import { fillNotice } from './views';

describe('fill notices', () => {
  it('shows counts without trailing zeros and fees as dollars', () => {
    const n = fillNotice({ count_fp: '5.00', side: 'yes', market_ticker: 'KX-1', yes_price_dollars: '0.5200', fee_cost: '0.090000', is_taker: true });
    expect(n.title).toBe('Filled 5 YES KX-1');
    expect(n.body).toBe('at 0.52 · fee $0.09 · taker');
  });
  it('shows the NO price a NO buyer paid, to the tick when needed', () => {
    const n = fillNotice({ count_fp: '1.50', side: 'no', market_ticker: 'KX-2', yes_price_dollars: '0.4125', fee_cost: '0.010000', is_taker: false });
    expect(n.title).toBe('Filled 1.5 NO KX-2');
    expect(n.body).toBe('at 0.5875 · fee $0.01 · maker');
  });
  it('names no fee for a fill that leaves out fee_cost, rather than a false $0.00', () => {
    const n = fillNotice({ count_fp: '278.00', side: 'yes', market_ticker: 'HIGHNY-22DEC23-B53.5', yes_price_dollars: '0.750', is_taker: true, action: 'buy' });
    expect(n.body).toBe('at 0.75 · taker');
  });
  it("says a sell of YES in the trader's terms when main knows the order (not 'Filled 1 NO at 0.28')", () => {
    const n = fillNotice({ count_fp: '1.00', side: 'no', market_ticker: 'KX-3', yes_price_dollars: '0.7200', is_taker: true }, 'ask');
    expect(n.title).toBe('Sold 1 YES KX-3');
    expect(n.body).toBe('at 0.72 · taker');
    expect(fillNotice({ count_fp: '2.00', side: 'yes', market_ticker: 'KX-3', yes_price_dollars: '0.4100', is_taker: false }, 'bid').title).toBe('Bought 2 YES KX-3');
  });
});
