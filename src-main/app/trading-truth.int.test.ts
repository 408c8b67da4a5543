// The real terminal (embedded exchange as a child process, the same services and door):
// - today's P&L follows the marks: it buys one contract; another account then raises the best
//   bid, which marks the long higher. A 'risk' push carries the new figure by itself (no risk
//   event: no limit change, no kill switch), equal to what main answers for it.
// - only prices the market takes: on a tapered market (KXBTC: tenths of a cent only in the tails)
//   an order or an amend at 0.115 is refused by main before anything is sent, naming 0.11 and 0.12.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { until } from '../../test-support/main/wait';
import { createApiClient } from '../api/client';
import { Decimal } from '../../src-shared/money';
import type { RiskView } from '../../src-shared/ipc/contract';
import { entryArgs } from '../../test-support/entry';

let terminal: RunningTerminal;
let dataDir: string;
const pushes: RiskView[] = [];

async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = (await terminal.door(method, args)) as { ok: true; value: unknown } | { ok: false; error: { message: string } };
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'pnl-push-'));
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    confirmInMain: async () => true,
    emit: (s, p) => {
      if (s === 'risk') pushes.push(p as RiskView);
    },
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 5, sim: false },
  });
  await until('the stream is live', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live', 30_000);
}, 120_000);

afterAll(async () => {
  await terminal?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it("pushes today's P&L again when the marks move, without a risk event", async () => {
  const listed = await value<{ markets: { ticker: string; yes_bid_dollars?: string; yes_ask_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 100 } });
  const D = (s: string | undefined) => new Decimal(s ?? '0');
  const m = listed.markets.find((x) => D(x.yes_bid_dollars).isZero() && (D(x.yes_ask_dollars).isZero() || D(x.yes_ask_dollars).gte(1)));
  if (!m) throw new Error('no open market without a book');
  const a = terminal.exchange!.accounts.find((x) => x.name === 'counterparty' && x.private_key_pem);
  if (!a) throw new Error('no counterparty key');
  const other = createApiClient({ profile: { kind: 'custom', name: 'other', baseUrl: terminal.exchange!.baseUrl, wsUrl: terminal.exchange!.wsUrl, headerPrefix: 'SVC-' }, credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem! } });
  const rest = (side: 'bid' | 'ask', price: string) => other.createOrder({ body: { ticker: m.ticker, side, price, count: '5', client_order_id: randomUUID() } });
  await value('watchMarkets', [m.ticker]);
  await rest('bid', '0.40');
  await rest('ask', '0.60');
  // the trader buys one at the ask
  await value('placeOrder', { ticker: m.ticker, side: 'bid', price: '0.60', count: '1', time_in_force: 'immediate_or_cancel', confirmed: true, origin: 'ticket' });
  await until('the fill counted in P&L', async () => (await value<RiskView>('getRisk')).dailyPnl !== '0.00');
  const before = (await value<RiskView>('getRisk')).dailyPnl;
  // the other account raises the best bid by 2 cents: the long is marked 2 cents higher
  const seen = pushes.length;
  await rest('bid', '0.42');
  const want = new Decimal(before!).plus('0.02').toFixed(2);
  await until("a risk push with today's P&L 2 cents up", () => pushes.slice(seen).some((p) => p.dailyPnl === want), 15_000);
  expect((await value<RiskView>('getRisk')).dailyPnl).toBe(want);
}, 120_000);

it('refuses a price the market does not take before sending it, and sends one it takes', async () => {
  const listed = await value<{ markets: { ticker: string; price_ranges?: { step: string }[] }[] }>('request', { id: 'getMarkets', query: { status: 'open', series_ticker: 'KXBTC', limit: 100 } });
  const m = listed.markets.find((x) => (x.price_ranges ?? []).length === 3);
  if (!m) throw new Error('no tapered KXBTC market');
  await value('watchMarkets', [m.ticker]);
  const orders = async () => (await value<{ orders: unknown[] }>('request', { id: 'getOrders', query: { ticker: m.ticker, limit: 100 } })).orders.length;
  const before = await orders();
  const r = (await terminal.door('placeOrder', [{ ticker: m.ticker, side: 'bid', price: '0.115', count: '1', confirmed: true, origin: 'ladder' }])) as { ok: boolean; error?: { code?: string; message: string } };
  expect(r.ok).toBe(false);
  expect(r.error?.code).toBe('invalid_price');
  expect(r.error?.message).toContain('0.11 or 0.12');
  const batch = await value<{ results: { ok: boolean; error?: { code?: string } }[] }>('placeOrders', { orders: [{ ticker: m.ticker, side: 'bid', price: '0.1150', count: '1', confirmed: true, origin: 'ladder' }] });
  expect(batch.results[0]).toMatchObject({ ok: false, error: { code: 'invalid_price' } });
  expect(await orders()).toBe(before);
  // 0.095 is on the grid (its tail): it goes, and an amend to 0.115 is refused
  let placed: { ok: boolean; value?: unknown; error?: { code?: string } } = { ok: false };
  await until('the order at 0.095 is placed (once the book is live)', async () => {
    placed = (await terminal.door('placeOrder', [{ ticker: m.ticker, side: 'bid', price: '0.095', count: '1', confirmed: true, origin: 'ladder' }])) as typeof placed;
    if (!placed.ok && placed.error?.code !== 'no_book') throw new Error(JSON.stringify(placed.error));
    return placed.ok;
  });
  const ack = placed.value as { order_id: string };
  expect(await orders()).toBe(before + 1);
  const amend = (await terminal.door('amendOrder', [{ order_id: ack.order_id, ticker: m.ticker, side: 'bid', price: '0.115', count: '1', confirmed: true, origin: 'ladder' }])) as { ok: boolean; error?: { code?: string } };
  expect(amend).toMatchObject({ ok: false, error: { code: 'invalid_price' } });
}, 60_000);
