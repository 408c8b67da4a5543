// First start in an empty data dir: accounts and keys for the local user, written to
// <data-dir>/credentials.json in the format src-shared/credentials.ts gives (the terminal reads
// the same file). The private keys exist only in that file (mode 0600); the exchange's state
// holds public keys.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { CREDENTIALS_FILE_NAME, StoredCredentialsFile } from '../src-shared/credentials';

export interface AccountPlan {
  name: string;
  fcm: boolean;
}

/** The accounts a fresh embedded exchange starts with. */
export const DEFAULT_ACCOUNTS: readonly AccountPlan[] = [
  { name: 'trader', fcm: false },
  { name: 'counterparty', fcm: false },
  { name: 'fcm', fcm: true },
];

export interface KeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

/**
 * Key pairs handed in for the provisioned accounts instead of generating them: a JSON file
 * `{ "pairs": [{ "publicKeyPem", "privateKeyPem" }] }` named by EXCHANGE_PROVISION_KEYS. For tests
 * only (test-support/exchange/provision-keys.json: RSA generation costs seconds of a busy
 * machine on every first start; vitest.config.ts sets it); unset, every start generates fresh keys.
 */
export function provisionKeysFromEnv(env: NodeJS.ProcessEnv = process.env): KeyPair[] | undefined {
  const file = env.EXCHANGE_PROVISION_KEYS;
  if (!file) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pairs?: KeyPair[] };
  const pairs = parsed.pairs ?? [];
  if (!pairs.every((p) => typeof p.publicKeyPem === 'string' && typeof p.privateKeyPem === 'string')) throw new Error(`${file} (EXCHANGE_PROVISION_KEYS) is not a list of key pairs`);
  return pairs;
}

export function generateRsaKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

export function credentialsPath(dataDir: string): string {
  return path.join(dataDir, CREDENTIALS_FILE_NAME);
}

export function readCredentials(dataDir: string): StoredCredentialsFile | null {
  const file = credentialsPath(dataDir);
  if (!existsSync(file)) return null;
  const parsed = StoredCredentialsFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a valid credentials file: ${parsed.error.message}`);
  return parsed.data;
}

export function writeCredentials(dataDir: string, creds: StoredCredentialsFile): void {
  const file = credentialsPath(dataDir);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

export function newAccountIds(): { user_id: string; api_key_id: string } {
  return { user_id: randomUUID(), api_key_id: randomUUID() };
}
