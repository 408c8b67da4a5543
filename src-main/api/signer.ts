// Request signing: RSA-PSS (SHA-256, MGF1 SHA-256, salt = digest length) over
// `timestamp_ms + METHOD + pathname`, base64, in three headers with a per-profile prefix.
// The PEM is parsed once into a KeyObject; signing never re-reads it.
import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { WS_PATH } from '../../src-shared/endpoints';

export const DEFAULT_HEADER_PREFIX = 'SVC-';

export interface Credentials {
  keyId: string;
  /** PKCS#1 or PKCS#8 PEM of an RSA private key */
  privateKeyPem: string;
}

export interface Signer {
  readonly keyId: string;
  readonly headerPrefix: string;
  /** the parsed key, created once per signer */
  readonly key: KeyObject;
  /** The three auth headers for `method` on `pathOrUrl` (query and fragment are dropped) at `timestampMs`. */
  headers(method: string, pathOrUrl: string, timestampMs: number): Record<string, string>;
  /**
   * The same headers, signed in libuv's thread pool: the RSA operation (most of a millisecond)
   * runs off the event loop, which keeps reading the books meanwhile. What REST requests use.
   */
  headersAsync(method: string, pathOrUrl: string, timestampMs: number): Promise<Record<string, string>>;
  /** Headers for the WebSocket upgrade: signs `ts + 'GET' + wsPath`. */
  wsHeaders(timestampMs: number, wsPath?: string): Record<string, string>;
}

export class KeyError extends Error {
  override name = 'KeyError';
}

/** Parses a PEM private key; refuses anything that is not RSA (Ed25519 keys cannot sign requests). */
export function loadPrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new KeyError(`could not read the private key PEM (${why}); expected an unencrypted RSA private key in PKCS#1 or PKCS#8 PEM form`);
  }
  return assertRsa(key);
}

function assertRsa(key: KeyObject): KeyObject {
  if (key.type !== 'private') throw new KeyError(`request signing needs a private key, got a ${key.type} key`);
  const type = key.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'rsa-pss') {
    throw new KeyError(
      type === 'ed25519'
        ? 'this is an Ed25519 key: the exchange authenticates requests with RSA-PSS only, so Ed25519 keys cannot sign; generate or upload an RSA key'
        : `unsupported private key type ${type ?? 'unknown'}: request signing needs an RSA key`,
    );
  }
  return key;
}

/** The signed path: the URL pathname without query or fragment. */
export function signaturePath(pathOrUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathOrUrl)) return new URL(pathOrUrl).pathname;
  const cut = pathOrUrl.search(/[?#]/);
  return cut === -1 ? pathOrUrl : pathOrUrl.slice(0, cut);
}

/** The exact message that is signed. */
export function signatureMessage(timestampMs: number, method: string, pathOrUrl: string): string {
  if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) throw new RangeError(`bad signing timestamp ${timestampMs}`);
  return `${timestampMs}${method.toUpperCase()}${signaturePath(pathOrUrl)}`;
}

export function signMessage(key: KeyObject, message: string): string {
  return sign('sha256', Buffer.from(message, 'utf8'), {
    key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
}

/** signMessage in libuv's thread pool (node:crypto's callback form). */
export function signMessageAsync(key: KeyObject, message: string): Promise<string> {
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(message, 'utf8'), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, (err, sig) =>
      err ? reject(err) : resolve(sig.toString('base64')),
    ),
  );
}

export function createSigner(opts: { credentials: Credentials | { keyId: string; key: KeyObject }; headerPrefix?: string }): Signer {
  const { credentials } = opts;
  if (!credentials.keyId) throw new KeyError('the API key id is empty');
  const key = 'key' in credentials ? assertRsa(credentials.key) : loadPrivateKey(credentials.privateKeyPem);
  const prefix = opts.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  const keyId = credentials.keyId;

  const headersWith = (timestampMs: number, signature: string): Record<string, string> => ({
    [`${prefix}ACCESS-KEY`]: keyId,
    [`${prefix}ACCESS-TIMESTAMP`]: String(timestampMs),
    [`${prefix}ACCESS-SIGNATURE`]: signature,
  });
  const headers = (method: string, pathOrUrl: string, timestampMs: number): Record<string, string> =>
    headersWith(timestampMs, signMessage(key, signatureMessage(timestampMs, method, pathOrUrl)));
  const headersAsync = async (method: string, pathOrUrl: string, timestampMs: number): Promise<Record<string, string>> =>
    headersWith(timestampMs, await signMessageAsync(key, signatureMessage(timestampMs, method, pathOrUrl)));

  return {
    keyId,
    headerPrefix: prefix,
    key,
    headers,
    headersAsync,
    wsHeaders: (timestampMs, wsPath = WS_PATH) => headers('GET', wsPath, timestampMs),
  };
}
