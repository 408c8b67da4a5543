// The embedded exchange as a running server: the durable node, the REST app derived from the
// endpoint table, and (once attached) the WebSocket stream; listens on 127.0.0.1 only.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ExchangeNode } from './core/node';
import { buildApp, type KeyRecord } from './http/app';
import { buildHandlers } from './handlers/index';
import { users, type Services } from './handlers/support';
import { bootstrapSteps, provisionAccounts } from './bootstrap';
import { readCredentials, writeCredentials } from './provision';
import type { StoredCredentialsFile } from '../src-shared/credentials';
import { API_PREFIX, WS_PATH } from '../src-shared/endpoints';
import type { Activity, ExchangeServerOptions, ServerAttacher } from './server-types';
import { streamAttacher } from './ws/attach';
import { simActivity } from './sim/index';
import { startFixAcceptor } from './fix/acceptor';

export interface RunningExchange {
  port: number;
  baseUrl: string;
  wsUrl: string;
  /** the FIX acceptor on 127.0.0.1 (FIXT.1.1; sessions KalshiNR and KalshiRT) */
  fixPort: number;
  credentials: StoredCredentialsFile;
  svc: Services;
  close(): Promise<void>;
}

/** Attachers add transports to the HTTP server (the WebSocket stream attaches here). */
export const serverAttachers: ServerAttacher[] = [streamAttacher];

/** Background activities (the simulation) started after listen, stopped on close. */
export const activities: Activity[] = [simActivity];

export async function startExchange(opts: ExchangeServerOptions): Promise<RunningExchange> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const node = await ExchangeNode.open({
    dataDir: path.join(opts.dataDir, 'journal'),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.snapshotEvery ? { snapshotEvery: opts.snapshotEvery } : {}),
  });
  const svc: Services = { node, seed: opts.seed ?? 1 };

  const stored = readCredentials(opts.dataDir);
  let accounts: StoredCredentialsFile['accounts'] | null = stored?.accounts ?? null;
  if (Object.keys(users(svc).users).length === 0) {
    const fresh = await provisionAccounts(svc, opts.accounts);
    accounts = fresh;
    for (const step of bootstrapSteps) await step({ svc, accounts: fresh });
    await node.snapshotNow();
  } else if (!accounts) {
    throw new Error(`${opts.dataDir} has exchange state but no credentials.json; restore it or start with an empty data dir`);
  }

  const lookupKey = (keyId: string): KeyRecord | undefined => {
    const u = users(svc);
    const key = u.keys[keyId];
    if (!key) return undefined;
    const user = u.users[key.user_id];
    if (!user) return undefined;
    return {
      publicKeyPem: key.public_key_pem,
      caller: {
        userId: user.user_id,
        apiKeyId: key.api_key,
        scopes: key.scopes,
        subaccount: key.subaccount,
        fcmSubtraderId: key.fcm_subtrader_id,
        isFcmMember: user.is_fcm_member,
        tier: user.usage_tier,
      },
    };
  };

  const app = buildApp({ handlers: buildHandlers(svc), lookupKey, nowMs: () => node.now() }, { rateLimits: opts.rateLimits ?? true });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}${API_PREFIX}`;
  const wsUrl = `ws://127.0.0.1:${port}${WS_PATH}`;
  const fix = await startFixAcceptor({ svc, lookupKey, port: opts.fixPort ?? 0 });
  const credentials: StoredCredentialsFile = { ...stored, base_url: baseUrl, ws_url: wsUrl, fix_host: '127.0.0.1', fix_port: fix.port, accounts };
  writeCredentials(opts.dataDir, credentials);

  const attached = serverAttachers.map((a) => a(app.server, svc));
  const running = opts.sim === false ? [] : activities.map((a) => a(svc, opts));

  let closed = false;
  return {
    port,
    baseUrl,
    wsUrl,
    fixPort: fix.port,
    credentials,
    svc,
    async close() {
      if (closed) return;
      closed = true;
      for (const r of running) await r.stop();
      await fix.close();
      for (const a of attached) await a.close();
      await app.close();
      await node.close();
    },
  };
}
