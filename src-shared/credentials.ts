// The credentials file the embedded exchange provisions and the terminal reads: one format both
// processes share (each does its own file I/O). <data-dir>/credentials.json as architecture.md
// gives it; the private keys exist only in that file (mode 0600) until the terminal seals them.
import { z } from 'zod';

/** The file's name inside the exchange's data dir. */
export const CREDENTIALS_FILE_NAME = 'credentials.json';

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
