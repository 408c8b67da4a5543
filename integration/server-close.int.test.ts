// A server's close must not wait on a connection that would not end on its own for a minute or
// more (src-shared/server-close.ts): a connection that never sent a request (a browser opens one
// ahead of need), and a TLS connection whose client never sent its hello. Before, the exchange's
// close waited for them (the HTTP one until Node's headers timeout, the TLS one until the
// handshake timeout, 120 s), and so did the process after Ctrl+C. The web host's own is in
// src-main/host/host-hostile.int.test.ts.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestExchange } from '../test-support/exchange/harness';

function silentConnection(port: number): Promise<{ socket: Socket; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, ended: new Promise<void>((r) => socket.once('close', () => r())) }));
    socket.once('error', reject);
  });
}

describe('the exchange closes at once', () => {
  it('though a client holds an HTTP connection it never sent a request on, and a TLS FIX connection that never said hello', async () => {
    const t = await startTestExchange({ sim: false });
    const held = [await silentConnection(t.ex.port), await silentConnection(t.ex.fixTlsPort), await silentConnection(t.ex.fixPort)];
    const t0 = Date.now();
    await t.close();
    await Promise.all(held.map((h) => h.ended));
    // the grace is 1 s; before, this waited past the test's own 30 s
    expect(Date.now() - t0, 'close took').toBeLessThan(20_000);
  });
});
