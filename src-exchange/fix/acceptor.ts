// The embedded exchange's FIX acceptor: a TCP listener on 127.0.0.1 (port 0 = any free one),
// one FixSession per connection, the retransmit sessions' sequence state kept across
// reconnects (in memory: a restart of the exchange starts every session afresh), one logged-on
// connection per (key, session type).
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { KeyRecord } from '../http/app';
import type { Services } from '../handlers/support';
import { FixSession, type SeqStore, type SessionType } from './session';

export interface FixAcceptor {
  port: number;
  close(): Promise<void>;
}

export async function startFixAcceptor(opts: { svc: Services; lookupKey(keyId: string): KeyRecord | undefined; port?: number }): Promise<FixAcceptor> {
  const sessions = new Set<FixSession>();
  const stores = new Map<string, SeqStore>();
  const claimed = new Map<string, FixSession>();
  const server: Server = createServer({ noDelay: true }, (socket) => {
    const s = new FixSession(socket, {
      svc: opts.svc,
      lookupKey: opts.lookupKey,
      seqStore(keyId, type) {
        const k = `${keyId}|${type}`;
        let st = stores.get(k);
        if (!st) stores.set(k, (st = { nextIn: 1, nextOut: 1, sent: new Map() }));
        return st;
      },
      claim(keyId: string, type: SessionType, session) {
        const k = `${keyId}|${type}`;
        const holder = claimed.get(k);
        if (holder && holder !== session) return false;
        claimed.set(k, session);
        return true;
      },
      release(keyId: string, type: SessionType, session) {
        const k = `${keyId}|${type}`;
        if (claimed.get(k) === session) claimed.delete(k);
      },
      onClose: (session) => sessions.delete(session),
    });
    sessions.add(s);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    async close() {
      for (const s of sessions) s.shutdown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
