// The kill switch owns every automatic order (issue 34): through main's door against the real
// embedded exchange, engaging it holds the profile's local stops and trailing stops (they never
// fire while it is engaged, whatever the market does), nothing arms or is set up meanwhile, and
// after its release the trader's choice per kind re-arms the stops and leaves the rest disarmed.
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
import type { LocalOrdersView } from '../../src-shared/ipc/contract';
import { Decimal } from '../../src-shared/money';
import { entryArgs } from '../../test-support/entry';

let terminal: RunningTerminal;
let other: ApiClient;
let local: LocalOrdersView | null = null;

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };
const call = (method: string, ...args: unknown[]) => terminal.door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
}
const find = (id: string) => local?.orders.find((o) => o.id === id);
const rest = (ticker: string, side: 'bid' | 'ask', price: string, count: string) => other.createOrder({ body: { ticker, side, price, count, client_order_id: randomUUID() } });

/**
 * A market of our own prices, the `fromEnd`-th open one from the list's end: the other side sweeps
 * what rests there first, then rests a bid at 0.50 (returned) and an ask at 0.90.
 */
async function ownMarket(fromEnd: number) {
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 200 } });
  const t = r.markets[r.markets.length - fromEnd]!.ticker;
  const book = await value<{ orderbook_fp: { yes_dollars?: [string, string][]; no_dollars?: [string, string][] } }>('request', { id: 'getOrderbook', params: { ticker: t } });
  const total = (levels: [string, string][] | undefined) => (levels ?? []).reduce((sum, [, c]) => sum.plus(c), new Decimal(0));
  const ioc = { time_in_force: 'immediate_or_cancel' as const };
  if (total(book.orderbook_fp.no_dollars).gt(0)) await other.createOrder({ body: { ticker: t, side: 'bid', price: '0.9900', count: total(book.orderbook_fp.no_dollars).toFixed(2), ...ioc, client_order_id: randomUUID() } });
  if (total(book.orderbook_fp.yes_dollars).gt(0)) await other.createOrder({ body: { ticker: t, side: 'ask', price: '0.0100', count: total(book.orderbook_fp.yes_dollars).toFixed(2), ...ioc, client_order_id: randomUUID() } });
  const bid = await rest(t, 'bid', '0.5000', '1');
  await rest(t, 'ask', '0.9000', '1');
  return { t, bid };
}

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kill-local-'));
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: (s, p) => {
      if (s === 'local') local = p as LocalOrdersView;
    },
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 12, sim: false },
  });
  const ex = terminal.exchange!;
  const cp = ex.accounts.find((a) => a.name === 'counterparty')!;
  const limiter = new RateLimiter();
  other = createApiClient({
    profile: resolveProfile({ kind: 'custom', name: 'cp', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' }),
    credentials: { keyId: cp.api_key_id, privateKeyPem: cp.private_key_pem! },
    limiter,
  });
  await seedLimiter(other, limiter);
  await until('the stream is live', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
}, 60_000);
afterAll(async () => {
  await terminal?.stop();
});

describe('the kill switch and local orders', () => {
  it('engage holds them (none fires), release re-arms the kinds the trader chose and disarms the rest', async () => {
    const { t, bid } = await ownMarket(1);
    const stop = (await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.45', source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false })).orders.find((o) => o.ticker === t && o.kind === 'stop')!;
    const trail = (await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'trailing_stop', ticker: t, side: 'ask', count: '1', trailTicks: 3, source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false })).orders.find((o) => o.ticker === t && o.kind === 'trailing_stop')!;
    await until('both armed', () => find(stop.id)?.state === 'armed' && find(trail.id)?.state === 'armed');

    await value('engageKillSwitch');
    await until('both held by the kill switch', () => find(stop.id)?.state === 'kill_held' && find(trail.id)?.state === 'kill_held');
    expect(find(stop.id)!.detail).toMatch(/kill switch/);
    // the bid falls through both triggers: nothing fires, nothing is sent
    await other.cancelOrder({ params: { order_id: bid.order_id } });
    await rest(t, 'bid', '0.3000', '1');
    await sleep(500);
    expect(find(stop.id)?.state).toBe('kill_held');
    expect(find(trail.id)?.state).toBe('kill_held');
    const audit = await value<{ origin: string | null }[]>('getAuditLog', { ticker: t });
    expect(audit.filter((e) => e.origin === 'conditional')).toHaveLength(0);
    // while it is engaged nothing arms or is set up, and the held ones stay held
    const armAgain = await call('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.20', source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false });
    expect(armAgain.ok).toBe(false);
    expect((armAgain as { error: { message: string } }).error.message).toMatch(/kill switch is engaged/);
    const early = await call('releaseKillHeldLocal', { rearm: ['stop'] });
    expect(early.ok).toBe(false);
    expect(find(stop.id)?.state).toBe('kill_held');

    await value('releaseKillSwitch', { confirm: true });
    // released: still held until the trader's choice, per kind
    expect((await value<LocalOrdersView>('getLocalOrders')).orders.find((o) => o.id === stop.id)?.state).toBe('kill_held');
    const after = await value<LocalOrdersView>('releaseKillHeldLocal', { rearm: ['stop'] });
    expect(after.orders.find((o) => o.id === trail.id)?.state).toBe('disarmed');
    // the stop watches again; its trigger was passed while it was held, so it asks instead of sending
    await until('the re-armed stop is marked missed', () => find(stop.id)?.state === 'missed');
    expect((await value<{ origin: string | null }[]>('getAuditLog', { ticker: t })).filter((e) => e.origin === 'conditional')).toHaveLength(0);
    // a bad choice is refused, nothing changes
    const bad = await call('releaseKillHeldLocal', { rearm: ['everything'] });
    expect(bad.ok).toBe(false);
    expect((bad as { error: { kind: string } }).error.kind).toBe('validation');
  }, 60_000);
  it('a re-arm sent in the same tick as a new engage: the engage wins, the stop never sends, whatever the order the calls land in', async () => {
    const { t, bid } = await ownMarket(2);
    const stop = (await value<LocalOrdersView>('placeLocalOrders', { orders: [{ kind: 'stop', ticker: t, side: 'ask', count: '1', trigger: '0.45', source: 'bid', limit: { kind: 'through', ticks: 0 } }], oco: false })).orders.find((o) => o.ticker === t && o.kind === 'stop')!;
    await until('armed', () => find(stop.id)?.state === 'armed');
    await value('engageKillSwitch');
    await until('held', () => find(stop.id)?.state === 'kill_held');
    // the bid falls through the trigger while it is held
    await other.cancelOrder({ params: { order_id: bid.order_id } });
    await rest(t, 'bid', '0.3000', '1');
    await value('releaseKillSwitch', { confirm: true });
    // both calls leave in one tick
    const [rearm, engage] = await Promise.all([call('releaseKillHeldLocal', { rearm: ['stop'] }), call('engageKillSwitch')]);
    expect(engage.ok).toBe(true);
    if (!rearm.ok) expect((rearm as { error: { message: string } }).error.message).toMatch(/kill switch is engaged/);
    await sleep(500);
    expect(['kill_held', 'missed']).toContain((await value<LocalOrdersView>('getLocalOrders')).orders.find((o) => o.id === stop.id)?.state);
    expect((await value<{ origin: string | null }[]>('getAuditLog', { ticker: t })).filter((e) => e.origin === 'conditional')).toHaveLength(0);
    expect((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged).toBe(true);
    await value('releaseKillSwitch', { confirm: true });
  }, 60_000);
});
