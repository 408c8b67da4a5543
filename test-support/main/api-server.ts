// Test helpers for src-main/api: a real node:http server on 127.0.0.1:0, an RSA key pair,
// and the endpoint table's own rows.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { endpoints } from '../../src-shared/endpoints';
import { responseSamples, sampleMarket, sampleOrder } from '../../src-shared/wire/samples';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      Promise.resolve(handler(rec, res, req)).catch((err: unknown) => {
        if (!res.headersSent) json(res, 599, { error: { code: 'test_handler_failed', message: String(err) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

let keys: { publicKey: KeyObject; privateKey: KeyObject; privateKeyPem: string } | undefined;
/** One 2048-bit RSA pair per test file. */
export function rsaKeys(): { publicKey: KeyObject; privateKey: KeyObject; privateKeyPem: string } {
  if (!keys) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    keys = { publicKey, privateKey, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }
  return keys;
}

/** The table's own rows: the client is tested against exactly what the terminal sends and reads. */
export const rows = endpoints;

/** A market as the table's schema reads it, with this ticker. */
export const market = (ticker: string) => ({ ...sampleMarket, ticker });

/** An order as the table's schema reads it, with these fields. */
export const listedOrder = (o: { order_id: string; client_order_id: string; ticker: string; status: string }) => ({ ...sampleOrder, ...o });

/** An FCM fill as the table's schema reads it, with this id. */
export const fcmFill = (fill_id: string) => ({ ...(responseSamples.getFcmFills as { fills: Record<string, unknown>[] }).fills[0], fill_id });
