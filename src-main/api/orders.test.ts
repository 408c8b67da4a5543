import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApiClient, type ApiClient } from './client';
import { ApiError, NetworkError, ResponseShapeError } from './errors';
import { InFlightOrders, OrderOutcomeUnknownError, classifyCreateFailure, findOrderByClientOrderId, isTransient, placeOrder, placeOrderBatch, type InFlightOrder, type PlaceOrderOptions } from './orders';
import { json, listedOrder, rows, rsaKeys, startServer, type RecordedRequest, type TestServer } from '../../test-support/main/api-server';

interface StoredOrder {
  order_id: string;
  client_order_id: string;
  ticker: string;
  status: string;
  created_ts: number;
}

type CreateHook = (ctx: { attempt: number; body: Record<string, unknown>; record: () => StoredOrder; res: ServerResponse; raw: IncomingMessage }) => void;

/**
 * A small exchange: create is idempotent by client_order_id, list pages by 2 and filters by
 * ticker and min_ts. `onCreate` decides what happens to each create (answer, drop, delay...).
 */
async function orderExchange(onCreate: CreateHook, seed: StoredOrder[] = [], listFails = false, slowFirstListMs = 0) {
  let lists = 0;
  const orders: StoredOrder[] = [...seed];
  const creates: Record<string, unknown>[] = [];
  let next = 1;
  const record = (body: Record<string, unknown>): StoredOrder => {
    const existing = orders.find((o) => o.client_order_id === body['client_order_id']);
    if (existing) return existing;
    const o = { order_id: `ord-${next++}`, client_order_id: String(body['client_order_id']), ticker: String(body['ticker']), status: 'resting', created_ts: Math.floor(Date.now() / 1000) };
    orders.push(o);
    return o;
  };
  const server = await startServer((req: RecordedRequest, res, raw) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/trade-api/v2/portfolio/events/orders') {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      creates.push(body);
      onCreate({ attempt: creates.length, body, record: () => record(body), res, raw });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/trade-api/v2/portfolio/orders') {
      lists += 1;
      if (lists === 1 && slowFirstListMs > 0) {
        setTimeout(() => json(res, 503, { error: { code: 'service_unavailable', message: 'late' } }), slowFirstListMs);
        return;
      }
      if (listFails) return json(res, 503, { error: { code: 'service_unavailable', message: 'list down' } });
      const q = url.searchParams;
      const minTs = Number(q.get('min_ts') ?? 0);
      const matching = orders.filter((o) => (!q.get('ticker') || o.ticker === q.get('ticker')) && o.created_ts >= minTs);
      const start = Number(q.get('cursor') ?? 0);
      const page = matching.slice(start, start + 2);
      const more = start + 2 < matching.length;
      json(res, 200, { orders: page.map(({ created_ts: _c, ...o }) => listedOrder(o)), cursor: more ? String(start + 2) : '', has_next: more });
      return;
    }
    json(res, 404, { error: { code: 'not_found', message: req.url } });
  });
  return { server, orders, creates };
}

const answer = (res: ServerResponse, o: StoredOrder) => json(res, 201, { order_id: o.order_id, client_order_id: o.client_order_id, fill_count: '0.00', remaining_count: '1.00' });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(s: TestServer, timeoutMs = 2000): ApiClient {
  return createApiClient({ profile: { kind: 'embedded', baseUrl: s.origin }, credentials: { keyId: 'k', privateKeyPem: rsaKeys().privateKeyPem }, timeoutMs });
}

const draft = { ticker: 'MKT-1', side: 'bid', count: '1', price: '0.42' } as const;
const opts = (extra: PlaceOrderOptions = {}): PlaceOrderOptions => ({ rows: { create: rows.createOrder, list: rows.getOrders }, backoffMs: 20, inflight: new InFlightOrders(), ...extra });

describe('placeOrder', () => {
  it('assigns a UUID client_order_id and returns the created order', async () => {
    const ex = await orderExchange(({ record, res }) => answer(res, record()));
    server = ex.server;
    const placed = await placeOrder(clientFor(server), draft, opts());
    expect(placed.clientOrderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(placed).toMatchObject({ source: 'create', sends: 1, orderId: 'ord-1', created: { order_id: 'ord-1', client_order_id: placed.clientOrderId } });
    expect(ex.creates).toEqual([{ ...draft, client_order_id: placed.clientOrderId }]);
  });

  it('recovers a dropped create answer by lookup: exactly one order, one client_order_id', async () => {
    // other orders of the same ticker make the lookup page through the list
    const now = Math.floor(Date.now() / 1000);
    const seed = [1, 2, 3].map((i) => ({ order_id: `old-${i}`, client_order_id: `other-${i}`, ticker: 'MKT-1', status: 'resting', created_ts: now }));
    const ex = await orderExchange(({ attempt, record, res, raw }) => {
      record();
      if (attempt === 1) raw.socket.destroy(); // the order exists, the answer is lost
      else answer(res, record());
    }, seed);
    server = ex.server;
    const inflight = new InFlightOrders();
    const states: InFlightOrder['state'][] = [];
    inflight.subscribe((list) => list.forEach((o) => states.push(o.state)));

    const placed = await placeOrder(clientFor(server), draft, opts({ inflight }));

    const mine = ex.orders.filter((o) => !o.order_id.startsWith('old-'));
    expect(mine).toHaveLength(1);
    expect(new Set(ex.creates.map((c) => c.client_order_id))).toEqual(new Set([placed.clientOrderId]));
    expect(placed).toMatchObject({ source: 'lookup', orderId: mine[0]!.order_id, listed: { client_order_id: placed.clientOrderId } });
    const lists = ex.server.requests.filter((r) => r.method === 'GET').map((r) => new URL(r.url, 'http://x').searchParams);
    expect(lists.length).toBeGreaterThanOrEqual(2); // paged past the older orders
    expect(lists[0]!.get('ticker')).toBe('MKT-1');
    expect(Number(lists[0]!.get('min_ts'))).toBeLessThan(now);
    expect(states).toContain('checking');
    expect(inflight.size).toBe(0);
  });

  it('recovers a create that timed out while the server was slow: same outcome', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      const o = record();
      if (attempt === 1) setTimeout(() => answer(res, o), 1200);
      else answer(res, o);
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server, 300), draft, opts());
    expect(ex.orders).toHaveLength(1);
    expect(placed.orderId).toBe(ex.orders[0]!.order_id);
    expect(ex.creates).toHaveLength(1);
    expect(placed.source).toBe('lookup');
  });

  it('a slow server that acts on the timed-out create only later still ends with one order', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      if (attempt === 1) setTimeout(() => answer(res, record()), 1000);
      else answer(res, record());
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server, 300), draft, opts());
    expect(placed).toMatchObject({ source: 'create', sends: 2 });
    await new Promise((r) => setTimeout(r, 1000)); // let the first create land late
    expect(ex.orders).toHaveLength(1);
    expect(ex.creates.map((c) => c.client_order_id)).toEqual([placed.clientOrderId, placed.clientOrderId]);
    expect(placed.orderId).toBe(ex.orders[0]!.order_id);
  });

  it('resends with the same client_order_id when the lookup proves the order never landed', async () => {
    const ex = await orderExchange(({ attempt, record, res, raw }) => {
      if (attempt === 1) raw.socket.destroy(); // lost before the exchange acted on it
      else answer(res, record());
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server), draft, opts());
    expect(ex.orders).toHaveLength(1);
    expect(ex.creates).toHaveLength(2);
    expect(ex.creates[0]!.client_order_id).toBe(placed.clientOrderId);
    expect(ex.creates[1]!.client_order_id).toBe(placed.clientOrderId);
    expect(placed).toMatchObject({ source: 'create', sends: 2, orderId: ex.orders[0]!.order_id });
    // the lookup came between the two sends
    expect(ex.server.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('looks up after a 5xx and finds the order the server did place', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      record();
      if (attempt === 1) json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } });
      else answer(res, record());
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server), draft, opts());
    expect(ex.creates).toHaveLength(1);
    expect(ex.orders).toHaveLength(1);
    expect(placed.source).toBe('lookup');
  });

  it('does not retry a 400: it is final', async () => {
    const ex = await orderExchange(({ res }) => json(res, 400, { error: { code: 'invalid_order', message: 'rejected', details: 'post only cross' } }));
    server = ex.server;
    const inflight = new InFlightOrders();
    const err = await placeOrder(clientFor(server), draft, opts({ inflight })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_order' });
    expect(ex.server.requests).toHaveLength(1);
    expect(inflight.size).toBe(0);
  });

  it('reports the outcome unknown when every lookup fails (bounded), without resending', async () => {
    const ex = await orderExchange(({ raw }) => raw.socket.destroy(), [], true);
    server = ex.server;
    const err = await placeOrder(clientFor(server), draft, opts({ maxLookups: 2 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrderOutcomeUnknownError);
    expect((err as OrderOutcomeUnknownError).clientOrderId).toBe(ex.creates[0]!.client_order_id);
    expect(ex.creates).toHaveLength(1);
    expect(ex.server.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('reports the outcome unknown at once when the lookup fails for good (4xx)', async () => {
    const ex = await orderExchange(({ raw }) => raw.socket.destroy());
    server = ex.server;
    const brokenList = { ...rows.getOrders, path: '/portfolio/orders_broken' };
    const err = await placeOrder(clientFor(server), draft, opts({ rows: { create: rows.createOrder, list: brokenList } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrderOutcomeUnknownError);
    expect(ex.server.requests).toHaveLength(2);
  });

  it('looks the order up in its own market and subaccount, with the id it was given', async () => {
    const ex = await orderExchange(({ record, res }) => {
      record();
      json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } });
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server), { ...draft, subaccount: 3 }, opts({ clientOrderId: 'kept-id-1', lookupWindowSec: 30 }));
    expect(placed).toMatchObject({ clientOrderId: 'kept-id-1', source: 'lookup' });
    const lookup = new URL(ex.server.requests.find((r) => r.method === 'GET')!.url, 'http://x').searchParams;
    expect(lookup.get('ticker')).toBe('MKT-1');
    expect(lookup.get('subaccount')).toBe('3');
    const minTs = Number(lookup.get('min_ts'));
    expect(Math.abs(minTs - (Math.floor(Date.now() / 1000) - 30))).toBeLessThanOrEqual(2);
    expect(ex.creates[0]).toMatchObject({ client_order_id: 'kept-id-1', subaccount: 3 });
  });

  it('a caller who aborts while a send may have landed hears the outcome is unknown; before any send, the abort', async () => {
    const ex = await orderExchange(({ record, res }) => {
      record();
      json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } });
    }, [], true);
    server = ex.server;
    const ctl = new AbortController();
    const pending = placeOrder(clientFor(server), draft, opts({ signal: ctl.signal, backoffMs: 5_000 })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    ctl.abort(new Error('the trader closed the ticket'));
    const err = await pending;
    expect(err).toBeInstanceOf(OrderOutcomeUnknownError);
    const before = AbortSignal.abort(new Error('closed before'));
    const none = await placeOrder(clientFor(server), draft, opts({ signal: before })).catch((e: unknown) => e);
    expect(none).not.toBeInstanceOf(OrderOutcomeUnknownError);
    expect((none as Error).message).toBe('closed before');
    expect(ex.creates).toHaveLength(1);
  });

  it('passes its timeout to every request and backs off by its own numbers', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      if (attempt === 1) setTimeout(() => answer(res, record()), 600);
      else answer(res, record());
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server, 10_000), draft, opts({ timeoutMs: 200, backoffMs: 50, maxBackoffMs: 50 }));
    // the first send timed out at 200 ms, before the exchange's answer at 600 ms (with the
    // client's 10 s it would have waited for that answer: one send), and went again
    expect(placed.sends).toBeGreaterThan(1);
    expect(placed.orderId).toBe('ord-1');
    expect(ex.orders).toHaveLength(1);
  });

  it('uses the endpoint table rows for create and list by default', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      record();
      if (attempt === 1) json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } });
    });
    server = ex.server;
    const placed = await placeOrder(clientFor(server), draft, { backoffMs: 5 });
    expect(placed.source).toBe('lookup');
    expect(ex.server.requests.map((r) => `${r.method} ${new URL(r.url, 'http://x').pathname}`)).toEqual(['POST /trade-api/v2/portfolio/events/orders', 'GET /trade-api/v2/portfolio/orders']);
  });

  it('gives a slow lookup its own timeout and looks again', async () => {
    const ex = await orderExchange(
      ({ record, res }) => {
        record();
        json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } });
      },
      [],
      false,
      5_000,
    );
    server = ex.server;
    const t0 = Date.now();
    const placed = await placeOrder(clientFor(server, 20_000), draft, opts({ timeoutMs: 300, backoffMs: 10, maxBackoffMs: 10 }));
    expect(placed.source).toBe('lookup');
    // the first lookup gave up at 300 ms, not at the client's 20 s nor the server's 5 s
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(ex.server.requests.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it('backs off between sends, doubling from its first wait', async () => {
    const ex = await orderExchange(({ attempt, record, res }) => {
      if (attempt <= 2) json(res, 429, { error: { code: 'too_many_requests', message: 'slow down' } });
      else answer(res, record());
    });
    server = ex.server;
    const t0 = Date.now();
    const placed = await placeOrder(clientFor(server), draft, opts({ backoffMs: 150, maxBackoffMs: 1_000 }));
    const took = Date.now() - t0;
    expect(placed.sends).toBe(3);
    // 150 ms, then 300 ms (each up to 20% more; a busy machine only adds): a 429 was never sent
    // on, so no lookup between
    expect(took).toBeGreaterThanOrEqual(445);
    expect(ex.server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('stops after maxSends when the order never lands', async () => {
    const ex = await orderExchange(({ raw }) => raw.socket.destroy());
    server = ex.server;
    const err = await placeOrder(clientFor(server), draft, opts({ maxSends: 3 })).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'NetworkError' });
    expect(ex.creates).toHaveLength(3);
    expect(new Set(ex.creates.map((c) => c.client_order_id)).size).toBe(1);
    expect(ex.orders).toHaveLength(0);
  });
});

describe('classifyCreateFailure', () => {
  const apiError = (status: number, code: string) => new ApiError({ status, code, message: 'm', method: 'POST', path: '/p' });
  it('sorts failures into final, ambiguous and not-sent', () => {
    expect(classifyCreateFailure(apiError(400, 'invalid_order'))).toBe('final');
    expect(classifyCreateFailure(apiError(403, 'forbidden'))).toBe('final');
    expect(classifyCreateFailure(apiError(401, 'authentication_error'))).toBe('final');
    expect(classifyCreateFailure(apiError(429, 'too_many_requests'))).toBe('not-sent');
    expect(classifyCreateFailure(apiError(401, 'header_timestamp_expired'))).toBe('not-sent');
    expect(classifyCreateFailure(apiError(409, 'order_already_exists'))).toBe('ambiguous');
    expect(classifyCreateFailure(apiError(500, 'server_error'))).toBe('ambiguous');
    expect(classifyCreateFailure(apiError(504, 'gateway_timeout'))).toBe('ambiguous');
  });
});

// What mutation testing found unguarded (npm run mutation): the edges of the failure table, what
// a lookup retries, the lookup's query and paging, the in-flight list, and a caller's abort.
describe('order path: the edges', () => {
  const apiError = (status: number, code: string) => new ApiError({ status, code, message: 'm', method: 'POST', path: '/p' });
  const net = (code: string) => new NetworkError('POST', '/p', Object.assign(new Error(code), { code }));

  it('sorts the edges of the failure table', () => {
    // a 409 for another reason is final; the duplicate code without a 409 is not a duplicate
    expect(classifyCreateFailure(apiError(409, 'conflict'))).toBe('final');
    expect(classifyCreateFailure(apiError(400, 'order_already_exists'))).toBe('final');
    expect(classifyCreateFailure(apiError(499, 'client_closed'))).toBe('final');
    expect(classifyCreateFailure(apiError(500, 'x'))).toBe('ambiguous');
    // refused before sending (nothing reached the server) vs reset mid-way (it may have)
    expect(classifyCreateFailure(net('ECONNREFUSED'))).toBe('not-sent');
    expect(classifyCreateFailure(net('ECONNRESET'))).toBe('ambiguous');
    expect(classifyCreateFailure(new ResponseShapeError({ status: 201, message: 'm', method: 'POST', path: '/p' }))).toBe('ambiguous');
    expect(classifyCreateFailure(new Error('a bug'))).toBe('final');
    expect(classifyCreateFailure('thrown text')).toBe('final');
  });

  it('retries a lookup only for what may pass a moment later', () => {
    expect(isTransient(net('ECONNRESET'))).toBe(true);
    expect(isTransient(net('ECONNREFUSED'))).toBe(true);
    expect(isTransient(apiError(500, 'x'))).toBe(true);
    expect(isTransient(apiError(503, 'x'))).toBe(true);
    expect(isTransient(apiError(429, 'too_many_requests'))).toBe(true);
    expect(isTransient(apiError(401, 'header_timestamp_expired'))).toBe(true);
    expect(isTransient(apiError(499, 'x'))).toBe(false);
    expect(isTransient(apiError(404, 'not_found'))).toBe(false);
    expect(isTransient(new ResponseShapeError({ status: 200, message: 'm', method: 'GET', path: '/p' }))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
  });

  it('looks an order up with the filters it was given, page after page, and stops at the first hit', async () => {
    const asked: Record<string, unknown>[] = [];
    const pages = [
      { orders: [{ order_id: 'a', client_order_id: 'other' }, { order_id: 'n', client_order_id: 5 }, null], cursor: 'c2' },
      { orders: [{ order_id: 'b', client_order_id: 'mine' }], cursor: 'c3' },
      { orders: [{ order_id: 'c', client_order_id: 'mine' }], cursor: '' },
    ];
    const client = {
      request: async (_row: unknown, args: { query: Record<string, unknown> }) => {
        asked.push({ ...args.query });
        return pages[asked.length - 1];
      },
    } as unknown as Pick<ApiClient, 'request'>;
    const hit = await findOrderByClientOrderId(client, { clientOrderId: 'mine', ticker: 'KX', minTs: 100, subaccount: 2 });
    expect(hit).toMatchObject({ order_id: 'b' });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toStrictEqual({ limit: 200, ticker: 'KX', min_ts: 100, subaccount: 2 });
    expect(asked[1]).toMatchObject({ cursor: 'c2', limit: 200 });
    // no filters: only the page size; not found: undefined after the last page
    asked.length = 0;
    const none = await findOrderByClientOrderId(client, { clientOrderId: 'absent' }, { pageSize: 7 });
    expect(none).toBeUndefined();
    expect(asked[0]).toStrictEqual({ limit: 7 });
  });

  it('lists orders in flight as copies and tells subscribers of each change', () => {
    const f = new InFlightOrders();
    const seen: number[] = [];
    const off = f.subscribe((list) => seen.push(list.length));
    const o: InFlightOrder = { clientOrderId: 'c', ticker: 'KX', draft: {} as never, startedAt: 1, state: 'sending', sends: 0, lookups: 0, lastError: undefined };
    f.add(o);
    f.update('c', { sends: 1 });
    f.update('missing', { sends: 9 });
    expect(f.size).toBe(1);
    expect(f.get('c')).toMatchObject({ sends: 1 });
    const copy = f.get('c')!;
    copy.sends = 42;
    expect(f.get('c')!.sends).toBe(1);
    f.list()[0]!.sends = 43;
    expect(f.get('c')!.sends).toBe(1);
    expect(f.get('nope')).toBeUndefined();
    f.remove('c');
    f.remove('c');
    expect(seen).toEqual([1, 1, 0]);
    off();
    f.add(o);
    expect(seen).toEqual([1, 1, 0]);
  });

  it('names the client order id and the cause when the outcome is unknown', () => {
    const cause = new Error('reset');
    const e = new OrderOutcomeUnknownError('cid-1', cause);
    expect(e.message).toBe('order cid-1: outcome unknown after retries (reset)');
    expect(e.cause).toBe(cause);
    expect(e.clientOrderId).toBe('cid-1');
    expect(e.name).toBe('OrderOutcomeUnknownError');
    expect(new OrderOutcomeUnknownError('cid-2', 'text').message).toBe('order cid-2: outcome unknown after retries (text)');
  });
});

describe('placeOrder: the kill switch hold and the batch create', () => {
  it('a send stopped right before it leaves sends nothing, and the stop is final', async () => {
    const ex = await orderExchange(({ record, res }) => answer(res, record()));
    server = ex.server;
    const stop = new Error('kill switch engaged');
    await expect(placeOrder(clientFor(server), draft, opts({ send: { beforeSend: () => { throw stop; } } }))).rejects.toBe(stop);
    expect(ex.creates).toEqual([]);
  });

  it('a retry after a send that never arrived is checked again before it leaves', async () => {
    let allow = true;
    const ex = await orderExchange(({ attempt, res, record }) => {
      if (attempt === 1) {
        allow = false; // the switch engages while the first answer is on its way back
        json(res, 429, { error: { code: 'too_many_requests', message: 'slow down' } });
      } else answer(res, record());
    });
    server = ex.server;
    const p = placeOrder(clientFor(server), draft, opts({ send: { beforeSend: () => { if (!allow) throw new Error('stopped'); } } }));
    await expect(p).rejects.toThrow('stopped');
    expect(ex.creates.length).toBe(1);
  });

  it('places a batch in requests of `perBatch`, each order with its own client_order_id; a lost batch answer is looked up order by order, never resent blind', async () => {
    const orders: StoredOrder[] = [];
    const batches: Record<string, unknown>[][] = [];
    let next = 1;
    const find = (cid: string) => orders.find((o) => o.client_order_id === cid);
    server = await startServer((req, res, raw) => {
      const url = new URL(req.url, 'http://x');
      if (req.method === 'POST' && url.pathname === '/trade-api/v2/portfolio/events/orders/batched') {
        const list = (JSON.parse(req.body) as { orders: Record<string, unknown>[] }).orders;
        batches.push(list);
        const made = list.map((b) => {
          const o = find(String(b.client_order_id)) ?? { order_id: `ord-${next++}`, client_order_id: String(b.client_order_id), ticker: String(b.ticker), status: 'resting', created_ts: Math.floor(Date.now() / 1000) };
          if (!orders.includes(o)) orders.push(o);
          return o;
        });
        // the batches go out together and may land in either order: what happens to each is
        // decided by what it holds, not by when it came
        if (list.some((b) => b.client_order_id === 'cid-3')) {
          raw.socket.destroy(); // the second batch landed, its answer is lost
          return;
        }
        json(res, 201, { orders: made.map((o) => (o.client_order_id === 'cid-0' ? { order_id: null, client_order_id: null, error: { code: 'market_closed', message: 'closed' } } : { order_id: o.order_id, client_order_id: o.client_order_id, fill_count: '0.00', remaining_count: '1.00', error: null })) });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/trade-api/v2/portfolio/orders') {
        json(res, 200, { orders: orders.map(({ created_ts: _c, ...o }) => listedOrder(o)), cursor: '' });
        return;
      }
      json(res, 404, { error: { code: 'not_found', message: req.url } });
    });
    const entries = Array.from({ length: 5 }, (_, i) => ({ draft: { ...draft, price: `0.4${i}` }, clientOrderId: `cid-${i}` }));
    const slots = await placeOrderBatch(clientFor(server), entries, { ...opts(), perBatch: 3, batchRow: rows.batchCreateOrders });
    expect(batches.map((b) => b.map((x) => x.client_order_id)).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ['cid-0', 'cid-1', 'cid-2'],
      ['cid-3', 'cid-4'],
    ]);
    expect(slots[0]).toMatchObject({ ok: false, error: { code: 'market_closed' } });
    expect(slots.slice(1).map((s) => s.ok && s.placed.source)).toEqual(['create', 'create', 'lookup', 'lookup']);
    // one order per client_order_id, whatever was lost on the way
    expect(new Set(orders.map((o) => o.client_order_id)).size).toBe(orders.length);
  });
});
