// The verified-signature cache must be invisible: a repeat of a verified request is accepted,
// anything that differs in key, timestamp, method, path or signature is verified afresh, and
// the timestamp window still applies to a cached one.
import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../core/errors';
import { publicKeyFromPem, setVerifiedSignatureCache, verifySignature, type SignedHeaders } from './verify';

const PATH = '/trade-api/v2/portfolio/events/orders';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { pub: publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }) as string), privateKey };
}

const a = keyPair();
const b = keyPair();

function signed(privateKey: typeof a.privateKey, ts: number, method = 'POST', path = PATH): SignedHeaders {
  const signature = sign('sha256', Buffer.from(`${ts}${method}${path}`), {
    key: privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
  return { keyId: 'k1', timestampMs: ts, signature };
}

function codeOf(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ExchangeError);
    return (err as ExchangeError).code;
  }
}

describe.each([true, false])('verifySignature (verified cache %s)', (cache) => {
  afterEach(() => setVerifiedSignatureCache(true));

  it('accepts a valid signature, and the same request again', () => {
    setVerifiedSignatureCache(cache);
    const now = 1_800_000_000_000;
    const h = signed(a.privateKey, now);
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now))).toBeNull();
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now + 1_000))).toBeNull();
  });

  it('refuses what differs from a verified request in path, method, signature or key', () => {
    setVerifiedSignatureCache(cache);
    const now = 1_800_000_001_000;
    const h = signed(a.privateKey, now);
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now))).toBeNull();
    expect(codeOf(() => verifySignature(h, 'POST', `${PATH}/x`, a.pub, now))).toBe('authentication_error');
    expect(codeOf(() => verifySignature(h, 'DELETE', PATH, a.pub, now))).toBe('authentication_error');
    expect(codeOf(() => verifySignature({ ...h, timestampMs: now + 1 }, 'POST', PATH, a.pub, now))).toBe('authentication_error');
    const flipped = Buffer.from(h.signature, 'base64');
    flipped[10] = flipped[10]! ^ 1;
    expect(codeOf(() => verifySignature({ ...h, signature: flipped.toString('base64') }, 'POST', PATH, a.pub, now))).toBe('authentication_error');
    // the same key id now bound to another public key (a replaced key): verified afresh, refused
    expect(codeOf(() => verifySignature(h, 'POST', PATH, b.pub, now))).toBe('authentication_error');
  });

  it('applies the 5 s window to a request that verified before', () => {
    setVerifiedSignatureCache(cache);
    const now = 1_800_000_002_000;
    const h = signed(a.privateKey, now);
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now))).toBeNull();
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now + 5_001))).toBe('header_timestamp_expired');
    expect(codeOf(() => verifySignature(h, 'POST', PATH, a.pub, now - 5_001))).toBe('header_timestamp_expired');
  });

  it('never keeps a failure: a bad signature stays bad, a good one for the same message passes', () => {
    setVerifiedSignatureCache(cache);
    const now = 1_800_000_003_000;
    const good = signed(a.privateKey, now);
    const bad = signed(b.privateKey, now);
    expect(codeOf(() => verifySignature(bad, 'POST', PATH, a.pub, now))).toBe('authentication_error');
    expect(codeOf(() => verifySignature(bad, 'POST', PATH, a.pub, now))).toBe('authentication_error');
    expect(codeOf(() => verifySignature(good, 'POST', PATH, a.pub, now))).toBeNull();
  });
});
