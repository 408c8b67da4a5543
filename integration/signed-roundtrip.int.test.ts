// Issue 2's promise: the terminal's client signs requests the embedded exchange accepts,
// with no change to either; and the exchange refuses what is not signed right.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { ApiError } from '../src-main/api/errors';
import { createApiClient } from '../src-main/api/client';

let t: TestExchange;
beforeAll(async () => {
  t = await startTestExchange();
});
afterAll(async () => {
  await t?.close();
});

describe('signed round trip', () => {
  it('accepts a signed request from the terminal client', async () => {
    const r = await t.client('trader').getUserDataTimestamp();
    expect(typeof r.last_updated_ts).toBe('string');
  });

  it('serves public endpoints without headers', async () => {
    const r = await t.publicClient().getExchangeStatus();
    expect(r.exchange_active).toBe(true);
    expect(r.exchange_index_statuses[0]?.description).toBe('event_contract');
  });

  it('refuses a signed endpoint without headers: 401 authentication_error', async () => {
    // The client itself refuses to send an unsigned call to a signed row, so go raw.
    const res = await fetch(`${t.ex.baseUrl}/exchange/user_data_timestamp`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('authentication_error');
    await expect(t.publicClient().getUserDataTimestamp()).rejects.toThrow(/sign|credential|key/i);
  });

  it('refuses a signature made with another key', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const err = await t.clientFor(t.account('trader').api_key_id, other).getUserDataTimestamp().catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).details).toBe('INCORRECT_API_KEY_SIGNATURE');
  });

  it('refuses a stale timestamp with header_timestamp_expired', async () => {
    const a = t.account('trader');
    const stale = Date.now() - 60_000;
    const { createSigner } = await import('../src-main/api/signer');
    const signer = createSigner({ credentials: { keyId: a.api_key_id, key: createPrivateKey(a.private_key_pem) }, headerPrefix: 'SVC-' });
    const path = '/trade-api/v2/exchange/user_data_timestamp';
    const res = await fetch(`http://127.0.0.1:${t.ex.port}${path}`, { headers: signer.headers('GET', path, stale) });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('header_timestamp_expired');
  });

  it('answers unknown routes with the error body', async () => {
    const res = await fetch(`http://127.0.0.1:${t.ex.port}/trade-api/v2/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('announcements answer 404 as the removed endpoint does', async () => {
    const err = await t.publicClient().getExchangeAnnouncements().catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(404);
  });

  it('the KALSHI- header prefix is accepted too', async () => {
    const a = t.account('trader');
    const c = createApiClient({
      profile: { kind: 'custom', name: 'k', baseUrl: t.ex.baseUrl, wsUrl: t.ex.wsUrl, headerPrefix: 'KALSHI-' },
      credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem },
    });
    await expect(c.getUserDataTimestamp()).resolves.toBeTruthy();
  });
});
