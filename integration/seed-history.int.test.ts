// The seeded catalog's history on a new embedded exchange: what the seed accounts made stays
// (the public tape and its candles, the markets' volume and open interest, the accounts'
// positions and resting quotes), their own finished orders and fills do not (no API key can ever
// read them; kept, they were 4.4 MB of the 7.3 MB snapshot every start read again).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { seedAccountIds } from '../src-exchange/sim/catalog-seed-plan';
import type { EngineSnapshot } from '../src-exchange/engine/snapshot';

const SEED = 7;
let t: TestExchange;
const state = (): EngineSnapshot => t.ex.svc.node.core.engine.toSnapshot();
const { maker, taker } = seedAccountIds(SEED);
const seedAccounts = new Set([maker, taker]);

beforeAll(async () => {
  t = await startTestExchange({ seed: SEED });
});
afterAll(async () => {
  await t?.close();
});

describe('the seeded history of a new exchange', () => {
  it("keeps no finished order and no fill of the seed accounts, and keeps their resting quotes and positions", () => {
    const s = state();
    const theirs = s.orders.filter((o) => seedAccounts.has(o.user_id));
    expect(theirs.length).toBeGreaterThan(100); // three levels a side on every open market
    expect(theirs.filter((o) => o.status !== 'resting')).toEqual([]);
    const accounts = s.accounts.filter((a) => seedAccounts.has(a.user_id));
    expect(accounts).toHaveLength(2);
    for (const a of accounts) {
      expect(a.fills).toEqual([]);
      expect(a.client_orders.length).toBe(a.orders.length);
      expect(new Set(a.orders)).toEqual(new Set(theirs.filter((o) => o.user_id === a.user_id).map((o) => o.order_id)));
      const held = a.subs.flatMap((sub) => sub?.positions ?? []).filter((p) => p.position !== 0);
      expect(held.length).toBeGreaterThan(0);
    }
  });

  it('keeps the public tape: every market traded by the seed shows its trades, their sum is its volume, and candles come from them', async () => {
    const s = state();
    const tape = new Map(s.trades);
    const traded = s.markets.filter((m) => m.volume > 0);
    expect(traded.length).toBeGreaterThan(50);
    for (const m of traded) {
      const trades = tape.get(m.ticker) ?? [];
      expect(trades.reduce((sum, x) => sum + x.count, 0), m.ticker).toBe(m.volume);
    }
    expect([...tape.values()].reduce((n, list) => n + list.length, 0)).toBeGreaterThan(1000);
    // on REST, an open market's trades before the historical cutoff are on the historical route
    const busy = traded.find((m) => m.status === 'open' && (tape.get(m.ticker)?.length ?? 0) >= 5)!;
    const live = await t.publicClient().getTrades({ query: { ticker: busy.ticker, limit: 1000 } });
    const old = await t.publicClient().getHistoricalTrades({ query: { ticker: busy.ticker, limit: 1000 } });
    expect(live.trades.length + old.trades.length).toBe(tape.get(busy.ticker)!.length);
    const first = Math.floor(Math.min(...tape.get(busy.ticker)!.map((x) => x.created_time)) / 1000);
    const candles = await t.publicClient().getMarketCandlesticks({
      params: { series_ticker: busy.ticker.split('-')[0]!, ticker: busy.ticker },
      query: { start_ts: first - 3600, end_ts: Math.floor(Date.now() / 1000), period_interval: 1440 },
    });
    expect(candles.candlesticks.some((c) => c.volume_fp !== '0.00' && c.volume_fp !== undefined)).toBe(true);
  });

  it('writes a first snapshot of about a megabyte, and a restart from it gives the same state', async () => {
    const dir = path.join(t.dataDir, 'journal');
    const snaps = readdirSync(dir).filter((f) => f.endsWith('.snap'));
    expect(snaps.length).toBeGreaterThan(0);
    for (const f of snaps) expect(statSync(path.join(dir, f)).size).toBeLessThan(2 * 2 ** 20);
    const before = JSON.stringify(state());
    await t.restart();
    expect(JSON.stringify(state())).toBe(before);
  });
});
