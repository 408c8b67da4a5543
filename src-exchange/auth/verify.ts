// RSA-PSS request verification per the protocol notes: message = timestamp_ms + METHOD + path
// (path with the /trade-api/v2 prefix, no query), SHA-256, MGF1(SHA-256), salt = digest length,
// standard base64; timestamps more than 5 s off are refused with header_timestamp_expired.
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { ExchangeError, unauthorized } from '../http/errors';

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
  const sig = Buffer.from(h.signature, 'base64');
  const ok = verify(
    'sha256',
    Buffer.from(signedMessage(h.timestampMs, method, path)),
    { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
    sig,
  );
  if (!ok) throw unauthorized('signature does not verify', 'INCORRECT_API_KEY_SIGNATURE');
}
