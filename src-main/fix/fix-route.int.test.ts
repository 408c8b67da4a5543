// The terminal's FIX route against the real embedded exchange on 127.0.0.1 (REST, WebSocket and
// FIX acceptor on port 0, in this process), through main's services and door as the page calls
// them. REST and the WebSocket go through a loopback proxy that can drop stream frames, so a
// change can happen behind the terminal's back and the drop copy must be the one that tells.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { TestStream } from '../../test-support/exchange/ws-client';
import type { AuditEntry, StreamName } from '../../src-shared/ipc/contract';
import type { FixView } from '../../src-shared/ipc/fix';
import { TerminalServices } from '../app/services';
import { createDoor, toTerminalError } from '../ipc/door';
import { startLoopbackProxy, type LoopbackProxy } from '../../test-support/main/loopback-proxy';
import { until } from '../../test-support/main/wait';
import { FileKeyBox } from '../vault/secret-box';

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };

let t: TestExchange;
let proxy: LoopbackProxy;
let services: TerminalServices;
let dataDir: string;
let door: ReturnType<typeof createDoor>;
let market: string;
let n = 0;
const pushed: Array<{ stream: StreamName; payload: unknown }> = [];
const streams: TestStream[] = [];

const call = (method: string, ...args: unknown[]) => door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
}

async function newMarket(): Promise<string> {
  const ticker = `FIXT-${++n}`;
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker, eventTicker: 'FIXT', seriesTicker: 'FIXTS' },
    { type: 'openMarket', nowMs: node.now(), ticker },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`cannot create market: ${JSON.stringify(r.result)}`);
  }
  return ticker;
}

async function watch(ticker: string): Promise<void> {
  await value('watchMarkets', [ticker]);
  await until(`the book of ${ticker}`, () => services.profiles.active()?.session.books.book(ticker)?.stale === false, 30_000);
}

const fixView = () => value<FixView>('getFix');
const audit = () => value<AuditEntry[]>('getAuditLog', {});
const restingHere = async (ticker: string) => (await t.client('trader').getOrders({ query: { ticker, status: 'resting', limit: 1000 } })).orders;

async function routeFix(settings: { orderEntry: boolean; dropCopy: boolean }): Promise<void> {
  await value('saveFixSettings', { profileId: 'embedded', settings });
  if (settings.orderEntry) await until('the FIX order session is up', async () => (await fixView()).orderEntry?.phase === 'up', 30_000);
  if (settings.dropCopy) await until('the drop copy is up', async () => (await fixView()).dropCopy?.phase === 'up', 30_000);
}

/** The FIX gateway as main reaches it: a forwarder to the acceptor that can be cut (every link closed, new ones refused). */
const gateway = { port: 0, cut: false, links: new Set<Socket>(), server: createServer(), refusedAt: [] as number[] };
async function startGateway(to: number): Promise<void> {
  gateway.server.on('connection', (inbound) => {
    if (gateway.cut) {
      gateway.refusedAt.push(Date.now());
      return void inbound.destroy();
    }
    const outbound = connect(to, '127.0.0.1');
    for (const [a, b] of [[inbound, outbound], [outbound, inbound]] as const) {
      gateway.links.add(a);
      a.pipe(b);
      a.on('close', () => (gateway.links.delete(a), b.destroy()));
      a.on('error', () => b.destroy());
    }
  });
  await new Promise<void>((r) => gateway.server.listen(0, '127.0.0.1', () => r()));
  gateway.port = (gateway.server.address() as AddressInfo).port;
}
function cutGateway(cut: boolean): void {
  gateway.cut = cut;
  if (cut) for (const s of gateway.links) s.destroy();
}

beforeAll(async () => {
  t = await startTestExchange();
  proxy = await startLoopbackProxy(t.ex.port);
  await startGateway(t.ex.fixPort);
  dataDir = mkdtempSync(path.join(tmpdir(), 'fix-route-'));
  const accounts = t.ex.credentials.accounts.map((a) => ({ name: a.name, api_key_id: a.api_key_id, private_key_pem: a.private_key_pem, fcm: a.fcm }));
  services = new TerminalServices({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    embedded: { baseUrl: proxy.baseUrl, wsUrl: proxy.wsUrl, accounts, fix: { host: '127.0.0.1', port: gateway.port } },
    emit: (stream, payload) => void pushed.push({ stream, payload }),
    describeError: toTerminalError,
    sessionOptions: { frameMs: 5 },
  });
  await services.start();
  door = createDoor(services.methods);
  await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live', 30_000);
}, 60_000);

afterAll(async () => {
  for (const s of streams) await s.close();
  await services?.stop();
  await proxy?.close();
  cutGateway(true);
  await new Promise<void>((r) => gateway.server.close(() => r()));
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  proxy.hooks.onServerFrame = undefined;
  if ((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged) await value('releaseKillSwitch', { confirm: true });
  market = await newMarket();
  await watch(market);
}, 60_000);

describe('order entry over FIX', () => {
  it('an order placed over FIX rests, shows in REST and the WebSocket, fills, and the audit says FIX', async () => {
    const ws = await TestStream.open(t.ex.wsUrl, { key: { keyId: t.account('trader').api_key_id, privateKeyPem: t.account('trader').private_key_pem } });
    streams.push(ws);
    await ws.command('subscribe', { channels: ['user_orders'] });
    await routeFix({ orderEntry: true, dropCopy: false });

    const ack = await value<{ order_id: string; client_order_id: string; remaining_count: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.4200', count: '3', origin: 'ladder' });
    expect(ack.remaining_count).toBe('3.00');
    // REST: the same order, with the terminal's client_order_id
    const { order } = await t.client('trader').getOrder({ params: { order_id: ack.order_id } });
    expect(order).toMatchObject({ order_id: ack.order_id, client_order_id: ack.client_order_id, status: 'resting' });
    // the WebSocket: an independent signed connection sees it
    await ws.until((fs) => fs.find((f) => f.msg.type === 'user_order' && (f.raw.msg as { order_id?: string }).order_id === ack.order_id), 10_000, 'the user_order frame');
    // the terminal's own store holds it
    const store = services.profiles.active()!.session.store;
    expect(store.orders.get(ack.order_id)).toMatchObject({ status: 'resting' });

    // a counterparty takes it whole: the store shows it executed
    await t.client('counterparty').createOrder({ body: { ticker: market, side: 'ask', price: '0.4200', count: '3' } });
    await until('the store shows it executed', () => store.orders.get(ack.order_id)?.status === 'executed', 15_000);

    const entry = (await audit()).find((e) => e.clientOrderId === ack.client_order_id)!;
    expect(entry).toMatchObject({ action: 'place', outcome: 'ok', gate: 'passed' });
    expect(entry.answer).toMatch(/^via FIX: order /);
  }, 60_000);

  it('the risk gate refuses before anything is sent over FIX', async () => {
    await routeFix({ orderEntry: true, dropCopy: false });
    const before = (await t.client('trader').getOrders({ query: { ticker: market, limit: 1000 } })).orders.length;
    const r = await call('placeOrder', { ticker: market, side: 'bid', price: '0.0300', count: '100000', origin: 'ladder' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'risk', code: 'max_order_contracts' } });
    expect((await t.client('trader').getOrders({ query: { ticker: market, limit: 1000 } })).orders.length).toBe(before);
    const last = (await audit()).find((e) => e.ticker === market)!;
    expect(last.gate).toBe('refused: max_order_contracts');
  }, 60_000);

  it('the kill switch mid-burst: orders stop before they leave over FIX and nothing rests', async () => {
    await routeFix({ orderEntry: true, dropCopy: false });
    const results: Result[] = [];
    let stop = false;
    const burst = (async () => {
      for (let i = 0; i < 60 && !stop; i++) results.push(await call('placeOrder', { ticker: market, side: 'bid', price: `0.0${1 + (i % 4)}`, count: '1', confirmed: true, origin: 'ladder' }));
    })();
    await until('a few rest', async () => (await restingHere(market)).length >= 5, 30_000);
    const engaged = await value<{ killSwitch: { engaged: boolean; since: number } }>('engageKillSwitch');
    await until('refusals after the switch', () => results.some((r) => !r.ok), 30_000);
    stop = true;
    await burst;
    const since = engaged.killSwitch.since;
    const ok = results.filter((r) => r.ok).length;
    const refused = results.filter((r): r is Extract<Result, { ok: false }> => !r.ok);
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(refused.every((r) => r.error.code === 'kill_switch'), JSON.stringify(refused.slice(0, 2))).toBe(true);
    await until('nothing resting', async () => (await restingHere(market)).length === 0, 15_000);
    const all = (await t.client('trader').getOrders({ query: { ticker: market, limit: 1000 } })).orders;
    expect(all.filter((o) => Date.parse(String(o.created_time)) > since + 250)).toEqual([]);
    const placed = (await audit()).filter((e) => e.ticker === market && e.action === 'place' && e.outcome === 'ok');
    expect(placed.length).toBe(ok);
    expect(placed.every((e) => e.answer.startsWith('via FIX: '))).toBe(true);
    await value('releaseKillSwitch', { confirm: true });
  }, 90_000);

  it('falls back to REST when the FIX port is dead, and says so in the audit', async () => {
    await routeFix({ orderEntry: true, dropCopy: false });
    cutGateway(true);
    await until('the FIX session is down', async () => (await fixView()).orderEntry?.phase !== 'up', 15_000);
    const ack = await value<{ order_id: string; client_order_id: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.0200', count: '1', origin: 'ladder' });
    const { order } = await t.client('trader').getOrder({ params: { order_id: ack.order_id } });
    expect(order.status).toBe('resting');
    const entry = (await audit()).find((e) => e.clientOrderId === ack.client_order_id)!;
    expect(entry.outcome).toBe('ok');
    expect(entry.answer).toMatch(/^via REST \(FIX (down|connecting): /);
    await value('cancelAll', {});
    cutGateway(false);
  }, 60_000);

  it('an exchange that answers REST again brings the FIX session back at once, not after its reconnect wait', async () => {
    await routeFix({ orderEntry: true, dropCopy: false });
    // the exchange is down for main: its FIX gateway refuses and no REST answer comes back
    proxy.hooks.dropResponse = () => true;
    gateway.refusedAt = [];
    cutGateway(true);
    try {
      // the session retries at 0.5, 1, 2, 4 s: once a 4-s wait has passed, the next wait is 8 s
      await until('a refused reconnect after a 4-s wait', () => gateway.refusedAt.some((at, i) => i > 0 && at - gateway.refusedAt[i - 1]! >= 3_500), 60_000);
    } finally {
      proxy.hooks.dropResponse = undefined;
      cutGateway(false);
    }
    const back = Date.now();
    const lastTry = gateway.refusedAt[gateway.refusedAt.length - 1]!;
    // REST answers again (each read below is one): the FIX session reconnects now
    await until('the FIX session is up again', async () => {
      await value('request', { id: 'getBalance' });
      return (await fixView()).orderEntry?.phase === 'up';
    }, 60_000);
    const upAfter = Date.now() - lastTry;
    // without the nudge the next try would come 8 s after the last refused one
    expect(upAfter, `up ${Date.now() - back} ms after the gateway was back, ${upAfter} ms after the last refused try`).toBeLessThan(7_500);
    const ack = await value<{ order_id: string; client_order_id: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.0200', count: '1', origin: 'ladder' });
    expect((await audit()).find((e) => e.clientOrderId === ack.client_order_id)?.answer ?? '').not.toMatch(/via REST/);
    await value('cancelAll', {});
  }, 90_000);
});

describe('drop copy', () => {
  it('shows an order canceled behind the terminal\'s back as a disagreement', async () => {
    // orders over REST: an order entry session reports a cancel made elsewhere on its own orders
    // (the exchange's FIX order entry does since issue 35), so only the drop copy can tell here
    await routeFix({ orderEntry: false, dropCopy: true });
    const ack = await value<{ order_id: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.0500', count: '2', origin: 'ladder' });
    const store = services.profiles.active()!.session.store;
    await until('the drop copy has seen it', async () => ((await fixView()).dropCopy?.orders ?? 0) > 0, 15_000);
    // no disagreement while both agree (after the grace period)
    await new Promise((r) => setTimeout(r, 3_500));
    expect((await fixView()).dropCopy?.disagreements).toEqual([]);

    // the stream's word of this order is lost on the way; REST cancels it from elsewhere
    proxy.hooks.onServerFrame = (text) => (text.includes(ack.order_id) ? null : text);
    await t.client('trader').cancelOrder({ params: { order_id: ack.order_id } });
    await until('the drop copy disagrees', async () => ((await fixView()).dropCopy?.disagreements.length ?? 0) > 0, 20_000);
    const d = (await fixView()).dropCopy!.disagreements[0]!;
    expect(d).toMatchObject({ orderId: ack.order_id, ticker: market });
    expect(d.dropCopy).toMatch(/^canceled/);
    expect(d.terminal).toMatch(/^resting/);
    expect(store.orders.get(ack.order_id)?.status).toBe('resting');
    // it was pushed to the page on the fix stream
    expect(pushed.some((p) => p.stream === 'fix' && ((p.payload as FixView).dropCopy?.disagreements.length ?? 0) > 0)).toBe(true);
  }, 60_000);
});

describe('settings', () => {
  it('are parsed in main: bad input is refused and changes nothing', async () => {
    const before = await fixView();
    expect(await call('saveFixSettings', { profileId: 'embedded', settings: { orderEntry: 'yes', dropCopy: false } })).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await call('saveFixSettings', { profileId: 'embedded', settings: { orderEntry: true, dropCopy: false, host: 'evil.example' } })).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await call('saveFixSettings', { profileId: 'nope', settings: { orderEntry: true, dropCopy: false } })).toMatchObject({ ok: false, error: { kind: 'state' } });
    expect((await fixView()).settings).toEqual(before.settings);
  });

  it('never sends the embedded key\'s signed Logon to another local port, even beside a valid save in the same tick', async () => {
    const trap = createServer();
    const heard: string[] = [];
    trap.on('connection', (c) => c.on('data', (b) => heard.push(b.toString('latin1'))));
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
    const port = (trap.address() as AddressInfo).port;
    try {
      const [evil, fine] = await Promise.all([
        call('saveFixSettings', { profileId: 'embedded', settings: { orderEntry: true, dropCopy: true, port } }),
        call('saveFixSettings', { profileId: 'embedded', settings: { orderEntry: true, dropCopy: false } }),
      ]);
      expect(evil).toMatchObject({ ok: false, error: { kind: 'state' } });
      expect(fine).toMatchObject({ ok: true });
      await until('the FIX order session is up', async () => (await fixView()).orderEntry?.phase === 'up', 30_000);
      expect((await fixView()).settings?.port).toBeUndefined();
      expect(heard).toEqual([]);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  }, 60_000);
});
