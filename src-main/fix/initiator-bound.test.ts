// A signed Logon can be replayed by whoever receives it, so the initiator signs one only for the
// destination the profile's key is bound to, checked right before signing: connected anywhere
// else (a re-pointed port, a relay), it signs nothing and stops. A real TCP listener on 127.0.0.1
// port 0 stands for the far end and records every byte it is sent.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FixInitiator, type FixEndpoint } from './initiator';
import { until } from '../../test-support/main/wait';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface Listener {
  server: Server;
  port: number;
  heard: string[];
  closed: number;
}

const open: Listener[] = [];
const sessions: FixInitiator[] = [];

async function listen(): Promise<Listener> {
  const l: Listener = { server: createServer(), port: 0, heard: [], closed: 0 };
  l.server.on('connection', (c) => {
    c.on('data', (b: Buffer) => l.heard.push(b.toString('latin1')));
    c.on('close', () => l.closed++);
    c.on('error', () => undefined);
  });
  await new Promise<void>((r) => l.server.listen(0, '127.0.0.1', () => r()));
  l.port = (l.server.address() as AddressInfo).port;
  open.push(l);
  return l;
}

function initiator(endpoint: FixEndpoint, bound: () => FixEndpoint | string): FixInitiator {
  const s = new FixInitiator({ endpoint, bound, target: 'KalshiNR', signer: { keyId: 'key-1', key: privateKey }, onMessage: () => undefined, retryMs: 50 });
  sessions.push(s);
  return s;
}

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.stop();
  for (const l of open.splice(0)) await new Promise<void>((r) => l.server.close(() => r()));
});

describe('the Logon is signed only for the bound destination', () => {
  it('signs nothing for a port other than the bound one, and stops', async () => {
    const relay = await listen();
    const real = await listen();
    const s = initiator({ host: '127.0.0.1', port: relay.port }, () => ({ host: '127.0.0.1', port: real.port }));
    s.start();
    await until('the initiator refuses', () => s.phase === 'stopped', 10_000);
    await until('the connection is closed', () => relay.closed > 0, 10_000);
    expect(s.detail).toMatch(/no Logon signed/);
    expect(relay.heard.join('')).toBe('');
    expect(real.heard).toEqual([]);
  });

  it('signs nothing when the key is bound nowhere now', async () => {
    const far = await listen();
    const s = initiator({ host: '127.0.0.1', port: far.port }, () => 'the trading session that started this FIX session has ended');
    s.start();
    await until('the initiator refuses', () => s.phase === 'stopped', 10_000);
    await until('the connection is closed', () => far.closed > 0, 10_000);
    expect(s.detail).toMatch(/session .* has ended/);
    expect(far.heard.join('')).toBe('');
  });

  it('signs the Logon at the bound destination', async () => {
    const real = await listen();
    const s = initiator({ host: '127.0.0.1', port: real.port }, () => ({ host: '127.0.0.1', port: real.port }));
    s.start();
    await until('a Logon arrives', () => real.heard.join('').includes('\x0135=A\x01'), 10_000);
    expect(real.heard.join('')).toContain('\x0196=');
  });
});

describe('a nudge (the exchange answered REST) cuts the reconnect wait short', () => {
  /** a listener that accepts and drops each connection at once, counting them */
  async function dropping(): Promise<Listener & { accepted: number }> {
    const l = Object.assign(await listen(), { accepted: 0 });
    l.server.on('connection', (c) => {
      l.accepted++;
      c.destroy();
    });
    return l;
  }
  function waiting(endpoint: FixEndpoint): FixInitiator {
    const s = new FixInitiator({ endpoint, bound: () => endpoint, target: 'KalshiNR', signer: { keyId: 'key-1', key: privateKey }, onMessage: () => undefined, retryMs: 60_000 });
    sessions.push(s);
    return s;
  }

  it('a session waiting out a 60-s reconnect delay tries at once when nudged, once for a burst of nudges', async () => {
    const far = await dropping();
    const s = waiting({ host: '127.0.0.1', port: far.port });
    s.start();
    await until('the first connection is dropped', () => far.accepted === 1 && s.phase === 'down', 10_000);
    // a nudge needs 1 s since the last try (NudgeBound; paced in its own test)
    await new Promise((r) => setTimeout(r, 1_100));
    // REST answers in a burst, each a nudge: one try
    for (let i = 0; i < 5; i++) s.nudge();
    await until('the nudged try arrives', () => far.accepted === 2, 10_000);
    await until('it is dropped too', () => s.phase === 'down', 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(far.accepted).toBe(2);
  });

  it('a nudge while connecting, or after stop, starts nothing', async () => {
    const silent = await listen();
    const s = waiting({ host: '127.0.0.1', port: silent.port });
    let connects = 0;
    silent.server.on('connection', () => connects++);
    s.start();
    await until('connected, its Logon unanswered', () => silent.heard.join('').includes('\x0135=A\x01'), 10_000);
    await new Promise((r) => setTimeout(r, 1_100));
    s.nudge();
    await new Promise((r) => setTimeout(r, 300));
    expect(connects).toBe(1);
    await s.stop();
    s.nudge();
    await new Promise((r) => setTimeout(r, 300));
    expect(connects).toBe(1);
    expect(s.phase).toBe('stopped');
  });
});
