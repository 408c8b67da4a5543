// The kill switch under fire: the terminal fires a burst of concurrent orders (resting bids and
// crossing immediate-or-cancel orders) through a slow proxy, and engages the kill switch while
// most of them are queued or on the wire. The referee, straight at the exchange, counts what was
// created and filled after the switch answered (must be none), what rests once it answered
// (must be none), and the terminal must end equal to the exchange.
import { MAX_PRICE_TICKS } from '../../src-shared/money';
import { collectAll } from '../api/paginate';
import type { OrderAck } from '../../src-shared/ipc/contract';
import { mulberry32 } from '../../src-shared/random';
import { settle, until, type Verdict, type World } from './world';

type Row = Record<string, unknown>;
const dollars = (ticks: number) => (ticks / MAX_PRICE_TICKS).toFixed(2);

export interface KillUnderFireReport {
  scenario: string;
  orders: number;
  acked: number;
  stoppedByKillSwitch: number;
  otherRefusals: Record<string, number>;
  /** engageKillSwitch's answer, ms */
  engageMs: number;
  /** created at the exchange after `since` (sends already on the wire land a moment later) */
  createdAfterSince: number;
  /** created or filled at the exchange after engageKillSwitch answered: must be 0 */
  createdAfterAnswer: number;
  fillsAfterAnswer: number;
  /** resting at the exchange once it answered: must be 0 */
  restingAfterAnswer: number;
  problems: string[];
  verdict: Verdict & { settleMs: number };
}

export async function killUnderFire(world: World, opts: { seed: number; orders?: number }): Promise<KillUnderFireReport> {
  const rnd = mulberry32(opts.seed);
  const n = opts.orders ?? 60;
  const problems: string[] = [];
  const must = async <T,>(method: string, ...args: unknown[]): Promise<T> => {
    const r = await world.call<T>(method, ...args);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value;
  };
  // a slow pipe: answers late, so many sends are on their way or queued when the switch engages
  world.proxy.setFaults({ refuse: 0, cut: 0, cutWithinMs: 0, blackhole: 0, blackholeMs: 0, delayMs: 60, cutOneEveryMs: 0 });
  const startSec = Math.floor(Date.now() / 1000) - 1;
  const calls = Array.from({ length: n }, (_, i) => {
    const ticker = world.markets[i % world.markets.length]!;
    const book = world.screen.books.get(ticker);
    const ioc = rnd() < 0.3;
    const side = rnd() < 0.5 ? 'bid' : 'ask';
    const bestBid = book?.yesBids[0] ?? 4500;
    const bestAsk = book?.yesAsks[0] ?? 5500;
    // resting: a few cents away from the touch; IOC: at the touch of the other side (trades when there is one)
    const ticks = ioc ? (side === 'bid' ? bestAsk : bestBid) : side === 'bid' ? Math.max(100, bestBid - 100 * (1 + (i % 5))) : Math.min(9900, bestAsk + 100 * (1 + (i % 5)));
    return world.call<OrderAck>('placeOrder', { ticker, side, price: dollars(ticks), count: String(1 + (i % 3)), time_in_force: ioc ? 'immediate_or_cancel' : 'good_till_canceled', origin: 'api', confirmed: true });
  });
  // engage once the first few are answered: the rest are queued for tokens or on the wire
  let answered = 0;
  for (const c of calls) void c.then(() => (answered += 1));
  await until('the first answers', () => answered >= 3, 30_000);
  const t0 = performance.now();
  const view = await must<{ killSwitch: { engaged: boolean; since: number } }>('engageKillSwitch');
  const engageMs = Math.round(performance.now() - t0);
  const answeredAt = Date.now();
  const results = await Promise.all(calls);

  const mine = (await collectAll(world.referee, 'getOrders', { query: { min_ts: startSec, limit: 1000 } })) as Row[];
  const created = (o: Row) => Date.parse(String(o.created_time));
  // the exchange stamps in whole milliseconds on the same clock: 5 ms of slack for the rounding
  const createdAfterSince = mine.filter((o) => created(o) > view.killSwitch.since).length;
  const createdAfterAnswer = mine.filter((o) => created(o) > answeredAt + 5).length;
  const fills = (await world.referee.getFills({ query: { min_ts: startSec, limit: 1000 } })).fills as Row[];
  const fillsAfterAnswer = fills.filter((f) => Number(f.ts_ms ?? Number(f.ts) * 1000) > answeredAt + 5).length;
  const restingAfterAnswer = (await world.referee.getOrders({ query: { status: 'resting', limit: 1000 } })).orders.length;
  if (createdAfterAnswer) problems.push(`${createdAfterAnswer} order(s) created after the kill switch answered`);
  if (fillsAfterAnswer) problems.push(`${fillsAfterAnswer} fill(s) after the kill switch answered`);
  if (restingAfterAnswer) problems.push(`${restingAfterAnswer} order(s) resting once the kill switch answered`);
  if (!view.killSwitch.engaged) problems.push('the kill switch did not engage');

  const refusals: Record<string, number> = {};
  let stopped = 0;
  for (const r of results) {
    if (r.ok) continue;
    const code = r.error.code ?? r.error.kind;
    if (code === 'kill_switch') stopped += 1;
    else refusals[code] = (refusals[code] ?? 0) + 1;
  }
  const acked = new Map(results.flatMap((r) => (r.ok ? [[r.value.client_order_id, r.value.order_id] as [string, string]] : [])));
  world.proxy.setFaults(null);
  await must('releaseKillSwitch', { confirm: true });
  const verdict = await settle(world, acked);
  return {
    scenario: 'concurrent orders while the kill switch engages',
    orders: n,
    acked: acked.size,
    stoppedByKillSwitch: stopped,
    otherRefusals: refusals,
    engageMs,
    createdAfterSince,
    createdAfterAnswer,
    fillsAfterAnswer,
    restingAfterAnswer,
    problems,
    verdict,
  };
}
