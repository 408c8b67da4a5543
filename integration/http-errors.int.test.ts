// Every error answer carries the protocol's body {"error": {"code", "message"}}, the HTTP
// framework's own included (431, 414, malformed percent-encoding, bad JSON, a non-JSON body,
// 404, 405, 413); and request bodies are taken as the official SDK sends them: an empty
// form-encoded body is no body, but create-subaccount needs JSON as the spec says.
import { createPrivateKey, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { freshTicker, openMarket } from '../test-support/exchange/trading-fixtures';
import { API_PREFIX } from '../src-shared/endpoints';
import { createSigner } from '../src-main/api/signer';

let t: TestExchange;
beforeAll(async () => {
  t = await startTestExchange();
});
afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const errorBody = (code: string) => ({ error: { code, message: expect.any(String) } });

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A request signed the way the official SDK signs (KALSHI- headers), with any body and content type. */
async function signed(method: string, path: string, body?: string, contentType?: string): Promise<Answer> {
  const a = t.account('trader');
  const signer = createSigner({ credentials: { keyId: a.api_key_id, key: createPrivateKey(a.private_key_pem) }, headerPrefix: 'KALSHI-' });
  const full = `${API_PREFIX}${path}`;
  const headers: Record<string, string> = { ...signer.headers(method, full, Date.now()) };
  if (contentType) headers['content-type'] = contentType;
  return answer(await fetch(`http://127.0.0.1:${t.ex.port}${full}`, { method, headers, ...(body !== undefined ? { body } : {}) }));
}

/** Raw bytes to the server; resolves with the status line's code and the body after the headers. */
function rawHttp(request: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(t.ex.port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: body ? (JSON.parse(body) as unknown) : undefined });
    });
  });
}

describe("the HTTP framework's own errors", () => {
  it('a route that does not exist: 404 not_found', async () => {
    const r = await answer(await fetch(`${t.ex.baseUrl}/no/such/route`));
    expect([r.status, r.body]).toEqual([404, errorBody('not_found')]);
  });

  it('a method the path does not have: 405 method_not_allowed, with Allow', async () => {
    const r = await answer(await fetch(`${t.ex.baseUrl}/markets`, { method: 'DELETE' }));
    expect([r.status, r.body]).toEqual([405, errorBody('method_not_allowed')]);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    const order = await answer(await fetch(`${t.ex.baseUrl}/portfolio/events/orders/${randomUUID()}`, { method: 'GET' }));
    expect(order.status).toBe(405);
    expect(order.headers.get('allow')).toBe('DELETE');
  });

  it('a path that is not valid percent-encoding: 400 invalid_parameters', async () => {
    const r = await answer(await fetch(`${t.ex.baseUrl}/markets/ABC%ZZ`));
    expect([r.status, r.body]).toEqual([400, errorBody('invalid_parameters')]);
  });

  it('a path parameter over 100 characters: 414 uri_too_long', async () => {
    const r = await answer(await fetch(`${t.ex.baseUrl}/markets/${'A'.repeat(101)}`));
    expect([r.status, r.body]).toEqual([414, errorBody('uri_too_long')]);
  });

  it('headers over the limit, or a request line that long: 431 with the error body', async () => {
    const bigHeader = await rawHttp(`GET ${API_PREFIX}/markets HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(bigHeader).toEqual({ status: 431, body: errorBody('request_header_fields_too_large') });
    const longPath = await rawHttp(`GET ${API_PREFIX}/markets/${'A'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longPath).toEqual({ status: 431, body: errorBody('request_header_fields_too_large') });
  });

  it('a request that is not HTTP: 400 with the error body', async () => {
    expect(await rawHttp('NOT HTTP AT ALL\r\n\r\n')).toEqual({ status: 400, body: errorBody('invalid_parameters') });
  });

  it('a body that is not valid JSON, or not JSON at all: 400; one over 4 MiB: 413', async () => {
    const ticker = freshTicker('ERR');
    await openMarket(t, ticker);
    const bad = await signed('POST', '/portfolio/events/orders', '{"ticker": ', 'application/json');
    expect([bad.status, bad.body]).toEqual([400, errorBody('invalid_parameters')]);
    const text = await signed('POST', '/portfolio/events/orders', `ticker=${ticker}&side=bid&count=1&price=0.5`, 'application/x-www-form-urlencoded');
    expect([text.status, text.body]).toEqual([400, errorBody('invalid_parameters')]);
    const xml = await signed('POST', '/portfolio/events/orders', '<order/>', 'application/xml');
    expect(xml.status).toBe(400);
    const big = await signed('POST', '/portfolio/events/orders', JSON.stringify({ ticker: 'x'.repeat(5 * 1024 * 1024) }), 'application/json');
    expect([big.status, big.body]).toEqual([413, errorBody('payload_too_large')]);
    // none of it placed an order
    expect(t.ex.svc.node.core.engine.listOrders({ userId: t.account('trader').user_id }).filter((o) => o.ticker === ticker)).toEqual([]);
  });
});

describe('request bodies as the official SDK sends them', () => {
  it('takes the usage-level upgrade with an empty form-encoded body (201), refuses a non-empty one (400)', async () => {
    const ticker = freshTicker('UPG');
    await openMarket(t, ticker);
    const placed = await signed('POST', '/portfolio/events/orders', JSON.stringify({ ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.05' }), 'application/json');
    expect(placed.status).toBe(201);
    const junk = await signed('POST', '/account/api_usage_level/upgrade', 'level=prime', 'application/x-www-form-urlencoded');
    expect([junk.status, junk.body]).toEqual([400, errorBody('invalid_parameters')]);
    const r = await signed('POST', '/account/api_usage_level/upgrade', '', 'application/x-www-form-urlencoded');
    expect(r.status).toBe(201);
    expect(r.body).toEqual({});
  });

  it('refuses a create-subaccount without a JSON body (400, nothing created) and takes {} as JSON', async () => {
    const before = (await signed('GET', '/portfolio/subaccounts/balances')).body;
    for (const [body, type] of [[undefined, undefined], ['', 'application/x-www-form-urlencoded'], ['', 'application/json'], ['{}', 'text/plain']] as const) {
      const r = await signed('POST', '/portfolio/subaccounts', body, type);
      expect([r.status, r.body], `${type ?? 'no content type'} ${JSON.stringify(body)}`).toEqual([400, errorBody('invalid_parameters')]);
    }
    expect((await signed('GET', '/portfolio/subaccounts/balances')).body).toEqual(before);
    const made = await signed('POST', '/portfolio/subaccounts', '{}', 'application/json');
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ subaccount_number: expect.any(Number) });
  });
});
