// Generated hostile traffic against a running exchange (fast-check arbitraries, seeded, so a
// failure names the seed and the request that broke it). REST: methods, the endpoint table's
// paths with generated parameters (traversal, NUL, unicode, very long), generated queries,
// bodies (JSON values, near-miss bodies, bytes that are not JSON), content types and encodings,
// and every kind of auth (none, good, wrong signature, unknown key, odd timestamps). WebSocket:
// generated frames on a signed connection. What must hold for every one of them:
//   - no 5xx and no dropped connection without an answer (REST);
//   - every refusal carries the error body {"error": {"code", "message"}};
//   - a refusal changes nothing: the journal takes no record (every state change is journaled);
//   - the exchange still answers a well-formed request afterwards.
import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { API_PREFIX, endpointList, WS_PATH } from '../../src-shared/endpoints';
import type { RunningExchange } from '../server';

export interface FuzzFailure {
  what: string;
  request: string;
  answer: string;
}

export interface FuzzReport {
  sent: number;
  byStatus: Record<string, number>;
  failures: FuzzFailure[];
  seconds: number;
}

interface Auth {
  keyId: string;
  key: KeyObject;
}

function rsaSign(key: KeyObject, message: string): string {
  return sign('sha256', Buffer.from(message), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }).toString('base64');
}

const nasty = fc.constantFrom('..', '../..', '%2e%2e', '%00', '\u0000', '%', '%zz', '😀', 'ü', ' ', '%20', '//', '\\', 'a'.repeat(3000), '-1', '0', '1e309', 'NaN', 'null', '{}', '[]', "'", '"', '<script>', ';', '?', '#');
const segment = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 40 }) }, { weight: 2, arbitrary: nasty }, { weight: 1, arbitrary: fc.uuid() });
const queryValue = fc.oneof(fc.string({ maxLength: 30 }), nasty, fc.integer().map(String), fc.double().map(String), fc.constantFrom('true', 'false', 'open', 'closed', 'yes', 'no', 'bid', 'ask', '0.5', '0.50', '1.0001'));

/** One generated REST request (path includes the query). */
export interface GenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  auth: 'none' | 'good' | 'bad-signature' | 'unknown-key' | 'old' | 'garbage-ts';
}

function pathFor(template: string, params: string[]): string {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++] ?? 'x').replace(/%25/g, Math.random() < 0.5 ? '%' : '%25'));
}

export function requestArb(): fc.Arbitrary<Omit<GenRequest, 'headers'> & { contentType: string | null; extraHeaders: [string, string][] }> {
  const rows = endpointList;
  const tablePath = fc.tuple(fc.constantFrom(...rows), fc.array(segment, { minLength: 3, maxLength: 3 })).map(([row, ps]) => ({ path: `${API_PREFIX}${pathFor(row.path, ps)}`, method: row.method as string }));
  const randomPath = fc.tuple(fc.array(segment, { maxLength: 5 }), fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH')).map(([ps, method]) => ({ path: `${API_PREFIX}/${ps.map((p) => encodeURI(p)).join('/')}`, method }));
  const rawPath = fc.tuple(fc.constantFrom('/', '//', '/trade-api', '/trade-api/v2/../../etc/passwd', '/trade-api/v2/%2e%2e/%2e%2e/etc/passwd', `${API_PREFIX}/markets/%00`, `${API_PREFIX}/markets?%zz`, `${API_PREFIX}//markets`, `${API_PREFIX}/markets/`, `${API_PREFIX}/MARKETS`), fc.constantFrom('GET', 'POST')).map(([path, method]) => ({ path, method }));
  const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'cursor', 'ticker', 'status', 'subaccount', 'min_ts', 'max_ts', 'event_ticker', 'series_ticker', 'tickers', 'depth', 'with_nested_markets', 'order_ids'), fc.string({ maxLength: 12 })), queryValue), { maxLength: 4 });
  const body = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 3,
      arbitrary: fc
        .record(
          {
            ticker: fc.oneof(fc.string({ maxLength: 20 }), nasty),
            side: fc.constantFrom('bid', 'ask', 'yes', 'no', '', 'BID'),
            count: fc.oneof(queryValue, fc.integer().map((n) => n as unknown as string)),
            price: fc.oneof(queryValue, fc.double() as fc.Arbitrary<unknown> as fc.Arbitrary<string>),
            client_order_id: fc.oneof(fc.uuid(), fc.string({ maxLength: 70 })),
            time_in_force: fc.constantFrom('good_till_canceled', 'immediate_or_cancel', 'fill_or_kill', 'gtc', ''),
            subaccount: fc.oneof(fc.integer({ min: -5, max: 70 }), fc.string({ maxLength: 3 }) as fc.Arbitrary<unknown> as fc.Arbitrary<number>),
            amount_cents: fc.oneof(fc.integer(), fc.double()),
            name: fc.string({ maxLength: 30 }),
            public_key: fc.string({ maxLength: 60 }),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'null', '[]', '""', '\u0000', '{"ticker":"X"}'.repeat(1000), '\uFEFF{}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"y":1}}}') },
  );
  return fc.record({
    target: fc.oneof({ weight: 6, arbitrary: tablePath }, { weight: 2, arbitrary: randomPath }, { weight: 1, arbitrary: rawPath }),
    query,
    body,
    methodOverride: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), { freq: 5 }),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', null),
    auth: fc.constantFrom('none', 'good', 'good', 'good', 'bad-signature', 'unknown-key', 'old', 'garbage-ts') as fc.Arbitrary<GenRequest['auth']>,
    // (no transfer-encoding: the client library frames the body itself, and a forged framing
    // header puts its connection in a state that is the client's, not the exchange's, problem)
    extraHeaders: fc.array(fc.tuple(fc.constantFrom('content-encoding', 'x-forwarded-for', 'accept', 'accept-encoding', 'SVC-ACCESS-KEY', 'KALSHI-ACCESS-KEY', 'origin'), fc.constantFrom('gzip', 'br', 'identity', 'chunked', '127.0.0.1', '*/*', 'x', '')), { maxLength: 2 }),
  }).map(({ target, query, body, methodOverride, contentType, auth, extraHeaders }) => {
    const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const method = methodOverride ?? target.method;
    return { method, path: qs ? `${target.path}?${qs}` : target.path, body: method === 'GET' || method === 'HEAD' ? undefined : body, contentType, auth, extraHeaders };
  });
}

export function headersFor(r: { method: string; path: string; auth: GenRequest['auth']; contentType: string | null; extraHeaders: [string, string][] }, a: Auth): Record<string, string> {
  const h: Record<string, string> = {};
  if (r.contentType) h['content-type'] = r.contentType;
  for (const [k, v] of r.extraHeaders) h[k.toLowerCase()] = v;
  const now = Date.now();
  const signed = r.path.split('?')[0]!;
  switch (r.auth) {
    case 'none':
      break;
    case 'good':
      Object.assign(h, { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': String(now), 'SVC-ACCESS-SIGNATURE': rsaSign(a.key, `${now}${r.method}${signed}`) });
      break;
    case 'bad-signature':
      Object.assign(h, { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': String(now), 'SVC-ACCESS-SIGNATURE': rsaSign(a.key, `${now}${r.method}${signed}x`) });
      break;
    case 'unknown-key':
      Object.assign(h, { 'SVC-ACCESS-KEY': '00000000-0000-4000-8000-000000000000', 'SVC-ACCESS-TIMESTAMP': String(now), 'SVC-ACCESS-SIGNATURE': 'AAAA' });
      break;
    case 'old':
      Object.assign(h, { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': String(now - 60_000), 'SVC-ACCESS-SIGNATURE': rsaSign(a.key, `${now - 60_000}${r.method}${signed}`) });
      break;
    case 'garbage-ts':
      // ASCII only: the client library refuses other bytes in a header (and mishandled it after a HEAD)
      Object.assign(h, { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': ['12a', '-1', '1e12', '0x10', '99999999999999999999'][now % 5]!, 'SVC-ACCESS-SIGNATURE': '=' });
      break;
  }
  return h;
}

function isErrorBody(text: string): boolean {
  try {
    const e = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    return typeof e?.code === 'string' && e.code.length > 0 && typeof e.message === 'string';
  } catch {
    return false;
  }
}

/**
 * `count` generated requests against `ex` (seeded), `concurrency` in flight. Signing every
 * 'good' request costs ~1 ms: the signature of a (method, path) is reused within a second.
 */
export async function fuzzRest(ex: RunningExchange, account: { api_key_id: string; private_key_pem: string }, count: number, seed: number, concurrency = 1): Promise<FuzzReport> {
  const t0 = performance.now();
  const a: Auth = { keyId: account.api_key_id, key: createPrivateKey(account.private_key_pem) };
  const pool = new Pool(`http://127.0.0.1:${ex.port}`, { connections: concurrency, pipelining: 1 });
  const samples = fc.sample(requestArb(), { numRuns: count, seed });
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [], seconds: 0 };
  const fail = (what: string, r: (typeof samples)[number], answer: string) => {
    if (report.failures.length < 50) report.failures.push({ what, request: `${r.method} ${r.path.slice(0, 300)} auth=${r.auth} ct=${r.contentType} body=${(r.body ?? '').slice(0, 200)}`, answer: answer.slice(0, 300) });
  };
  let next = 0;
  const node = ex.svc.node;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= samples.length) return;
      const r = samples[i]!;
      const headers = headersFor(r, a);
      const appendsBefore = node.journalStats.appends;
      let status: number;
      let text: string;
      try {
        const res = await pool.request({ path: r.path, method: r.method as 'GET', headers, body: r.body, headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(15_000) });
        status = res.statusCode;
        text = await res.body.text();
      } catch (e) {
        // undici refuses to send some generated requests itself (invalid characters): not the exchange's doing
        if (e instanceof Error && /invalid|Invalid/.test(e.message) && !/socket|closed|reset|ECONN/i.test(e.message)) continue;
        report.sent++;
        fail('no answer', r, (e as Error).message);
        continue;
      }
      report.sent++;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (status >= 500) fail(`answered ${status}`, r, text);
      else if (status >= 400) {
        if (r.method !== 'HEAD' && !isErrorBody(text)) fail(`${status} without the error body`, r, text);
        // the journal is shared with concurrent requests: only a sequential run can pin a change to one request
        if (concurrency === 1 && node.journalStats.appends !== appendsBefore) fail(`${status} changed state (journaled a record)`, r, text);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.close();
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}

/** Stream frames: any JSON, command-shaped objects with odd fields, any string, and a few known-bad ones. */
function wsFrameArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    {
      weight: 4,
      arbitrary: fc
        .record(
          {
            id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null), fc.double()),
            cmd: fc.constantFrom('subscribe', 'unsubscribe', 'list_subscriptions', 'update_subscription', 'get_snapshot', 'SUBSCRIBE', '', 'x'),
            params: fc.record(
              {
                channels: fc.array(fc.oneof(fc.constantFrom('orderbook_delta', 'ticker', 'trade', 'fill', 'market_lifecycle_v2', 'user_orders', 'market_positions', 'communications', 'multivariate', 'nope'), fc.string({ maxLength: 10 })), { maxLength: 3 }),
                market_ticker: fc.string({ maxLength: 30 }),
                market_tickers: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
                sids: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), { maxLength: 3 }),
                action: fc.constantFrom('add_markets', 'delete_markets', 'get_snapshot', 'x'),
                send_initial_snapshot: fc.boolean(),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
    { weight: 1, arbitrary: fc.constantFrom('{', '\u0000', '{"id":1,"cmd":"subscribe","params":' + '{"a":'.repeat(500), '[]', 'null', '{"id":1e400}') },
  );
}

/** Sends list_subscriptions with `id` and resolves with the answer's type (`error <code>` for an error), or says none came in 5 s. */
function askListSubscriptions(ws: WebSocket, id: number): Promise<string> {
  return new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve('no answer within 5 s'), 5_000);
    const on = (d: WebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { id?: number; type?: string; msg?: { code?: number } };
      if (m.id !== id) return;
      clearTimeout(timer);
      ws.off('message', on);
      resolve(m.type === 'error' ? `error ${m.msg?.code ?? '?'}` : (m.type ?? '?'));
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, cmd: 'list_subscriptions' }));
  });
}

/** `count` generated frames on one signed WebSocket; every frame must get no crash and the socket must stay usable. */
export async function fuzzWs(ex: RunningExchange, account: { api_key_id: string; private_key_pem: string }, count: number, seed: number): Promise<FuzzReport> {
  const t0 = performance.now();
  const key = createPrivateKey(account.private_key_pem);
  const open = () => {
    const ts = Date.now();
    const ws = new WebSocket(`${ex.wsUrl}`, { headers: { 'SVC-ACCESS-KEY': account.api_key_id, 'SVC-ACCESS-TIMESTAMP': String(ts), 'SVC-ACCESS-SIGNATURE': rsaSign(key, `${ts}GET${WS_PATH}`) } });
    return new Promise<WebSocket>((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  };
  const frameArb = wsFrameArbitrary();
  const frames = fc.sample(frameArb, { numRuns: count, seed });
  const report: FuzzReport = { sent: 0, byStatus: {}, failures: [], seconds: 0 };
  const appendsBefore = ex.svc.node.journalStats.appends;
  let ws = await open();
  let closes = 0;
  for (let i = 0; i < frames.length; i++) {
    if (ws.readyState !== ws.OPEN) {
      closes++;
      ws = await open();
    }
    ws.send(frames[i]!);
    report.sent++;
    // let the exchange answer now and then (and the command rate limit breathe)
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 5));
  }
  // the socket (or a fresh one) still answers a well-formed command (once the command rate
  // limit the burst spent has refilled: error 27 is the limit speaking, asked again)
  if (ws.readyState !== ws.OPEN) ws = await open();
  const ask = (id: number) => askListSubscriptions(ws, id);
  let answered = '';
  for (let attempt = 0; attempt < 10; attempt++) {
    answered = await ask(987_000 + attempt);
    if (answered !== 'error 27') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (answered !== 'ok') report.failures.push({ what: 'a well-formed command after the fuzz', request: 'list_subscriptions', answer: answered });
  if (ex.svc.node.journalStats.appends !== appendsBefore) report.failures.push({ what: 'stream commands changed state (journaled records)', request: `${count} frames`, answer: `${ex.svc.node.journalStats.appends - appendsBefore} records` });
  report.byStatus.reconnects = closes;
  ws.close();
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}
