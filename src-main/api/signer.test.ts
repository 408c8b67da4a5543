import { afterEach, describe, expect, it, vi } from 'vitest';
import { constants, createPrivateKey, generateKeyPairSync, verify, KeyObject } from 'node:crypto';
import { createSigner, KeyError, loadPrivateKey, signatureMessage, signaturePath } from './signer';
import { createApiClient } from './client';
import { json, rows, rsaKeys, startServer, type TestServer } from '../../test-support/main/api-server';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, createPrivateKey: vi.fn(actual.createPrivateKey) };
});

function verifies(publicKey: KeyObject, message: string, signatureB64: string): boolean {
  return verify('sha256', Buffer.from(message), { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, Buffer.from(signatureB64, 'base64'));
}

describe('signer', () => {
  const { publicKey, privateKeyPem } = rsaKeys();

  it('signs ts + METHOD + full path with RSA-PSS SHA-256 (salt 32) in standard base64', () => {
    const signer = createSigner({ credentials: { keyId: 'key-1', privateKeyPem } });
    const ts = 1703123456789;
    const h = signer.headers('get', '/trade-api/v2/portfolio/orders', ts);
    expect(h['SVC-ACCESS-KEY']).toBe('key-1');
    expect(h['SVC-ACCESS-TIMESTAMP']).toBe('1703123456789');
    const sig = h['SVC-ACCESS-SIGNATURE']!;
    expect(sig).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(sig, 'base64')).toHaveLength(256);
    expect(verifies(publicKey, '1703123456789GET/trade-api/v2/portfolio/orders', sig)).toBe(true);
  });

  it('signs the same message off the event loop (headersAsync), query dropped, same headers', async () => {
    const signer = createSigner({ credentials: { keyId: 'key-2', privateKeyPem } });
    const h = await signer.headersAsync('delete', '/trade-api/v2/portfolio/events/orders/o-1?x=1', 1703123456790);
    expect(Object.keys(h).sort()).toEqual(['SVC-ACCESS-KEY', 'SVC-ACCESS-SIGNATURE', 'SVC-ACCESS-TIMESTAMP']);
    expect(h['SVC-ACCESS-KEY']).toBe('key-2');
    expect(h['SVC-ACCESS-TIMESTAMP']).toBe('1703123456790');
    expect(verifies(publicKey, '1703123456790DELETE/trade-api/v2/portfolio/events/orders/o-1', h['SVC-ACCESS-SIGNATURE']!)).toBe(true);
    expect(verifies(publicKey, '1703123456790DELETE/trade-api/v2/portfolio/events/orders/o-2', h['SVC-ACCESS-SIGNATURE']!)).toBe(false);
  });

  it('excludes the query string and fragment from the signed path', () => {
    const signer = createSigner({ credentials: { keyId: 'k', privateKeyPem } });
    const h = signer.headers('GET', '/trade-api/v2/portfolio/orders?limit=5&ticker=A#frag', 1700000000000);
    expect(verifies(publicKey, '1700000000000GET/trade-api/v2/portfolio/orders', h['SVC-ACCESS-SIGNATURE']!)).toBe(true);
    expect(signaturePath('https://h.example/trade-api/v2/markets?x=1')).toBe('/trade-api/v2/markets');
    expect(signatureMessage(5, 'delete', '/trade-api/v2/a?b')).toBe('5DELETE/trade-api/v2/a');
  });

  it('fails verification for a tampered path, method or timestamp', () => {
    const signer = createSigner({ credentials: { keyId: 'k', privateKeyPem } });
    const sig = signer.headers('POST', '/trade-api/v2/portfolio/events/orders', 1700000000000)['SVC-ACCESS-SIGNATURE']!;
    expect(verifies(publicKey, '1700000000000POST/trade-api/v2/portfolio/events/orders', sig)).toBe(true);
    expect(verifies(publicKey, '1700000000000POST/trade-api/v2/portfolio/events/order', sig)).toBe(false);
    expect(verifies(publicKey, '1700000000000GET/trade-api/v2/portfolio/events/orders', sig)).toBe(false);
    expect(verifies(publicKey, '1700000000001POST/trade-api/v2/portfolio/events/orders', sig)).toBe(false);
  });

  it('uses the profile header prefix', () => {
    const signer = createSigner({ credentials: { keyId: 'k', privateKeyPem }, headerPrefix: 'KALSHI-' });
    expect(Object.keys(signer.headers('GET', '/trade-api/v2/x', 1)).sort()).toEqual(['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-SIGNATURE', 'KALSHI-ACCESS-TIMESTAMP']);
  });

  it('signs the WebSocket upgrade as GET /trade-api/ws/v2', () => {
    const signer = createSigner({ credentials: { keyId: 'k', privateKeyPem } });
    const h = signer.wsHeaders(1700000000123);
    expect(verifies(publicKey, '1700000000123GET/trade-api/ws/v2', h['SVC-ACCESS-SIGNATURE']!)).toBe(true);
  });

  describe('key parsing', () => {
    afterEach(() => vi.mocked(createPrivateKey).mockClear());

    it('parses the PEM once and reuses the KeyObject for every signature', () => {
      vi.mocked(createPrivateKey).mockClear();
      const signer = createSigner({ credentials: { keyId: 'k', privateKeyPem } });
      for (let i = 0; i < 5; i++) signer.headers('GET', `/trade-api/v2/markets/${i}`, 1700000000000 + i);
      signer.wsHeaders(1700000000000);
      expect(vi.mocked(createPrivateKey)).toHaveBeenCalledTimes(1);
      expect(signer.key).toBeInstanceOf(KeyObject);
      expect(signer.key.asymmetricKeyType).toBe('rsa');
    });

    it('rejects an Ed25519 key with a clear error', () => {
      const { privateKey } = generateKeyPairSync('ed25519');
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      expect(() => loadPrivateKey(pem)).toThrow(KeyError);
      expect(() => createSigner({ credentials: { keyId: 'k', privateKeyPem: pem } })).toThrow(/Ed25519.*cannot sign/);
    });

    it('rejects a non-PEM string with a clear error', () => {
      expect(() => loadPrivateKey('not a key')).toThrow(/could not read the private key PEM/);
    });

    it('accepts a PKCS#1 RSA PEM', () => {
      const pkcs1 = rsaKeys().privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
      expect(loadPrivateKey(pkcs1).asymmetricKeyType).toBe('rsa');
    });
  });
});

describe('signed requests on the wire', () => {
  const { publicKey, privateKeyPem } = rsaKeys();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a signed row carries headers that verify over the full pathname without the query', async () => {
    server = await startServer((_req, res) => json(res, 200, { orderbooks: [] }));
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, credentials: { keyId: 'key-9', privateKeyPem } });
    await client.request(rows.getOrderbooks, { query: { tickers: ['A', 'B'] } });
    const req = server.requests[0]!;
    expect(req.url).toBe('/trade-api/v2/markets/orderbooks?tickers=A&tickers=B');
    expect(req.headers['svc-access-key']).toBe('key-9');
    const ts = String(req.headers['svc-access-timestamp']);
    expect(ts).toMatch(/^\d{13}$/);
    expect(verifies(publicKey, `${ts}GET/trade-api/v2/markets/orderbooks`, String(req.headers['svc-access-signature']))).toBe(true);
  });

  it('a public row carries no auth headers', async () => {
    server = await startServer((_req, res) => json(res, 200, { markets: [], cursor: '' }));
    const client = createApiClient({ profile: { kind: 'embedded', baseUrl: server.origin }, credentials: { keyId: 'key-9', privateKeyPem } });
    await client.request(rows.getMarkets, {});
    expect(Object.keys(server.requests[0]!.headers).filter((h) => h.startsWith('svc-'))).toEqual([]);
  });
});

// What mutation testing found unguarded (npm run mutation): the key kinds refused, the signed
// path's URL test, the timestamp's range and an empty key id.
describe('signer: what it refuses', () => {
  it('refuses a public key, an EC key, and names each', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(() => createSigner({ credentials: { keyId: 'k', key: rsa.publicKey } })).toThrow('request signing needs a private key, got a public key');
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(() => createSigner({ credentials: { keyId: 'k', key: ec.privateKey } })).toThrow('unsupported private key type ec: request signing needs an RSA key');
    const ed = generateKeyPairSync('ed25519');
    expect(() => createSigner({ credentials: { keyId: 'k', key: ed.privateKey } })).toThrow(/this is an Ed25519 key/);
    expect(() => createSigner({ credentials: { keyId: 'k', key: ed.privateKey } })).toThrow(KeyError);
  });

  it('accepts an RSA-PSS key and signs with it', () => {
    const pss = generateKeyPairSync('rsa-pss', { modulusLength: 2048 });
    const s = createSigner({ credentials: { keyId: 'k', key: pss.privateKey } });
    const h = s.headers('GET', '/trade-api/v2/portfolio/balance', 1_700_000_000_000);
    expect(verifies(pss.publicKey, '1700000000000GET/trade-api/v2/portfolio/balance', h['SVC-ACCESS-SIGNATURE'] ?? h[Object.keys(h).find((x) => x.endsWith('SIGNATURE'))!]!)).toBe(true);
  });

  it('refuses an empty key id', () => {
    const { privateKeyPem } = rsaKeys();
    expect(() => createSigner({ credentials: { keyId: '', privateKeyPem } })).toThrow('the API key id is empty');
  });

  it('treats only a leading scheme as a URL', () => {
    expect(signaturePath('/trade-api/v2/markets?next=https://x.example/y')).toBe('/trade-api/v2/markets');
    expect(signaturePath('/a/b#c://d')).toBe('/a/b');
    expect(signaturePath('https://h.example/trade-api/v2/x?y=1')).toBe('/trade-api/v2/x');
  });

  it('refuses a timestamp that is negative, fractional or not a number; zero is a timestamp', () => {
    for (const ts of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(() => signatureMessage(ts, 'GET', '/x')).toThrow(`bad signing timestamp ${ts}`);
    expect(signatureMessage(0, 'get', '/x?q=1')).toBe('0GET/x');
  });
});
