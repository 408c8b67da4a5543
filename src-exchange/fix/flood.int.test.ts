// Hostile FIX clients do not take the exchange down (acceptor.ts FIX_LIMITS): a flood of
// connections that never log on is bounded and timed out, a KalshiRT client that asks for resends
// and never reads is logged out and dropped, and REST keeps answering meanwhile. Everything on
// 127.0.0.1 port 0; the flood is bounded (2,000 connections) and ends by itself. REST's p99 quiet
// and flooded is printed, not asserted (a busy machine must not fail the test).
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { FIX_LIMITS, startFixAcceptor } from './acceptor';
import { Client } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
const trader = () => t.account('trader');

beforeAll(async () => {
  t = await startTestExchange();
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  await t?.close();
});

/** REST round trips one after another while `busy()` holds (at least `min`): their times in ms. */
async function restTimes(min: number, busy: () => boolean = () => false): Promise<number[]> {
  const rest = t.client('trader');
  const times: number[] = [];
  while (times.length < min || busy()) {
    const start = performance.now();
    const b = await rest.getBalance({});
    expect(b.balance).toBeDefined();
    times.push(performance.now() - start);
  }
  return times;
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

async function waitFor(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('FIX acceptor under hostile clients', () => {
  it('2,000 idle connections are capped and closed by the logon timeout; a non-reading resend client is dropped; REST answers throughout', async () => {
    const quiet = await restTimes(200);

    // 1. idle connections that never log on
    const FLOOD = 2_000;
    let closed = 0;
    let dropped = false;
    let failed = false;
    const flooded = restTimes(200, () => !failed && (closed < FLOOD || !dropped));
    try {
      // in waves of 200, each connected (or closed) before the next: the listener's backlog does not
      // overflow, so no SYN is retried seconds later
      for (let wave = 0; wave < FLOOD / 200; wave++) {
        await Promise.all(
          Array.from({ length: 200 }, () => {
            const s = connect({ host: '127.0.0.1', port: t.ex.fixPort });
            sockets.push(s);
            s.on('error', () => undefined);
            s.on('close', () => closed++);
            return new Promise<void>((r) => s.once('connect', () => r()).once('close', () => r()));
          }),
        );
      }
      // the exchange has taken the flood in: all but the capped number are closed already
      await waitFor('the flood over the cap closed', () => closed >= FLOOD - FIX_LIMITS.maxUnauthenticated);
      const heldAfterCap = FLOOD - closed;

      // 2. a KalshiRT client that fills its retransmit store with rejected orders, then asks for it
      //    all again and again without reading a byte
      const c = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiRT', sockets);
      c.sock.on('close', () => (dropped = true));
      c.sock.on('error', () => undefined);
      c.logon(trader().private_key_pem);
      await c.type('A', 'Logon answer (the oldest idle connection made room)');
      c.sock.pause();
      for (let i = 0; i < 2_000; i++) c.send('D', [[11, `flood-${i}`], [55, 'NO-SUCH-MARKET'], [54, 1], [38, 1], [40, 2], [44, 10]]);
      // up to 2,000 ResendRequests of everything, 20 at a time (it stops once dropped)
      let asked = 0;
      while (asked < 2_000 && !dropped) {
        for (let i = 0; i < 20; i++, asked++) c.send('2', [[7, 1], [16, 0]]);
        await new Promise((r) => setTimeout(r, 100));
      }
      await waitFor('every idle connection closed', () => closed === FLOOD);
      await waitFor('the non-reading client dropped', () => dropped);
      const floodTimes = await flooded;

      console.log(
        `[fix flood] REST getBalance p99 quiet ${p99(quiet).toFixed(1)} ms (${quiet.length} calls), flooded ${p99(floodTimes).toFixed(1)} ms (${floodTimes.length} calls); ` +
          `${FLOOD} idle connections, ${heldAfterCap} held once the flood was in (cap ${FIX_LIMITS.maxUnauthenticated} not logged on), all closed by the logon timeout; ` +
          `the non-reading client was dropped after ${asked} ResendRequests`,
      );
      expect(floodTimes.length).toBeGreaterThanOrEqual(200);
      expect(heldAfterCap).toBeLessThanOrEqual(FIX_LIMITS.maxUnauthenticated);
      expect(asked).toBeLessThan(2_000);
    } finally {
      failed = true;
      await flooded.catch(() => undefined);
    }

    // the exchange kept what it can: a new Logon works, and the dropped session's sequence went on
    const again = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiNR', sockets);
    again.logon(trader().private_key_pem);
    await again.type('A', 'a Logon after the flood');
  }, 120_000);

  it('past the cap of connections not logged on, the oldest are closed at once to make room; the rest wait for the logon timeout', async () => {
    // an acceptor of its own on the same exchange, with a small cap and a long timeout
    const acc = await startFixAcceptor({ svc: t.ex.svc, lookupKey: () => undefined, limits: { maxUnauthenticated: 20, logonTimeoutMs: 120_000 } });
    try {
      const held: Socket[] = [];
      let closedCount = 0;
      for (let i = 0; i < 70; i++) {
        const s = connect({ host: '127.0.0.1', port: acc.port });
        s.on('error', () => undefined);
        s.on('close', () => closedCount++);
        held.push(s);
        sockets.push(s);
      }
      await waitFor('the 50 oldest closed', () => closedCount >= 50);
      // the 20 newest stay (their logon timeout is far): a Logon still gets through on one
      const first = new Client(held.find((s) => !s.closed)!, trader().api_key_id, 'KalshiNR');
      first.logon(trader().private_key_pem);
      expect((await first.type('5', 'Logout: the key is unknown to this acceptor')).get(58)).toMatch(/unknown API key/);
      expect(closedCount).toBeLessThanOrEqual(51);
    } finally {
      await acc.close();
    }
  });

  it('closes a connection that does not log on within the logon timeout', async () => {
    const acc = await startFixAcceptor({ svc: t.ex.svc, lookupKey: () => undefined, limits: { logonTimeoutMs: 200 } });
    try {
      const s = connect({ host: '127.0.0.1', port: acc.port });
      sockets.push(s);
      s.on('error', () => undefined);
      let gone = false;
      s.on('close', () => (gone = true));
      await waitFor('the idle connection closed by the exchange', () => gone);
    } finally {
      await acc.close();
    }
  });
});
