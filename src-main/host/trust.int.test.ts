// The trust boundary, tried over the web host's socket the way a compromised page would: no
// call, with any arguments, gets private key material out of main, sends a signature anywhere
// but the key's own service, or places an order the risk gate has not passed. Runs the real
// terminal (embedded exchange as a child process, the same services and door) on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startHost, type RunningHost } from './server';
import { hostClient } from '../../test-support/main/host';
import { sleep, until } from '../../test-support/main/wait';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';
import { endpoints } from '../../src-shared/endpoints';
import { dollarsToTicks } from '../../src-shared/money';
import { highestBid } from '../../test-support/main/markets';
import { entryArgs } from '../../test-support/entry';
import { doorOver, type DoorAnswer, type DoorCalls, type DoorRefusal } from './door-client';

let host: RunningHost;
let terminal: RunningTerminal;
let dataDir: string;
let ws: WebSocket;
/** every frame the page received, answers and pushed streams alike */
const frames: string[] = [];
const { connect } = hostClient(() => host);

/** What the shell's own (native) confirmation answers; the page never sees it. Rebinds: no. */
let mainAnswers: (q: { title: string }) => boolean = (q) => !q.title.startsWith('Move keys');
const askedInMain: string[] = [];

async function boot(): Promise<void> {
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    confirmInMain: async (q) => {
      askedInMain.push(q.title);
      return mainAnswers(q);
    },
    emit: (s, p) => host?.broadcast(s, p),
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 7, sim: false },
  });
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startHost({ staticDir, door: terminal.door });
  ws = await connect({ token: host.token });
  door = doorOver(ws);
  ws.on('message', (d: WebSocket.RawData) => frames.push(d.toString()));
}

async function shutdown(): Promise<void> {
  ws?.close();
  await host?.close();
  await terminal?.stop();
}

type Result = DoorAnswer;
let door: DoorCalls;
const call = (method: string, ...args: unknown[]): Promise<Result> => door.answer(method, ...args);
const value = <T,>(method: string, ...args: unknown[]): Promise<T> => door.call<T>(method, ...args);
function refusal(r: Result): DoorRefusal {
  expect(r.ok, JSON.stringify(r)).toBe(false);
  return (r as Extract<Result, { ok: false }>).error;
}

/** The distinctive middle of a PEM's base64 body: finding it anywhere means the key leaked. */
function keyMarks(pem: string): string[] {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return [body.slice(40, 100), body.slice(-120, -60)];
}
function assertNoKeyMaterial(text: string, pems: string[]): void {
  expect(text).not.toMatch(/PRIVATE KEY/);
  for (const pem of pems) for (const mark of keyMarks(pem)) expect(text.includes(mark)).toBe(false);
}


/** A stand-in server on loopback that counts signed requests and answers with a chosen Date. */
interface StandIn {
  url: string;
  signed: () => number;
  /** the signing timestamps (ms) of the signed requests that reached it */
  signedAt: () => number[];
  close: () => Promise<void>;
}
async function standIn(dateOffsetMs = 0): Promise<StandIn> {
  let signed = 0;
  const signedAt: number[] = [];
  const count = (req: { headers: Record<string, string | string[] | undefined> }) => {
    const h = Object.keys(req.headers);
    if (!h.some((x) => x.endsWith('-access-signature'))) return;
    signed++;
    const ts = h.find((x) => x.endsWith('-access-timestamp'));
    signedAt.push(Number(ts ? req.headers[ts] : NaN));
  };
  const server: Server = createServer((req, res) => {
    count(req);
    res.writeHead(404, { 'content-type': 'application/json', date: new Date(Date.now() + dateOffsetMs).toUTCString() });
    res.end(JSON.stringify({ error: { code: 'not_found', message: 'stand-in' } }));
  });
  server.on('upgrade', (req, socket) => {
    count(req);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, signed: () => signed, signedAt: () => [...signedAt], close: () => new Promise((r) => server.close(() => r())) };
}

let market: string;
let pems: string[];
/** as the exchange provisioned them (a restart reads a credentials.json the terminal stripped) */
let provisioned: { api_key_id: string; private_key_pem: string }[];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'trust-'));
  await boot();
  provisioned = terminal.exchange!.accounts.map((a) => ({ api_key_id: a.api_key_id, private_key_pem: a.private_key_pem! }));
  pems = provisioned.map((a) => a.private_key_pem);
  await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
  // the orders here bid a few cents and must rest, not trade
  const markets = await value<{ markets: { ticker: string; yes_bid_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 100 } });
  const chosen = highestBid(markets.markets);
  market = chosen.ticker;
  expect(dollarsToTicks(chosen.yes_bid_dollars ?? '0')).toBeGreaterThan(1_000); // above 0.10
  await value('watchMarkets', [market]);
  await until('the book', () => frames.some((f) => f.includes('"books"') && f.includes(market)));
}, 300_000); // only a hang guard: it starts an exchange and a terminal, slowly on a busy machine
afterAll(shutdown);

async function myRestingOrders(): Promise<{ order_id: string; remaining_count_fp?: string; yes_price_dollars?: string }[]> {
  const r = await value<{ orders: { order_id: string }[] }>('request', { id: 'getOrders', query: { status: 'resting', limit: 1000 } });
  return r.orders;
}

describe('keys never leave main', () => {
  it('refuses every key row of the passthrough, whatever the arguments, and points at the vault', async () => {
    for (const [id, args] of [
      ['generateApiKey', { body: { name: 'leak' } }],
      ['createApiKey', { body: { name: 'x', public_key: 'x' } }],
      ['deleteApiKey', { params: { api_key: 'x' } }],
    ] as const) {
      const e = refusal(await call('request', { id, ...args }));
      expect(e.kind).toBe('state');
      expect(e.message).toMatch(/not available to the UI through request/);
      expect(e.message).toMatch(/keep private keys in main/);
    }
  });

  it('generateKey mints a key into the vault and answers only its id', async () => {
    const profileId = (await value<{ activeProfileId: string }>('getAppState')).activeProfileId;
    const r = await value<Record<string, unknown>>('generateKey', { profileId, name: 'minted' });
    expect(Object.keys(r).sort()).toEqual(['active', 'apiKeyId', 'createdAt', 'name', 'source']);
    assertNoKeyMaterial(JSON.stringify(r), pems);
  });

  it('refuses the order and cancel rows of the passthrough: only the typed methods may send them', async () => {
    for (const id of ['cancelOrder', 'cancelAllOrders', 'batchCancelOrders', 'decreaseOrder']) {
      const e = refusal(await call('request', { id, params: { order_id: 'x' }, body: {} }));
      expect(e.kind).toBe('state');
      expect(e.message).toMatch(/typed order methods/);
    }
  });
});

describe('the risk gate stands in every path', () => {
  it('refuses a fat-finger order from placeOrder, naming the limit, the value and the order; nothing reaches the exchange', async () => {
    const before = (await myRestingOrders()).length;
    const e = refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.01', count: '100000', origin: 'ticket' }));
    expect(e).toMatchObject({ kind: 'risk', code: 'max_order_contracts' });
    expect(e.message).toMatch(/100,?000/);
    expect(e.message).toMatch(/1,?000/);
    expect(e.message).toContain(market);
    expect((await myRestingOrders()).length).toBe(before);
  });

  it('refuses orders through the passthrough whatever their size (createOrder, batchCreateOrders, amendOrder), and the fat finger in placeOrders', async () => {
    const before = (await myRestingOrders()).length;
    const big = { ticker: market, side: 'bid', count: '100000', price: '0.01' };
    const small = { ticker: market, side: 'bid', count: '1', price: '0.01' };
    for (const [id, args, instead] of [
      ['createOrder', { body: big }, 'placeOrder'],
      ['createOrder', { body: small }, 'placeOrder'],
      ['batchCreateOrders', { body: { orders: [small] } }, 'placeOrders'],
      ['amendOrder', { params: { order_id: 'x' }, body: small }, 'amendOrder'],
      ['acceptRfqQuote', { params: { rfq_id: 'x', quote_id: 'y' }, body: { accepted_side: 'yes' } }, 'acceptQuote'],
    ] as const) {
      const e = refusal(await call('request', { id, ...args }));
      expect(e.kind).toBe('state');
      expect(e.message).toMatch(/not sent through request/);
      expect(e.message).toContain(instead);
    }
    const batch = await value<{ results: { ok: boolean; error?: { code: string } }[] }>('placeOrders', { orders: [{ ticker: market, side: 'bid', price: '0.01', count: '100000' }] });
    expect(batch.results[0]).toMatchObject({ ok: false, error: { code: 'max_order_contracts' } });
    expect((await myRestingOrders()).length).toBe(before);
  });

  it('refuses a limit price more than the collar through the book, and an order on an unwatched market', async () => {
    const bookFrame = [...frames].reverse().find((f) => f.includes('"books"') && f.includes(market));
    expect(bookFrame).toBeTruthy();
    // a bid at 0.99 is through any ask below 0.89; with an empty ask side nothing is crossed
    const r = await call('placeOrder', { ticker: market, side: 'bid', price: '0.99', count: '1' });
    if (!r.ok) expect(r.error.code).toBe('price_collar');
    else await value('cancelAll', { ticker: market });
    const unwatched = refusal(await call('placeOrder', { ticker: 'NOT-WATCHED-MKT', side: 'bid', price: '0.10', count: '1' }));
    expect(unwatched.code).toBe('no_book');
  });

  it('asks for a confirmation above the confirm threshold and for a duplicate, and takes it when confirmed', async () => {
    const large = { ticker: market, side: 'bid', price: '0.01', count: '600' };
    const ask = refusal(await call('placeOrder', large));
    expect(ask).toMatchObject({ kind: 'risk', code: 'confirm_required', confirmable: true });
    const ok = await value<{ order_id: string }>('placeOrder', { ...large, confirmed: true });
    expect(ok.order_id).toBeTruthy();
    const dup = refusal(await call('placeOrder', { ...large, confirmed: false }));
    expect(dup.confirmable).toBe(true);
    await value('cancelAll', { ticker: market });
  });

  it('refuses an amend that enlarges past a limit, and lets a plain one through', async () => {
    const ack = await value<{ order_id: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.02', count: '5' });
    const e = refusal(await call('amendOrder', { order_id: ack.order_id, ticker: market, side: 'bid', price: '0.02', count: '5000' }));
    expect(e).toMatchObject({ kind: 'risk', code: 'max_order_contracts' });
    const viaRequest = refusal(await call('request', { id: 'amendOrder', params: { order_id: ack.order_id }, body: { ticker: market, side: 'bid', price: '0.02', count: '5000' } }));
    expect(viaRequest.message).toMatch(/not sent through request/);
    await value('amendOrder', { order_id: ack.order_id, ticker: market, side: 'bid', price: '0.03', count: '5' });
    const resting = (await myRestingOrders()).find((o) => o.order_id === ack.order_id);
    expect(resting?.yes_price_dollars).toMatch(/^0\.03/);
    await value('cancelAll', { ticker: market });
  });

  it('holds limits per profile: a lowered limit refuses what passed before, bad limits change nothing', async () => {
    const view = await value<{ limits: Record<string, unknown> }>('getRisk');
    const bad = refusal(await call('saveRiskLimits', { ...view.limits, maxOrderContracts: '-1' }));
    expect(bad.kind).toBe('validation');
    expect((await value<{ limits: Record<string, unknown> }>('getRisk')).limits).toEqual(view.limits);
    await value('saveRiskLimits', { ...view.limits, maxOrderContracts: '3' });
    expect(refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.01', count: '4' })).code).toBe('max_order_contracts');
    await value('saveRiskLimits', view.limits);
  });
});

describe("main's own confirmation, which the page cannot answer", () => {
  const limitsNow = async () => (await value<{ limits: Record<string, unknown> }>('getRisk')).limits;

  it('a loosened limit needs it; tightening does not ask; refused means nothing changed', async () => {
    const before = await limitsNow();
    const asked = askedInMain.length;
    mainAnswers = () => false;
    try {
      const e = refusal(await call('saveRiskLimits', { ...before, maxOrderContracts: '2000' }));
      expect(e.message).toMatch(/not confirmed.*maxOrderContracts 1000 -> 2000/);
      expect(await limitsNow()).toEqual(before);
      expect(askedInMain.slice(asked)).toEqual(['Loosen the risk limits?']);
      // tighter needs no question, even when main would say no
      await value('saveRiskLimits', { ...before, maxOrderContracts: '900', duplicateWindowMs: 1000 });
      expect(askedInMain.length).toBe(asked + 1);
      expect(refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.01', count: '950' })).code).toBe('max_order_contracts');
    } finally {
      mainAnswers = (q) => !q.title.startsWith('Move keys');
    }
    await value('saveRiskLimits', before);
    expect(await limitsNow()).toEqual(before);
  });

  it('releasing the kill switch needs it; refused, the switch stays engaged', async () => {
    await value('engageKillSwitch');
    mainAnswers = () => false;
    try {
      const e = refusal(await call('releaseKillSwitch', { confirm: true }));
      expect(e.message).toMatch(/not confirmed/);
      expect((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged).toBe(true);
      expect(refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.01', count: '1' })).code).toBe('kill_switch');
    } finally {
      mainAnswers = (q) => !q.title.startsWith('Move keys');
    }
    expect((await value<{ killSwitch: { engaged: boolean } }>('releaseKillSwitch', { confirm: true })).killSwitch.engaged).toBe(false);
    expect(askedInMain.at(-1)).toBe('Release the kill switch?');
  });
});

describe('kill switch', () => {
  it('cancels every resting order, refuses every new order on every path, survives a restart, and releases only when confirmed', async () => {
    await value('placeOrder', { ticker: market, side: 'bid', price: '0.01', count: '2', post_only: true });
    await value('placeOrder', { ticker: market, side: 'ask', price: '0.99', count: '2', post_only: true });
    expect((await myRestingOrders()).length).toBeGreaterThanOrEqual(2);

    const engaged = await value<{ killSwitch: { engaged: boolean; detail: string } }>('engageKillSwitch');
    expect(engaged.killSwitch.engaged).toBe(true);
    expect(engaged.killSwitch.detail).toMatch(/canceled/);
    expect(await myRestingOrders()).toEqual([]);

    expect(refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.04', count: '1' }))).toMatchObject({ kind: 'risk', code: 'kill_switch' });
    // an exposure row the panels do send (a quote on an RFQ) meets the kill switch too
    const rfq = await value<{ rfq: { rfq_id: string } }>('request', { id: 'createRfq', body: { market_ticker: market, rest_remainder: false, contracts: 5 } });
    expect(refusal(await call('request', { id: 'createQuote', body: { rfq_id: rfq.rfq.rfq_id, yes_bid: '0.40', no_bid: '0.50' } }))).toMatchObject({ kind: 'risk', code: 'kill_switch' });

    // a restart of the whole terminal: still engaged
    await shutdown();
    await boot();
    await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live');
    expect((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged).toBe(true);
    await value('watchMarkets', [market]);
    await until('the book', () => frames.some((f) => f.includes('"books"') && f.includes(market)));
    expect(refusal(await call('placeOrder', { ticker: market, side: 'bid', price: '0.04', count: '1' })).code).toBe('kill_switch');

    expect(refusal(await call('releaseKillSwitch', {})).kind).toBe('validation');
    expect(refusal(await call('releaseKillSwitch', { confirm: false })).kind).toBe('validation');
    expect((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged).toBe(true);
    expect((await value<{ killSwitch: { engaged: boolean } }>('releaseKillSwitch', { confirm: true })).killSwitch.engaged).toBe(false);
    const ack = await value<{ order_id: string }>('placeOrder', { ticker: market, side: 'bid', price: '0.04', count: '1' });
    expect(ack.order_id).toBeTruthy();
    await value('cancelAll', { ticker: market });
  }, 120_000);
});

describe('the audit journal', () => {
  it('records what was asked, the gate, the client order id, the answer and latency, and no key material', async () => {
    const log = await value<{ action: string; outcome: string; gate: string; clientOrderId: string | null; latencyMs: number | null; origin: string | null }[]>('getAuditLog', {});
    expect(log.some((e) => e.outcome === 'refused' && e.gate.includes('max_order_contracts') && e.origin === 'ticket')).toBe(true);
    expect(log.some((e) => e.action === 'kill_engage' && e.outcome === 'ok')).toBe(true);
    expect(log.some((e) => e.action === 'kill_release')).toBe(true);
    const placed = log.find((e) => e.action === 'place' && e.outcome === 'ok');
    expect(placed?.clientOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(placed?.latencyMs).toBeGreaterThanOrEqual(0);
    const refusedOnly = await value<{ outcome: string }[]>('getAuditLog', { outcome: 'refused' });
    expect(refusedOnly.length).toBeGreaterThan(0);
    expect(refusedOnly.every((e) => e.outcome === 'refused')).toBe(true);
    assertNoKeyMaterial(JSON.stringify(log), pems);
  });
});

describe('keys are bound to where they may go', () => {
  it('refuses to point a key-holding profile somewhere else; the stand-in gets no signature', async () => {
    const evil = await standIn();
    try {
      const ex = terminal.exchange!;
      const trader = provisioned[0]!;
      const p = await value<{ id: string }>('saveProfile', { id: 'mine', name: 'mine', kind: 'custom', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' });
      await value('importKey', { profileId: p.id, apiKeyId: trader.api_key_id, privateKeyPem: trader.private_key_pem });
      for (const change of [
        { baseUrl: `${evil.url}/trade-api/v2` },
        { wsUrl: evil.url.replace('http', 'ws') },
        { headerPrefix: 'KALSHI-' },
        { kind: 'production' },
      ]) {
        const e = refusal(await call('saveProfile', { id: 'mine', name: 'mine', kind: 'custom', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-', ...change }));
        expect(e.kind).toBe('state');
        expect(e.message).toMatch(/holds keys/);
      }
      // asking whether a key still signs goes to the key's own host only, and answers no key material
      const status = await value<{ validAtExchange: boolean | null; detail: string }>('keyStatus', { profileId: 'mine', apiKeyId: trader.api_key_id });
      expect(status.validAtExchange).toBe(true);
      expect(status.detail).toContain(ex.baseUrl);
      assertNoKeyMaterial(JSON.stringify(status), pems);
      // a key id of another profile, or no such key: refused before anything is signed
      expect(refusal(await call('keyStatus', { profileId: 'mine', apiKeyId: provisioned[1]!.api_key_id })).message).toMatch(/no key/);
      expect(refusal(await call('deleteKey', { profileId: 'mine', apiKeyId: 'no-such-key', revoke: true })).message).toMatch(/no key/);
      await value('activateProfile', 'mine');
      await sleep(1000);
      expect(evil.signed()).toBe(0);
      const view = await value<{ profiles: { id: string; baseUrl: string }[] }>('getAppState');
      expect(view.profiles.find((x) => x.id === 'mine')?.baseUrl).toBe(ex.baseUrl);
      // the embedded profile cannot be rewritten at all
      expect(refusal(await call('saveProfile', { id: 'embedded', name: 'embedded', kind: 'custom', baseUrl: evil.url, wsUrl: evil.url.replace('http', 'ws'), headerPrefix: 'SVC-' })).kind).toBe('state');
    } finally {
      await evil.close();
      await value('activateProfile', 'embedded');
    }
  });

  it('refuses plain http and ws to any host but this computer', async () => {
    const e = refusal(await call('saveProfile', { name: 'plain', kind: 'custom', baseUrl: 'http://exchange.example/trade-api/v2', wsUrl: 'wss://exchange.example/trade-api/ws/v2', headerPrefix: 'KALSHI-' }));
    expect(e.message).toMatch(/must use https/);
    const w = refusal(await call('saveProfile', { name: 'plain', kind: 'custom', baseUrl: 'https://exchange.example/trade-api/v2', wsUrl: 'ws://exchange.example/trade-api/ws/v2', headerPrefix: 'KALSHI-' }));
    expect(w.message).toMatch(/must use wss/);
    expect((await value<{ profiles: { name: string }[] }>('getAppState')).profiles.some((x) => x.name === 'plain')).toBe(false);
  });

  it('stops signing when the server clock is 60 s off, shows why, and sends nothing more', async () => {
    const skewed = await standIn(60_000);
    try {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      await value('saveProfile', { id: 'skewed', name: 'skewed', kind: 'custom', baseUrl: skewed.url, wsUrl: skewed.url.replace('http', 'ws'), headerPrefix: 'SVC-' });
      await value('importKey', { profileId: 'skewed', apiKeyId: 'k-skewed', privateKeyPem: pem });
      await value('activateProfile', 'skewed');
      await until('the clock problem', async () => !!(await value<{ connection: { clockProblem?: string } }>('getAppState')).connection.clockProblem);
      const seenAt = Date.now();
      const conn = (await value<{ connection: { clockProblem: string } }>('getAppState')).connection;
      expect(conn.clockProblem).toMatch(/60 s off/);
      expect(skewed.signed()).toBeGreaterThan(0); // the answer that told it was to a signed request
      const e = refusal(await call('request', { id: 'getBalance' }));
      expect(e.message).toMatch(/will not sign/);
      await sleep(1500);
      // requests signed before it knew may still arrive (on a busy machine one landed after the
      // problem was shown): nothing that arrives was signed after it was shown
      const late = skewed.signedAt().filter((ts) => !(ts <= seenAt));
      expect(late).toEqual([]);
    } finally {
      await value('activateProfile', 'embedded');
      await skewed.close();
    }
  });
});

describe('no answer the renderer can obtain carries key material', () => {
  it('walks every endpoint row and every method with no or empty arguments, then scans all it received', async () => {
    const refusedRows: string[] = [];
    for (const [id, row] of Object.entries(endpoints)) {
      const r = await call('request', { id });
      if (row.renderer === undefined) {
        expect(r.ok).toBe(false);
        refusedRows.push(id);
      }
    }
    expect(refusedRows.sort()).toEqual(['batchCancelOrders', 'cancelAllOrders', 'cancelOrder', 'createApiKey', 'decreaseOrder', 'deleteApiKey', 'generateApiKey']);
    for (const m of ['getAppState', 'getSettings', 'getRisk', 'getLayout', 'getAuditLog']) await call(m, ...(m === 'getLayout' ? ['embedded'] : m === 'getAuditLog' ? [{}] : []));
    expect(frames.length).toBeGreaterThan(100);
    assertNoKeyMaterial(frames.join('\n'), pems);
  }, 120_000);
});

describe('the methods new in issues 38-39, as a hostile page sends them', () => {
  it('a saved-backtest id outside its folder, junk for a sweep or a snapshot: refused at the door, all in one tick, and the kill switch still engages beside them', async () => {
    const answers = await Promise.all([
      call('reproduceBacktest', { id: '../../vault/keys' }),
      call('reproduceBacktest', { id: 'bt-../../x' }),
      call('reproduceBacktest', { id: 'bt-ok', extra: 1 }),
      call('sweepStrategy', { code: 'x', params: {}, recordingId: '../x', by: 'pnl' }),
      call('bookSnapshots', { tickers: 'not-a-list' }),
      call('engageKillSwitch'),
    ]);
    for (const a of answers.slice(0, 5)) {
      expect(a.ok).toBe(false);
      expect((a as { error: { kind: string } }).error.kind).toBe('validation');
    }
    expect(answers[5]!.ok).toBe(true);
    expect(((await call('getRisk')) as { ok: true; value: { killSwitch: { engaged: boolean } } }).value.killSwitch.engaged).toBe(true);
  }, 60_000);
});
