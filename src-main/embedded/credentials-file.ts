// The embedded exchange's credentials.json, as the terminal reads it (and strips it of the keys
// its vault holds).
import path from 'node:path';
import { CREDENTIALS_FILE_NAME, StoredCredentialsFile } from '../../src-shared/credentials';
import { readJsonFile, writeJsonFile } from '../base/json-file';

/** The exchange's credentials.json (the shared schema, unknown fields kept), or a clear error. */
export function credentialsOf(exchangeDataDir: string): StoredCredentialsFile {
  const file = path.join(exchangeDataDir, CREDENTIALS_FILE_NAME);
  const creds = readJsonFile<StoredCredentialsFile | null>(file, StoredCredentialsFile, () => null);
  if (!creds) throw new Error(`${file} is missing: the embedded exchange did not provision its accounts`);
  return creds;
}

/**
 * Once the terminal's vault holds an embedded account's private key, the exchange's
 * credentials.json keeps only the account's ids: no plaintext key stays on disk (written
 * atomically, 0600; other fields pass through). Returns how many keys were removed.
 */
export function stripImportedKeys(exchangeDataDir: string, held: (apiKeyId: string) => boolean): number {
  const creds = credentialsOf(exchangeDataDir);
  let removed = 0;
  const accounts = creds.accounts.map((a) => {
    if (a.private_key_pem === undefined || !held(a.api_key_id)) return a;
    removed += 1;
    const { private_key_pem: _gone, ...rest } = a;
    return { ...rest, private_key: "sealed in the terminal's vault" };
  });
  if (removed > 0) writeJsonFile(path.join(exchangeDataDir, CREDENTIALS_FILE_NAME), { ...creds, accounts });
  return removed;
}
