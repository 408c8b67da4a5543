// Today's P&L from fills and the book: cash moved minus fees plus today's net contracts marked
// where they could be closed; NO trades are opposite YES trades; the day rolls at UTC midnight.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { DailyPnl } from './pnl';
import { fillLegOf } from './rows';
import type { BookTop } from './gate';

const D = (s: string) => new Decimal(s);
const NOON = Date.UTC(2026, 10, 25, 12);
const book = (bid: string | null, ask: string | null): ((t: string) => BookTop | undefined) => () => ({ stale: false, yesBid: bid ? D(bid) : null, yesAsk: ask ? D(ask) : null });
const fill = (o: Record<string, unknown>) => {
  const f = fillLegOf({ trade_id: `t${Math.random()}`, order_id: 'o', market_ticker: 'KX', count_fp: '10.00', yes_price_dollars: '0.5000', fee_cost: '0.02', ts: NOON / 1000, ...o });
  if (!f) throw new Error('unreadable fill');
  return f;
};

describe('daily P&L', () => {
  it('marks a long YES bought today at the best bid, less fees', () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ side: 'yes', action: 'buy' }), NOON);
    // paid 5.00, worth 10 x 0.45 = 4.50, fee 0.02
    expect(p.value(NOON, book('0.45', '0.47')).toFixed(2)).toBe('-0.52');
  });

  it('reads a NO buy as a YES sale and marks the short at the best ask', () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ side: 'no', action: 'buy', fee_cost: '0' }), NOON); // sold 10 YES at 0.50
    expect(p.value(NOON, book('0.45', '0.60')).toFixed(2)).toBe('-1.00'); // buy back at 0.60
  });

  it('counts a fill once whether it arrives live (trade_id) or again in a reconcile (REST, with its fill_id too)', () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ trade_id: 't1', side: 'yes', action: 'buy' }), NOON);
    p.add(fill({ trade_id: 't1', fill_id: 'f-rest-1', ticker: 'KX', side: 'yes', action: 'buy' }), NOON);
    expect(p.value(NOON, book('0.45', '0.47')).toFixed(2)).toBe('-0.52');
  });

  it('a round trip is realized: cash in minus cash out, whatever the book', () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ side: 'yes', action: 'buy', fee_cost: '0.01' }), NOON);
    p.add(fill({ side: 'yes', action: 'sell', yes_price_dollars: '0.5300', fee_cost: '0.01' }), NOON);
    expect(p.value(NOON, () => undefined).toFixed(2)).toBe('0.28');
  });

  it('without a book the open part is valued at its own price: only the realized part counts', () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ side: 'yes', action: 'buy', fee_cost: '0' }), NOON);
    p.add(fill({ side: 'yes', action: 'sell', count_fp: '4.00', yes_price_dollars: '0.6000', fee_cost: '0' }), NOON);
    // 4 sold 0.10 above the 0.50 paid: +0.40 realized; 6 open at cost
    expect(p.value(NOON, () => undefined).toFixed(2)).toBe('0.40');
  });

  it('counts a fill once, ignores yesterday, and starts over after midnight UTC', () => {
    const p = new DailyPnl(NOON);
    const f = fill({ side: 'yes', action: 'buy', fee_cost: '1' });
    p.add(f, NOON);
    p.add(f, NOON);
    p.add(fill({ side: 'yes', action: 'buy', fee_cost: '1', ts: NOON / 1000 - 86_400 }), NOON);
    expect(p.value(NOON, book('0.5', '0.52')).toFixed(2)).toBe('-1.00');
    expect(p.value(NOON + 12 * 3_600_000 + 1, book('0.5', '0.52')).toFixed(2)).toBe('0.00');
  });

  it("a market's result marks today's contracts there at 1 (YES) or 0 (NO), whatever its book", () => {
    const p = new DailyPnl(NOON);
    p.add(fill({ side: 'yes', action: 'buy', fee_cost: '0.02' }), NOON); // 10 YES at 0.50
    p.add(fill({ market_ticker: 'KY', side: 'no', action: 'buy', fee_cost: '0.02' }), NOON); // short 10 YES at 0.50
    p.settle('KX', D('1'), NOON + 1_000, NOON + 1_000);
    p.settle('KY', D('1'), NOON + 1_000, NOON + 1_000);
    // KX: paid 5.00, worth 10.00 (+5.00); KY: received 5.00, owes 10.00 (-5.00); fees 0.04
    expect(p.value(NOON + 2_000, book('0.10', '0.20')).toFixed(2)).toBe('-0.04');
    // a result from yesterday does not mark today's contracts
    const q = new DailyPnl(NOON);
    q.add(fill({ side: 'yes', action: 'buy', fee_cost: '0' }), NOON);
    q.settle('KX', D('0'), NOON - 86_400_000, NOON);
    expect(q.value(NOON, book('0.45', '0.47')).toFixed(2)).toBe('-0.50');
  });
});
