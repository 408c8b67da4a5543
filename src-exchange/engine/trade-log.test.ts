// The trade tape in columns gives back exactly what was pushed: the engine's own trades from the
// columns, anything else whole, in order, across growth.
import { describe, expect, it } from 'vitest';
import { makeId } from './ids';
import { TradeLog } from './trade-log';
import type { TradeView } from './types';

const SEED = 42;
const trade = (n: number, over: Partial<TradeView> = {}): TradeView => ({
  trade_id: makeId('trade', n, SEED),
  ticker: 'M',
  taker_side: n % 2 ? 'yes' : 'no',
  taker_book_side: n % 2 ? 'bid' : 'ask',
  yes_price: 100 + n,
  no_price: 9_900 - n,
  count: 100 * n,
  created_time: 1_700_000_000_000 + n,
  is_block_trade: n % 3 === 0,
  ...over,
});

describe('TradeLog', () => {
  it('gives back every trade exactly, field order included, across growth', () => {
    const log = new TradeLog('M', SEED);
    const pushed: TradeView[] = [];
    for (let n = 1; n <= 100; n++) {
      const t = trade(n);
      pushed.push(t);
      if (n % 2) log.add(n, t);
      else log.push(t);
    }
    expect(log.length).toBe(100);
    expect(JSON.stringify(log.toArray())).toBe(JSON.stringify(pushed));
    expect(log.get(41)).not.toBe(log.get(41)); // a fresh object each time
    expect(log.idAt(99)).toBe(pushed[99]!.trade_id);
    expect(log.timeAt(0)).toBe(pushed[0]!.created_time);
    expect(JSON.stringify(TradeLog.from('M', SEED, pushed).toArray())).toBe(JSON.stringify(pushed));
  });

  it('keeps whole a trade the columns cannot hold exactly', () => {
    const odd: TradeView[] = [
      trade(1, { trade_id: 'not-our-id' }),
      trade(2, { trade_id: makeId('trade', 2, SEED + 1) }), // another seed's id
      trade(3, { ticker: 'OTHER' }),
      trade(4, { yes_price: 0.5 }),
      trade(5, { count: 2 ** 60 }),
      { ...trade(6), extra: 'kept' } as TradeView,
      (({ created_time, ...rest }) => ({ created_time, ...rest }))(trade(7)), // fields in another order
      trade(8, { taker_side: 'maybe' as 'yes' }),
    ];
    const log = TradeLog.from('M', SEED, odd);
    expect(JSON.stringify(log.toArray())).toBe(JSON.stringify(odd));
    expect(log.idAt(0)).toBe('not-our-id');
    // the engine's fast path still checks what it cannot take on trust
    const fast = new TradeLog('M', SEED);
    fast.add(9, trade(9, { ticker: 'OTHER' }));
    expect(fast.get(0).ticker).toBe('OTHER');
  });
});
