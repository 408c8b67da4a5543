// What the kill switch says is left after its sweep: each resting order once, in its own subaccount.
import { describe, expect, it } from 'vitest';
import { restingBySubaccount } from './trading-kill-switch';

describe("the kill switch's count of what is left", () => {
  it('counts an order the key holds and its reader also read once, each in the subaccount its row names', () => {
    // a subtrader key (no subaccount of its own): its reader reads the whole account, its own orders too
    const mine = [
      { order_id: 'a' }, // names no subaccount: the key's
      { order_id: 'b', subaccount: 2 }, // the stream's spelling
      { order_id: 'c', subaccount_number: 3 }, // REST's
    ];
    const others = [{ order_id: 'b', subaccount_number: 2 }, { order_id: 'c', subaccount_number: 3 }, { order_id: 'd', subaccount_number: 3 }, { order_id: 'e' }];
    expect([...restingBySubaccount(mine, others, null)].sort()).toEqual([
      [0, 2],
      [2, 1],
      [3, 2],
    ]);
  });

  it("puts a row of the key's own that names no subaccount in the key's subaccount", () => {
    expect([...restingBySubaccount([{ order_id: 'a' }, { order_id: 'b', subaccount_number: 4 }], [{ order_id: 'z', subaccount_number: 0 }], 4)].sort()).toEqual([
      [0, 1],
      [4, 2],
    ]);
  });
});
