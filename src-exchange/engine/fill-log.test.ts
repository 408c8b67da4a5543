// An account's fills in columns give back exactly what was pushed: the engine's own fills from
// the columns, anything else whole, in order, across growth and pruning.
import { describe, expect, it } from 'vitest';
import { FillLog } from './fill-log';
import { makeId } from './ids';
import type { FillView } from './types';

const SEED = 42;
const fill = (n: number, over: Partial<FillView> = {}): FillView => ({
  fill_id: makeId('fill', n, SEED),
  trade_id: makeId('trade', 1000 + n, SEED),
  order_id: makeId('order', 7 + (n % 5), SEED),
  client_order_id: n % 3 ? `c-${n}` : '',
  user_id: 'u1',
  subaccount: n % 4,
  ticker: n % 2 ? 'M' : 'N',
  side: n % 2 ? 'yes' : 'no',
  book_side: n % 3 ? 'bid' : 'ask',
  action: 'buy',
  yes_price: 100 + n,
  no_price: 9_900 - n,
  count: 100 * n,
  is_taker: n % 2 === 0,
  fee: 10_000 * n,
  ts: 1_700_000_000_000 + n,
  post_position: n % 2 ? 100 * n : -100 * n,
  exchange_index: 0,
  ...over,
});

describe('FillLog', () => {
  it('gives back every fill exactly, field order included, across growth; reads fields in place', () => {
    const log = new FillLog('u1', SEED);
    const pushed: FillView[] = [];
    for (let n = 1; n <= 100; n++) {
      const f = fill(n);
      pushed.push(f);
      if (n % 2) log.add(n, 1000 + n, f);
      else log.push(f);
    }
    expect(log.length).toBe(100);
    expect(JSON.stringify(log.toArray())).toBe(JSON.stringify(pushed));
    expect(log.get(41)).not.toBe(log.get(41)); // a fresh object each time
    expect([log.idAt(99), log.tsAt(3), log.subaccountAt(6), log.tickerAt(7), log.orderIdAt(8)]).toEqual([
      pushed[99]!.fill_id,
      pushed[3]!.ts,
      pushed[6]!.subaccount,
      pushed[7]!.ticker,
      pushed[8]!.order_id,
    ]);
    expect(JSON.stringify(FillLog.from('u1', SEED, pushed).toArray())).toBe(JSON.stringify(pushed));
  });

  it('keeps whole a fill the columns cannot hold exactly', () => {
    const odd: FillView[] = [
      fill(1, { fill_id: 'not-our-id' }),
      fill(2, { trade_id: makeId('trade', 2, SEED + 1) }), // another seed's id
      fill(3, { user_id: 'someone-else' }),
      fill(4, { yes_price: 0.5 }),
      fill(5, { fee: 2 ** 60 }),
      fill(6, { subaccount: 300 }),
      { ...fill(7), extra: 'kept' } as FillView,
      (({ ts, ...rest }) => ({ ts, ...rest }))(fill(8)) as FillView, // fields in another order
      fill(9, { side: 'maybe' as 'yes' }),
      fill(10, { exchange_index: 1 as 0 }),
    ];
    const log = FillLog.from('u1', SEED, odd);
    expect(JSON.stringify(log.toArray())).toBe(JSON.stringify(odd));
    expect([log.idAt(0), log.tsAt(7), log.tickerAt(2), log.subaccountAt(5)]).toEqual(['not-our-id', odd[7]!.ts, odd[2]!.ticker, 300]);
    // the engine's fast path still checks what it cannot take on trust
    const fast = new FillLog('u1', SEED);
    fast.add(11, 1011, fill(11, { user_id: 'other' }));
    expect(fast.get(0).user_id).toBe('other');
  });

  it('retain keeps the fills asked for, in order, odd ones too, and says how many went', () => {
    const all = [fill(1), fill(2, { fill_id: 'odd-2' }), fill(3), fill(4), fill(5, { fill_id: 'odd-5' }), fill(6)];
    const log = FillLog.from('u1', SEED, all);
    expect(log.retain((i) => log.tsAt(i) >= all[2]!.ts)).toBe(2);
    expect(JSON.stringify(log.toArray())).toBe(JSON.stringify(all.slice(2)));
    expect(log.retain(() => true)).toBe(0);
    log.push(fill(7));
    expect(log.idAt(4)).toBe(fill(7).fill_id);
    expect(log.length).toBe(5);
  });
});
