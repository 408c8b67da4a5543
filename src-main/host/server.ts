// The web host: the same main services serving the built renderer to a browser on 127.0.0.1,
// with TerminalApi carried over a WebSocket. Every socket must present the per-launch token
// and come from our own origin; the Host header is checked against DNS rebinding.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CallFrame, type ServerFrame } from '../../src-shared/ipc/frames';
import type { StreamName, StreamPayloads } from '../../src-shared/ipc/contract';
import type { DoorResult } from '../ipc/door';

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

export async function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? randomBytes(24).toString('hex');
  const staticRoot = path.resolve(opts.staticDir);
  let port = 0;
  const sockets = new Set<WebSocket>();

  const hostOk = (req: IncomingMessage) => req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!hostOk(req)) {
      res.writeHead(421).end('wrong host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    let rel = decodeURIComponent(url.pathname);
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = path.resolve(staticRoot, '.' + rel);
    if (!file.startsWith(staticRoot + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const ext = path.extname(file);
    res.writeHead(200, {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': ext === '.html' ? 'no-store' : 'max-age=3600',
      ...(ext === '.html' ? { 'content-security-policy': csp(port), 'x-frame-options': 'DENY' } : {}),
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const given = url.searchParams.get('token') ?? '';
    const origin = req.headers.origin;
    const originOk = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
    if (url.pathname !== '/ipc' || !hostOk(req) || !originOk || !sameToken(given, token)) {
      opts.log?.(`refused host socket (path ${url.pathname}, origin ${origin ?? 'none'}, token ${given ? 'wrong' : 'missing'})`);
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', async (data, isBinary) => {
        if (isBinary) return;
        let frame: CallFrame;
        try {
          const parsed = CallFrame.safeParse(JSON.parse(data.toString()));
          if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'bad frame');
          frame = parsed.data;
        } catch (e) {
          opts.log?.(`dropped a malformed host frame: ${(e as Error).message}`);
          return;
        }
        const r = await opts.door(frame.method, frame.args);
        const out: ServerFrame = r.ok ? { t: 'result', id: frame.id, ok: true, value: r.value } : { t: 'result', id: frame.id, ok: false, error: r.error };
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(out));
      });
    });
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
      const text = JSON.stringify({ t: 'event', stream, payload } satisfies ServerFrame);
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    clients: () => sockets.size,
    async close() {
      for (const ws of sockets) ws.close(1001, 'host closing');
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
