// Helpers for the trading, portfolio and account integration tests: markets opened straight
// through the node, raw signed requests (for bodies the typed client refuses to send), and
// reading an ApiError out of a rejected call.
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { expect } from 'vitest';
import { API_PREFIX } from '../../src-shared/endpoints';
import { createSigner } from '../../src-main/api/signer';
import { ApiError } from '../../src-main/api/errors';
import type { TestExchange } from './harness';

/** Adds (if new) and opens a market through the node. */
export async function openMarket(t: TestExchange, ticker: string, eventTicker = 'TEST', seriesTicker = 'TS'): Promise<void> {
  const node = t.ex.svc.node;
  if (!node.core.engine.getMarket(ticker)) {
    const added = await node.submit({ type: 'addMarket', nowMs: node.now(), ticker, eventTicker, seriesTicker, title: `${ticker} test market` });
    if (!added.ok) throw new Error(`addMarket ${ticker}: ${JSON.stringify(added.result)}`);
  }
  if (node.core.engine.getMarket(ticker)?.status !== 'open') {
    const opened = await node.submit({ type: 'openMarket', nowMs: node.now(), ticker });
    if (!opened.ok) throw new Error(`openMarket ${ticker}: ${JSON.stringify(opened.result)}`);
  }
}

/** A fresh market ticker per test so tests do not see each other's books. */
export function freshTicker(prefix = 'TEST'): string {
  return `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;
}

export interface RawAnswer {
  status: number;
  body: unknown;
}

/** A signed request with any body, bypassing the client's argument validation. */
export async function rawSigned(t: TestExchange, account: string, method: string, path: string, body?: unknown): Promise<RawAnswer> {
  const a = t.account(account);
  const signer = createSigner({ credentials: { keyId: a.api_key_id, key: createPrivateKey(a.private_key_pem) }, headerPrefix: 'SVC-' });
  const full = `${API_PREFIX}${path}`;
  const headers: Record<string, string> = { ...signer.headers(method, full.split('?')[0]!, Date.now()) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`http://127.0.0.1:${t.ex.port}${full}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A GET signed with an Ed25519 key (which the exchange must refuse: only RSA keys sign). */
export async function ed25519Get(t: TestExchange, keyId: string, privateKeyPem: string, path: string): Promise<RawAnswer> {
  const full = `${API_PREFIX}${path}`;
  const ts = Date.now();
  const signature = sign(null, Buffer.from(`${ts}GET${full}`), createPrivateKey(privateKeyPem)).toString('base64');
  const res = await fetch(`http://127.0.0.1:${t.ex.port}${full}`, {
    headers: { 'SVC-ACCESS-KEY': keyId, 'SVC-ACCESS-TIMESTAMP': String(ts), 'SVC-ACCESS-SIGNATURE': signature },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The ApiError a call rejected with (fails the test when it resolved or threw something else). */
export async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    (v) => new Error(`expected the call to fail, it answered ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

/** Integer cents of a dollar string with at most 6 decimals, without floats (truncates below a cent). */
export function centsOf(dollars: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{0,6}))?$/.exec(dollars);
  if (!m) throw new Error(`not a dollar string: ${dollars}`);
  const cents = Number(m[2]) * 100 + Number(((m[3] ?? '') + '00').slice(0, 2));
  return m[1] === '-' ? -cents : cents;
}

/** Centi-contracts of a count string ("12.34" -> 1234). */
export function centiOf(count: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(count);
  if (!m) throw new Error(`not a count string: ${count}`);
  const v = Number(m[2]) * 100 + Number(((m[3] ?? '') + '0').slice(0, 2));
  return m[1] === '-' ? -v : v;
}
