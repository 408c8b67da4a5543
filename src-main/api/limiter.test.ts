import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApiClient } from './client';
import { ApiError } from './errors';
import { BASIC_TIER, RateLimiter, seedLimiter } from './limiter';
import { json, rows, rsaKeys, startServer, type TestServer } from '../../test-support/main/api-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Limits and costs as the exchange serves them; every other GET answers an empty market page. */
async function limitsServer(limits: unknown, costs: unknown): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.url === '/trade-api/v2/account/limits') json(res, 200, limits);
    else if (req.url === '/trade-api/v2/account/endpoint_costs') json(res, 200, costs);
    else if (req.url.startsWith('/trade-api/v2/portfolio/events/orders/batched')) json(res, 201, { orders: [] });
    else if (req.url === '/trade-api/v2/limited') json(res, 429, { error: { code: 'too_many_requests', message: 'slow down' } });
    else json(res, 200, { markets: [], cursor: '' });
  });
}

describe('RateLimiter', () => {
  it('starts on the Basic tier with the default cost of 10', () => {
    const limiter = new RateLimiter();
    expect(limiter.snapshot()).toEqual({
      read: { available: 200, capacity: 200, refillRate: 200, queued: 0 },
      write: { available: 100, capacity: 100, refillRate: 100, queued: 0 },
    });
    expect(BASIC_TIER.write.refillRate).toBe(100);
    expect(limiter.costOf(rows.getMarkets)).toBe(10);
  });

  it('is seeded from /account/limits and /account/endpoint_costs served by the exchange', async () => {
    server = await limitsServer(
      { usage_tier: 'advanced', read: { bucket_capacity: 900, refill_rate: 300 }, write: { bucket_capacity: 600, refill_rate: 300 }, grants: [] },
      {
        default_cost: 10,
        endpoint_costs: [
          { method: 'GET', path: '/trade-api/v2/markets', cost: 3 },
          { method: 'POST', path: '/portfolio/events/orders/batched', cost: 5 },
          { method: 'GET', path: '/markets/{market_ticker}', cost: 1 },
        ],
      },
    );
    // the limiter's clock stands still: the snapshot shows the seeding alone, not what refilled
    // while a busy machine was slow between the seeding and the snapshot
    const limiter = new RateLimiter({ now: () => 0 });
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, credentials: { keyId: 'k', privateKeyPem: rsaKeys().privateKeyPem }, limiter });
    const snap = await seedLimiter(client, limiter, { limits: rows.getAccountLimits, costs: rows.getEndpointCosts });
    expect(limiter.seeded).toBe(true);
    // seeded with the safety margin: 90% of the capacity, 95% of the refill
    expect(snap.read).toMatchObject({ capacity: 810, refillRate: 285 });
    expect(snap.write).toMatchObject({ capacity: 540, refillRate: 285 });
    // tokens never exceed what was there before seeding (Basic: 200 minus the two seeding reads)
    expect(snap.read.available).toBeLessThanOrEqual(200);
    expect(limiter.costOf(rows.getMarkets)).toBe(3);
    // path templates match whatever the placeholder is called
    expect(limiter.costOf(rows.getMarket)).toBe(1);
    expect(limiter.costOf(rows.getOrders)).toBe(10);
    // a listed batch cost is per item
    expect(limiter.costOf(rows.batchCreateOrders, { body: { orders: [1, 2, 3, 4] } })).toBe(20);
  });

  it('reads the published integer form of the limits', async () => {
    server = await limitsServer({ read_limit: 30, write_limit: 10 }, { default_cost: 1, endpoint_costs: null });
    const limiter = new RateLimiter();
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, credentials: { keyId: 'k', privateKeyPem: rsaKeys().privateKeyPem } });
    const snap = await seedLimiter(client, limiter, {
      limits: { ...rows.getAccountLimits, response: z.unknown() },
      costs: { ...rows.getEndpointCosts, response: z.unknown() },
    });
    expect(snap.read).toMatchObject({ capacity: 27, refillRate: 28.5 });
    expect(snap.write).toMatchObject({ capacity: 9, refillRate: 9.5 });
    expect(limiter.costOf(rows.getMarkets)).toBe(1);
  });

  it('counts batch costs per item from the row when no cost is listed', () => {
    const limiter = new RateLimiter();
    expect(limiter.costOf(rows.batchCreateOrders, { body: { orders: new Array(7).fill({}) } })).toBe(70);
    expect(limiter.costOf(rows.batchCreateOrders, { body: { orders: [] } })).toBe(10);
  });

  it('spreads a burst larger than the bucket over time instead of failing it', async () => {
    server = await limitsServer({}, {});
    // 50 tokens, 100 per second, 10 per request: 5 go at once, the other 10 need 1 s of refill.
    // The limiter's clock is the test's: what goes when follows from it, not from the machine's speed.
    let t = 0;
    const limiter = new RateLimiter({ read: { capacity: 50, refillRate: 100 }, now: () => t });
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, limiter });
    let answered = 0;
    const all = Promise.all(Array.from({ length: 15 }, () => client.request(rows.getMarkets, {}).then(() => (answered += 1))));
    await vi.waitFor(() => expect(server!.requests).toHaveLength(5), { timeout: 10_000 }); // the first bucketful went straight out
    expect(limiter.snapshot().read.queued).toBe(10);
    t = 99; // 9.9 tokens: not one more yet
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests).toHaveLength(5);
    t = 500; // 50 tokens: five more
    await vi.waitFor(() => expect(server!.requests).toHaveLength(10), { timeout: 10_000 });
    expect(limiter.snapshot().read.queued).toBe(5);
    t = 1000;
    await all;
    expect(answered).toBe(15);
    expect(server.requests).toHaveLength(15);
    expect(limiter.snapshot().read.queued).toBe(0);
  });

  it('lets a batch costing more than the bucket through once the bucket is full, leaving it in debt', async () => {
    let t = 0;
    const limiter = new RateLimiter({ write: { capacity: 100, refillRate: 1000 }, now: () => t });
    await limiter.take(rows.batchCreateOrders, { body: { orders: new Array(15).fill({}) } });
    expect(limiter.snapshot().write.available).toBe(0);
    let taken = false;
    const next = limiter.take(rows.createOrder).then(() => (taken = true));
    t = 59; // 50 of debt + 10 of cost at 1 token a ms: one short
    await new Promise((r) => setTimeout(r, 50));
    expect(taken).toBe(false);
    expect(limiter.snapshot().write.queued).toBe(1);
    t = 60;
    await next;
    expect(limiter.snapshot().write.available).toBe(0);
  });

  it('reports headroom for a status bar', async () => {
    let t = 0;
    const limiter = new RateLimiter({ read: { capacity: 100, refillRate: 1 }, write: { capacity: 40, refillRate: 1 }, now: () => t });
    await limiter.take(rows.getMarkets);
    await limiter.take(rows.getMarkets);
    await limiter.take(rows.createOrder);
    const snap = limiter.snapshot();
    expect(snap.read).toEqual({ available: 80, capacity: 100, refillRate: 1, queued: 0 });
    expect(snap.write).toMatchObject({ available: 30, capacity: 40, queued: 0 });
    t = 2500; // two and a half tokens back: the status bar shows whole ones
    expect(limiter.snapshot().read.available).toBe(82);
    const stop = new AbortController();
    const waiting = limiter.take(rows.batchCreateOrders, { body: { orders: [1, 2, 3, 4] } }, stop.signal);
    expect(limiter.snapshot().write.queued).toBe(1);
    const ac = new AbortController();
    const cancelled = limiter.take(rows.createOrder, undefined, ac.signal);
    ac.abort(new Error('gone'));
    await expect(cancelled).rejects.toThrow('gone');
    expect(limiter.snapshot().write.queued).toBe(1);
    stop.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
    expect(limiter.snapshot().write.queued).toBe(0);
  });

  it('still surfaces a 429 as an ApiError and drains the bucket', async () => {
    server = await limitsServer({}, {});
    const limiter = new RateLimiter({ read: { capacity: 200, refillRate: 1 } });
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, limiter });
    const limited = { ...rows.getSeriesList, id: 'limited', path: '/limited' };
    const err = await client.request(limited, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(limiter.snapshot().read.available).toBe(0);
  });

  it('a request with priority waits ahead of every queued one; a queued one dropped by its signal never takes tokens', async () => {
    let t = 0;
    const limiter = new RateLimiter({ write: { capacity: 10, refillRate: 10 }, now: () => t });
    await limiter.take(rows.createOrder); // the bucket is empty now
    const order: string[] = [];
    const drop = new AbortController();
    const a = limiter.take(rows.createOrder, undefined, drop.signal).then(() => order.push('queued'), (e: unknown) => order.push(`dropped: ${String(e)}`));
    const b = limiter.take(rows.createOrder).then(() => order.push('second'));
    const c = limiter.take(rows.cancelAllOrders, undefined, undefined, true).then(() => order.push('priority'));
    expect(limiter.snapshot().write.queued).toBe(3);
    drop.abort('kill switch');
    t = 1000;
    await vi.waitFor(() => expect(order.length).toBe(2), { timeout: 3000 });
    t = 2000;
    await Promise.all([a, b, c]);
    expect(order).toEqual(['dropped: kill switch', 'priority', 'second']);
  });
});
