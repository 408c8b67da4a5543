// The endpoint table against the contract: every operation in docs/spec/endpoints.txt is a row,
// ids match ids.txt, auth follows Authentication rule 5, buckets and statuses follow the notes.
/* eslint-disable local/floors -- tests read the spec files from disk */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
/* eslint-enable local/floors */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointKey, endpointList, endpoints } from './endpoints';
import type { AnyEndpoint } from './endpoints/types';

const here = dirname(fileURLToPath(import.meta.url));
const specFile = resolve(here, '../docs/spec/endpoints.txt');
const idsFile = resolve(here, 'endpoints/ids.txt');

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);

/** Rows beyond the 112 of the spec (SDK extras). Documented here; none yet. */
const EXTRA_ROWS: readonly string[] = [];

const specOps = lines(specFile);
const byKey = new Map(endpointList.map((e) => [endpointKey(e), e]));

function objectKeys(schema: z.ZodType): string[] {
  const s = schema as unknown as { shape?: Record<string, unknown>; _zod?: { def?: { in?: z.ZodType } } };
  if (s.shape) return Object.keys(s.shape);
  const inner = s._zod?.def?.in;
  return inner ? objectKeys(inner) : [];
}

describe('endpoint table coverage', () => {
  it('has a row for every operation in docs/spec/endpoints.txt', () => {
    expect(specOps.length).toBe(112);
    const missing = specOps.filter((op) => !byKey.has(op));
    const covered = specOps.length - missing.length;
    console.log(`endpoint coverage: ${covered}/${specOps.length}`);
    expect(missing).toEqual([]);
  });

  it('has no row outside the spec except documented extras', () => {
    const spec = new Set(specOps);
    const outside = endpointList.map(endpointKey).filter((k) => !spec.has(k) && !EXTRA_ROWS.includes(k));
    expect(outside).toEqual([]);
    expect(endpointList.length).toBe(112 + EXTRA_ROWS.length);
  });

  it('uses the canonical ids of ids.txt, unique, as keys and ids', () => {
    const canonical = new Map(
      lines(idsFile).map((l) => {
        const [method, path, id] = l.split(/\s+/);
        return [`${method} ${path}`, id];
      }),
    );
    expect(canonical.size).toBe(112);
    const ids = endpointList.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, row] of Object.entries(endpoints) as [string, AnyEndpoint][]) {
      expect(row.id, key).toBe(key);
      expect(canonical.get(endpointKey(row)), endpointKey(row)).toBe(row.id);
    }
  });

  it('declares every path parameter in params, and nothing else', () => {
    for (const e of endpointList) {
      const inPath = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(objectKeys(e.params).sort(), endpointKey(e)).toEqual(inPath);
    }
  });

  it('declares the array style of every list parameter it names', () => {
    for (const e of endpointList) {
      const keys = objectKeys(e.query);
      for (const k of Object.keys(e.arrays ?? {})) expect(keys, `${endpointKey(e)} ${k}`).toContain(k);
    }
    expect(endpoints.getOrderbooks.arrays).toEqual({ tickers: 'repeat' });
    expect(endpoints.getEvents.arrays).toEqual({ tickers: 'comma' });
    expect(endpoints.getMarkets.arrays).toEqual({ tickers: 'comma' });
    expect(endpoints.getBulkMarketCandlesticks.arrays).toEqual({ market_tickers: 'comma' });
    expect(endpoints.getForecastPercentileHistory.arrays).toEqual({ percentiles: 'repeat' });
    expect(endpoints.getStructuredTargets.arrays).toEqual({ ids: 'repeat' });
    expect(endpoints.getLiveDataBatch.arrays).toEqual({ milestone_ids: 'repeat' });
    expect(endpoints.getFills.arrays).toEqual({ ticker: 'comma' });
    expect(endpoints.getOrders.arrays).toEqual({ event_ticker: 'comma' });
  });
});

describe('auth (Authentication rule 5)', () => {
  const signedPrefixes = ['/portfolio', '/communications', '/fcm', '/account', '/api_keys'];
  const alsoSigned = new Set([
    'GET /markets/{ticker}/orderbook',
    'GET /markets/orderbooks',
    'GET /historical/fills',
    'GET /historical/orders',
    'GET /historical/positions',
    'GET /series/{series_ticker}/events/{ticker}/forecast_percentile_history',
    'GET /exchange/user_data_timestamp',
    'POST /multivariate_event_collections/{ticker}',
  ]);

  it('signs every private path and leaves the rest public', () => {
    for (const e of endpointList) {
      const key = endpointKey(e);
      const signed = signedPrefixes.some((p) => e.path === p || e.path.startsWith(p + '/')) || alsoSigned.has(key);
      expect(e.auth, key).toBe(signed ? 'signed' : 'public');
    }
  });

  it('marks every /fcm route and total resting order value fcmOnly', () => {
    for (const e of endpointList) {
      const fcm = e.path.startsWith('/fcm/') || e.path === '/portfolio/summary/total_resting_order_value';
      expect(e.fcmOnly ?? false, endpointKey(e)).toBe(fcm);
    }
  });
});

describe('buckets, batch costs, statuses, pagination', () => {
  const writeOps = new Set([
    'POST /portfolio/events/orders',
    'POST /portfolio/events/orders/batched',
    'DELETE /portfolio/events/orders/{order_id}',
    'DELETE /portfolio/events/orders',
    'DELETE /portfolio/events/orders/batched',
    'POST /portfolio/events/orders/{order_id}/amend',
    'POST /portfolio/events/orders/{order_id}/decrease',
    'POST /portfolio/order_groups/create',
    'DELETE /portfolio/order_groups/{id}',
    'PUT /portfolio/order_groups/{id}/reset',
    'PUT /portfolio/order_groups/{id}/trigger',
    'PUT /portfolio/order_groups/{id}/limit',
    'POST /communications/rfqs',
    'DELETE /communications/rfqs/{rfq_id}',
    'POST /communications/quotes',
    'DELETE /communications/quotes/{quote_id}',
    'PUT /communications/quotes/{quote_id}/accept',
    'PUT /communications/quotes/{quote_id}/confirm',
    'DELETE /communications/rfqs/{rfq_id}/quotes/{quote_id}',
    'PUT /communications/rfqs/{rfq_id}/quotes/{quote_id}/accept',
    'PUT /communications/rfqs/{rfq_id}/quotes/{quote_id}/confirm',
    'POST /communications/block-trade-proposals',
    'POST /communications/block-trade-proposals/{block_trade_proposal_id}/accept',
  ]);

  it('puts order, order-group, RFQ/quote and block-trade writes in the write bucket, the rest in read', () => {
    for (const e of endpointList) expect(e.bucket, endpointKey(e)).toBe(writeOps.has(endpointKey(e)) ? 'write' : 'read');
  });

  it('charges batch create 10 and batch cancel 2 per order', () => {
    expect(endpoints.batchCreateOrders.batch).toEqual({ itemsField: 'orders', perItemCost: 10 });
    expect(endpoints.batchCancelOrders.batch).toEqual({ itemsField: 'orders', perItemCost: 2 });
    expect(endpointList.filter((e) => e.batch).length).toBe(2);
  });

  it('answers 201 on creates, 204 on cancel-all, 200 with a body on a single cancel', () => {
    const created = [
      'createOrder',
      'batchCreateOrders',
      'createOrderGroup',
      'createApiKey',
      'generateApiKey',
      'createRfq',
      'createQuote',
      'createSubtrader',
      'createBlockTradeProposal',
      'upgradeApiUsageLevel',
      'createSubaccount',
    ];
    for (const id of created) expect(endpoints[id as keyof typeof endpoints].status, id).toBe(201);
    expect(endpoints.cancelAllOrders.status).toBe(204);
    expect(endpoints.cancelOrder.status).toBe(200);
    expect(endpoints.cancelOrder.response.safeParse(undefined).success).toBe(false);
    // every GET answers 200
    for (const e of endpointList.filter((r) => r.method === 'GET')) expect(e.status, endpointKey(e)).toBe(200);
  });

  it('lets every empty-answer row (204) read an absent body', () => {
    for (const e of endpointList.filter((r) => r.status === 204)) {
      expect(e.response.safeParse(undefined).success, endpointKey(e)).toBe(true);
    }
  });

  it('pages cursor lists by their items key and size parameter', () => {
    for (const e of endpointList.filter((r) => r.page)) {
      const keys = objectKeys(e.query);
      expect(keys, endpointKey(e)).toContain('cursor');
      const size = e.page!.sizeParam;
      if (size) expect(keys, endpointKey(e)).toContain(size);
      else expect(keys, endpointKey(e)).not.toContain('limit');
      const empty = e.response.safeParse({ [e.page!.items]: [], cursor: '' });
      expect(empty.success, endpointKey(e)).toBe(true);
    }
    expect(endpoints.getStructuredTargets.page).toEqual({ items: 'structured_targets', sizeParam: 'page_size' });
    expect(endpoints.getFcmFills.page).toEqual({ items: 'fills', sizeParam: null });
    expect(endpoints.getPositions.page).toEqual({ items: 'market_positions', sizeParam: 'limit' });
    expect(endpointList.filter((e) => e.page).length).toBeGreaterThanOrEqual(25);
  });

  it('rejects unknown query parameters with a readable message', () => {
    const r = endpoints.getMarkets.query.safeParse({ limit: 5, bogus: 'x' });
    expect(r.success).toBe(false);
    expect(z.prettifyError(r.error!)).toMatch(/bogus/);
  });
});

describe('every response schema reads the spec form and the SDK form', () => {
  it('parses the spec-form sample of every row', async () => {
    const { responseSamples } = await import('./wire/samples');
    const failures: string[] = [];
    for (const e of endpointList) {
      const r = e.response.safeParse(responseSamples[e.id as keyof typeof responseSamples]);
      if (!r.success) failures.push(`${e.id}: ${z.prettifyError(r.error)}`);
    }
    expect(failures).toEqual([]);
    expect(Object.keys(responseSamples).length).toBe(112);
  });

  it('parses the SDK-form sample where the SDK differs', async () => {
    const { sdkResponseSamples } = await import('./wire/samples');
    const failures: string[] = [];
    for (const [id, sample] of Object.entries(sdkResponseSamples)) {
      const r = endpoints[id as keyof typeof endpoints].response.safeParse(sample);
      if (!r.success) failures.push(`${id}: ${z.prettifyError(r.error)}`);
    }
    expect(failures).toEqual([]);
  });
});
