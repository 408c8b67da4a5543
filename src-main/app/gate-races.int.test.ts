// Races on the trust boundary, tried over the web host's socket as a compromised page would:
// many calls at once, before any is answered. Orders in flight count against the limits, the
// kill switch stops what is queued and what is about to leave, and a cancel of a full market
// fits the exchange's write bucket. The real terminal (embedded exchange as a child process,
// the same services and door) on 127.0.0.1. Calls are spread over several sockets, as several
// pages would send them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startHost, type RunningHost } from '../host/server';
import { hostClient } from '../../test-support/main/host';
import { until } from '../../test-support/main/wait';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { highestBid } from '../../test-support/main/markets';
import { entryArgs } from '../../test-support/entry';
import { doorOver, type DoorAnswer, type DoorCalls } from '../host/door-client';

let host: RunningHost;
let terminal: RunningTerminal;
let dataDir: string;
const sockets: WebSocket[] = [];
const frames: string[] = [];
const { connect } = hostClient(() => host);
let market: string;

type Result = DoorAnswer;
/** one door client per socket; the calls go round them */
const doors: DoorCalls[] = [];
let turn = 0;
const call = (method: string, ...args: unknown[]): Promise<Result> => doors[turn++ % doors.length]!.answer(method, ...args);
const value = <T,>(method: string, ...args: unknown[]): Promise<T> => doors[turn++ % doors.length]!.call<T>(method, ...args);

interface Listed {
  order_id: string;
  status: string;
  side: string;
  created_time: string;
  remaining_count_fp?: string;
}
async function ordersHere(status?: string): Promise<Listed[]> {
  const r = await value<{ orders: Listed[] }>('request', { id: 'getOrders', query: { ticker: market, limit: 1000, ...(status ? { status } : {}) } });
  return r.orders;
}
const restingCount = async () => (await ordersHere('resting')).length;

let defaults: Record<string, unknown>;
async function setLimits(over: Record<string, unknown>): Promise<void> {
  await value('saveRiskLimits', { ...defaults, ...over });
}
async function clean(): Promise<void> {
  await value('cancelAll', {}); // the exchange's own cancel-all: what the test of cancelAll by market must not lean on

  await until('nothing resting', async () => (await restingCount()) === 0);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'races-'));
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    confirmInMain: async () => true,
    emit: (s, p) => host?.broadcast(s, p),
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 11, sim: false },
  });
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startHost({ staticDir, door: terminal.door });
  for (let i = 0; i < 4; i++) {
    const ws = await connect({ token: host.token });
    ws.on('message', (d: WebSocket.RawData) => frames.push(d.toString()));
    sockets.push(ws);
    doors.push(doorOver(ws));
  }
  await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
  const markets = await value<{ markets: { ticker: string; yes_bid_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 100 } });
  market = highestBid(markets.markets).ticker;
  await value('watchMarkets', [market]);
  await until('the book', () => frames.some((f) => f.includes('"books"') && f.includes(market)));
  defaults = (await value<{ limits: Record<string, unknown> }>('getRisk')).limits;
}, 300_000); // only a hang guard: it starts an exchange and a terminal, slowly on a busy machine

// each test from a clean market, default limits and the switch released, whatever the one before left
beforeEach(async () => {
  if ((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged) await value('releaseKillSwitch', { confirm: true });
  await setLimits({});
  await clean();
}, 60_000);

afterAll(async () => {
  for (const ws of sockets) ws.close();
  await host?.close();
  await terminal?.stop();
});

/** `n` distinct bids of a few cents (whole cents), all at once. */
function bids(n: number, count = '1'): Promise<Result>[] {
  return Array.from({ length: n }, (_, i) => call('placeOrder', { ticker: market, side: 'bid', price: `0.0${1 + (i % 4)}`, count, confirmed: true, origin: 'ladder' }));
}

describe('limits count orders in flight', () => {
  it('80 concurrent orders against 50 open orders per market: 50 rest, 30 are refused naming the limit', async () => {
    const results = await Promise.all(bids(80));
    const ok = results.filter((r) => r.ok).length;
    const refused = results.filter((r): r is Extract<Result, { ok: false }> => !r.ok);
    expect(refused.every((r) => r.error.code === 'max_open_orders_market'), JSON.stringify(refused.slice(0, 3))).toBe(true);
    expect(ok).toBe(50);
    expect(await restingCount()).toBe(50);
    await clean();
  }, 120_000);

  it('8 concurrent 1,000-contract orders against a 5,000 position limit: 5,000 rest', async () => {
    const results = await Promise.all(bids(8, '1000'));
    expect(results.filter((r) => r.ok).length).toBe(5);
    expect(results.filter((r) => !r.ok && r.error.code === 'max_position').length).toBe(3);
    const resting = await ordersHere('resting');
    expect(resting.reduce((s, o) => s + Number(o.remaining_count_fp ?? 0), 0)).toBe(5000);
    await clean();
  }, 120_000);

  it('placeOrders (the batch create) gates each order against what is in flight beside it', async () => {
    const orders = Array.from({ length: 20 }, (_, i) => ({ ticker: market, side: 'bid', price: `0.0${1 + (i % 4)}`, count: '1', confirmed: true }));
    const [a, b, c] = await Promise.all([value<{ results: { ok: boolean; error?: { code: string } }[] }>('placeOrders', { orders }), value<{ results: { ok: boolean }[] }>('placeOrders', { orders }), value<{ results: { ok: boolean }[] }>('placeOrders', { orders })]);
    const all = [...a.results, ...b.results, ...c.results];
    expect(all.filter((r) => r.ok).length).toBe(50);
    expect(await restingCount()).toBe(50);
    await clean();
  }, 120_000);
});

describe('the kill switch stops what is queued', () => {
  it('with 40 orders in flight, nothing is created after it engages and nothing rests once it answered', async () => {
    const before = new Set((await ordersHere()).map((o) => o.order_id));
    const inFlight = bids(40);
    // a few answered: the rest wait in the write bucket's queue or are on their way
    await until("the first answers", async () => (await restingCount()) >= 3);
    const engaged = await value<{ killSwitch: { engaged: boolean; since: number } }>('engageKillSwitch');
    // once it answered nothing rests: a send that was on the wire and landed after the cancel-all
    // was answered, and canceled, before the switch answered
    const restingAtAnswer = await restingCount();
    const results = await Promise.all(inFlight);
    expect(restingAtAnswer).toBe(0);
    expect(engaged.killSwitch.engaged).toBe(true);
    const since = engaged.killSwitch.since;
    const stopped = results.filter((r) => !r.ok);
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped.every((r) => !r.ok && r.error.code === 'kill_switch'), JSON.stringify(stopped.slice(0, 2))).toBe(true);
    expect(since).toBeGreaterThan(0);
    // every order the exchange holds is one the gate passed before the switch: its place answered
    // with its ack; none the terminal called stopped reached the exchange (no clock: a slow machine
    // may take long to land a send that was on the wire, never to create one that was stopped)
    const acked = new Set(results.flatMap((r) => (r.ok ? [(r.value as { order_id: string }).order_id] : [])));
    const created = (await ordersHere()).filter((o) => !before.has(o.order_id)).map((o) => o.order_id);
    expect(created.filter((id) => !acked.has(id))).toEqual([]);
    expect(created.length).toBe(acked.size);
    expect(await restingCount()).toBe(0);
    expect((await value<{ killSwitch: { engaged: boolean } }>('releaseKillSwitch', { confirm: true })).killSwitch.engaged).toBe(false);
  }, 120_000);
});

describe('cancel all in a full market', () => {
  it('cancels 80 resting orders in one market without a 429 (the batches fit the write bucket)', async () => {
    await setLimits({ maxOpenOrdersPerMarket: 100 });
    const placed = await Promise.all(bids(80));
    expect(placed.filter((r) => r.ok).length).toBe(80);
    const r = await call('cancelAll', { ticker: market, origin: 'hotkey' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect((r as { value: { canceled: number } }).value.canceled).toBe(80);
    expect(await restingCount()).toBe(0);
    await setLimits({});
  }, 120_000);
});
