// API keys through the terminal's client: list, upload an RSA public key, mint RSA and Ed25519
// pairs, scopes (read-only keys cannot write), subaccount confinement, delete (404 on repeat),
// and keys surviving a restart.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, ed25519Get, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
let trader: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
});
afterAll(async () => {
  await t?.close();
});

function rsaPair(bits = 2048) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

describe('API keys', () => {
  it('lists the caller keys only', async () => {
    const { api_keys } = await trader.getApiKeys();
    expect(api_keys.map((k) => k.api_key)).toEqual([t.account('trader').api_key_id]);
    expect(api_keys[0]).toMatchObject({ scopes: ['read', 'write'], subaccount: null });
    expect((await t.client('counterparty').getApiKeys()).api_keys.map((k) => k.api_key)).toEqual([t.account('counterparty').api_key_id]);
    expect((await trader.getApiKeys({ query: { fcm_subtrader_id: 'x_y' } })).api_keys).toEqual([]);
  });

  it('registers an uploaded RSA public key that signs at once', async () => {
    const pair = rsaPair();
    const r = await trader.createApiKey({ body: { name: 'uploaded', public_key: pair.publicPem } });
    const id = r.api_key.api_key;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = (await trader.getApiKeys()).api_keys.find((k) => k.api_key === id);
    expect(listed).toMatchObject({ name: 'uploaded', scopes: ['read', 'write'], subaccount: null });
    const b = await t.clientFor(id, pair.privatePem).getBalance();
    expect(b.balance).toBe((await trader.getBalance()).balance);
  });

  it('refuses a public key that is not an RSA SubjectPublicKeyInfo PEM (400)', async () => {
    const garbage = '-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n';
    expect((await apiError(trader.createApiKey({ body: { name: 'bad', public_key: garbage } }))).status).toBe(400);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect((await apiError(trader.createApiKey({ body: { name: 'ec', public_key: ec } }))).status).toBe(400);
    expect((await apiError(trader.createApiKey({ body: { name: 'small', public_key: rsaPair(1024).publicPem } }))).status).toBe(400);
    const pkcs1 = rsaPair().publicPem.replace('BEGIN PUBLIC', 'BEGIN RSA PUBLIC').replace('END PUBLIC', 'END RSA PUBLIC');
    expect((await rawSigned(t, 'trader', 'POST', '/api_keys', { name: 'pkcs1', public_key: pkcs1 })).status).toBe(400);
    const writeOnly = await rawSigned(t, 'trader', 'POST', '/api_keys', { name: 'w', public_key: rsaPair().publicPem, scopes: ['write'] });
    expect(writeOnly.status).toBe(400);
    const both = await rawSigned(t, 'trader', 'POST', '/api_keys', { name: 'w', public_key: rsaPair().publicPem, subaccount: 0, fcm_subtrader_id: 'a_b' });
    expect(both.status).toBe(400);
    expect((await trader.getApiKeys()).api_keys.map((k) => k.name)).not.toContain('bad');
  });

  it('generates an RSA pair whose private key is returned once and signs requests', async () => {
    const g = await trader.generateApiKey({ body: { name: 'minted' } });
    expect(g.private_key).toContain('-----BEGIN PRIVATE KEY-----');
    expect(g.key_type).toBe('rsa');
    const c = t.clientFor(g.api_key_id, g.private_key);
    expect((await c.getAccountLimits()).usage_tier).toBe('basic');
    const listed = (await trader.getApiKeys()).api_keys.find((k) => k.api_key === g.api_key_id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain('PRIVATE KEY');
  });

  it('mints Ed25519 pairs, which can never sign: requests with them are 401', async () => {
    const g = await trader.generateApiKey({ body: { name: 'ed', key_type: 'ed25519' } });
    expect(g.key_type).toBe('ed25519');
    expect(g.private_key).toContain('-----BEGIN PRIVATE KEY-----');
    const r = await ed25519Get(t, g.api_key_id, g.private_key, '/portfolio/balance');
    expect(r.status).toBe(401);
  });

  it('a read-only key reads but gets 403 on writes', async () => {
    const g = await trader.generateApiKey({ body: { name: 'reader', scopes: ['read'] } });
    const c = t.clientFor(g.api_key_id, g.private_key);
    expect((await c.getBalance()).balance).toBeGreaterThan(0);
    const ticker = freshTicker('RO');
    await openMarket(t, ticker, 'RO');
    const err = await apiError(c.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.5' } }));
    expect(err.status).toBe(403);
    expect((await apiError(c.generateApiKey({ body: { name: 'escalate' } }))).status).toBe(403);
    expect((await trader.getOrders({ query: { ticker } })).orders).toEqual([]);
  });

  it('a subaccount-scoped key is confined to its subaccount', async () => {
    const sub = (await trader.createSubaccount({ body: {} })).subaccount_number;
    await trader.transferBetweenSubaccounts({ body: { client_transfer_id: randomUUID(), from_subaccount: 0, to_subaccount: sub, amount_cents: 5_000 } });
    const g = await trader.generateApiKey({ body: { name: 'scoped', subaccount: sub } });
    const c = t.clientFor(g.api_key_id, g.private_key);
    // its own subaccount by default; another is 403
    expect((await c.getBalance()).balance).toBe(5_000);
    expect((await apiError(c.getBalance({ query: { subaccount: 0 } }))).status).toBe(403);
    const ticker = freshTicker('SC');
    await openMarket(t, ticker, 'SC');
    expect((await apiError(c.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.5', subaccount: 0 } }))).status).toBe(403);
    const mine = await c.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.5' } });
    expect((await trader.getOrder({ params: { order_id: mine.order_id } })).order.subaccount_number).toBe(sub);
    // orders of the primary are invisible to it
    const primary = await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.4' } });
    expect((await apiError(c.getOrder({ params: { order_id: primary.order_id } }))).status).toBe(404);
    expect((await apiError(c.cancelOrder({ params: { order_id: primary.order_id } }))).status).toBe(404);
    expect((await c.getOrders({ query: { ticker } })).orders.map((o) => o.order_id)).toEqual([mine.order_id]);
    expect((await c.getSubaccountBalances()).subaccount_balances.map((b) => b.subaccount_number)).toEqual([sub]);
    // it cannot widen itself, open subaccounts or move cash
    expect((await apiError(c.generateApiKey({ body: { name: 'wide' } }))).status).toBe(403);
    expect((await apiError(c.createSubaccount({ body: {} }))).status).toBe(403);
    expect((await apiError(c.transferBetweenSubaccounts({ body: { client_transfer_id: randomUUID(), from_subaccount: sub, to_subaccount: 0, amount_cents: 1 } }))).status).toBe(403);
    // and it sees only keys of its subaccount
    expect((await c.getApiKeys()).api_keys.map((k) => k.api_key)).toEqual([g.api_key_id]);
  });

  it('binds a key to an FCM subtrader only for its FCM member; such a key is denied on REST', async () => {
    const fcm = t.client('fcm');
    const { subtrader_id } = await fcm.createSubtrader({ body: { subtrader_suffix: 'desk1' } });
    const g = await fcm.generateApiKey({ body: { name: 'desk', fcm_subtrader_id: subtrader_id } });
    expect(g.warning).toMatch(/margin/);
    expect((await fcm.getApiKeys({ query: { fcm_subtrader_id: subtrader_id } })).api_keys.map((k) => k.api_key)).toEqual([g.api_key_id]);
    expect((await apiError(t.clientFor(g.api_key_id, g.private_key).getBalance())).status).toBe(403);
    expect((await apiError(fcm.generateApiKey({ body: { name: 'x', fcm_subtrader_id: `${t.account('fcm').user_id}_nobody` } }))).status).toBe(404);
    expect((await apiError(trader.generateApiKey({ body: { name: 'x', fcm_subtrader_id: subtrader_id } }))).status).toBe(403);
  });

  it('deletes a key (it stops signing); a repeat or unknown key is 404', async () => {
    const g = await trader.generateApiKey({ body: { name: 'doomed' } });
    const c = t.clientFor(g.api_key_id, g.private_key);
    await c.getBalance();
    expect(await trader.deleteApiKey({ params: { api_key: g.api_key_id } })).toEqual({});
    expect((await apiError(c.getBalance())).status).toBe(401);
    expect((await apiError(trader.deleteApiKey({ params: { api_key: g.api_key_id } }))).status).toBe(404);
    expect((await apiError(trader.deleteApiKey({ params: { api_key: randomUUID() } }))).status).toBe(404);
    // another account's key is not the caller's to delete
    expect((await apiError(trader.deleteApiKey({ params: { api_key: t.account('counterparty').api_key_id } }))).status).toBe(404);
  });

  it('keys made through the API survive a restart', async () => {
    const g = await trader.generateApiKey({ body: { name: 'durable', scopes: ['read', 'write'] } });
    const before = await trader.getApiKeys();
    await t.restart();
    trader = t.client('trader');
    expect(await trader.getApiKeys()).toEqual(before);
    expect((await t.clientFor(g.api_key_id, g.private_key).getBalance()).balance).toBeGreaterThan(0);
  });
});
