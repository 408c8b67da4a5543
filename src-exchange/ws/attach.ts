// The WebSocket stream on the exchange's HTTP server: `GET /trade-api/ws/v2` upgrades (other
// paths 404), optionally signed like REST over `timestamp_ms + "GET" + "/trade-api/ws/v2"`.
// No headers = an unsigned connection (public channels only); a bad signature = 401; a key bound
// to an FCM subtrader = 403 (this is the event-contract stream, treated like REST).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { WS_PATH } from '../../src-shared/endpoints';
import { publicKeyFromPem, readSignedHeaders, verifySignature } from '../auth/verify';
import { ExchangeError, forbidden, unauthorized } from '../core/errors';
import { users, type Services } from '../core/services';
import { StreamConnection, type Identity } from './connection';
import { StreamHub } from './hub';
import { streamSettings, type StreamSettings } from './settings';

export interface StreamServer {
  readonly hub: StreamHub;
  /** open connections */
  readonly connections: ReadonlySet<StreamConnection>;
  close(): Promise<void>;
}

const running = new WeakMap<Services, StreamServer>();

/** The stream attached to a running exchange's services (tests reach it through `t.ex.svc`). */
export function streamOf(svc: Services): StreamServer | undefined {
  return running.get(svc);
}

/** Who is connecting: null when unsigned; throws the HTTP refusal otherwise. */
export function authenticateUpgrade(req: IncomingMessage, svc: Services): Identity | null {
  const signed = readSignedHeaders(req.headers);
  if (!signed) return null;
  const u = users(svc);
  const key = u.keys[signed.keyId];
  const user = key ? u.users[key.user_id] : undefined;
  if (!key || !user) throw unauthorized('unknown API key', 'INCORRECT_API_KEY');
  verifySignature(signed, 'GET', WS_PATH, publicKeyFromPem(key.public_key_pem), svc.node.now());
  if (key.fcm_subtrader_id) throw forbidden('a key bound to an FCM subtrader is for FIX and the margin WebSocket only; it is denied on this stream');
  if (!key.scopes.includes('read')) throw forbidden('this API key lacks the read scope');
  return { userId: user.user_id, apiKeyId: key.api_key, subaccount: key.subaccount };
}

function refuse(socket: Duplex, status: number, body?: object): void {
  const text = body ? JSON.stringify(body) : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      (text ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` : 'Content-Length: 0\r\n') +
      `\r\n${text}`,
    () => socket.destroy(),
  );
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** A connection on the hub: its frames handled as commands, its pongs keeping it alive. */
function acceptConnection(hub: StreamHub, ws: WebSocket, identity: Identity | null): void {
  const conn = new StreamConnection(ws, identity, hub);
  hub.connections.add(conn);
  ws.on('message', (data) => conn.handle(textOf(data)));
  ws.on('pong', () => {
    conn.alive = true;
  });
  ws.on('error', () => ws.terminate());
  ws.on('close', () => {
    hub.connections.delete(conn);
    conn.dispose();
  });
}

/** One keep-alive round: a connection that left the previous Ping unanswered is closed, the others pinged. */
function pingAll(hub: StreamHub): void {
  for (const conn of hub.connections) {
    if (!conn.alive) {
      conn.ws.terminate();
      continue;
    }
    conn.alive = false;
    conn.ws.ping();
  }
}

/** Closes a connection with 1001 at shutdown; one that does not answer the close within a second is cut. */
function closeConnection(conn: StreamConnection): Promise<void> {
  return new Promise<void>((resolve) => {
    if (conn.ws.readyState === 3) return resolve();
    const timer = setTimeout(() => {
      conn.ws.terminate();
      resolve();
    }, 1_000);
    conn.ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    conn.ws.close(1001, 'exchange shutting down');
  });
}

export function attachStream(server: Server, svc: Services, settings: StreamSettings = streamSettings): StreamServer {
  const opts = { ...settings };
  const hub = new StreamHub(svc, opts);
  // Invalid UTF-8 in a text frame is answered like any malformed command (error 1), not closed with 1007.
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes, perMessageDeflate: false, clientTracking: false, skipUTF8Validation: true });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0]!.split('#')[0]!;
    if (path !== WS_PATH) {
      refuse(socket, 404, new ExchangeError(404, 'not_found', `no WebSocket at ${path}`).toBody());
      return;
    }
    let identity: Identity | null;
    try {
      identity = authenticateUpgrade(req, svc);
    } catch (err) {
      const e = err instanceof ExchangeError ? err : unauthorized('cannot authenticate the upgrade');
      refuse(socket, e.status, e.toBody());
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, identity));
  };

  const accept = (ws: WebSocket, identity: Identity | null) => acceptConnection(hub, ws, identity);

  // Keep-alive: a Ping every interval; a connection that left the previous one unanswered is closed.
  const pinger = setInterval(() => pingAll(hub), opts.pingIntervalMs);
  pinger.unref();

  server.on('upgrade', onUpgrade);

  const stream: StreamServer = {
    hub,
    connections: hub.connections,
    async close() {
      server.off('upgrade', onUpgrade);
      clearInterval(pinger);
      hub.close();
      const closing = [...hub.connections].map(closeConnection);
      await Promise.all(closing);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      running.delete(svc);
    },
  };
  running.set(svc, stream);
  return stream;
}

/** The attacher registered in server.ts. */
export const streamAttacher = (server: Server, svc: Services): StreamServer => attachStream(server, svc);
