// Integration tests run the real embedded exchange on 127.0.0.1 port 0 in this process and
// talk to it with the terminal's own REST client (the one users' requests go through).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startExchange, type RunningExchange } from '../../src-exchange/server';
import type { ExchangeServerOptions } from '../../src-exchange/server-types';
import { createApiClient, type ApiClient } from '../../src-main/api/client';
import { withKeys, type ProvisionedAccount } from '../../src-shared/credentials';
import { waitToAvoidUtcMidnight } from '../../src-shared/time';

export interface TestExchange {
  ex: RunningExchange;
  dataDir: string;
  account(name: string): ProvisionedAccount;
  /** a signed client for a provisioned account */
  client(name: string): ApiClient;
  /** an unsigned client, for public endpoints */
  publicClient(): ApiClient;
  /** a signed client for an arbitrary key */
  clientFor(keyId: string, privateKeyPem: string): ApiClient;
  /** stop and start the exchange on the same data dir (state must survive) */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestExchange(opts: Partial<ExchangeServerOptions> = {}): Promise<TestExchange> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'exchange-it-'));
  const start = () => startExchange({ sim: false, rateLimits: false, seed: 7, ...opts, dataDir, port: 0 });
  let ex = await start();
  const profileOf = () => ({ kind: 'custom' as const, name: 'test', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' });
  const t: TestExchange = {
    get ex() {
      return ex;
    },
    dataDir,
    account(name) {
      const a = withKeys(ex.credentials).accounts.find((x) => x.name === name);
      if (!a) throw new Error(`no provisioned account ${name}`);
      return a;
    },
    client(name) {
      const a = t.account(name);
      return createApiClient({ profile: profileOf(), credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem } });
    },
    publicClient() {
      return createApiClient({ profile: profileOf() });
    },
    clientFor(keyId, privateKeyPem) {
      return createApiClient({ profile: profileOf(), credentials: { keyId, privateKeyPem } });
    },
    async restart() {
      await ex.close();
      ex = await start();
    },
    async close() {
      await ex.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/**
 * The historical cutoffs and the FCM daily cap turn over at UTC midnight. A test that builds
 * data on either side of such a boundary must not straddle it, so it waits it out first.
 */
export async function avoidUtcMidnight(marginMs = 120_000): Promise<void> {
  const wait = waitToAvoidUtcMidnight(Date.now(), marginMs);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
