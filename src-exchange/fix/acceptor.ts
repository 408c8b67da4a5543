// The embedded exchange's FIX acceptor: listeners on 127.0.0.1 (port 0 = any free one), plain TCP
// and, when given a certificate, TLS as the real gateway requires (tls-cert.ts); the same sessions
// behind both, one FixSession per connection, one logged-on connection per (key, session type). The
// retransmit sessions' sequence state is kept across reconnects and, when the acceptor has a
// data dir, across restarts (`<data dir>/<key>.<session>.seq`, seq-store.ts). The accounts'
// execution reports for drop copy and listener sessions are kept here (exec-history.ts).
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { KeyRecord } from '../http/app';
import type { Services } from '../core/services';
import { ExecHistory } from './exec-history';
import { RtSession } from './rt-session';
import { SeqStore } from './seq-store';
import { FixSession, type FixLimits, type SessionType } from './session';
import { trackConnections } from '../../src-shared/server-close';

export interface FixAcceptor {
  port: number;
  /** the TLS listener's port (null without a certificate) */
  tlsPort: number | null;
  close(): Promise<void>;
}

export interface FixAcceptorOptions {
  svc: Services;
  lookupKey(keyId: string): KeyRecord | undefined;
  port?: number;
  /** where retransmit sessions keep their sequence numbers and sent messages (none: in memory) */
  dataDir?: string;
  /** a TLS listener too, with this certificate */
  tls?: { cert: string; key: string; port?: number };
  /** bounds on hostile or slow clients (defaults: FIX_LIMITS) */
  limits?: Partial<FixLimits>;
}

/**
 * The acceptor's bounds. Per key, a logged-on connection is one per (key, session type): six at
 * most, a seventh Logon of a kind already up is refused. Before Logon the key is unknown: those
 * connections are capped overall and get a few seconds to log on.
 */
export const FIX_LIMITS: FixLimits = {
  logonTimeoutMs: 5_000,
  maxUnauthenticated: 256,
  maxConnections: 1_024,
  maxUnsentBytes: 4 * 1024 * 1024,
  resendsPerSecond: 10,
};

function listen(server: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const SAFE_KEY = /^[A-Za-z0-9-]{1,100}$/;

/** At start, the KalshiRT session of every key with orders on disk. */
function restoreRtSessions(dataDir: string, seqStore: (keyId: string, type: SessionType) => SeqStore, rtSession: (keyId: string) => RtSession): void {
  if (!existsSync(dataDir)) return;
  for (const name of readdirSync(dataDir)) {
    const keyId = /^(.+)\.KalshiRT\.seq$/.exec(name)?.[1];
    if (keyId === undefined || !SAFE_KEY.test(keyId)) continue;
    if (seqStore(keyId, 'KalshiRT').owned.size > 0) rtSession(keyId);
  }
}

/**
 * Whether a new connection may have a session: at the cap of connections not logged on, the
 * oldest of them makes room first (a flood of idle connections cannot keep a client that
 * connects after it from logging on); at maxConnections it is refused (and destroyed).
 */
function admit(sessions: Set<FixSession>, limits: FixLimits, counts: { refused: number; evicted: number }, socket: Socket): boolean {
  let oldestWaiting: FixSession | null = null;
  let waiting = 0;
  for (const s of sessions) {
    if (!s.awaitingLogon) continue;
    oldestWaiting ??= s;
    waiting++;
  }
  if (waiting >= limits.maxUnauthenticated && oldestWaiting) {
    oldestWaiting.shutdown();
    sessions.delete(oldestWaiting);
    counts.evicted++;
  }
  if (sessions.size >= limits.maxConnections) {
    // refused before any byte is read: the descriptor is given back at once
    if (counts.refused++ % 1_000 === 0) console.warn(`[exchange] FIX connection refused: ${sessions.size} open (${counts.refused} refused so far)`);
    socket.on('error', () => undefined);
    socket.destroy();
    return false;
  }
  if (counts.evicted > 0 && counts.evicted % 1_000 === 1) console.warn(`[exchange] FIX: ${counts.evicted} connections that had not logged on closed to make room`);
  return true;
}

/** One logged-on connection per (key, session type): a session claims its pair at Logon and releases it. */
function sessionClaims(claimed: Map<string, FixSession>) {
  return {
    claim(keyId: string, type: SessionType, session: FixSession): boolean {
      const k = `${keyId}|${type}`;
      const holder = claimed.get(k);
      if (holder && holder !== session) return false;
      claimed.set(k, session);
      return true;
    },
    release(keyId: string, type: SessionType, session: FixSession): void {
      const k = `${keyId}|${type}`;
      if (claimed.get(k) === session) claimed.delete(k);
    },
  };
}

export async function startFixAcceptor(opts: FixAcceptorOptions): Promise<FixAcceptor> {
  const sessions = new Set<FixSession>();
  const stores = new Map<string, SeqStore>();
  const claimed = new Map<string, FixSession>();
  const node = opts.svc.node;
  const history = new ExecHistory(
    (id) => node.core.engine.getOrder(id),
    () => node.now(),
    opts.dataDir ? path.join(opts.dataDir, 'exec-history.jsonl') : null,
  );
  // before any session's listener: a session's live feed sees the report as it is recorded
  const unlisten = node.onEvents((events) => history.onEvents(events));
  const seqStore = (keyId: string, type: SessionType): SeqStore => {
    const k = `${keyId}|${type}`;
    let st = stores.get(k);
    if (!st) {
      // the key id has passed lookupKey; the check keeps a file name out of any other shape
      const file = opts.dataDir && SAFE_KEY.test(keyId) ? path.join(opts.dataDir, `${keyId}.${type}.seq`) : null;
      stores.set(k, (st = new SeqStore(file)));
    }
    return st;
  };
  // the KalshiRT sessions: made on first Logon, and at start for every one with orders on disk,
  // so events on their orders are stored while nobody is logged on (rt-session.ts)
  const rtSessions = new Map<string, RtSession>();
  const rtSession = (keyId: string): RtSession => {
    let rt = rtSessions.get(keyId);
    if (!rt) rtSessions.set(keyId, (rt = new RtSession(node, seqStore(keyId, 'KalshiRT'))));
    return rt;
  };
  if (opts.dataDir) restoreRtSessions(opts.dataDir, seqStore, rtSession);
  const limits: FixLimits = { ...FIX_LIMITS, ...opts.limits };
  const counts = { refused: 0, evicted: 0 };
  const { claim, release } = sessionClaims(claimed);
  const accept = (socket: Socket) => {
    if (!admit(sessions, limits, counts, socket)) return;
    socket.setNoDelay(true);
    const s = new FixSession(socket, {
      limits,
      svc: opts.svc,
      lookupKey: opts.lookupKey,
      history,
      seqStore,
      rtSession,
      claim,
      release,
      onClose: (session) => sessions.delete(session),
    });
    sessions.add(s);
  };
  const server: Server = createServer({ noDelay: true }, accept);
  const tlsServer = opts.tls ? createTlsServer({ cert: opts.tls.cert, key: opts.tls.key, minVersion: 'TLSv1.2' }, accept) : null;
  // a failed handshake (a plain TCP client, an untrusted certificate) just ends that connection
  tlsServer?.on('tlsClientError', () => undefined);
  const listeners = [server, ...(tlsServer ? [tlsServer] : [])].map((srv) => trackConnections(srv));
  const port = await listen(server, opts.port ?? 0);
  const tlsPort = tlsServer ? await listen(tlsServer, opts.tls?.port ?? 0) : null;
  return {
    port,
    tlsPort,
    async close() {
      for (const s of sessions) s.shutdown();
      // a TLS connection whose client never sent its hello is no session yet: cut after the grace
      await Promise.all(listeners.map((l) => l.close()));
      unlisten();
      for (const rt of rtSessions.values()) rt.close();
      history.close();
      for (const st of stores.values()) st.close();
    },
  };
}
