// Provenance (issue 33): every order action carries where it came from to the gate and the audit
// journal. On the real TradingService, session, signed client and limiter against a fake exchange
// (a real HTTP server on 127.0.0.1:0): place, batch place, amend, decrease, cancel, batch cancel and
// cancel-all each land in the journal with their origin, main's own origins (a strategy, a local
// order's trigger) with their id; the page's door takes only the page's origins (a page that says
// "strategy" or gives an origin id is refused, nothing sent); and no origin changes what the gate
// allows (a refused order is refused whatever it says it came from).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TradingService } from './trading-service';
import type { ProfilesService } from './profiles-service';
import { TradingSession } from '../session/session';
import { toTerminalError } from '../ipc/door';
import { methodArgs } from '../../src-shared/ipc/contract';
import { DEFAULT_RISK_LIMITS } from '../../src-shared/ipc/risk';

const T = 'KXPROV-26-T1';

let server: Server;
let url = '';
let seq = 0;
const requests: string[] = [];
const orders = new Map<string, Record<string, unknown>>();

function created(b: Record<string, unknown>): Record<string, unknown> {
  const o = { order_id: `o-${++seq}`, client_order_id: String(b.client_order_id), ticker: String(b.ticker), side: b.side, yes_price_dollars: String(b.price), remaining_count_fp: Number(b.count).toFixed(2), fill_count_fp: '0.00', status: 'resting' };
  orders.set(o.order_id, o);
  return { order_id: o.order_id, client_order_id: o.client_order_id, fill_count: '0.00', remaining_count: o.remaining_count_fp, status: 'resting', ts_ms: Date.now(), order: { ...o } };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
  const p = new URL(req.url ?? '/', 'http://x').pathname.replace('/trade-api/v2', '');
  const m = req.method ?? '';
  requests.push(`${m} ${p}`);
  let status = 200;
  let answer: unknown = {};
  const id = p.split('/')[4] ?? '';
  if (m === 'POST' && p === '/portfolio/events/orders') {
    status = 201;
    answer = created(body);
  } else if (m === 'POST' && p === '/portfolio/events/orders/batched') {
    status = 201;
    answer = { orders: (body.orders as Record<string, unknown>[]).map((o) => ({ ...created(o), error: null })) };
  } else if (m === 'POST' && p.endsWith('/amend')) {
    const o = orders.get(id)!;
    const old = { ...o };
    Object.assign(o, { yes_price_dollars: String(body.price), remaining_count_fp: Number(body.count).toFixed(2) });
    answer = { old_order: old, order: { ...o }, order_id: id, remaining_count: o.remaining_count_fp, fill_count: '0.00', ts_ms: Date.now() };
  } else if (m === 'POST' && p.endsWith('/decrease')) {
    answer = { order: { ...orders.get(id) }, reduced_by: '1.00', ts_ms: Date.now() };
  } else if (m === 'DELETE' && p === '/portfolio/events/orders/batched') {
    answer = { orders: (body.orders as { order_id: string }[]).map((o) => ({ order_id: o.order_id, reduced_by: '1.00', error: null })) };
  } else if (m === 'DELETE' && p === '/portfolio/events/orders') {
    status = 204;
  } else if (m === 'DELETE' && p.startsWith('/portfolio/events/orders/')) {
    answer = { order_id: id, reduced_by: '1.00', ts_ms: Date.now() };
  } else if (m === 'GET') {
    answer = p.includes('balances') ? { subaccount_balances: [] } : { orders: [], market_positions: [], event_positions: [], fills: [], cursor: '' };
  } else {
    status = 404;
    answer = { error: { code: 'not_found', message: `fake: ${m} ${p}` } };
  }
  res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' });
  res.end(status === 204 ? undefined : JSON.stringify(answer));
}

let session: TradingSession;
let trading: TradingService;

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  session = new TradingSession({
    profile: { kind: 'custom', name: 'fake', baseUrl: `${url}/trade-api/v2`, wsUrl: `${url.replace('http', 'ws')}/trade-api/ws/v2`, headerPrefix: 'SVC-' },
    credentials: { keyId: 'k-fake', privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    emit: () => undefined,
  });
  // a live book: best bid 0.50, best ask 0.52
  session.books.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
  session.books.handle({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: T, yes_dollars_fp: [['0.5000', '10.00']], no_dollars_fp: [['0.4800', '10.00']] } });
  const active = { profileId: 'p', keyId: 'k-fake', session };
  const profiles = { profiles: { activeProfileId: 'p' }, need: () => active, active: () => active } as unknown as ProfilesService;
  trading = new TradingService({ dataDir: mkdtempSync(path.join(tmpdir(), 'provenance-')), profiles, emit: () => undefined, describeError: toTerminalError });
  await trading.saveRiskLimits({ ...DEFAULT_RISK_LIMITS, duplicateWindowMs: 0 });
}, 30_000);

afterAll(async () => {
  await session.stop();
  await new Promise((r) => server.close(r));
});

const journal = async () => trading.getAuditLog({});

describe('every order action says where it came from, in the audit journal', () => {
  it('place, batch, amend, decrease, cancel, batch cancel and cancel-all carry their origin (and main’s own, their id)', async () => {
    const a = await trading.placeOrder({ ticker: T, side: 'bid', price: '0.40', count: '2', origin: 'strategy', originId: 'mm-1' });
    const b = await trading.placeOrder({ ticker: T, side: 'bid', price: '0.41', count: '2', origin: 'palette' });
    const batch = await trading.placeOrders({ orders: [{ ticker: T, side: 'bid', price: '0.39', count: '1', origin: 'conditional', originId: 'local-7' }] });
    expect(batch.results[0]!.ok).toBe(true);
    await trading.amendOrder({ order_id: b.order_id, ticker: T, side: 'bid', price: '0.42', count: '2', origin: 'ladder' });
    await trading.decreaseOrder({ order_id: a.order_id, ticker: T, reduce_by: '1', origin: 'blotter' });
    await trading.cancelOrder({ order_id: a.order_id, ticker: T, origin: 'strategy', originId: 'mm-1' });
    await trading.batchCancel({ orders: [{ order_id: b.order_id, ticker: T }], origin: 'button' });
    await trading.cancelAll({ ticker: T, origin: 'hotkey' });
    const got = (await journal()).map((e) => `${e.action} ${e.origin ?? '-'}${e.originId ? ` ${e.originId}` : ''}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'place strategy mm-1',
        'place palette',
        'place conditional local-7',
        'amend ladder',
        'decrease blotter',
        'cancel strategy mm-1',
        'batch_cancel button',
      ]),
    );
    // cancel-all in a market with nothing left of mine resting still says who asked
    expect(got.some((g) => g.startsWith('cancel_all hotkey'))).toBe(true);
  });

  it('the page says only the page’s origins: "strategy", "conditional", "fix" or an origin id from the door are refused', () => {
    const place = methodArgs.placeOrder;
    const ok = place.safeParse([{ ticker: T, side: 'bid', price: '0.40', count: '1', origin: 'palette' }]);
    expect(ok.success).toBe(true);
    for (const origin of ['strategy', 'conditional', 'fix', 'kill_switch']) {
      expect(place.safeParse([{ ticker: T, side: 'bid', price: '0.40', count: '1', origin }]).success, origin).toBe(false);
      expect(methodArgs.cancelOrder.safeParse([{ order_id: 'o-1', origin }]).success, origin).toBe(false);
    }
    expect(place.safeParse([{ ticker: T, side: 'bid', price: '0.40', count: '1', origin: 'palette', originId: 'x' }]).success).toBe(false);
  });

  it('no origin is a way around the gate: an order over the limit is refused whatever it says it came from', async () => {
    const before = requests.length;
    for (const origin of ['ticket', 'hotkey', 'palette', 'api', 'strategy', 'conditional', 'fix'] as const) {
      await expect(trading.placeOrder({ ticker: T, side: 'bid', price: '0.40', count: '5000', origin })).rejects.toMatchObject({ name: 'RiskRefusal' });
    }
    expect(requests.slice(before).filter((r) => r.startsWith('POST'))).toEqual([]);
    const refused = (await journal()).filter((e) => e.outcome === 'refused');
    expect(refused.map((e) => e.origin)).toEqual(expect.arrayContaining(['ticket', 'hotkey', 'palette', 'api', 'strategy', 'conditional', 'fix']));
  });
});
