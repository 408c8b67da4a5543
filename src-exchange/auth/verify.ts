// RSA-PSS request verification per the protocol notes (docs/spec/protocol-notes.md): message = timestamp_ms + METHOD + path
// (path with the /trade-api/v2 prefix, no query), SHA-256, MGF1(SHA-256), salt = digest length,
// standard base64; timestamps more than 5 s off are refused with header_timestamp_expired.
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ExchangeError, unauthorized } from '../core/errors';

export const MAX_SKEW_MS = 5_000;
export const HEADER_PREFIXES = ['SVC-', 'KALSHI-'] as const;

export interface SignedHeaders {
  keyId: string;
  timestampMs: number;
  signature: string;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Reads the three access headers under either prefix; null when none are present (a public call). */
export function readSignedHeaders(headers: HeaderBag): SignedHeaders | null {
  for (const prefix of HEADER_PREFIXES) {
    const keyId = header(headers, `${prefix}ACCESS-KEY`);
    const ts = header(headers, `${prefix}ACCESS-TIMESTAMP`);
    const signature = header(headers, `${prefix}ACCESS-SIGNATURE`);
    if (keyId === undefined && ts === undefined && signature === undefined) continue;
    if (!keyId || !ts || !signature) {
      throw unauthorized('missing authentication headers', `${prefix}ACCESS-KEY, ${prefix}ACCESS-TIMESTAMP and ${prefix}ACCESS-SIGNATURE are all required`);
    }
    if (!/^\d{10,16}$/.test(ts)) throw unauthorized('timestamp header must be Unix milliseconds', 'INVALID_TIMESTAMP');
    return { keyId, timestampMs: Number(ts), signature };
  }
  return null;
}

const keyCache = new Map<string, KeyObject>();

/** Public keys are parsed once per PEM and reused. */
export function publicKeyFromPem(pem: string): KeyObject {
  let key = keyCache.get(pem);
  if (!key) {
    key = createPublicKey(pem);
    keyCache.set(pem, key);
  }
  return key;
}

export function signedMessage(timestampMs: number, method: string, path: string): string {
  return `${timestampMs}${method.toUpperCase()}${path}`;
}

// Verified signatures within the skew window. Verification is a pure function of (public key,
// message, signature), so a request repeating one that verified (same key object, timestamp,
// method, path and signature bytes) would verify again: it is answered from here instead of a
// second RSA operation. Only successes are kept (producing one needs the private key), the
// window check still runs on every request, entries leave once their timestamp is out of the
// window, and the map is bounded.
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { key: KeyObject; timestampMs: number }>();
let verifiedCacheEnabled = true;
let lastSweepMs = 0;

/** Turns the verified-signature cache on or off (benchmarks compare both); off clears it. */
export function setVerifiedSignatureCache(enabled: boolean): void {
  verifiedCacheEnabled = enabled;
  verified.clear();
}

function sweepVerified(nowMs: number): void {
  if (nowMs - lastSweepMs < 1_000 && verified.size < VERIFIED_MAX) return;
  lastSweepMs = nowMs;
  for (const [k, v] of verified) if (Math.abs(nowMs - v.timestampMs) > MAX_SKEW_MS) verified.delete(k);
  // still full: drop the oldest insertions
  for (const k of verified.keys()) {
    if (verified.size < VERIFIED_MAX) break;
    verified.delete(k);
  }
}

/**
 * Verifies a signature. Throws ExchangeError 401 with the real exchange's codes:
 * `header_timestamp_expired` for skew, `authentication_error` / INCORRECT_API_KEY_SIGNATURE otherwise.
 */
export function verifySignature(h: SignedHeaders, method: string, path: string, publicKey: KeyObject, nowMs: number): void {
  if (Math.abs(nowMs - h.timestampMs) > MAX_SKEW_MS) {
    throw new ExchangeError(401, 'header_timestamp_expired', 'request timestamp is more than 5 s away from the server clock');
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    throw unauthorized('only RSA keys can sign requests', 'INCORRECT_API_KEY_SIGNATURE');
  }
  const message = signedMessage(h.timestampMs, method, path);
  const cacheKey = verifiedCacheEnabled ? `${h.keyId}\n${message}\n${h.signature}` : '';
  if (verifiedCacheEnabled && verified.get(cacheKey)?.key === publicKey) return;
  const sig = Buffer.from(h.signature, 'base64');
  const ok = verify(
    'sha256',
    Buffer.from(message),
    { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
    sig,
  );
  if (!ok) throw unauthorized('signature does not verify', 'INCORRECT_API_KEY_SIGNATURE');
  if (verifiedCacheEnabled) {
    sweepVerified(nowMs);
    verified.set(cacheKey, { key: publicKey, timestampMs: h.timestampMs });
  }
}
