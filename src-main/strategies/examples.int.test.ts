// The shipped examples run clean on the embedded exchange's default (lively) simulation: each one,
// started as the Strategies panel starts it (its code from getStrategies' examples, its default
// params), trades for a bounded stretch of live activity without an order refused by the gate's
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

/** How long each example is watched: long enough for the market maker to requote many times. */
const WATCH_MS = 25_000;

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

/** Runs one example for WATCH_MS, gathering every order it sent (the view keeps only the latest 200). */
async function watch(name: string): Promise<{ run: Run; orders: Map<string, Run['orders'][number]> }> {
  const all = await value<StrategiesView>('getStrategies');
  const ex = all.examples.find((e) => e.name === name);
  expect(ex, name).toBeDefined();
  const v = await value<StrategiesView>('startStrategy', { name, code: ex!.code, params: { ticker } });
  const id = v.running[v.running.length - 1]!.id;
  const orders = new Map<string, Run['orders'][number]>();
  let run!: Run;
  const end = Date.now() + WATCH_MS;
  // not a timing assertion: the window only bounds how much activity is looked at
  await until(`${name} watched for ${WATCH_MS} ms`, async () => {
    run = (await value<StrategiesView>('getStrategies')).running.find((x) => x.id === id)!;
    for (const o of run.orders) orders.set(o.id, o);
    return Date.now() >= end || run.status !== 'running';
  }, WATCH_MS + 30_000);
  await value('stopStrategy', { id });
  return { run, orders };
}

const duplicates = (orders: Map<string, Run['orders'][number]>) => [...orders.values()].filter((o) => o.status === 'refused' && /same order was sent|confirm to send/i.test(o.reason));

it('the market maker quotes and requotes on the lively simulation with no order refused as a duplicate and no fault', async () => {
  const { run, orders } = await watch('market-maker.js');
  expect(run.fault).toBeNull();
  expect(run.status).toBe('running');
  expect(duplicates(orders)).toEqual([]);
  expect(run.log.filter((l) => /confirm to send/.test(l))).toEqual([]);
  // it did quote and move its quotes (canceled ones), so the run exercised the requote path
  expect(orders.size).toBeGreaterThanOrEqual(4);
  expect([...orders.values()].filter((o) => o.status === 'canceled').length).toBeGreaterThan(0);
}, WATCH_MS + 90_000);

it('the take-profit follower runs with no order refused as a duplicate and no fault', async () => {
  const { run, orders } = await watch('take-profit-follower.js');
  expect(run.fault).toBeNull();
  expect(run.status).toBe('running');
  expect(duplicates(orders)).toEqual([]);
  expect(run.log.filter((l) => /confirm to send/.test(l))).toEqual([]);
  // it followed, and its entries (which take at once, so their fill can come before their ack)
  // are seen filled, not left pending
  expect([...orders.values()].some((o) => o.side === 'bid' && o.status === 'done')).toBe(true);
}, WATCH_MS + 90_000);
