// Test helpers for the web host: a socket with the token and our Origin, a call over it, a plain
// request with the right Host header, and raw bytes over TCP for what no client library sends.
import { request } from 'node:http';
import { connect as tcp } from 'node:net';
import WebSocket from 'ws';
import type { RunningHost } from '../../src-main/host/server';

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

export function hostClient(current: () => RunningHost) {
  const port = () => current().port;

  function connect(opts: { token?: string; origin?: string; cookie?: string; protocols?: string[] } = {}): Promise<WebSocket> {
    const q = opts.token === undefined ? '' : `?token=${opts.token}`;
    const headers: Record<string, string> = { origin: opts.origin ?? `http://127.0.0.1:${port()}` };
    if (opts.cookie !== undefined) headers.cookie = opts.cookie;
    const ws = new WebSocket(`ws://127.0.0.1:${port()}/ipc${q}`, opts.protocols ?? [], { headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  function call(ws: WebSocket, id: number, method: string, args: unknown[]): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const onMsg = (d: WebSocket.RawData) => {
        const f = JSON.parse(d.toString()) as Record<string, unknown>;
        if (f.t === 'result' && f.id === id) {
          ws.off('message', onMsg);
          resolve(f);
        }
      };
      ws.on('message', onMsg);
      ws.send(JSON.stringify({ t: 'call', id, method, args }));
    });
  }

  function get(p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: port(), path: p, method, headers: { host: `127.0.0.1:${port()}`, ...headers } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Writes raw bytes and collects whatever comes back until the host closes (or `waitMs`). */
  function raw(bytes: string | Buffer, waitMs = 1500, destroyAfterWrite = false): Promise<string> {
    return new Promise((resolve) => {
      const s = tcp(port(), '127.0.0.1');
      let got = '';
      const done = () => {
        s.destroy();
        resolve(got);
      };
      const timer = setTimeout(done, waitMs);
      s.on('data', (d) => (got += d.toString('latin1')));
      s.on('error', () => undefined);
      s.on('close', () => {
        clearTimeout(timer);
        resolve(got);
      });
      s.write(bytes, () => {
        if (destroyAfterWrite) {
          s.resetAndDestroy();
          clearTimeout(timer);
          resolve(got);
        }
      });
    });
  }

  return { connect, call, get, raw };
}
