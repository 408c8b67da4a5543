// Signed requests, as the load generator makes them. An RSA signature costs ~1 ms, which would
// make the generator, not the exchange, the bottleneck; the signature covers only
// `timestamp + method + path`, so a create signature is made once per account and refreshed
// from a timer, and every create sent in the meantime reuses it. Cancels (their own paths) are
// signed one by one, off the event loop.
import { constants, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { ProvisionedAccount } from '../../src-shared/credentials';
import { CREATE_PATH } from './market';

export interface Account {
  keyId: string;
  key: KeyObject;
  headers: Record<string, string>;
}

function signHeaders(a: { keyId: string; key: KeyObject }, nowMs: number): Record<string, string> {
  const signature = sign('sha256', Buffer.from(`${nowMs}POST${CREATE_PATH}`), {
    key: a.key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
  return {
    'content-type': 'application/json',
    'SVC-ACCESS-KEY': a.keyId,
    'SVC-ACCESS-TIMESTAMP': String(nowMs),
    'SVC-ACCESS-SIGNATURE': signature,
  };
}

/** A signature of `message` made in libuv's thread pool (off this process's event loop). */
export function signAsync(key: KeyObject, message: string): Promise<string> {
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(message), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, (err, sig) =>
      err ? reject(err) : resolve(sig.toString('base64')),
    ),
  );
}

/** The accounts, each with create headers re-signed every `refreshMs` until stop(). */
export function refreshedSigners(list: readonly ProvisionedAccount[], refreshMs: number): { accounts: Account[]; stop(): void } {
  const accounts = list.map((p) => {
    const key = createPrivateKey(p.private_key_pem);
    return { keyId: p.api_key_id, key, headers: signHeaders({ keyId: p.api_key_id, key }, Date.now()) };
  });
  const timer = setInterval(() => {
    for (const a of accounts) a.headers = signHeaders(a, Date.now());
  }, refreshMs);
  return { accounts, stop: () => clearInterval(timer) };
}

/** The two accounts sections 1 and 3 trade from: the trader and its counterparty. */
export function traderAndCounterparty(list: readonly ProvisionedAccount[]): ProvisionedAccount[] {
  return ['trader', 'counterparty'].map((name) => {
    const p = list.find((a) => a.name === name);
    if (!p) throw new Error(`no ${name} account`);
    return p;
  });
}
