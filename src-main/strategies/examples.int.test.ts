// The shipped examples run clean on the embedded exchange's default (lively) simulation: each one,
// started as the Strategies panel starts it (its code from getStrategies' examples, its default
// params), trades through a bounded amount of live activity (so many orders, requotes, fills: a
// count, not a clock, so a slow machine only takes longer) without an order refused by the gate's
// duplicate check ("confirm to send it again") and without a fault. The market maker must also
// actually quote (and requote) in that time, or the check says nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimTerminal, type SimTerminal } from '../../test-support/main/sim-terminal';
import { until } from '../../test-support/main/wait';
import type { StrategiesView } from '../../src-shared/ipc/contract';

let sim: SimTerminal;
let ticker: string;
const value = <T,>(method: string, ...args: unknown[]) => sim.value<T>(method, ...args);
type Run = StrategiesView['running'][number];

/** A hang guard only: the examples are watched until they have done enough (see each test). */
const HANG_GUARD_MS = 120_000;
type Orders = Map<string, Run['orders'][number]>;
const count = (orders: Orders, f: (o: Run['orders'][number]) => boolean) => [...orders.values()].filter(f).length;

beforeAll(async () => {
  sim = await startSimTerminal('strat-examples-', 21);
  // the busiest listed market: the examples are given it as the trader would (params.ticker)
  const r = await value<{ markets: { ticker: string; volume_fp?: string; yes_bid_dollars?: string; yes_ask_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 50 } });
  const twoSided = r.markets.filter((m) => Number(m.yes_bid_dollars ?? 0) > 0 && Number(m.yes_ask_dollars ?? 0) > 0);
  ticker = twoSided.reduce((a, b) => (Number(b.volume_fp ?? 0) > Number(a.volume_fp ?? 0) ? b : a)).ticker;
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

/**
 * Runs one example until `enough` holds of every order it sent (the view keeps only the latest
 * 200, so they are gathered as they come), it faults or stops, or an order is refused as a
 * duplicate (the failure itself: no need to watch on).
 */
async function watch(name: string, what: string, enough: (orders: Orders) => boolean): Promise<{ run: Run; orders: Orders }> {
  const all = await value<StrategiesView>('getStrategies');
  const ex = all.examples.find((e) => e.name === name);
  expect(ex, name).toBeDefined();
  const v = await value<StrategiesView>('startStrategy', { name, code: ex!.code, params: { ticker } });
  const id = v.running[v.running.length - 1]!.id;
  const orders: Orders = new Map();
  let run!: Run;
  await until(`${name}: ${what}`, async () => {
    run = (await value<StrategiesView>('getStrategies')).running.find((x) => x.id === id)!;
    for (const o of run.orders) orders.set(o.id, o);
    return enough(orders) || run.status !== 'running' || duplicates(orders).length > 0;
  });
  await value('stopStrategy', { id });
  return { run, orders };
}

const duplicates = (orders: Orders) => [...orders.values()].filter((o) => o.status === 'refused' && /same order was sent|confirm to send/i.test(o.reason));

it('the market maker quotes and requotes on the lively simulation with no order refused as a duplicate and no fault', async () => {
  // 40 orders, 10 of them requotes: a run that resent a quote inside the gate's window did so
  // within its first 25 orders (when its hold was taken out, on this simulation)
  const { run, orders } = await watch('market-maker.js', '40 orders sent, 10 canceled', (o) => o.size >= 40 && count(o, (x) => x.status === 'canceled') >= 10);
  expect(run.fault).toBeNull();
  expect(run.status).toBe('running');
  expect(duplicates(orders)).toEqual([]);
  expect(run.log.filter((l) => /confirm to send/.test(l))).toEqual([]);
  // it did quote and move its quotes (canceled ones), so the run exercised the requote path
  expect(orders.size).toBeGreaterThanOrEqual(4);
  expect([...orders.values()].filter((o) => o.status === 'canceled').length).toBeGreaterThan(0);
}, HANG_GUARD_MS);

it('the take-profit follower runs with no order refused as a duplicate and no fault', async () => {
  // three entries filled and two exits (a take-profit or a stop) filled: it followed, held and got out
  const { run, orders } = await watch('take-profit-follower.js', '3 entries and 2 exits filled', (o) => count(o, (x) => x.side === 'bid' && x.status === 'done') >= 3 && count(o, (x) => x.side === 'ask' && x.status === 'done') >= 2);
  expect(run.fault).toBeNull();
  expect(run.status).toBe('running');
  expect(duplicates(orders)).toEqual([]);
  expect(run.log.filter((l) => /confirm to send/.test(l))).toEqual([]);
  // it followed, and its entries (which take at once, so their fill can come before their ack)
  // are seen filled, not left pending
  expect([...orders.values()].some((o) => o.side === 'bid' && o.status === 'done')).toBe(true);
}, HANG_GUARD_MS);
