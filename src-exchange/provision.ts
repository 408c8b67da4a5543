// First start in an empty data dir: accounts and keys for the local user, written to
// <data-dir>/credentials.json exactly as architecture.md gives it. The private keys exist only
// in that file (mode 0600); the exchange's state holds public keys.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const CredentialsFile = z.object({
  base_url: z.string().url(),
  ws_url: z.string(),
  accounts: z.array(
    z.object({
      name: z.string(),
      user_id: z.string(),
      api_key_id: z.string(),
      private_key_pem: z.string(),
      fcm: z.boolean(),
    }),
  ),
});
export type CredentialsFile = z.infer<typeof CredentialsFile>;

/**
 * credentials.json as it may be found on a later start: a terminal that sealed the keys in its own
 * vault strips `private_key_pem` (and leaves a note); unknown fields pass through.
 */
export const StoredCredentialsFile = z
  .object({
    base_url: z.string(),
    ws_url: z.string(),
    accounts: z.array(z.object({ name: z.string(), user_id: z.string(), api_key_id: z.string(), private_key_pem: z.string().optional(), fcm: z.boolean() }).passthrough()),
  })
  .passthrough();
export type StoredCredentialsFile = z.infer<typeof StoredCredentialsFile>;

/** The credentials with every private key present (a fresh exchange's), or a clear error. */
export function withKeys(c: StoredCredentialsFile): CredentialsFile {
  const stripped = c.accounts.filter((a) => a.private_key_pem === undefined).map((a) => a.name);
  if (stripped.length > 0) throw new Error(`credentials.json holds no private key for ${stripped.join(', ')}: a terminal sealed them in its own vault`);
  return CredentialsFile.parse(c);
}
export type ProvisionedAccount = CredentialsFile['accounts'][number];

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

export function generateRsaKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicExponent: 0x10001,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

export function credentialsPath(dataDir: string): string {
  return path.join(dataDir, 'credentials.json');
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
