// KalshiRT as the service defines it (rt-session.ts): the (key, KalshiRT) session, not the
// connection, owns its orders and its outgoing sequence. Driven by the independent raw client
// (raw-client.ts) against a real exchange on 127.0.0.1 port 0; the counterparty trades over REST.
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { Client, type Msg } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
const trader = () => t.account('trader');
let n = 0;
const clOrd = () => `rt-${process.pid}-${++n}`;

async function addMarket(ticker: string): Promise<void> {
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker, eventTicker: ticker.split('-')[0]!, seriesTicker: `${ticker.split('-')[0]!}S` },
    { type: 'openMarket', nowMs: node.now(), ticker },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`cannot create market: ${JSON.stringify(r.result)}`);
  }
}

beforeAll(async () => {
  t = await startTestExchange();
  await addMarket('FIXRT-1');
  await addMarket('FIXRT-2');
  await addMarket('FIXRT-3');
  await addMarket('FIXRT-4');
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  await t?.close();
});

/** The highest MsgSeqNum the client has read (what it expects next is this + 1). */
function lastSeq(c: Client, seen: number): number {
  return Math.max(seen, ...c.got.map((m) => Number(m.get(34))));
}

/** TestRequest round trip: every message the exchange owed before it has arrived. */
async function sync(c: Client, id: string): Promise<void> {
  c.send('1', [[112, id]]);
  await c.next((m) => m.get(35) === '0' && m.get(112) === id, `heartbeat ${id}`);
}

/** Log on to KalshiRT; `from` carries the sequence state of the previous connection (no reset). */
async function logon(from?: { seq: number }, extra: Array<[number, string | number]> = []): Promise<{ c: Client; a: Msg }> {
  const c = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiRT', sockets);
  if (from) c.seq = from.seq;
  c.logon(trader().private_key_pem, extra, from ? { reset: false } : {});
  const a = await c.type('A', 'Logon answer');
  return { c, a };
}

/** Logout, answered, connection closed; returns the last number the client read. */
async function logout(c: Client, seen: number): Promise<number> {
  c.send('5', []);
  const lo = await c.type('5', 'Logout answer');
  await c.untilClosed();
  return Math.max(lastSeq(c, seen), Number(lo.get(34)));
}

const sell = (ticker: string, count: string, price = '0.1400') =>
  t.client('counterparty').createOrder({ body: { ticker, side: 'ask', price, count, client_order_id: crypto.randomUUID() } });

describe('KalshiRT: the session owns its orders and its sequence', () => {
  it('a fill while logged out takes the next number, the Logon shows the gap and a ResendRequest brings it back; a fill while up is live', async () => {
    const first = await logon();
    const id = clOrd();
    first.c.send('D', [[11, id], [55, 'FIXRT-1'], [54, 1], [38, 2], [40, 2], [44, 14]]);
    const ack = await first.c.type('8', 'New');
    expect(ack.get(150)).toBe('0');
    const orderId = ack.get(37)!;
    const seen = await logout(first.c, Number(ack.get(34)));

    await sell('FIXRT-1', '1');

    const second = await logon(first.c);
    // the stored Trade report took a number: the Logon answer is past the one the client expects
    expect(Number(second.a.get(34))).toBe(seen + 2);
    second.c.send('2', [[7, seen + 1], [16, 0]]);
    const resent = await second.c.next((m) => m.get(35) === '8' && m.get(37) === orderId, 'the Trade report, resent');
    expect([resent.get(34), resent.get(43), resent.get(150), resent.get(32), resent.get(31), resent.get(14), resent.get(39), resent.get(11)]).toEqual([
      String(seen + 1),
      'Y',
      'F',
      '1.00',
      '14',
      '1.00',
      '1',
      id,
    ]);

    // the order was entered on the first connection; its next fill is reported live on this one
    await sell('FIXRT-1', '1');
    const live = await second.c.next((m) => m.get(35) === '8' && m.get(37) === orderId && m.get(43) !== 'Y', 'the live Trade report');
    expect([live.get(150), live.get(32), live.get(14), live.get(39)]).toEqual(['F', '1.00', '2.00', '2']);

    // and a cancel of the filled order is too late (CxlRejReason 0), with the engine's code in Text
    second.c.send('F', [[11, clOrd()], [41, id], [55, 'FIXRT-1'], [54, 1]]);
    const rej = await second.c.type('9', 'OrderCancelReject');
    expect([rej.get(39), rej.get(434), rej.get(102)]).toEqual(['2', '1', '0']);
    expect(rej.get(58)).toMatch(/^not_found: /);
    await logout(second.c, 0);
  });

  it('a REST cancel while logged out is stored; while logged on it is reported live', async () => {
    const first = await logon();
    const ids = [clOrd(), clOrd()];
    for (const id of ids) first.c.send('D', [[11, id], [55, 'FIXRT-2'], [54, 1], [38, 1], [40, 2], [44, 10]]);
    const acks = [await first.c.next((m) => m.get(11) === ids[0], 'New 1'), await first.c.next((m) => m.get(11) === ids[1], 'New 2')];
    const seen = await logout(first.c, Math.max(...acks.map((m) => Number(m.get(34)))));

    const rest = t.client('trader');
    await rest.cancelOrder({ params: { order_id: acks[0]!.get(37)! } });

    const second = await logon(first.c);
    expect(Number(second.a.get(34))).toBe(seen + 2);
    second.c.send('2', [[7, seen + 1], [16, seen + 1]]);
    const resent = await second.c.next((m) => m.get(35) === '8' && m.get(43) === 'Y', 'the Canceled report, resent');
    expect([resent.get(37), resent.get(150), resent.get(39), resent.get(11)]).toEqual([acks[0]!.get(37), '4', '4', ids[0]]);

    await rest.cancelOrder({ params: { order_id: acks[1]!.get(37)! } });
    const live = await second.c.next((m) => m.get(35) === '8' && m.get(37) === acks[1]!.get(37), 'the live Canceled report');
    expect([live.get(150), live.get(39), live.get(43)]).toEqual(['4', '4', undefined]);
    await sync(second.c, 'done');
    await logout(second.c, 0);
  });

  it('survives an exchange restart: a fill after the restart, before any Logon, is stored and resent', async () => {
    const first = await logon();
    const id = clOrd();
    first.c.send('D', [[11, id], [55, 'FIXRT-3'], [54, 1], [38, 2], [40, 2], [44, 14]]);
    const ack = await first.c.type('8', 'New');
    const seen = await logout(first.c, Number(ack.get(34)));

    await t.restart();
    await sell('FIXRT-3', '1');

    const second = await logon(first.c);
    expect(Number(second.a.get(34))).toBe(seen + 2);
    second.c.send('2', [[7, seen + 1], [16, 0]]);
    const resent = await second.c.next((m) => m.get(35) === '8' && m.get(37) === ack.get(37), 'the Trade report, resent after the restart');
    expect([resent.get(43), resent.get(150), resent.get(32), resent.get(11)]).toEqual(['Y', 'F', '1.00', id]);
    await sell('FIXRT-3', '1');
    const live = await second.c.next((m) => m.get(35) === '8' && m.get(37) === ack.get(37) && m.get(43) !== 'Y', 'the live Trade report');
    expect([live.get(150), live.get(39)]).toEqual(['F', '2']);
    await logout(second.c, 0);
  });

  it('with ReceiveSettlementReports (20127=Y), a settlement while logged out is stored and resent', async () => {
    const first = await logon(undefined, [[20127, 'Y']]);
    first.c.send('D', [[11, clOrd()], [55, 'FIXRT-4'], [54, 1], [38, 2], [40, 2], [44, 50]]);
    const ack = await first.c.type('8', 'New');
    await sell('FIXRT-4', '2', '0.5000');
    const filled = await first.c.next((m) => m.get(35) === '8' && m.get(150) === 'F', 'Trade report');
    const seen = await logout(first.c, Math.max(Number(ack.get(34)), Number(filled.get(34))));

    const node = t.ex.svc.node;
    for (const cmd of [
      { type: 'closeMarket', nowMs: node.now(), ticker: 'FIXRT-4' },
      { type: 'determineMarket', nowMs: node.now(), ticker: 'FIXRT-4', result: 'yes' },
      { type: 'settleMarket', nowMs: node.now(), ticker: 'FIXRT-4' },
    ]) {
      const r = await node.submit(cmd);
      expect(r.ok, JSON.stringify(r.result)).toBe(true);
    }

    const second = await logon(first.c, [[20127, 'Y']]);
    expect(Number(second.a.get(34))).toBe(seen + 2);
    second.c.send('2', [[7, seen + 1], [16, 0]]);
    const ums = await second.c.next((m) => m.get(35) === 'UMS', 'the settlement report, resent');
    expect([ums.get(43), ums.get(55), ums.get(20107), ums.get(704)]).toEqual(['Y', 'FIXRT-4', 'yes', '2.00']);
    await logout(second.c, 0);
  });
});
