// Alerts and local conditional orders through main's door against the real embedded exchange
// (a child process, as the terminal runs it), with a second account on the other side of the
// trades: a bracket follows its entry and its target cancels its stop; an alert fires once with
// no panel open; a local order's trigger goes through the risk gate; a strategy that watches a
// still market gets its book at once (this exchange has no simulation to move it); and after a
// restart armed orders wait for the trader, a trigger passed meanwhile is never sent without consent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTerminal, type RunningTerminal } from './terminal';
import { sleep, until } from '../../test-support/main/wait';
import { FileKeyBox } from '../vault/secret-box';
import { createApiClient, type ApiClient } from '../api/client';
import { RateLimiter, seedLimiter } from '../api/limiter';
import { resolveProfile } from '../api/profiles';
import type { LocalOrdersView, Notice, AlertsView, StrategiesView } from '../../src-shared/ipc/contract';
import { Decimal } from '../../src-shared/money';
import { stepAt, type PriceRange } from '../../src-shared/price-ranges';
import { entryArgs } from '../../test-support/entry';

let terminal: RunningTerminal;
let dataDir: string;
let other: ApiClient;
let local: LocalOrdersView | null = null;
let notices: Notice[] = [];
let alerts: AlertsView | null = null;

let counterpartyPem: string | undefined;

async function boot(): Promise<void> {
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: (s, p) => {
      if (s === 'local') local = p as LocalOrdersView;
      if (s === 'notices') notices.push(p as Notice);
      if (s === 'alerts') alerts = p as AlertsView;
    },
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 11, sim: false },
  });
  const ex = terminal.exchange!;
  // the first start's credentials hold the keys; a restart reads the file the terminal stripped
  counterpartyPem ??= ex.accounts.find((a) => a.name === 'counterparty')!.private_key_pem;
  const cp = { ...ex.accounts.find((a) => a.name === 'counterparty')!, private_key_pem: counterpartyPem };
  const limiter = new RateLimiter();
  other = createApiClient({
    profile: resolveProfile({ kind: 'custom', name: 'cp', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' }),
    credentials: { keyId: cp.api_key_id, privateKeyPem: cp.private_key_pem! },
    limiter,
  });
  // the other side keeps to its own write budget (the exchange answers 429 past it), as a real client would
  await seedLimiter(other, limiter);
  await until('the stream is live', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
}

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };
const call = (method: string, ...args: unknown[]) => terminal.door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
}

/**
 * An open market whose book the other account has just swept clean (immediate-or-cancel orders
 * against every resting level), so each test owns its prices.
 */
let markets: string[] = [];
async function market(): Promise<string> {
  if (!markets.length) {
    const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 200 } });
    markets = r.markets.map((m) => m.ticker);
  }
  const t = markets.shift();
  if (!t) throw new Error('no open market left');
  const book = await value<{ orderbook_fp: { yes_dollars?: [string, string][]; no_dollars?: [string, string][] } }>('request', { id: 'getOrderbook', params: { ticker: t } });
  const total = (levels: [string, string][] | undefined) => (levels ?? []).reduce((sum, [, c]) => sum.plus(c), new Decimal(0));
  const bids = total(book.orderbook_fp.yes_dollars);
  const asks = total(book.orderbook_fp.no_dollars);
  const ioc = { time_in_force: 'immediate_or_cancel' as const, client_order_id: randomUUID() };
  if (asks.gt(0)) await other.createOrder({ body: { ticker: t, side: 'bid', price: '0.9900', count: asks.toFixed(2), ...ioc } });
  if (bids.gt(0)) await other.createOrder({ body: { ticker: t, side: 'ask', price: '0.0100', count: bids.toFixed(2), ...ioc, client_order_id: randomUUID() } });
  const after = await value<{ orderbook_fp: { yes_dollars?: unknown[]; no_dollars?: unknown[] } }>('request', { id: 'getOrderbook', params: { ticker: t } });
  expect((after.orderbook_fp.yes_dollars ?? []).length + (after.orderbook_fp.no_dollars ?? []).length).toBe(0);
  return t;
}
async function stepOf(t: string, price: string): Promise<Decimal> {
  const m = await value<{ market: { price_ranges?: PriceRange[] } }>('request', { id: 'getMarket', params: { ticker: t } });
  return stepAt(new Decimal(price), m.market.price_ranges ?? []);
}
const rest = (ticker: string, side: 'bid' | 'ask', price: string, count: string) =>
  other.createOrder({ body: { ticker, side, price, count, client_order_id: randomUUID() } });
const find = (id: string) => local?.orders.find((o) => o.id === id);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tools-int-'));
  await boot();
}, 60_000);
afterAll(async () => {
  await terminal?.stop();
});

describe('local conditional orders', () => {
  it('a bracket: the entry fills, a target rests and a stop arms; the target fills and the stop is canceled', async () => {
    const t = await market();
    await rest(t, 'ask', '0.5000', '2');
    const v = await value<LocalOrdersView>('placeBracket', { ticker: t, side: 'bid', price: '0.50', count: '2', targetTicks: 5, stopTicks: 5, stopThroughTicks: 1, stopSource: 'last' });
    const target = v.orders.find((o) => o.kind === 'bracket_target' && o.ticker === t)!;
    const stop = v.orders.find((o) => o.kind === 'stop' && o.ticker === t)!;
    const step = await stepOf(t, '0.50');
    expect(target.trigger).toBe(new Decimal('0.50').plus(step.mul(5)).toFixed(4));
    expect(stop.trigger).toBe(new Decimal('0.50').minus(step.mul(5)).toFixed(4));
    await until('the target rests and the stop is armed for 2', () => find(target.id)?.state === 'sent' && find(stop.id)?.state === 'armed' && find(stop.id)?.count === '2');
    const resting = await value<{ orders: { order_id: string; side: string; yes_price_dollars?: string }[] }>('request', { id: 'getOrders', query: { ticker: t, status: 'resting' } });
    expect(resting.orders.map((o) => o.order_id)).toContain(find(target.id)!.sentOrderId);
    await rest(t, 'bid', target.trigger!, '2'); // the other side lifts the target
    await until('the target filled and the stop canceled', () => find(target.id)?.state === 'filled' && find(stop.id)?.state === 'canceled');
    const positions = await value<{ market_positions: { ticker: string; position_fp: string }[] }>('request', { id: 'getPositions', query: { ticker: t } });
    expect(positions.market_positions.find((p) => p.ticker === t)?.position_fp ?? '0.00').toMatch(/^0(\.0+)?$/);
  });

  it("a triggered stop goes through the risk gate: a size over the trader's limit is refused when it is set up, nothing created", async () => {
    const t = await market();
    await rest(t, 'bid', '0.4000', '1');
    await rest(t, 'ask', '0.6000', '1');
    const before = (await value<LocalOrdersView>('getLocalOrders')).orders.length;
    const r = await call('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '5000', trigger: '0.35', source: 'bid', limit: { kind: 'through', ticks: 1 } }], oco: false });
    expect(r.ok).toBe(false);
    expect((r as { error: { kind: string; code?: string } }).error).toMatchObject({ kind: 'risk', code: 'max_order_contracts' });
    expect((await value<LocalOrdersView>('getLocalOrders')).orders.length).toBe(before);
    // and one already reached is refused as marketable
    const reached = await call('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.45', source: 'bid', limit: { kind: 'through', ticks: 1 } }], oco: false });
    expect(reached.ok).toBe(false);
    expect((reached as { error: { message: string } }).error.message).toMatch(/already reached/);
  });

  it('a buy stop on the best ask fires when the ask rises to it; its order goes to the exchange and fills', async () => {
    const t = await market();
    await rest(t, 'bid', '0.4000', '1');
    const ask = await rest(t, 'ask', '0.6000', '1');
    const v = await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'bid', count: '1', trigger: '0.62', source: 'ask', limit: { kind: 'price', price: '0.63' } }], oco: false });
    const id = v.orders.find((o) => o.ticker === t)!.id;
    expect(find(id)?.state).toBe('armed');
    await other.cancelOrder({ params: { order_id: ask.order_id } });
    await sleep(300);
    expect(find(id)?.state).toBe('armed'); // no ask at all: nothing to judge
    await rest(t, 'ask', '0.6200', '1');
    await until('the stop is sent', () => find(id)?.state === 'sent');
    await until('the position is held', async () => {
      const p = await value<{ market_positions: { ticker: string; position_fp: string }[] }>('request', { id: 'getPositions', query: { ticker: t } });
      return p.market_positions.find((x) => x.ticker === t)?.position_fp === '1.00';
    });
    const audit = await value<{ origin: string | null; ticker: string | null; outcome: string }[]>('getAuditLog', { ticker: t });
    expect(audit.some((e) => e.origin === 'conditional' && e.outcome === 'ok')).toBe(true);
  });
});

describe('alerts', () => {
  it('fires once when the best bid crosses a level, with no panel open; not again while it stays above', async () => {
    const t = await market();
    await rest(t, 'bid', '0.3000', '1');
    await rest(t, 'ask', '0.7000', '1');
    await value('saveAlert', { condition: { kind: 'price', ticker: t, source: 'bid', direction: 'above', level: '0.35' }, rearm: false, sound: true });
    await sleep(300);
    notices = [];
    await rest(t, 'bid', '0.3600', '1');
    await until('the alert fired', () => notices.some((n) => n.source === 'alert'));
    await rest(t, 'bid', '0.3800', '1');
    await sleep(500);
    const fired = notices.filter((n) => n.source === 'alert');
    expect(fired).toHaveLength(1);
    expect(fired[0]!.sound).toBe(true);
    expect(fired[0]!.body).toContain('0.36');
    const rule = alerts!.alerts.find((a) => a.condition.kind === 'price' && a.condition.ticker === t)!;
    expect(rule.state).toBe('fired');
    expect(alerts!.history[0]!.alertId).toBe(rule.id);
  });

  it('refuses a malformed alert with a clear error and changes nothing', async () => {
    const before = (await value<AlertsView>('getAlerts')).alerts.length;
    for (const bad of [
      { condition: { kind: 'price', ticker: 'X', source: 'mid', direction: 'above', level: '0.5' }, rearm: false, sound: false },
      { condition: { kind: 'price', ticker: 'X', source: 'last', direction: 'above', level: '1.5' }, rearm: false, sound: false },
      { condition: { kind: 'volume', ticker: 'X', contracts: '0', windowSec: 60 }, rearm: false, sound: false },
      { condition: { kind: 'price', ticker: 'X', source: 'last', direction: 'above', level: '0.5' }, rearm: false, sound: false, extra: 1 },
    ]) {
      const r = await call('saveAlert', bad);
      expect(r.ok).toBe(false);
      expect((r as { error: { kind: string } }).error.kind).toBe('validation');
    }
    expect((await value<AlertsView>('getAlerts')).alerts.length).toBe(before);
  });
});

describe('strategies', () => {
  it('a strategy that watches a still market gets its book at once, not at its next change, and quotes it', async () => {
    const t = await market();
    await rest(t, 'bid', '0.4000', '3');
    await rest(t, 'ask', '0.6000', '3');
    // main shows the book already (a ladder watches it) and nothing moves it from here on
    await value('watchMarkets', [t]);
    await until('main has the book', async () => JSON.stringify(await value<unknown[]>('bookSnapshots', [t])).includes(t));
    const code = `var placed = false;
module.exports = {
  onStart: function (e) { api.watch([e.params.ticker]); },
  onBook: function (b) {
    api.log('book', b.ticker, b.bid, b.ask);
    if (placed || b.bid === null) return;
    placed = true;
    api.place({ ticker: b.ticker, side: 'bid', price: '0.0100', count: '1' });
  },
};`;
    const started = await value<StrategiesView>('startStrategy', { name: 'still', code, params: { ticker: t } });
    const id = started.running.at(-1)!.id;
    let run!: StrategiesView['running'][number];
    await until('its quote rests', async () => {
      run = (await value<StrategiesView>('getStrategies')).running.find((x) => x.id === id)!;
      return run.status !== 'running' || run.orders.some((o) => o.status === 'resting');
    }, 30_000);
    expect(run.status, run.log.join('\n')).toBe('running');
    expect(run.log.some((l) => l.includes(`book ${t} 0.4000 0.6000`)), run.log.join('\n')).toBe(true);
    const resting = await value<{ orders: { yes_price_dollars?: string }[] }>('request', { id: 'getOrders', query: { ticker: t, status: 'resting' } });
    expect(resting.orders.map((o) => o.yes_price_dollars)).toEqual(['0.0100']);
    await value('stopStrategy', { id });
    await until('its quote is canceled', async () => (await value<{ orders: unknown[] }>('request', { id: 'getOrders', query: { ticker: t, status: 'resting' } })).orders.length === 0);
  }, 90_000);
});

describe('after a restart', () => {
  it('armed local orders wait for the choice; a trigger passed while the terminal was down turns missed and is sent only when the trader fires it', async () => {
    const t = await market();
    const bid = await rest(t, 'bid', '0.5000', '1');
    await rest(t, 'ask', '0.5500', '1');
    const a = await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.45', source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false });
    const b = await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.30', source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false });
    const missedId = a.orders.find((o) => o.ticker === t && o.trigger === '0.4500')!.id;
    const keptId = b.orders.find((o) => o.ticker === t && o.trigger === '0.3000')!.id;
    await terminal.stop();
    local = null;
    notices = [];
    await boot();
    const after = await value<LocalOrdersView>('getLocalOrders');
    expect(after.awaitingChoice).toBe(true);
    expect(after.orders.find((o) => o.id === missedId)?.state).toBe('held');
    expect(notices.some((n) => n.source === 'local' && /restored/.test(n.title))).toBe(true);
    // while it is held the bid falls through its trigger: nothing is sent
    const books = await value<{ orders: { order_id: string }[] }>('request', { id: 'getOrders', query: { ticker: t, status: 'resting' } });
    expect(books.orders).toHaveLength(0); // the trader has nothing resting there
    await other.cancelOrder({ params: { order_id: bid.order_id } });
    await rest(t, 'bid', '0.4000', '1');
    await sleep(500);
    expect((await value<LocalOrdersView>('getLocalOrders')).orders.find((o) => o.id === missedId)?.state).toBe('held');
    const kept = await value<LocalOrdersView>('resumeLocalOrders', { keep: true });
    expect(kept.awaitingChoice).toBe(false);
    await until('the passed trigger is marked missed', () => find(missedId)?.state === 'missed');
    expect(find(keptId)?.state).toBe('armed');
    const audit = await value<{ origin: string | null; ticker: string | null }[]>('getAuditLog', { ticker: t });
    expect(audit.filter((e) => e.origin === 'conditional')).toHaveLength(0);
    await value('localOrderAction', { id: missedId, action: 'fire' });
    await until('the missed stop was sent on consent', () => find(missedId)?.state === 'sent');
    expect((await value<{ origin: string | null }[]>('getAuditLog', { ticker: t })).filter((e) => e.origin === 'conditional').length).toBe(1);
  }, 60_000);
});
