// The stream's subscribes on open go out together: a server that answers only once it has every
// channel's subscribe still sees the connection go live (one after another, it would wait for the
// first answer before sending the second). A real WebSocket server on 127.0.0.1, port 0.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { StreamConnection } from './connection';

const servers: WebSocketServer[] = [];
const conns: StreamConnection[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) await c.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server that holds every subscribe until `expected` have arrived, then answers each, refusing the channels in `refuse`. */
async function holdingServer(expected: number, refuse: string[] = []): Promise<{ url: string; seen: string[]; answeredAfter: number[] }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(wss);
  await new Promise((r) => wss.once('listening', r));
  const seen: string[] = [];
  const answeredAfter: number[] = [];
  let sid = 0;
  wss.on('connection', (ws: WebSocket) => {
    const held: { id: number; channel: string }[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id: number; cmd: string; params?: { channels?: string[] } };
      if (m.cmd !== 'subscribe') return;
      const channel = m.params!.channels![0]!;
      seen.push(channel);
      held.push({ id: m.id, channel });
      if (held.length < expected) return;
      answeredAfter.push(held.length);
      for (const h of held.splice(0)) {
        if (refuse.includes(h.channel)) ws.send(JSON.stringify({ id: h.id, type: 'error', msg: { code: 9, msg: 'not for this account' } }));
        else ws.send(JSON.stringify({ id: h.id, type: 'subscribed', msg: { channel: h.channel, sid: ++sid } }));
      }
    });
  });
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`, seen, answeredAfter };
}

async function until(ok: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return ok();
}

describe('StreamConnection subscribes', () => {
  it('sends every wanted channel before any answer, and goes live when all are answered', async () => {
    const channels = ['fill', 'user_orders', 'market_positions', 'ticker'];
    const server = await holdingServer(channels.length);
    const sids = new Map<string, number>();
    const c = new StreamConnection({ url: server.url, pingMs: 60_000, silenceMs: 60_000, commandTimeoutMs: 5_000, onSubscribed: (ch, sid) => sids.set(ch, sid) });
    conns.push(c);
    for (const ch of channels) void c.want(ch);
    c.start();
    expect(await until(() => c.phase === 'live', 20_000), `phase ${c.phase}; the server saw ${server.seen.join(', ')}`).toBe(true);
    expect(server.answeredAfter).toEqual([channels.length]);
    expect([...server.seen].sort()).toEqual([...channels].sort());
    expect([...sids.keys()].sort()).toEqual([...channels].sort());
  });

  it('an optional channel refused among them is dropped, and the rest still go live', async () => {
    const server = await holdingServer(3, ['pyth_value']);
    const logs: string[] = [];
    const c = new StreamConnection({ url: server.url, pingMs: 60_000, silenceMs: 60_000, log: (m) => logs.push(m) });
    conns.push(c);
    void c.want('fill');
    void c.want('ticker');
    void c.want('pyth_value', [], ['all'], { optional: true });
    c.start();
    expect(await until(() => c.phase === 'live', 20_000), `phase ${c.phase}; logs ${logs.join(' | ')}`).toBe(true);
    expect(c.wantedSubscriptions().map((s) => s.channel).sort()).toEqual(['fill', 'ticker']);
    expect(logs.some((l) => /pyth_value refused/.test(l))).toBe(true);
  });
});

describe('StreamConnection after a drop: a nudge (the exchange answered REST) cuts the backoff short', () => {
  it('a stream waiting out a 30-60 s backoff reconnects at once when nudged, with one socket, and a nudge while live does nothing', async () => {
    const server = await holdingServer(1);
    let sockets = 0;
    const wss = servers[servers.length - 1]!;
    wss.on('connection', () => sockets++);
    const logs: string[] = [];
    const c = new StreamConnection({ url: server.url, pingMs: 60_000, silenceMs: 60_000, backoff: { initialMs: 60_000, maxMs: 60_000 }, log: (m) => logs.push(m) });
    conns.push(c);
    void c.want('fill');
    c.start();
    expect(await until(() => c.phase === 'live', 20_000), `phase ${c.phase}`).toBe(true);
    for (let i = 0; i < 5; i++) c.nudge();
    await new Promise((r) => setTimeout(r, 100));
    expect(sockets).toBe(1);
    for (const ws of wss.clients) ws.terminate();
    expect(await until(() => c.phase === 'reconnecting', 10_000)).toBe(true);
    expect(c.snapshot.detail).toMatch(/retrying in (3\d|4\d|5\d|60)\.\d s/);
    // REST answers keep coming (as the session nudges on each): the stream is back long before its backoff
    expect(await until(() => (c.nudge(), c.phase === 'live'), 15_000), `phase ${c.phase} (${c.snapshot.detail}); logs ${logs.join(' | ')}`).toBe(true);
    expect(sockets).toBe(2);
    expect(logs.filter((l) => /reconnects now/.test(l))).toHaveLength(1);
  });

  it('against a stream that keeps failing, nudges at the pace of REST calls retry it no faster than 1, 2, 4 s', async () => {
    const { createServer } = await import('node:net');
    let tries = 0;
    // accepts the TCP connection and drops it before any upgrade answer
    const tcp = createServer((sock) => {
      tries++;
      sock.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
    try {
      const c = new StreamConnection({ url: `ws://127.0.0.1:${(tcp.address() as AddressInfo).port}/`, pingMs: 60_000, silenceMs: 60_000, backoff: { initialMs: 60_000, maxMs: 60_000 }, log: () => undefined });
      conns.push(c);
      void c.want('fill');
      c.start();
      expect(await until(() => c.phase === 'reconnecting' && /retrying/.test(c.snapshot.detail), 10_000), c.snapshot.detail).toBe(true);
      const t0 = Date.now();
      // a nudge every 20 ms for 4 s: tries at 0 (the start), then >= 1 s after it, then >= 2 s after that; the next would need 4 s more
      while (Date.now() - t0 < 4_000) {
        c.nudge();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(tries).toBeLessThanOrEqual(3);
    } finally {
      await new Promise((r) => tcp.close(r));
    }
  });

  it('a stopped stream is not brought back by a nudge', async () => {
    const server = await holdingServer(1);
    let sockets = 0;
    servers[servers.length - 1]!.on('connection', () => sockets++);
    const c = new StreamConnection({ url: server.url, pingMs: 60_000, silenceMs: 60_000, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    void c.want('fill');
    c.start();
    expect(await until(() => c.phase === 'live', 20_000)).toBe(true);
    await c.stop();
    await new Promise((r) => setTimeout(r, 1_100));
    c.nudge();
    await new Promise((r) => setTimeout(r, 200));
    expect(c.phase).toBe('closed');
    expect(sockets).toBe(1);
  });
});
