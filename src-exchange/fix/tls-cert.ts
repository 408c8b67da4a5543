// The FIX acceptor's TLS certificate. The real gateway takes TLS only (docs.kalshi.com/fix/connectivity:
// "plain TCP connections will fail", the certificate given to the member for pinning); the
// embedded exchange makes a self-signed one for 127.0.0.1 on its first start (the selfsigned
// library) and keeps it in its data dir, so a client can pin the same certificate across restarts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface FixCertificate {
  /** the certificate (PEM) a client pins or trusts; also at `certPath` */
  cert: string;
  key: string;
  certPath: string;
}

const TEN_YEARS_MS = 10 * 365 * 86_400_000;

export async function ensureFixCertificate(dir: string): Promise<FixCertificate> {
  const certPath = path.join(dir, 'tls-cert.pem');
  const keyPath = path.join(dir, 'tls-key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // loaded only to make one (its x509 stack costs about a second of a start on a busy machine)
  const { generate } = await import('selfsigned');
  const now = new Date();
  const made = await generate([{ name: 'commonName', value: 'embedded-exchange-fix' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + TEN_YEARS_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  // the key first: a certificate without its key is never left behind
  writeFileSync(keyPath, made.private, { mode: 0o600 });
  writeFileSync(certPath, made.cert, { mode: 0o644 });
  return { cert: made.cert, key: made.private, certPath };
}
