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
