// The web host: the same main services serving the built renderer to a browser on 127.0.0.1,
// with TerminalApi carried over a WebSocket. Every socket must present the per-launch token
// and come from our own origin; the Host header is checked against DNS rebinding.
//
// The token is never a cookie: browsers send 127.0.0.1's cookies to every port on it, so any
// local server a page visits would receive it. The page moves it from its URL into its
// sessionStorage (readable by its own origin, scheme + host + port, only) and offers it as a
// WebSocket subprotocol, `terminal.token.<token>`, beside `terminal.v1`, which is the one the
// host answers with (the token is never echoed). Clients outside a browser may pass ?token=.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CallFrame, type ServerFrame } from '../../src-shared/ipc/frames';
import type { StreamName, StreamPayloads } from '../../src-shared/ipc/contract';
import type { DoorResult } from '../ipc/door';
import { trackConnections } from '../../src-shared/server-close';

export interface HostOptions {
  port?: number;
  staticDir: string;
  door: (method: string, args: unknown) => Promise<DoorResult>;
  token?: string;
  log?: (m: string) => void;
}

export interface RunningHost {
  port: number;
  token: string;
  url: string;
  broadcast<S extends StreamName>(stream: S, payload: StreamPayloads[S]): void;
  /** connected, authenticated sockets */
  clients(): number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

function csp(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const MAX_FRAME = 2 * 1024 * 1024;
export const PROTOCOL = 'terminal.v1';
export const TOKEN_PROTOCOL = 'terminal.token.';
/** the per-port token cookies of earlier versions */
const OLD_COOKIE = /^terminal_token_\d{1,5}$/;
const MAX_URL = 8 * 1024;
/** calls one socket may have waiting on the door; more are refused at once (`too_many_calls`) */
export const MAX_CALLS_IN_FLIGHT = 64;
/** answers and views waiting for a socket that does not read them; past this it is closed */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/**
 * Page sockets open at once (a page holds one; a few tabs or windows fit). One past it is
 * accepted only to be closed with CLOSE_TOO_MANY and a reason the page shows; it retries later.
 */
export const MAX_SOCKETS = 16;
/** what every socket together may leave unread; past it the one with the most unread is closed */
export const MAX_BUFFERED_TOTAL = 64 * 1024 * 1024;
/** "try again later": the close code of a socket past MAX_SOCKETS */
export const CLOSE_TOO_MANY = 1013;

/** Headers every answer carries, errors included: never a Referer with the token in it. */
const BASE_HEADERS = { 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' } as const;
function plain(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(text);
}

/** A request path to a file under the static root, or the answer for why not (never a throw). */
function staticFile(raw: string, staticRoot: string, port: number): { file: string } | { status: number; text: string } {
  if (raw.length > MAX_URL) return { status: 414, text: 'URI too long' };
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(raw, `http://127.0.0.1:${port}`).pathname);
  } catch {
    return { status: 400, text: 'bad request path' }; // malformed percent-encoding or URL
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = path.resolve(staticRoot, '.' + rel);
  const notFound = { status: 404, text: 'not found' };
  if (rel.includes('\0') || !file.startsWith(staticRoot + path.sep)) return notFound;
  try {
    return statSync(file).isFile() ? { file } : notFound;
  } catch {
    return notFound;
  }
}

/** Clears the token cookies earlier versions set (any port's: all of 127.0.0.1 shares them). */
function oldCookies(req: IncomingMessage): string[] {
  const names = new Set<string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const name = part.slice(0, Math.max(0, part.indexOf('='))).trim();
    if (OLD_COOKIE.test(name)) names.add(name);
  }
  return [...names].map((n) => `${n}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`);
}
/** The token the page offers among its subprotocols, or ''. */
function protocolToken(req: IncomingMessage): string {
  for (const p of String(req.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const t = p.trim();
    if (t.startsWith(TOKEN_PROTOCOL)) return t.slice(TOKEN_PROTOCOL.length);
  }
  return '';
}

interface Outbox {
  send(ws: WebSocket, data: string | Buffer): void;
  withinTotal(): void;
}

/** The host's sockets' sending side: a socket that does not read is cut, and so is the worst past the total. */
function outbox(sockets: Set<WebSocket>, log: HostOptions['log']): Outbox {
  /**
   * Sends a frame, and drops a client that does not read: what it leaves unread stays in the
   * host's memory, so past MAX_BUFFERED_BYTES the socket is cut (a page that reads reconnects).
   */
  const send = (ws: WebSocket, data: string | Buffer): void => {
    if (ws.readyState !== ws.OPEN) return;
    // a Buffer goes out as is (the host does not mask), so one broadcast's bytes are shared by every socket's queue
    ws.send(data, { binary: false }, (e) => e && ws.terminate());
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) cut(ws);
  };
  const cut = (ws: WebSocket): void => {
    log?.(`closed a host socket that does not read (${Math.round(ws.bufferedAmount / 1048576)} MB unread)`);
    sockets.delete(ws);
    // the close frame would only queue behind what it does not read: the socket goes at once
    ws.terminate();
  };
  /** Past MAX_BUFFERED_TOTAL unread over every socket, the ones with the most unread are closed. */
  const withinTotal = (): void => {
    let total = 0;
    for (const ws of sockets) total += ws.bufferedAmount;
    while (total > MAX_BUFFERED_TOTAL && sockets.size > 0) {
      let worst: WebSocket | undefined;
      for (const ws of sockets) if (!worst || ws.bufferedAmount > worst.bufferedAmount) worst = ws;
      if (!worst) break;
      total -= worst.bufferedAmount;
      cut(worst);
    }
  };
  return { send, withinTotal };
}

/** Runs one call frame through the door and answers it (at most MAX_CALLS_IN_FLIGHT waiting per socket). */
async function handleFrame(opts: HostOptions, { send, withinTotal }: Outbox, ws: WebSocket, calls: { inFlight: number }, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) return;
  let frame: CallFrame;
  try {
    const parsed = CallFrame.safeParse(JSON.parse(data.toString()));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'bad frame');
    frame = parsed.data;
  } catch (e) {
    opts.log?.(`dropped a malformed host frame: ${(e as Error).message.slice(0, 120)}`);
    return;
  }
  if (calls.inFlight >= MAX_CALLS_IN_FLIGHT) {
    const message = `${MAX_CALLS_IN_FLIGHT} calls are already waiting on this socket: wait for their answers before sending more; this call was not run`;
    return send(ws, JSON.stringify({ t: 'result', id: frame.id, ok: false, error: { kind: 'state', code: 'too_many_calls', message } } satisfies ServerFrame));
  }
  let out: ServerFrame;
  calls.inFlight++;
  try {
    const r = await opts.door(frame.method, frame.args);
    out = r.ok ? { t: 'result', id: frame.id, ok: true, value: r.value } : { t: 'result', id: frame.id, ok: false, error: r.error };
  } catch (e) {
    out = { t: 'result', id: frame.id, ok: false, error: { kind: 'state', message: `internal error: ${(e as Error).message}` } };
  } finally {
    calls.inFlight--;
  }
  try {
    send(ws, JSON.stringify(out));
    withinTotal();
  } catch (e) {
    opts.log?.(`could not answer call ${frame.id}: ${(e as Error).message}`);
  }
}

const hostOk = (req: IncomingMessage, port: number) =>
  req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;

/** Answers a GET or HEAD for a file of the built renderer. */
function serveStatic(req: IncomingMessage, res: ServerResponse, staticRoot: string, port: number): void {
  if (!hostOk(req, port)) return plain(res, 421, 'wrong host');
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
  const found = staticFile(req.url ?? '/', staticRoot, port);
  if (!('file' in found)) return plain(res, found.status, found.text);
  const { file } = found;
  const ext = path.extname(file);
  const clear = oldCookies(req);
  res.writeHead(200, {
    ...BASE_HEADERS,
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': ext === '.html' ? 'no-store' : 'max-age=3600',
    ...(ext === '.html' ? { 'content-security-policy': csp(port), 'x-frame-options': 'DENY' } : {}),
    ...(clear.length ? { 'set-cookie': clear } : {}),
  });
  if (req.method === 'HEAD') return void res.end();
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** Malformed HTTP (bad headers, oversize headers): answer if the socket still can, then close. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (socket.writable && !socket.destroyed) {
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nReferrer-Policy: no-referrer\r\nContent-Length: 0\r\n\r\n`);
  } else socket.destroy();
}

interface Upgrade {
  opts: HostOptions;
  token: string;
  port: number;
  wss: WebSocketServer;
  sockets: Set<WebSocket>;
  out: Outbox;
}

function refuse(opts: HostOptions, socket: Duplex, why: string): void {
  opts.log?.(`refused host socket (${why})`);
  if (socket.writable) socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nReferrer-Policy: no-referrer\r\nContent-Length: 0\r\n\r\n');
  socket.destroy();
}

/** A socket is let in only on /ipc, from our own host and origin, with the token. */
function onUpgrade(u: Upgrade, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const { opts, token, port } = u;
  socket.on('error', () => socket.destroy());
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  } catch {
    return refuse(opts, socket, 'malformed URL');
  }
  // the page offers it as a subprotocol; a client outside a browser may pass ?token=
  const given = protocolToken(req) || (url.searchParams.get('token') ?? '');
  const origin = req.headers.origin;
  const originOk = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
  if (url.pathname !== '/ipc' || !hostOk(req, port) || !originOk || !sameToken(given, token)) {
    // the log names what was wrong, never the token itself
    return refuse(opts, socket, `path ${url.pathname.slice(0, 60)}, origin ${String(origin ?? 'none').slice(0, 80)}, token ${given ? (sameToken(given, token) ? 'ok' : 'wrong') : 'missing'}`);
  }
  u.wss.handleUpgrade(req, socket, head, (ws) => acceptSocket(u, ws));
}

/** Takes an authenticated socket in (or closes it past MAX_SOCKETS) and runs its call frames. */
function acceptSocket({ opts, sockets, out }: Upgrade, ws: WebSocket): void {
  if (sockets.size >= MAX_SOCKETS) {
    // past the cap: closed at once, with a reason the page shows (it retries later)
    opts.log?.(`refused a host socket: ${MAX_SOCKETS} already open`);
    ws.on('error', () => ws.terminate());
    ws.close(CLOSE_TOO_MANY, `too many terminal pages: at most ${MAX_SOCKETS} sockets are open; close a tab or window of the terminal`);
    // a client that does not answer the close is not waited for
    setTimeout(() => ws.terminate(), 2000).unref();
    return;
  }
  sockets.add(ws);
  ws.on('close', () => sockets.delete(ws));
  // an oversize frame, a protocol error or a reset arrive here; without a listener they
  // would be thrown and end the process
  ws.on('error', (e) => {
    opts.log?.(`host socket closed on error: ${e.message}`);
    sockets.delete(ws);
    ws.terminate();
  });
  const calls = { inFlight: 0 };
  ws.on('message', (data, isBinary) => {
    void handleFrame(opts, out, ws, calls, data, isBinary);
  });
}

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? randomBytes(24).toString('hex');
  const staticRoot = path.resolve(opts.staticDir);
  let port = 0;
  const sockets = new Set<WebSocket>();
  const out = outbox(sockets, opts.log);
  const { send, withinTotal } = out;

  const server = createServer((req, res) => {
    // Nothing a client sends may take the host (and the embedded exchange with it) down.
    try {
      serveStatic(req, res, staticRoot, port);
    } catch (e) {
      opts.log?.(`static request failed: ${(e as Error).message}`);
      plain(res, 500, 'internal error');
    }
  });
  server.on('clientError', answerClientError);
  const connections = trackConnections(server);

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME,
    // answer with the plain protocol name, never the one carrying the token
    handleProtocols: (offered) => (offered.has(PROTOCOL) ? PROTOCOL : false),
  });
  wss.on('error', (e) => opts.log?.(`host socket server error: ${e.message}`));
  server.on('upgrade', (req, socket, head) => {
    const upgrade = { opts, token, port, wss, sockets, out };
    onUpgrade(upgrade, req, socket, head);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    broadcast(stream, payload) {
      if (sockets.size === 0) return;
      // encoded once for every socket, not once per socket
      const bytes = Buffer.from(JSON.stringify({ t: 'event', stream, payload } satisfies ServerFrame));
      for (const ws of sockets) send(ws, bytes);
      withinTotal();
    },
    clients: () => sockets.size,
    async close() {
      for (const ws of sockets) ws.close(1001, 'host closing');
      wss.close();
      // what has not ended a grace after (a browser's connection that never sent a request, a
      // page that did not answer the close handshake) is cut (src-shared/server-close.ts)
      await connections.close();
    },
  };
}
