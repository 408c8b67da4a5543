// The authentication and authorization matrix, one row per way a request can be wrong, each with
// the status and error code the exchange answers, sent raw (every header and byte under the
// test's control) against a real exchange on 127.0.0.1. Every refused write leaves the account's
// orders as they were.
import { constants, createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { freshTicker, openMarket } from '../test-support/exchange/trading-fixtures';
import { API_PREFIX } from '../src-shared/endpoints';

let t: TestExchange;
let ticker: string;
const keys: Record<string, { id: string; key: KeyObject }> = {};

beforeAll(async () => {
  t = await startTestExchange();
  ticker = freshTicker('AUTH');
  await openMarket(t, ticker, 'AUTH');
  const trader = t.client('trader');
  const own = (name: string) => ({ id: t.account(name).api_key_id, key: createPrivateKey(t.account(name).private_key_pem) });
  keys.trader = own('trader');
  keys.fcmMember = own('fcm');
  const ro = await trader.generateApiKey({ body: { name: 'read only', scopes: ['read'] } });
  keys.readOnly = { id: ro.api_key_id, key: createPrivateKey(ro.private_key) };
  const sub = (await trader.createSubaccount({ body: {} })).subaccount_number;
  const scoped = await trader.generateApiKey({ body: { name: 'scoped', subaccount: sub } });
  keys.scoped = { id: scoped.api_key_id, key: createPrivateKey(scoped.private_key) };
  const fcm = t.client('fcm');
  const { subtrader_id } = await fcm.createSubtrader({ body: { subtrader_suffix: 'matrix' } });
  const bound = await fcm.generateApiKey({ body: { name: 'bound', fcm_subtrader_id: subtrader_id } });
  keys.fcmBound = { id: bound.api_key_id, key: createPrivateKey(bound.private_key) };
  const ed = await trader.generateApiKey({ body: { name: 'ed', key_type: 'ed25519' } });
  keys.ed25519 = { id: ed.api_key_id, key: createPrivateKey(ed.private_key) };
});
afterAll(async () => {
  await t?.close();
});

interface Req {
  method?: string;
  /** path after the API prefix, query included */
  path: string;
  key?: { id: string; key: KeyObject };
  /** what is signed, when it is not `ts + METHOD + path without query` */
  message?: (ts: number, method: string, fullPath: string) => string;
  ts?: (now: number) => number | string;
  headers?: (h: Record<string, string>) => Record<string, string>;
  body?: unknown;
  unsigned?: boolean;
}

function signWith(key: KeyObject, message: string): string {
  const data = Buffer.from(message);
  // RSA-PSS as the protocol says; an Ed25519 key signs its own way (and must still be refused)
  return (key.asymmetricKeyType === 'ed25519' ? sign(null, data, key) : sign('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST })).toString('base64');
}

async function send(r: Req): Promise<{ status: number; code: string | undefined; details: string | undefined; headers: Record<string, string> }> {
  const method = r.method ?? 'GET';
  const full = `${API_PREFIX}${r.path}`;
  const now = Date.now();
  const ts = r.ts ? r.ts(now) : now;
  const k = r.key ?? keys.trader!;
  let headers: Record<string, string> = {};
  if (!r.unsigned) {
    const message = r.message ? r.message(Number(ts), method, full) : `${ts}${method}${full.split('?')[0]}`;
    headers = { 'SVC-ACCESS-KEY': k.id, 'SVC-ACCESS-TIMESTAMP': String(ts), 'SVC-ACCESS-SIGNATURE': signWith(k.key, message) };
  }
  if (r.headers) headers = r.headers(headers);
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${t.ex.port}${full}`, { method, headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) });
  const text = await res.text();
  const err = text ? (JSON.parse(text) as { error?: { code?: string; details?: string } }).error : undefined;
  return { status: res.status, code: err?.code, details: err?.details, headers: { ...headers } };
}

const order = (extra: Record<string, unknown> = {}) => ({ ticker, side: 'bid', count: '1', price: '0.10', client_order_id: randomUUID(), ...extra });
const ordersOf = async (name: string) => (await t.client(name).getOrders({ query: { ticker } })).orders.length;

describe('auth matrix', () => {
  it('control: a well-signed read and write pass', async () => {
    expect((await send({ path: '/portfolio/balance' })).status).toBe(200);
    expect((await send({ method: 'POST', path: '/portfolio/events/orders', body: order() })).status).toBe(201);
  });

  const rows: [string, Req, number, string, string?][] = [
    ['no auth headers on a signed endpoint', { path: '/portfolio/balance', unsigned: true }, 401, 'authentication_error', 'MISSING_API_KEY'],
    ['one of the three headers missing', { path: '/portfolio/balance', headers: (h) => ({ 'SVC-ACCESS-KEY': h['SVC-ACCESS-KEY']!, 'SVC-ACCESS-TIMESTAMP': h['SVC-ACCESS-TIMESTAMP']! }) }, 401, 'authentication_error'],
    ['bad signature (another message signed)', { path: '/portfolio/balance', message: (ts) => `${ts}GET${API_PREFIX}/portfolio/positions` }, 401, 'authentication_error', 'INCORRECT_API_KEY_SIGNATURE'],
    ['signature that is not base64 of anything', { path: '/portfolio/balance', headers: (h) => ({ ...h, 'SVC-ACCESS-SIGNATURE': '!!!not-base64!!!' }) }, 401, 'authentication_error', 'INCORRECT_API_KEY_SIGNATURE'],
    ['signature of a GET replayed on a DELETE', { method: 'DELETE', path: `/portfolio/events/orders/${randomUUID()}`, message: (ts, _m, p) => `${ts}GET${p}` }, 401, 'authentication_error', 'INCORRECT_API_KEY_SIGNATURE'],
    ['unknown key id', { path: '/portfolio/balance', headers: (h) => ({ ...h, 'SVC-ACCESS-KEY': randomUUID() }) }, 401, 'authentication_error', 'INCORRECT_API_KEY'],
    ['expired timestamp (6 s old)', { path: '/portfolio/balance', ts: (now) => now - 6_000 }, 401, 'header_timestamp_expired'],
    ['future timestamp (6 s ahead)', { path: '/portfolio/balance', ts: (now) => now + 6_000 }, 401, 'header_timestamp_expired'],
    ['timestamp in seconds, not milliseconds', { path: '/portfolio/balance', ts: (now) => Math.floor(now / 1000) }, 401, 'header_timestamp_expired'],
    ['timestamp that is not a number', { path: '/portfolio/balance', ts: () => 'yesterday' }, 401, 'authentication_error', 'INVALID_TIMESTAMP'],
    ['the query string signed by mistake', { path: '/portfolio/orders?limit=5', message: (ts, m, p) => `${ts}${m}${p}` }, 401, 'authentication_error', 'INCORRECT_API_KEY_SIGNATURE'],
    ['an Ed25519 key (only RSA-PSS signs requests)', { path: '/portfolio/balance', key: undefined }, 401, 'authentication_error', 'INCORRECT_API_KEY_SIGNATURE'],
  ];
  for (const [name, req, status, code, details] of rows) {
    it(`${name}: ${status} ${code}${details ? ` (${details})` : ''}`, async () => {
      const r = await send(name.startsWith('an Ed25519') ? { ...req, key: keys.ed25519! } : req);
      expect({ status: r.status, code: r.code }).toEqual({ status, code });
      if (details) expect(r.details).toBe(details);
    });
  }

  it('a read-only key reads (200) and cannot write: 403 forbidden, nothing placed', async () => {
    expect((await send({ path: '/portfolio/balance', key: keys.readOnly! })).status).toBe(200);
    const before = await ordersOf('trader');
    const r = await send({ method: 'POST', path: '/portfolio/events/orders', key: keys.readOnly!, body: order() });
    expect({ status: r.status, code: r.code }).toEqual({ status: 403, code: 'forbidden' });
    expect(await ordersOf('trader')).toBe(before);
  });

  it('a subaccount-scoped key reaching another subaccount: 403 forbidden (read and write), nothing placed', async () => {
    expect((await send({ path: '/portfolio/balance', key: keys.scoped! })).status).toBe(200);
    const read = await send({ path: '/portfolio/balance?subaccount=0', key: keys.scoped! });
    expect({ status: read.status, code: read.code }).toEqual({ status: 403, code: 'forbidden' });
    const before = await ordersOf('trader');
    const write = await send({ method: 'POST', path: '/portfolio/events/orders', key: keys.scoped!, body: order({ subaccount: 0 }) });
    expect({ status: write.status, code: write.code }).toEqual({ status: 403, code: 'forbidden' });
    expect(await ordersOf('trader')).toBe(before);
  });

  it('an FCM-bound key on plain REST: 403 forbidden, read and write', async () => {
    for (const r of [await send({ path: '/portfolio/balance', key: keys.fcmBound! }), await send({ method: 'POST', path: '/portfolio/events/orders', key: keys.fcmBound!, body: order() })]) {
      expect({ status: r.status, code: r.code }).toEqual({ status: 403, code: 'forbidden' });
    }
  });

  it('a non-FCM account on /fcm: 403 forbidden; the FCM member passes the same check', async () => {
    const r = await send({ path: '/fcm/orders?subtrader_id=x_y' });
    expect({ status: r.status, code: r.code }).toEqual({ status: 403, code: 'forbidden' });
    expect((await send({ path: '/fcm/orders?subtrader_id=x_y', key: keys.fcmMember! })).status).not.toBe(403);
  });

  it('a deleted key is refused at once, even replaying the exact request that verified a moment ago (no cached verification)', async () => {
    const g = await t.client('trader').generateApiKey({ body: { name: 'short lived' } });
    const k = { id: g.api_key_id, key: createPrivateKey(g.private_key) };
    const first = await send({ path: '/portfolio/balance', key: k });
    expect(first.status).toBe(200);
    await t.client('trader').deleteApiKey({ params: { api_key: g.api_key_id } });
    // the same headers, byte for byte, within the 5 s window
    const replay = await send({ path: '/portfolio/balance', unsigned: true, headers: () => first.headers });
    expect({ status: replay.status, code: replay.code, details: replay.details }).toEqual({ status: 401, code: 'authentication_error', details: 'INCORRECT_API_KEY' });
  });
});
