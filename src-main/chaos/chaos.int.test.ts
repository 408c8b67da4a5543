// The quick chaos run inside npm test (npm run chaos is the full one): real processes, a fault
// proxy in the middle, kill -9 of the exchange and of the web host, a rate-limit storm; the
// referee compares what the terminal shows with what the exchange holds. The referee itself is
// shown to catch a lost order and a wrong book, so a green run means something.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare, settle, startWorld, until, type World } from './world';
import { rateLimitStorm, tradeThroughFaults } from './run';
import { hostKillScenario } from './host-kill';
import { killUnderFire } from './kill-under-fire';

const seed = Number(process.env.CHAOS_SEED ?? 20261126);
let world: World;
// the world's log (kills, the terminal's errors, what settle waits on), kept for a failure's story
const t0 = Date.now();
const said: string[] = [];
const log = (m: string) => {
  said.push(`+${((Date.now() - t0) / 1000).toFixed(1)} s ${m.slice(0, 300)}`);
  if (said.length > 400) said.shift();
};
/** a verdict's problems, with the connection and the log's last lines: what a failure prints */
const story = (v: { problems: string[]; settleMs?: number }) =>
  [
    `the referee found ${v.problems.length} problem(s)${v.settleMs !== undefined ? ` after settling ${v.settleMs} ms` : ''}:`,
    ...v.problems.slice(0, 8),
    `the terminal's stream: ${world.screen.connection ? `${world.screen.connection.phase} (${world.screen.connection.detail}), ${world.screen.connection.reconnects} reconnects` : 'not reported'}`,
    'the log, last lines:',
    ...said.slice(-12),
  ].join('\n');

beforeAll(async () => {
  world = await startWorld({ dataDir: mkdtempSync(path.join(tmpdir(), 'chaos-test-')), seed, faults: null, log });
}, 120_000);
afterAll(async () => {
  await world?.close();
});

describe(`chaos (seed ${seed})`, () => {
  it('trading through drops, delays, reorders and cuts: the terminal ends equal to the exchange, nothing duplicated or lost', async () => {
    const r = await tradeThroughFaults(world, { seed, durationMs: 15_000 });
    expect(r.verdict.problems, story(r.verdict)).toEqual([]);
    expect(r.trader.acked).toBeGreaterThan(30);
    expect(r.proxy.cut + r.proxy.refused + r.proxy.blackholed).toBeGreaterThan(3);
    expect(r.trader.tooManyRequests).toBe(0);
  }, 150_000);

  it('kill -9 of the exchange during an order burst: the terminal reconnects by itself and shows every acknowledged order', async () => {
    const r = await tradeThroughFaults(world, { seed: seed + 1, durationMs: 13_000, killEveryMs: 5_000, faults: { refuse: 0, cut: 0, cutWithinMs: 0, blackhole: 0, blackholeMs: 0, delayMs: 20, cutOneEveryMs: 0 } });
    expect(r.exchangeRestarts).toBeGreaterThanOrEqual(1);
    expect(r.verdict.problems, story(r.verdict)).toEqual([]);
    expect(r.trader.acked).toBeGreaterThan(20);
  }, 150_000);

  it('a rate-limit storm of 200 calls: all answered, no 429 reaches the trader', async () => {
    const r = await rateLimitStorm(world, 200);
    // each failure with its story (the storm's last answer, this process's stalls, the exchange's
    // direct answers, undici's trace of what got no answer), a clause a line for the summary
    expect(r.otherErrors, r.otherErrors.join('\n').replaceAll('; ', ';\n')).toEqual([]);
    expect(r.tooManyRequests).toBe(0);
    expect(r.ok).toBe(200);
  }, 120_000);

  it('concurrent orders while the kill switch engages: nothing created or filled after it answers, nothing rests', async () => {
    const r = await killUnderFire(world, { seed, orders: 40 });
    expect(r.problems).toEqual([]);
    expect(r.stoppedByKillSwitch).toBeGreaterThan(0);
    expect(r.verdict.problems, story(r.verdict)).toEqual([]);
  }, 150_000);

  it("an order create on the wire lands after the kill switch's cancel-all: the switch answers once it is answered and canceled, so nothing rests when it answers", async () => {
    const ticker = world.markets[0]!;
    // the create waits 1.5 s on the wire; the cancel-all (another connection) goes through at once
    world.proxy.setFaults({ refuse: 0, cut: 0, cutWithinMs: 0, blackhole: 0, blackholeMs: 0, delayMs: 0, cutOneEveryMs: 0, hold: { startsWith: 'POST /trade-api/v2/portfolio/events/orders ', ms: 1500 } });
    const held = world.proxy.stats.held;
    const t0 = Date.now();
    try {
      const place = world.call<{ order_id: string }>('placeOrder', { ticker, side: 'bid', price: '0.02', count: '1', time_in_force: 'good_till_canceled', origin: 'api', confirmed: true });
      await until('the create on the wire', () => world.proxy.stats.held > held);
      const engaged = await world.call<{ killSwitch: { engaged: boolean } }>('engageKillSwitch');
      // when it answers, the order that was on the wire has landed and been canceled
      const atAnswer = (await world.referee.getOrders({ query: { ticker, min_ts: Math.floor(t0 / 1000) - 1, limit: 1000 } })).orders
        .filter((o) => Date.parse(String(o.created_time)) >= t0 - 5)
        .map((o) => `${o.order_id} ${o.status}`);
      const placed = await place;
      expect(engaged.ok && engaged.value.killSwitch.engaged).toBe(true);
      expect(placed.ok).toBe(true);
      expect(atAnswer).toEqual([`${placed.ok ? placed.value.order_id : '?'} canceled`]);
    } finally {
      world.proxy.setFaults(null);
      await world.call('releaseKillSwitch', { confirm: true });
    }
  }, 120_000);

  it('the referee catches a lost order and a wrong book', async () => {
    const fine = await settle(world, new Map());
    expect(fine.problems, story(fine)).toEqual([]);
    const lost = await compare(world, new Map([['not-a-client-id', 'not-an-order-id']]));
    expect(lost.problems.join('\n')).toMatch(/lost: acknowledged order not-an-order-id/);
    const t = world.markets[0]!;
    // a book the screen would show wrong
    const book = world.screen.books.get(t)!;
    world.screen.books.set(t, { ...book, yesBids: [1, 100, ...book.yesBids] });
    const wrong = await compare(world, new Map());
    expect(wrong.problems.join('\n')).toMatch(new RegExp(`book ${t}: shown`));
    world.screen.books.set(t, book);
  }, 60_000);
});

describe('chaos: the web host', () => {
  it('kill -9 mid-session: open orders, local conditional orders and the kill switch come back as they were', async () => {
    const r = await hostKillScenario(mkdtempSync(path.join(tmpdir(), 'chaos-host-')));
    expect(r.problems).toEqual([]);
    expect(r.openOrdersAfter).toBe(3);
    expect(r.localOrdersAfter).toBe(2);
    expect(r.killSwitchAfter).toBe(true);
  }, 180_000);
});
