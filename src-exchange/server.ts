// The embedded exchange as a running server: the durable node, the REST app derived from the
// endpoint table, and (once attached) the WebSocket stream; listens on 127.0.0.1 only.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ExchangeNode } from './core/node';
import { buildApp, type KeyRecord } from './http/app';
import { buildHandlers } from './handlers/index';
import { users, type Services } from './core/services';
import { bootstrapSteps, provisionAccounts } from './bootstrap';
import { provisionKeysFromEnv, readCredentials, writeCredentials } from './provision';
import type { StoredCredentialsFile } from '../src-shared/credentials';
import { API_PREFIX, WS_PATH } from '../src-shared/endpoints';
import type { Activity, ExchangeServerOptions, ServerAttacher } from './server-types';
import { streamAttacher } from './ws/attach';
import { simActivity } from './sim/index';
import { startFixAcceptor } from './fix/acceptor';
import { ensureFixCertificate } from './fix/tls-cert';
import { randomBytes } from 'node:crypto';
import type { ExchangeReplay } from './replay/exchange-replay';
import { ReplayHost } from './replay/host';
import { replayRoutes } from './replay/admin';
import { trackConnections } from '../src-shared/server-close';

export interface RunningExchange {
  port: number;
  baseUrl: string;
  wsUrl: string;
  /** the FIX acceptor on 127.0.0.1 (FIXT.1.1; sessions KalshiNR, KalshiRT, KalshiDC, KalshiMD) */
  fixPort: number;
  /** the same FIX sessions over TLS (the real gateway's only transport), with a local certificate */
  fixTlsPort: number;
  /** that certificate (PEM), made on the data dir's first start */
  fixTlsCertPath: string;
  credentials: StoredCredentialsFile;
  svc: Services;
  /** the replay slot (controlled at /admin/replay with `replay_token` from credentials.json) */
  replays: ReplayHost;
  /** the replay loaded now, if any */
  readonly replay: ExchangeReplay | undefined;
  close(): Promise<void>;
}

/** Attachers add transports to the HTTP server (the WebSocket stream attaches here). */
export const serverAttachers: ServerAttacher[] = [streamAttacher];

/** Background activities (the simulation) started after listen, stopped on close. */
export const activities: Activity[] = [simActivity];

/** The durable node in the data dir (made owner-only if new). */
async function openNode(opts: ExchangeServerOptions): Promise<ExchangeNode> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  return ExchangeNode.open({
    dataDir: path.join(opts.dataDir, 'journal'),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.snapshotEvery ? { snapshotEvery: opts.snapshotEvery } : {}),
  });
}

/**
 * The accounts: on an empty exchange, provisioned and bootstrapped now (then snapshotted);
 * otherwise the stored ones, which an exchange with state must have.
 */
async function provisionedAccounts(
  svc: Services,
  opts: ExchangeServerOptions,
  stored: StoredCredentialsFile['accounts'] | null,
): Promise<StoredCredentialsFile['accounts']> {
  if (Object.keys(users(svc).users).length === 0) {
    const fresh = await provisionAccounts(svc, opts.accounts, opts.provisionKeys ?? provisionKeysFromEnv());
    for (const step of bootstrapSteps) await step({ svc, accounts: fresh });
    // nothing listens yet, so the seeded state is serialised here rather than by starting the
    // snapshot worker to replay the whole journal (seconds on a busy machine, for every first start)
    await svc.node.snapshotNow({ inline: true });
    return fresh;
  }
  if (!stored) {
    throw new Error(`${opts.dataDir} has exchange state but no credentials.json; restore it or start with an empty data dir`);
  }
  return stored;
}

/** An API key's public key and caller, looked up in the exchange's users at each request. */
function keyLookup(svc: Services): (keyId: string) => KeyRecord | undefined {
  return (keyId) => {
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
}

export async function startExchange(opts: ExchangeServerOptions): Promise<RunningExchange> {
  const node = await openNode(opts);
  const svc: Services = { node, seed: opts.seed ?? 1 };

  const stored = readCredentials(opts.dataDir);
  const accounts = await provisionedAccounts(svc, opts, stored?.accounts ?? null);
  const lookupKey = keyLookup(svc);

  const app = buildApp({ handlers: buildHandlers(svc), lookupKey, nowMs: () => node.now() }, { rateLimits: opts.rateLimits ?? true });
  const connections = trackConnections(app.server);
  // the simulation pauses while a recording is replayed
  let running: { stop(): Promise<void> | void }[] = [];
  const simOn = opts.sim !== false;
  const replays = new ReplayHost(svc, {
    pauseSim: async () => {
      const was = running;
      running = [];
      for (const r of was) await r.stop();
    },
    resumeSim: () => {
      if (simOn && running.length === 0) running = activities.map((a) => a(svc, opts));
    },
  });
  if (opts.replay) await replays.load(opts.replay.tape, opts.replay.speed);
  const replayToken = randomBytes(24).toString('base64url');
  replayRoutes(app, replays, replayToken);
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}${API_PREFIX}`;
  const wsUrl = `ws://127.0.0.1:${port}${WS_PATH}`;
  const fixDir = path.join(opts.dataDir, 'fix');
  const cert = await ensureFixCertificate(fixDir);
  const fix = await startFixAcceptor({ svc, lookupKey, port: opts.fixPort ?? 0, dataDir: fixDir, tls: { cert: cert.cert, key: cert.key } });
  const credentials: StoredCredentialsFile = {
    ...stored,
    base_url: baseUrl,
    ws_url: wsUrl,
    fix_host: '127.0.0.1',
    fix_port: fix.port,
    fix_tls_port: fix.tlsPort,
    fix_tls_cert: cert.certPath,
    accounts,
    replay_token: replayToken,
  };
  writeCredentials(opts.dataDir, credentials);

  if (opts.replay?.play) replays.current?.play();
  const attached = serverAttachers.map((a) => a(app.server, svc));
  if (!opts.replay) replays.hooks.resumeSim();

  let closed = false;
  return {
    port,
    baseUrl,
    wsUrl,
    fixPort: fix.port,
    fixTlsPort: fix.tlsPort!,
    fixTlsCertPath: cert.certPath,
    credentials,
    svc,
    replays,
    get replay() {
      return replays.current ?? undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      await replays.close();
      await replays.hooks.pauseSim();
      for (const r of running) await r.stop();
      await fix.close();
      for (const a of attached) await a.close();
      // cut what would hold app.close() a minute (a connection that never sent a request)
      await app.close().finally(connections.cutAfter());
      await node.close();
    },
  };
}
