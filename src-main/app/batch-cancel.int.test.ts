// A multi-cancel (the blotter's selection, the ladder's "cancel my bids") of 80 resting orders,
// through the page's socket as the renderer sends it: one batchCancel call. A batch cancel costs
// 2 tokens an order, so one batch of 80 (160 tokens) is more than the write bucket holds (100 at
// the Basic tier) and the exchange refuses it whole; main splits it into batches the bucket can
// take and reports each. The real terminal (embedded exchange as a child process) on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import type { BatchCancelResult } from '../../src-shared/ipc/batch-cancel';
import { entryArgs } from '../../test-support/entry';
import { doorOver, type DoorAnswer, type DoorCalls } from '../host/door-client';

let host: RunningHost;
let terminal: RunningTerminal;
let ws: WebSocket;
const frames: string[] = [];
const { connect } = hostClient(() => host);
let market: string;

type Result = DoorAnswer;
let door: DoorCalls;
const call = (method: string, ...args: unknown[]): Promise<Result> => door.answer(method, ...args);
const value = <T,>(method: string, ...args: unknown[]): Promise<T> => door.call<T>(method, ...args);
async function resting(): Promise<{ order_id: string }[]> {
  return (await value<{ orders: { order_id: string }[] }>('request', { id: 'getOrders', query: { ticker: market, limit: 1000, status: 'resting' } })).orders;
}
/** 80 bids of a few cents, 40 at a time (a socket takes 64 calls in flight), as the ladder would place them */
async function place80(): Promise<string[]> {
  const bid = (i: number) => call('placeOrder', { ticker: market, side: 'bid', price: `0.0${1 + (i % 4)}`, count: '1', confirmed: true, origin: 'ladder' });
  const placed: Result[] = [];
  for (let wave = 0; wave < 2; wave++) placed.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => bid(i)))));
  expect(placed.filter((r) => r.ok).length, JSON.stringify(placed.filter((r) => !r.ok).slice(0, 2))).toBe(80);
  const ids = (await resting()).map((o) => o.order_id);
  expect(ids).toHaveLength(80);
  return ids;
}

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'batch-cancel-'));
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
  ws = await connect({ token: host.token });
  door = doorOver(ws);
  ws.on('message', (d: WebSocket.RawData) => frames.push(d.toString()));
  await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
  const markets = await value<{ markets: { ticker: string; yes_bid_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 100 } });
  market = highestBid(markets.markets).ticker;
  await value('watchMarkets', [market]);
  const limits = (await value<{ limits: Record<string, unknown> }>('getRisk')).limits;
  await value('saveRiskLimits', { ...limits, maxOpenOrdersPerMarket: 100 });
}, 300_000); // only a hang guard: it starts an exchange and a terminal, slowly on a busy machine

afterAll(async () => {
  ws?.close();
  await host?.close();
  await terminal?.stop();
});

describe('a multi-cancel of 80 orders (blotter selection, ladder "cancel my bids")', () => {
  it('cancels all 80 with one batchCancel call, in batches the write bucket can take, and reports each batch', async () => {
    const ids = await place80();
    const r = await call('batchCancel', { orders: ids.map((order_id) => ({ order_id, ticker: market })), origin: 'blotter' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const v = (r as { value: BatchCancelResult }).value;
    expect(v.of).toBe(80);
    expect(v.canceled).toBe(80);
    expect(v.failed).toEqual([]);
    // 160 tokens do not fit a bucket of 100: more than one batch, each within it (2 tokens an order)
    expect(v.batches.length).toBeGreaterThan(1);
    for (const b of v.batches) expect(b.of * 2).toBeLessThanOrEqual(100);
    expect(v.batches.reduce((n, b) => n + b.canceled, 0)).toBe(80);
    expect(await resting()).toEqual([]);
    // the journal says what was canceled
    const audit = await value<{ action: string; summary?: string; result?: string }[]>('getAuditLog', {});
    expect(JSON.stringify(audit.filter((e) => e.action === 'batch_cancel'))).toMatch(/80 of 80 orders canceled \(\d+ batches\)/);
  }, 120_000);

  it('says which orders failed and why, batch by batch, and cancels the rest', async () => {
    const ids = await place80();
    // ten of them are gone before the multi-cancel reaches them
    const gone = ids.slice(0, 10);
    for (const order_id of gone) await value('cancelOrder', { order_id, ticker: market });
    const r = await call('batchCancel', { orders: ids.map((order_id) => ({ order_id, ticker: market })), origin: 'ladder' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const v = (r as { value: BatchCancelResult }).value;
    expect(v.canceled).toBe(70);
    expect(v.failed.map((f) => f.order_id).sort()).toEqual([...gone].sort());
    expect(v.failed.every((f) => f.code === 'not_found' && f.message.length > 0)).toBe(true);
    expect(v.batches[0]!.failed).toHaveLength(10);
    expect(v.batches.slice(1).every((b) => b.failed.length === 0 && b.canceled === b.of)).toBe(true);
    expect(await resting()).toEqual([]);
  }, 120_000);
});
