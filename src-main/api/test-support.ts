// Test helpers for src-main/api: a real node:http server on 127.0.0.1:0, an RSA key pair,
// and local endpoint rows shaped like the table's (for rows the table does not have yet).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { endpoint } from '../../src-shared/endpoints/types';
import { noParams, noQuery, pageQuery, qInt, qList } from '../../src-shared/endpoints/query';
import { PageTail } from '../../src-shared/wire/common';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      Promise.resolve(handler(rec, res, req)).catch((err: unknown) => {
        if (!res.headersSent) json(res, 599, { error: { code: 'test_handler_failed', message: String(err) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

let keys: { publicKey: KeyObject; privateKey: KeyObject; privateKeyPem: string } | undefined;
/** One 2048-bit RSA pair per test file. */
export function rsaKeys(): { publicKey: KeyObject; privateKey: KeyObject; privateKeyPem: string } {
  if (!keys) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    keys = { publicKey, privateKey, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }
  return keys;
}

const Market = z.object({ ticker: z.string() });
const Order = z.object({ order_id: z.string(), client_order_id: z.string().nullish(), ticker: z.string(), status: z.string() });

/** Local rows with the table's shape, used where the table has no such row yet. */
export const rows = {
  getMarkets: endpoint({
    id: 'getMarkets',
    method: 'GET',
    path: '/markets',
    auth: 'public',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ ...pageQuery, status: z.string().optional(), tickers: qList().optional(), series_ticker: z.string().optional() }),
    arrays: { tickers: 'comma' },
    body: null,
    response: z.object({ markets: z.array(Market), ...PageTail }),
    status: 200,
    page: { items: 'markets', sizeParam: 'limit' },
    summary: 'markets',
  }),
  getMarket: endpoint({
    id: 'getMarket',
    method: 'GET',
    path: '/markets/{ticker}',
    auth: 'public',
    bucket: 'read',
    params: z.strictObject({ ticker: z.string().min(1) }),
    query: noQuery,
    body: null,
    response: z.object({ market: Market }),
    status: 200,
    summary: 'one market',
  }),
  getOrderbooks: endpoint({
    id: 'getOrderbooks',
    method: 'GET',
    path: '/markets/orderbooks',
    auth: 'signed',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ tickers: qList(undefined, 100, 1), depth: qInt(0, 100).optional(), include_empty: z.boolean().optional() }),
    arrays: { tickers: 'repeat' },
    body: null,
    response: z.object({ orderbooks: z.array(z.unknown()) }),
    status: 200,
    summary: 'bulk orderbooks',
  }),
  getStructuredTargets: endpoint({
    id: 'getStructuredTargets',
    method: 'GET',
    path: '/structured_targets',
    auth: 'public',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ page_size: qInt(1, 2000).optional(), cursor: z.string().optional() }),
    body: null,
    response: z.object({ structured_targets: z.array(z.object({ structured_target_id: z.string() })).nullish(), cursor: z.string().nullish() }),
    status: 200,
    page: { items: 'structured_targets', sizeParam: 'page_size' },
    summary: 'structured targets',
  }),
  getFcmFills: endpoint({
    id: 'getFcmFills',
    method: 'GET',
    path: '/fcm/fills',
    auth: 'signed',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ min_ts: qInt().optional(), max_ts: qInt().optional(), cursor: z.string().optional() }),
    body: null,
    response: z.object({ fills: z.array(z.object({ fill_id: z.string() })), cursor: z.string().nullish() }),
    status: 200,
    page: { items: 'fills', sizeParam: null },
    fcmOnly: true,
    summary: 'fcm fills',
  }),
  getSeriesList: endpoint({
    id: 'getSeriesList',
    method: 'GET',
    path: '/series',
    auth: 'public',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ category: z.string().optional() }),
    body: null,
    response: z.union([z.array(z.object({ ticker: z.string() })), z.object({ series: z.array(z.object({ ticker: z.string() })) }).transform((v) => v.series)]),
    status: 200,
    summary: 'series (plain array)',
  }),
  getAccountLimits: endpoint({
    id: 'getAccountLimits',
    method: 'GET',
    path: '/account/limits',
    auth: 'signed',
    bucket: 'read',
    params: noParams,
    query: noQuery,
    body: null,
    response: z.object({
      usage_tier: z.string(),
      read: z.object({ bucket_capacity: z.number(), refill_rate: z.number() }),
      write: z.object({ bucket_capacity: z.number(), refill_rate: z.number() }),
      grants: z.array(z.unknown()).nullish(),
    }),
    status: 200,
    summary: 'limits',
  }),
  getEndpointCosts: endpoint({
    id: 'getEndpointCosts',
    method: 'GET',
    path: '/account/endpoint_costs',
    auth: 'signed',
    bucket: 'read',
    params: noParams,
    query: noQuery,
    body: null,
    response: z.object({ default_cost: z.number(), endpoint_costs: z.array(z.object({ method: z.string(), path: z.string(), cost: z.number() })) }),
    status: 200,
    summary: 'costs',
  }),
  createOrder: endpoint({
    id: 'createOrder',
    method: 'POST',
    path: '/portfolio/events/orders',
    auth: 'signed',
    bucket: 'write',
    params: noParams,
    query: noQuery,
    body: z.strictObject({
      ticker: z.string().min(1),
      client_order_id: z.string().optional(),
      side: z.enum(['bid', 'ask']),
      count: z.string(),
      price: z.string(),
      time_in_force: z.enum(['fill_or_kill', 'good_till_canceled', 'immediate_or_cancel']).optional(),
      subaccount: z.number().int().optional(),
    }),
    response: z.object({ order_id: z.string(), client_order_id: z.string().optional(), fill_count: z.string(), remaining_count: z.string() }),
    status: 201,
    summary: 'create order',
  }),
  getOrders: endpoint({
    id: 'getOrders',
    method: 'GET',
    path: '/portfolio/orders',
    auth: 'signed',
    bucket: 'read',
    params: noParams,
    query: z.strictObject({ ...pageQuery, ticker: z.string().optional(), min_ts: qInt().optional(), subaccount: qInt(0, 63).optional() }),
    body: null,
    response: z.object({ orders: z.array(Order), ...PageTail }),
    status: 200,
    page: { items: 'orders', sizeParam: 'limit' },
    summary: 'list orders',
  }),
  batchCreateOrders: endpoint({
    id: 'batchCreateOrders',
    method: 'POST',
    path: '/portfolio/events/orders/batched',
    auth: 'signed',
    bucket: 'write',
    batch: { itemsField: 'orders', perItemCost: 10 },
    params: noParams,
    query: noQuery,
    body: z.object({ orders: z.array(z.unknown()) }),
    response: z.object({ orders: z.array(z.unknown()) }),
    status: 201,
    summary: 'batch create',
  }),
  cancelAllOrders: endpoint({
    id: 'cancelAllOrders',
    method: 'DELETE',
    path: '/portfolio/events/orders',
    auth: 'signed',
    bucket: 'write',
    params: noParams,
    query: z.strictObject({ subaccount: qInt(0, 63).optional() }),
    body: null,
    response: z.union([z.object({}), z.null(), z.undefined()]).transform(() => ({})),
    status: 204,
    summary: 'cancel all (204)',
  }),
};
