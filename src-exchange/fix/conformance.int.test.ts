// FIX conformance of the embedded exchange's acceptor, driven by an independent client: every
// frame is built and read right here as raw tag=value text (its own BodyLength and CheckSum),
// not with the acceptor's codec. The exchange runs for real on 127.0.0.1 port 0.
import type { Socket } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { TestStream } from '../../test-support/exchange/ws-client';
import { Client, frame, utc } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
let market = '';
let n = 0;

const trader = () => t.account('trader');

async function loggedOn(target = 'KalshiNR', extra: Array<[number, string | number]> = []): Promise<Client> {
  const c = await Client.open(t.ex.fixPort, trader().api_key_id, target, sockets);
  c.logon(trader().private_key_pem, extra);
  const a = await c.type('A', 'Logon answer');
  expect(a.get(98)).toBe('0');
  return c;
}

beforeAll(async () => {
  t = await startTestExchange();
  const node = t.ex.svc.node;
  market = 'FIXT-1';
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker: market, eventTicker: 'FIXT', seriesTicker: 'FIXTS' },
    { type: 'openMarket', nowMs: node.now(), ticker: market },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`cannot create market: ${JSON.stringify(r.result)}`);
  }
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  await t?.close();
});

const clOrd = () => `fix-${process.pid}-${++n}`;

describe('FIX logon', () => {
  it('a good logon is answered with Logon; the port is in credentials.json', async () => {
    expect(t.ex.credentials).toMatchObject({ fix_host: '127.0.0.1', fix_port: t.ex.fixPort });
    const c = await loggedOn();
    c.send('5', []);
    const lo = await c.type('5', 'Logout answer');
    expect(lo.get(58)).toMatch(/logout/);
  });

  it.each([
    // each makes its logon once anything slow is done (another key pair: seconds on a loaded
    // machine), before the connection opens: the acceptor closes one with no Logon in 5 s
    ['a bad signature', () => {
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      return (c: Client) => c.logon(other);
    }, /signature does not verify/],
    ['a stale SendingTime', () => (c: Client) => c.logon(trader().private_key_pem, [], { sendingTime: utc(Date.now() - 60_000) }), /more than 5 s/],
    ['no ResetSeqNumFlag on KalshiNR', () => (c: Client) => c.logon(trader().private_key_pem, [], { reset: false }), /ResetSeqNumFlag/],
  ])('refuses %s with a Logout naming the reason, then closes', async (_what, prepare, reason) => {
    const act = prepare();
    const c = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiNR', sockets);
    act(c);
    const lo = await c.type('5', 'Logout');
    expect(lo.get(58)).toMatch(reason);
    await c.untilClosed();
  });

  it('refuses an unknown key (SenderCompID) and a session the exchange does not offer', async () => {
    const c = await Client.open(t.ex.fixPort, '00000000-0000-0000-0000-000000000000', 'KalshiNR', sockets);
    c.logon(trader().private_key_pem);
    expect((await c.type('5')).get(58)).toMatch(/unknown API key/);
    await c.untilClosed();
    const d = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiXX', sockets);
    d.logon(trader().private_key_pem);
    expect((await d.type('5')).get(58)).toMatch(/unknown TargetCompID/);
  });

  it('answers TestRequest with a Heartbeat echoing TestReqID; a message before Logon is refused', async () => {
    const c = await loggedOn();
    c.send('1', [[112, 'PING-7']]);
    expect((await c.type('0')).get(112)).toBe('PING-7');
    const d = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiNR', sockets);
    d.send('D', [[11, 'x']]);
    expect((await d.type('5')).get(58)).toMatch(/first message must be Logon/);
  });

  it('a garbled checksum ends the session with a Logout', async () => {
    const c = await loggedOn();
    const good = frame([[35, '1'], [49, c.keyId], [56, 'KalshiNR'], [34, c.seq++], [52, utc(Date.now())], [112, 'x']]);
    c.sock.write(good.replace(/10=\d{3}/, '10=000'));
    expect((await c.type('5')).get(58)).toMatch(/CheckSum/);
  });
});

describe('FIX order entry on the same core as REST', () => {
  it('NewOrderSingle rests: ExecutionReport New, and the order is in REST and on the WebSocket', async () => {
    const a = trader();
    const ws = await TestStream.open(t.ex.wsUrl, { key: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem } });
    try {
      await ws.command('subscribe', { channels: ['user_orders'] });
      const c = await loggedOn();
      const id = clOrd();
      c.send('D', [[11, id], [55, market], [54, 1], [38, 3], [40, 2], [44, 20], [59, 1]]);
      const er = await c.type('8');
      expect([er.get(150), er.get(39), er.get(11), er.get(14), er.get(151), er.get(44)]).toEqual(['0', '0', id, '0.00', '3.00', '20']);
      const rest = await t.client('trader').getOrder({ params: { order_id: er.get(37)! } });
      expect(rest.order).toMatchObject({ client_order_id: id, ticker: market, status: 'resting', yes_price_dollars: '0.2000' });
      await ws.until((fs) => fs.find((f) => f.msg.type === 'user_order' && (f.raw.msg as { order_id: string }).order_id === er.get(37)));
    } finally {
      await ws.close();
    }
  });

  it('cancel and cancel/replace answer with ExecutionReports 4 and 5; an unknown order gets OrderCancelReject', async () => {
    const c = await loggedOn();
    const id = clOrd();
    c.send('D', [[11, id], [55, market], [54, 1], [38, 2], [40, 2], [44, 15]]);
    const placed = await c.type('8');
    const id2 = clOrd();
    c.send('G', [[11, id2], [41, id], [55, market], [54, 1], [38, 4], [40, 2], [44, 16]]);
    const rep = await c.type('8', 'replace report');
    expect([rep.get(150), rep.get(11), rep.get(41), rep.get(38), rep.get(44)]).toEqual(['5', id2, id, '4.00', '16']);
    const id3 = clOrd();
    c.send('F', [[11, id3], [41, id2], [55, market], [54, 1]]);
    const can = await c.type('8', 'cancel report');
    expect([can.get(150), can.get(39), can.get(11), can.get(41)]).toEqual(['4', '4', id3, id2]);
    const rest = await t.client('trader').getOrder({ params: { order_id: can.get(37)! } });
    expect(rest.order.status).toBe('canceled');
    expect(placed.get(37)).toBeTruthy();
    c.send('F', [[11, clOrd()], [41, 'no-such-order'], [55, market], [54, 1]]);
    const rj = await c.type('9');
    // CxlRejReason as the FIX standard defines it: 1 = unknown order; 0 = too late to cancel
    expect([rj.get(434), rj.get(102), rj.get(58)]).toEqual(['1', '1', expect.stringMatching(/unknown order/)]);
    c.send('G', [[11, clOrd()], [41, id2], [55, market], [54, 1], [38, 5], [40, 2], [44, 16]]);
    const late = await c.type('9');
    expect([late.get(434), late.get(39), late.get(102), late.get(58)]).toEqual(['2', '4', '0', expect.stringMatching(/^not_found: order \S+ is canceled/)]);
  });

  it('rejects bad orders with ExecutionReport 150=8 and the engine reason; nothing is created', async () => {
    const c = await loggedOn();
    const before = (await t.client('trader').getOrders({ query: { ticker: market } })).orders.length;
    c.send('D', [[11, clOrd()], [55, market], [54, 1], [38, 1], [40, 2], [44, 150]]);
    const price = await c.type('8');
    expect([price.get(58), price.get(103)]).toEqual([expect.stringMatching(/Price \(44\)/), '18']);
    c.send('D', [[11, clOrd()], [55, 'NO-SUCH-MARKET'], [54, 1], [38, 1], [40, 2], [44, 30]]);
    const er = await c.type('8');
    expect([er.get(150), er.get(39)]).toEqual(['8', '8']);
    // OrdRejReason 1 = unknown symbol, the engine's code in Text
    expect([er.get(103), er.get(58)]).toEqual(['1', expect.stringMatching(/^not_found: market/)]);
    c.send('D', [[11, clOrd()], [55, market], [54, 1], [38, 1_000_000], [40, 2], [44, 99]]);
    const big = await c.type('8');
    expect([big.get(103), big.get(58)]).toEqual(['3', expect.stringMatching(/^insufficient_balance: /)]);
    c.send('D', [[11, clOrd()], [55, market], [54, 3], [38, 1], [40, 2], [44, 30]]);
    expect((await c.type('8')).get(58)).toMatch(/Side \(54\)/);
    const after = (await t.client('trader').getOrders({ query: { ticker: market } })).orders.length;
    expect(after).toBe(before);
  });

  it('a REST order crossing a FIX order is reported to the FIX session as a fill (150=F)', async () => {
    const c = await loggedOn();
    const id = clOrd();
    c.send('D', [[11, id], [55, market], [54, 2], [38, 2], [40, 2], [44, 60]]);
    const rested = await c.type('8');
    expect(rested.get(150)).toBe('0');
    await t.client('counterparty').createOrder({ body: { ticker: market, side: 'bid', price: '0.6000', count: '2', client_order_id: crypto.randomUUID() } });
    const fill = await c.next((m) => m.get(35) === '8' && m.get(150) === 'F', 'fill report');
    expect([fill.get(11), fill.get(32), fill.get(31), fill.get(39), fill.get(14)]).toEqual([id, '2.00', '60', '2', '2.00']);
  });

  it('a FIX order that crosses at once is answered with a Trade report (150=F, LastQty, LastPx) and filled status', async () => {
    await t.client('counterparty').createOrder({ body: { ticker: market, side: 'ask', price: '0.7000', count: '1', client_order_id: crypto.randomUUID() } });
    const c = await loggedOn();
    const id = clOrd();
    c.send('D', [[11, id], [55, market], [54, 1], [38, 1], [40, 2], [44, 70], [59, 3]]);
    const er = await c.type('8');
    expect([er.get(150), er.get(39), er.get(32), er.get(31), er.get(14), er.get(151)]).toEqual(['F', '2', '1.00', '70', '1.00', '0.00']);
    // no second report of the same fill
    c.send('1', [[112, 'sync']]);
    await c.type('0');
    expect(c.got.filter((m) => m.get(35) === '8')).toEqual([]);
  });

  it('CancelOrdersOnDisconnect: the session\'s resting orders are canceled when the socket drops', async () => {
    const c = await loggedOn('KalshiNR', [[8013, 'Y']]);
    const id = clOrd();
    c.send('D', [[11, id], [55, market], [54, 1], [38, 1], [40, 2], [44, 11]]);
    const er = await c.type('8');
    c.sock.destroy();
    const deadline = Date.now() + 10_000;
    let status = '';
    while (Date.now() < deadline) {
      status = (await t.client('trader').getOrder({ params: { order_id: er.get(37)! } })).order.status;
      if (status === 'canceled') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('canceled');
  });
});

describe('FIX drop copy (KalshiDC)', () => {
  it('reports a REST order\'s life (new, replaced, fill, canceled) and takes no orders', async () => {
    const dc = await loggedOn('KalshiDC');
    const id = crypto.randomUUID();
    const rest = t.client('trader');
    const created = await rest.createOrder({ body: { ticker: market, side: 'ask', price: '0.8000', count: '3', client_order_id: id } });
    const isOurs = (type: string) => (m: Map<number, string>) => m.get(35) === '8' && m.get(37) === created.order_id && m.get(150) === type;
    const nw = await dc.next(isOurs('0'), 'drop copy New');
    expect([nw.get(11), nw.get(54), nw.get(44), nw.get(38)]).toEqual([id, '2', '80', '3.00']);
    await rest.amendOrder({ params: { order_id: created.order_id }, body: { ticker: market, side: 'ask', price: '0.8100', count: '3', client_order_id: id, updated_client_order_id: `${id}-2` } });
    const amended = await dc.next((m) => m.get(35) === '8' && m.get(150) === '5', 'drop copy Replaced');
    expect(amended.get(44)).toBe('81');
    const liveId = amended.get(37)!;
    await t.client('counterparty').createOrder({ body: { ticker: market, side: 'bid', price: '0.8100', count: '1', client_order_id: crypto.randomUUID() } });
    const fill = await dc.next((m) => m.get(35) === '8' && m.get(37) === liveId && m.get(150) === 'F', 'drop copy fill');
    expect([fill.get(32), fill.get(31)]).toEqual(['1.00', '81']);
    await rest.cancelOrder({ params: { order_id: liveId } });
    const canceled = await dc.next((m) => m.get(35) === '8' && m.get(37) === liveId && m.get(150) === '4', 'drop copy Canceled');
    expect(canceled.get(39)).toBe('4');
    dc.send('D', [[11, clOrd()], [55, market], [54, 1], [38, 1], [40, 2], [44, 10]]);
    expect((await dc.type('j')).get(58)).toMatch(/drop copy/);
  });
});

describe('FIX sequence numbers', () => {
  it('a ResendRequest on KalshiNR is answered with one SequenceReset-GapFill', async () => {
    const c = await loggedOn();
    c.send('1', [[112, 'a']]);
    await c.type('0');
    c.send('2', [[7, 1], [16, 0]]);
    const gf = await c.type('4');
    expect([gf.get(123), gf.get(43), gf.get(34), gf.get(36)]).toEqual(['Y', 'Y', '1', '3']);
  });

  it('KalshiRT resends application messages as PossDup and gap-fills the session messages, across a reconnect', async () => {
    const c = await loggedOn('KalshiRT');
    const id = clOrd();
    c.send('D', [[11, id], [55, market], [54, 1], [38, 1], [40, 2], [44, 12]]);
    const er = await c.type('8');
    const erSeq = Number(er.get(34));
    c.sock.destroy();
    // reconnect without reset: the exchange remembers both sequence numbers
    const d = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiRT', sockets);
    d.seq = c.seq;
    d.logon(trader().private_key_pem, [], { reset: false });
    await d.type('A');
    d.send('2', [[7, 1], [16, 0]]);
    const gap = await d.type('4', 'gap fill before the report');
    expect([gap.get(123), gap.get(34), gap.get(36)]).toEqual(['Y', '1', String(erSeq)]);
    const again = await d.type('8', 'the resent report');
    expect([again.get(43), again.get(34), again.get(11), again.get(37)]).toEqual(['Y', String(erSeq), id, er.get(37)]);
    expect(again.get(122)).toBeTruthy();
  });

  it('a MsgSeqNum lower than expected ends the session; a higher one on KalshiRT asks for a resend', async () => {
    const c = await loggedOn('KalshiRT');
    c.send('1', [[112, 'skip']], { seq: c.seq + 3 });
    const rr = await c.type('2');
    expect([rr.get(7), rr.get(16)]).toEqual([String(c.seq), '0']);
    // SequenceReset-GapFill over the hole, then a too-low number
    c.send('4', [[123, 'Y'], [36, c.seq + 4]], { seq: c.seq });
    c.seq += 4;
    c.send('1', [[112, 'after']]);
    expect((await c.type('0')).get(112)).toBe('after');
    c.send('1', [[112, 'low']], { seq: 2 });
    expect((await c.type('5')).get(58)).toMatch(/MsgSeqNum too low/);
  });
});
