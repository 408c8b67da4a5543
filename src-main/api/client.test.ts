import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src-shared/endpoints';
import { endpoint } from '../../src-shared/endpoints/types';
import { noParams, noQuery } from '../../src-shared/endpoints/query';
import { buildPath, createApiClient, RESIGN_AFTER_MS, type ApiClient } from './client';
import type { RateLimiter } from './limiter';
import { ApiError, ArgsValidationError, NetworkError, ResponseShapeError, TimeoutError } from './errors';
import { json, market, rows, rsaKeys, startServer, type TestServer } from '../../test-support/main/api-server';
import { ClockSkewError } from './clock';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(s: TestServer, extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({ profile: { kind: 'embedded', baseUrl: s.origin }, credentials: { keyId: 'k1', privateKeyPem: rsaKeys().privateKeyPem }, timeoutMs: 2000, ...extra });
}

describe('buildPath', () => {
  it('percent-encodes path parameters', () => {
    expect(buildPath(rows.getMarket, { ticker: 'A B/C?' }, {})).toBe('/markets/A%20B%2FC%3F');
  });

  it('repeats array parameters for the repeat style', () => {
    expect(buildPath(rows.getOrderbooks, {}, { tickers: ['X-1', 'Y 2'], depth: 3 })).toBe('/markets/orderbooks?tickers=X-1&tickers=Y%202&depth=3');
  });

  it('joins array parameters with literal commas for the comma style', () => {
    expect(buildPath(rows.getMarkets, {}, { tickers: ['A', 'B', 'C'], limit: 5 })).toBe('/markets?tickers=A,B,C&limit=5');
  });

  it('omits undefined and null values and empty arrays; writes booleans as true/false', () => {
    expect(buildPath(rows.getOrderbooks, {}, { tickers: [], depth: undefined, include_empty: false, x: null })).toBe('/markets/orderbooks?include_empty=false');
  });

  it('refuses a missing path parameter', () => {
    expect(() => buildPath(rows.getMarket, {}, {})).toThrow(ArgsValidationError);
  });
});

describe('createApiClient', () => {
  it('has one method per row of the endpoint table', () => {
    const client = createApiClient({ profile: { kind: 'demo' } });
    for (const id of Object.keys(endpoints)) expect(typeof (client as unknown as Record<string, unknown>)[id], id).toBe('function');
  });

  it('sends a table row through its typed method and parses the response', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/trade-api/v2/exchange/status') json(res, 200, { exchange_active: true, trading_active: false, exchange_index_statuses: null });
      else json(res, 404, { error: { code: 'not_found', message: 'no' } });
    });
    const client = clientFor(server);
    const status = await client.getExchangeStatus();
    expect(status).toEqual({ exchange_active: true, trading_active: false, exchange_index_statuses: [] });
    const again = await client.call('getExchangeStatus');
    expect(again.exchange_active).toBe(true);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /trade-api/v2/exchange/status', 'GET /trade-api/v2/exchange/status']);
  });

  it('builds the URL from validated params and query (comma style, omitted undefined)', async () => {
    server = await startServer((_req, res) => json(res, 200, { markets: [market('A')], cursor: null }));
    const client = clientFor(server);
    const out = await client.request(rows.getMarkets, { query: { tickers: ['A', 'B'], limit: 10, status: undefined } });
    expect(out.markets.map((m) => m.ticker)).toEqual(['A']);
    expect(server.requests[0]!.url).toBe('/trade-api/v2/markets?limit=10&tickers=A,B');
  });

  describe('signing and the rate limiter', () => {
    const createArgs = { body: { ticker: 'T', side: 'bid' as const, count: '1', price: '0.5', client_order_id: 'c1' } };
    const answer = () => startServer((_req, res) => json(res, 201, { order_id: 'o1', client_order_id: 'c1', fill_count: '0.00', remaining_count: '1.00' }));
    afterEach(() => vi.restoreAllMocks());

    it('signs before the token is taken, so a slow signature cannot hold a request between its token and its send', async () => {
      server = await answer();
      const tookAt: number[] = [];
      const limiter = { take: async () => void tookAt.push(Date.now()), drain: () => undefined } as unknown as RateLimiter;
      await clientFor(server, { limiter }).request(rows.createOrder, createArgs);
      const stamp = Number(server.requests[0]!.headers['svc-access-timestamp']);
      expect(tookAt).toHaveLength(1);
      expect(stamp).toBeLessThanOrEqual(tookAt[0]!);
    });

    it('signs again when the token took longer than RESIGN_AFTER_MS (the exchange refuses a timestamp 5 s old)', async () => {
      server = await answer();
      let shift = 0;
      const realNow = Date.now.bind(Date);
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
      const limiter = {
        take: async () => {
          shift += RESIGN_AFTER_MS + 1_000; // the wait, as the clock sees it
        },
        drain: () => undefined,
      } as unknown as RateLimiter;
      const before = realNow();
      await clientFor(server, { limiter }).request(rows.createOrder, createArgs);
      const stamp = Number(server.requests[0]!.headers['svc-access-timestamp']);
      expect(stamp).toBeGreaterThanOrEqual(before + RESIGN_AFTER_MS + 1_000);
    });
  });

  it('sends the JSON body of a write and its content type', async () => {
    server = await startServer((req, res) => json(res, 201, { order_id: 'o1', client_order_id: JSON.parse(req.body).client_order_id, fill_count: '0.00', remaining_count: '1.00' }));
    const client = clientFor(server);
    const out = await client.request(rows.createOrder, { body: { ticker: 'T', side: 'bid', count: '1', price: '0.5', client_order_id: 'c1' } });
    expect(out.order_id).toBe('o1');
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ ticker: 'T', side: 'bid', count: '1', price: '0.5', client_order_id: 'c1' });
  });

  it('rejects bad arguments with a clear error and sends nothing', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const client = clientFor(server);
    await expect(client.request(rows.getMarkets, { query: { limit: 0 } })).rejects.toThrow(/getMarkets: invalid query: limit: .*nothing was sent/);
    await expect(client.request(rows.getMarket, { params: { ticker: '' } })).rejects.toBeInstanceOf(ArgsValidationError);
    // @ts-expect-error side must be bid or ask
    await expect(client.request(rows.createOrder, { body: { ticker: 'T', side: 'yes', count: '1', price: '0.5' } })).rejects.toMatchObject({ part: 'body', endpointId: 'createOrder' });
    // @ts-expect-error the row takes no body
    await expect(client.request(rows.getMarkets, { body: { x: 1 } })).rejects.toThrow(/takes no request body/);
    // @ts-expect-error unknown query key
    await expect(client.request(rows.getMarkets, { query: { bogus: 1 } })).rejects.toThrow(/invalid query/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a signed row without credentials before sending', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin } });
    await expect(client.request(rows.getOrders, {})).rejects.toThrow(/signed endpoint and this client has no credentials/);
    expect(server.requests).toHaveLength(0);
  });

  it('handles a 204 with an empty body', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const client = clientFor(server);
    await expect(client.request(rows.cancelAllOrders, { query: { subaccount: 2 } })).resolves.toEqual({});
    expect(server.requests[0]!.url).toBe('/trade-api/v2/portfolio/events/orders?subaccount=2');
    expect(server.requests[0]!.method).toBe('DELETE');
  });

  describe('errors', () => {
    it('turns an error body into an ApiError with status, code, message, details and request id', async () => {
      server = await startServer((_req, res) =>
        json(res, 400, { error: { code: 'invalid_order', message: 'order rejected', details: 'post only cross' } }, { 'x-request-id': 'req-77' }),
      );
      const err = await clientFor(server).request(rows.createOrder, { body: { ticker: 'T', side: 'bid', count: '1', price: '0.5' } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({
        status: 400,
        code: 'invalid_order',
        serverMessage: 'order rejected',
        details: 'post only cross',
        requestId: 'req-77',
        method: 'POST',
        path: '/trade-api/v2/portfolio/events/orders',
      });
      expect((err as Error).message).toBe('POST /trade-api/v2/portfolio/events/orders -> 400 invalid_order: order rejected (post only cross)');
    });

    it('gives a clear ApiError for a non-JSON 500', async () => {
      server = await startServer((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<html>upstream exploded</html>');
      });
      const err = await clientFor(server).request(rows.getMarkets, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).not.toBeInstanceOf(ResponseShapeError);
      expect(err).toMatchObject({ status: 500, code: 'server_error', path: '/trade-api/v2/markets' });
      expect((err as Error).message).toMatch(/HTTP 500 .*not the error JSON: <html>upstream exploded<\/html>/);
    });

    it('raises ResponseShapeError naming the path and the zod issue for a 2xx with the wrong shape', async () => {
      server = await startServer((_req, res) => json(res, 200, { markets: [{ ticker: 5 }] }));
      const err = await clientFor(server).request(rows.getMarkets, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseShapeError);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as Error).message).toMatch(/GET \/trade-api\/v2\/markets -> 200 response_shape: getMarkets: response does not match the schema: markets\.0\.ticker: /);
      expect((err as ResponseShapeError).issues[0]!.path).toEqual(['markets', 0, 'ticker']);
    });

    it('raises ResponseShapeError for a 2xx body that is not JSON', async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200);
        res.end('hello');
      });
      await expect(clientFor(server).request(rows.getMarkets, {})).rejects.toThrow(/response body is not JSON: hello/);
    });

    it('distinguishes a timeout (may have reached the server) from a refused connection (did not)', async () => {
      server = await startServer((_req, res) => {
        setTimeout(() => json(res, 200, { markets: [] }), 1500);
      });
      const timeout = await clientFor(server, { timeoutMs: 100 }).request(rows.getMarkets, {}).catch((e: unknown) => e);
      expect(timeout).toBeInstanceOf(TimeoutError);
      expect(timeout).toMatchObject({ maybeReachedServer: true });
      expect((timeout as Error).message).toMatch(/no answer within 100 ms/);

      const dead = await startServer(() => undefined);
      const origin = dead.origin;
      await dead.close();
      const refused = await createApiClient({ profile: { kind: 'embedded', baseUrl: origin } }).request(rows.getMarkets, {}).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(NetworkError);
      expect(refused).not.toBeInstanceOf(TimeoutError);
      expect(refused).toMatchObject({ maybeReachedServer: false, errorCode: 'ECONNREFUSED' });
    });

    it('reports a reset connection as a NetworkError that may have reached the server', async () => {
      server = await startServer((_req, _res, raw) => {
        raw.socket.destroy();
      });
      const err = await clientFor(server).request(rows.getMarkets, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ maybeReachedServer: true });
    });

    it("passes the caller's abort through untouched", async () => {
      server = await startServer((_req, res) => {
        setTimeout(() => json(res, 200, { markets: [] }), 1000);
      });
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('user cancelled')), 50);
      await expect(clientFor(server).request(rows.getMarkets, {}, { signal: ac.signal })).rejects.toThrow('user cancelled');
    });
  });

  describe('clock offset', () => {
    it('corrects signing timestamps by the offset measured from a Date header 20 s ahead', async () => {
      server = await startServer((_req, res) => json(res, 200, { orderbooks: [] }, { date: new Date(Date.now() + 20_000).toUTCString() }));
      const client = clientFor(server);
      await client.request(rows.getOrderbooks, { query: { tickers: ['A'] } });
      await client.request(rows.getOrderbooks, { query: { tickers: ['A'] } });
      const [first, second] = server.requests.map((r) => Number(r.headers['svc-access-timestamp']));
      expect(Math.abs(first! - Date.now())).toBeLessThan(5_000);
      expect(second! - Date.now()).toBeGreaterThan(18_000);
      expect(second! - Date.now()).toBeLessThan(22_000);
      expect(client.clock.offsetMs).toBeGreaterThan(18_500);
    });

    it('does not correct an offset within the 1 s resolution of Date', async () => {
      server = await startServer((_req, res) => json(res, 200, { orderbooks: [] }));
      const client = clientFor(server);
      await client.request(rows.getOrderbooks, { query: { tickers: ['A'] } });
      expect(client.clock.offsetMs).toBe(0);
    });

    /** A server whose clock is 20 s ahead and which enforces a 5 s window on signed timestamps. */
    async function skewedServer(): Promise<TestServer> {
      return startServer((req, res) => {
        const serverNow = Date.now() + 20_000;
        const date = new Date(serverNow).toUTCString();
        const ts = Number(req.headers['svc-access-timestamp']);
        if (Math.abs(ts - serverNow) > 5_000) {
          json(res, 401, { error: { code: 'header_timestamp_expired', message: 'timestamp expired' } }, { date });
        } else if (req.method === 'POST') {
          json(res, 201, { order_id: 'o1', fill_count: '0', remaining_count: '1' }, { date });
        } else {
          json(res, 200, { orderbooks: [] }, { date });
        }
      });
    }

    it('re-measures after 401 header_timestamp_expired and retries a read once', async () => {
      server = await skewedServer();
      const client = clientFor(server);
      await expect(client.request(rows.getOrderbooks, { query: { tickers: ['A'] } })).resolves.toEqual({ orderbooks: [] });
      expect(server.requests).toHaveLength(2);
      expect(client.clock.offsetMs).toBeGreaterThan(18_000);
    });

    it('retries an idempotent create once after the re-measure, but not a plain write', async () => {
      server = await skewedServer();
      const body = { ticker: 'T', side: 'bid', count: '1', price: '0.5', client_order_id: 'c' } as const;
      const plain = await clientFor(server).request(rows.createOrder, { body }).catch((e: unknown) => e);
      expect(plain).toMatchObject({ status: 401, code: 'header_timestamp_expired' });
      expect(server.requests).toHaveLength(1);

      await expect(clientFor(server).request(rows.createOrder, { body }, { idempotent: true })).resolves.toMatchObject({ order_id: 'o1' });
      expect(server.requests).toHaveLength(3);
    });

    it('refuses to sign anything once a Date header is more than 30 s off, and says why', async () => {
      server = await startServer((_req, res) => json(res, 200, { orderbooks: [] }, { date: new Date(Date.now() + 60_000).toUTCString() }));
      const client = clientFor(server);
      await client.request(rows.getOrderbooks, { query: { tickers: ['A'] } });
      // the Date header is floored to the second and read at the request's midpoint: a true 60 s
      // reads 59.5-60.5 s plus half any lopsided round trip (61 s on a starved machine)
      const said = /clock is (\d+) s off/.exec(client.clock.snapshot().refusal ?? '');
      expect(Math.abs(Number(said?.[1]) - 60)).toBeLessThanOrEqual(1);
      const refused = await client.request(rows.getOrderbooks, { query: { tickers: ['A'] } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClockSkewError);
      expect(String((refused as Error).message)).toMatch(/will not sign/);
      expect(server.requests).toHaveLength(1);
      expect(() => client.wsHeaders()).toThrow(ClockSkewError);
    });
  });

  it('signs WebSocket upgrade headers with the clock-corrected timestamp', () => {
    const client = createApiClient({ profile: { kind: 'custom', baseUrl: 'https://x.example', headerPrefix: 'KALSHI-' }, credentials: { keyId: 'k', privateKeyPem: rsaKeys().privateKeyPem } });
    client.clock.setOffset(10_000);
    const h = client.wsHeaders();
    expect(Number(h['KALSHI-ACCESS-TIMESTAMP']) - Date.now()).toBeGreaterThan(9_000);
    expect(h['KALSHI-ACCESS-KEY']).toBe('k');
  });
});

// Type-level checks: tsc fails if the derived method types drift.
const typedRow = endpoint({
  id: 'typedRow',
  method: 'POST',
  path: '/t/{id}',
  auth: 'public',
  bucket: 'write',
  params: z.object({ id: z.string() }),
  query: noQuery,
  body: z.object({ n: z.number() }),
  response: z.object({ ok: z.boolean() }).transform((v) => v.ok),
  status: 200,
  summary: 'types only',
});
const noArgsRow = endpoint({ ...typedRow, id: 'noArgs', path: '/t', params: noParams, body: null });
export async function typeChecks(client: ApiClient): Promise<boolean[]> {
  const ok: boolean = await client.request(typedRow, { params: { id: 'a' }, body: { n: 1 } });
  // @ts-expect-error params are required
  await client.request(typedRow, { body: { n: 1 } });
  // @ts-expect-error body has the wrong type
  await client.request(typedRow, { params: { id: 'a' }, body: { n: 'x' } });
  const none: boolean = await client.request(noArgsRow);
  const status = await client.getExchangeStatus();
  const active: boolean = status.exchange_active;
  // @ts-expect-error the table row takes no body
  await client.getExchangeStatus({ body: {} });
  return [ok, none, active];
}
