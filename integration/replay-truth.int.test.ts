// Replay is the recording's truth (issue 38): a recorded print that empties its level is printed,
// and the replayed trades carry the recorded time, not the wall clock. Against the real exchange
// on 127.0.0.1 port 0, one row per step (where a step boundary fell between the maker's delta
// and its trade, the print found the level already emptied) and in big steps.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { openMarket } from '../test-support/exchange/trading-fixtures';
import { decodeTape } from '../src-exchange/replay/tape';
import { ExchangeReplay } from '../src-exchange/replay/exchange-replay';

const T = 'RTR-A';
const T0 = 1_764_000_000_123_456; // µs: recorded long before the test runs

let t: TestExchange | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A book, then three trades each after the maker's delta (as this exchange sends them); the last two empty their level. */
function tape() {
  const rows: [number, string, string | null, string | null, string | null][] = [
    [T0, 'snapshot', null, null, null],
    [T0, 'level', 'yes', '0.5000', '10.00'],
    [T0, 'level', 'no', '0.4800', '5.00'],
    [T0 + 1_000_111, 'delta', 'yes', '0.5000', '-4.00'],
    [T0 + 1_000_222, 'trade', 'no', '0.5000', '4.00'],
    [T0 + 2_000_333, 'delta', 'yes', '0.5000', '-6.00'],
    [T0 + 2_000_444, 'trade', 'no', '0.5000', '6.00'],
    [T0 + 3_000_555, 'delta', 'no', '0.4800', '-5.00'],
    [T0 + 3_000_666, 'trade', 'yes', '0.5200', '5.00'],
  ];
  return decodeTape({
    ts: rows.map((r) => r[0]),
    kind: rows.map((r) => r[1]),
    market: rows.map(() => T),
    side: rows.map((r) => r[2]),
    price: rows.map((r) => r[3]),
    size: rows.map((r) => r[4]),
  });
}

describe('replayed prints', () => {
  for (const chunk of [1, 65_536]) {
    it(`prints every recorded trade, those that empty their level included, at its recorded time (${chunk} row(s) per step)`, async () => {
      t = await startTestExchange();
      await openMarket(t, T, 'RTR', 'RTRS');
      const replay = await ExchangeReplay.start(t.ex.svc, tape(), { speed: 'max', chunk });
      replay.play();
      await replay.finished();
      const e = t.ex.svc.node.core.engine;
      const printed = e.getTrades({ ticker: T });
      // every print (item 3: one row per step missed the two that empty their level)
      expect(printed.map((x) => `${x.taker_side} ${x.yes_price} ${x.count}`).sort()).toEqual(['no 5000 400', 'no 5000 600', 'yes 5200 500']);
      // at its recorded time, to the millisecond (item 2: it was the wall clock)
      const trades = printed.map((x) => `${x.taker_side} ${x.yes_price} ${x.count} ${x.created_time}`).sort();
      const ms = (us: number) => Math.floor(us / 1000);
      expect(trades).toEqual(
        [`no 5000 400 ${ms(T0 + 1_000_222)}`, `no 5000 600 ${ms(T0 + 2_000_444)}`, `yes 5200 500 ${ms(T0 + 3_000_666)}`].sort(),
      );
      // and the books end as recorded: empty
      const b = e.getBook(T)!;
      expect([...b.yes, ...b.no]).toEqual([]);
      await replay.close();
    }, 60_000);
  }
});
