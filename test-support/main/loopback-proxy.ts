// A loopback proxy for failure tests: it forwards the terminal's REST calls and its WebSocket
// to a real exchange and can cut sockets, drop or rewrite stream frames, inject garbage, and
// drop an HTTP response after the exchange has acted on the request.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface ProxyHooks {
  /** server->client frame: return null to drop it, a string to replace it */
  onServerFrame?: (text: string) => string | null;
  /** client->server frame, observed as it passes */
  onClientFrame?: (text: string) => void;
  /** a REST response: return true to drop it (the socket is destroyed after the upstream answered) */
  dropResponse?: (method: string, path: string, status: number) => boolean;
  /** a REST response: return a promise to hold it back until the promise settles (the exchange has already acted) */
  holdResponse?: (method: string, path: string) => Promise<unknown> | undefined;
  /** a REST response's body: return a string to send instead (a service that answered otherwise) */
  rewriteResponse?: (method: string, path: string, body: string) => string | undefined;
}

export interface LoopbackProxy {
  port: number;
  baseUrl: string;
  wsUrl: string;
  hooks: ProxyHooks;
  /** cut every open WebSocket pair (the client sees an abrupt close) */
  cutSockets(): void;
  /** send text to every connected client as if the exchange had sent it */
  inject(text: string): void;
  sockets(): number;
  close(): Promise<void>;
}

export async function startLoopbackProxy(upstreamPort: number): Promise<LoopbackProxy> {
  const hooks: ProxyHooks = {};
  const pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = httpRequest(
        { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${upstreamPort}` } },
        (upRes) => {
          const body: Buffer[] = [];
          upRes.on('data', (c: Buffer) => body.push(c));
          upRes.on('end', () => void pass());
          const pass = async () => {
            const method = req.method ?? 'GET';
            const path = (req.url ?? '').split('?')[0]!;
            await hooks.holdResponse?.(method, path)?.catch(() => undefined);
            if (hooks.dropResponse?.(method, path, upRes.statusCode ?? 0)) {
              req.socket.destroy();
              return;
            }
            const rewritten = hooks.rewriteResponse?.(method, path, Buffer.concat(body).toString('utf8'));
            if (rewritten !== undefined) {
              const headers = { ...upRes.headers, 'content-length': String(Buffer.byteLength(rewritten)) };
              delete headers['transfer-encoding'];
              res.writeHead(upRes.statusCode ?? 502, headers);
              res.end(rewritten);
              return;
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            res.end(Buffer.concat(body));
          };
        },
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(Buffer.concat(chunks));
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && /access-/i.test(k)) headers[k] = v;
    }
    const upstream = new WebSocket(`ws://127.0.0.1:${upstreamPort}${req.url}`, { headers });
    upstream.once('unexpected-response', (_r, upRes) => {
      socket.write(`HTTP/1.1 ${upRes.statusCode} Refused\r\nConnection: close\r\n\r\n`);
      socket.destroy();
    });
    upstream.once('open', () => {
      wss.handleUpgrade(req, socket, head, (client) => {
        const pair = { client, upstream };
        pairs.add(pair);
        upstream.on('message', (data) => {
          const text = data.toString();
          const out = hooks.onServerFrame ? hooks.onServerFrame(text) : text;
          if (out !== null && client.readyState === WebSocket.OPEN) client.send(out);
        });
        client.on('message', (data) => {
          const text = data.toString();
          hooks.onClientFrame?.(text);
          if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
        });
        const end = () => {
          pairs.delete(pair);
          client.terminate();
          upstream.terminate();
        };
        client.on('close', end);
        upstream.on('close', end);
        client.on('error', end);
        upstream.on('error', end);
      });
    });
    upstream.once('error', () => socket.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const cutSockets = () => {
    for (const p of [...pairs]) {
      p.client.terminate();
      p.upstream.terminate();
    }
  };
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/trade-api/v2`,
    wsUrl: `ws://127.0.0.1:${port}/trade-api/ws/v2`,
    hooks,
    cutSockets,
    inject(text) {
      for (const p of pairs) if (p.client.readyState === WebSocket.OPEN) p.client.send(text);
    },
    sockets: () => pairs.size,
    async close() {
      cutSockets();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
