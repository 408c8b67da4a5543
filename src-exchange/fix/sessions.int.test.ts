// FIX conformance of the session kinds beyond order entry: market data (KalshiMD), the drop
// copy's event resend (KalshiDC, U1/U2/U3) and listener sessions (20126=Y), driven by the
// independent raw client (raw-client.ts: its own framing, no acceptor code). The exchange runs for
// real on 127.0.0.1 port 0; orders are entered over REST so the FIX side is checked against the
// one core.
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { Client, SOH, type Msg } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
const trader = () => t.account('trader');

async function loggedOn(target: string, extra: Array<[number, string | number]> = []): Promise<Client> {
  const c = await Client.open(t.ex.fixPort, trader().api_key_id, target, sockets);
  c.logon(trader().private_key_pem, extra);
  await c.type('A', `${target} Logon answer`);
  return c;
}

/** The message's fields in wire order (repeating groups repeat tags). */
function pairs(m: Msg): Array<[number, string]> {
  return m.raw
    .split(SOH)
    .filter(Boolean)
    .map((p) => [Number(p.slice(0, p.indexOf('='))), p.slice(p.indexOf('=') + 1)]);
}

/** MD entries: the groups after NoMDEntries (268), each from its first tag on. */
function entries(m: Msg): Array<Record<number, string>> {
  const all = pairs(m);
  const at = all.findIndex(([tag]) => tag === 268);
  const out: Array<Record<number, string>> = [];
  const firstTag = all[at + 1]?.[0];
  for (const [tag, v] of all.slice(at + 1)) {
    if (tag === 10) break;
    if (tag === firstTag) out.push({});
    out[out.length - 1]![tag] = v;
  }
  expect(out.length).toBe(Number(all[at]![1]));
  return out;
}

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

/** TestRequest round trip: every message the exchange owed before it has arrived. */
async function sync(c: Client, id: string): Promise<void> {
  c.send('1', [[112, id]]);
  await c.next((m) => m.get(35) === '0' && m.get(112) === id, `heartbeat ${id}`);
}

beforeAll(async () => {
  t = await startTestExchange();
  await addMarket('FIXMD-1');
  await addMarket('FIXMD-2');
  await addMarket('FIXPT-1');
  await addMarket('FIXRFQ-1');
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  await t?.close();
});

const order = (ticker: string, side: 'bid' | 'ask', price: string, count: string) =>
  t.client('counterparty').createOrder({ body: { ticker, side, price, count, client_order_id: crypto.randomUUID() } });

describe('FIX market data (KalshiMD)', () => {
  it('a subscription answers a full refresh (W), then incremental refreshes (X) where size 0 = no level; cancel stops them', async () => {
    const md = await loggedOn('KalshiMD');
    md.send('V', [[262, 'md-1'], [263, 1], [146, 1], [55, 'FIXMD-1']]);
    const w = await md.type('W', 'full refresh');
    expect([w.get(262), w.get(55), w.get(268)]).toEqual(['md-1', 'FIXMD-1', '0']);

    const bid = await order('FIXMD-1', 'bid', '0.3000', '5');
    let x = await md.type('X', 'bid level added');
    expect(x.get(262)).toBe('md-1');
    expect(entries(x)).toEqual([{ 279: '0', 269: '0', 55: 'FIXMD-1', 270: '30', 271: '5.00' }]);

    await order('FIXMD-1', 'ask', '0.6000', '2');
    x = await md.type('X', 'offer level added');
    expect(entries(x)).toEqual([{ 279: '0', 269: '1', 55: 'FIXMD-1', 270: '60', 271: '2.00' }]);

    await t.client('counterparty').cancelOrder({ params: { order_id: bid.order_id } });
    x = await md.type('X', 'bid level removed');
    expect(entries(x)).toEqual([{ 279: '2', 269: '0', 55: 'FIXMD-1', 270: '30', 271: '0.00' }]);

    // a snapshot-only request on a book with levels: bids best first, then offers best first
    await order('FIXMD-1', 'bid', '0.2500', '1');
    await md.type('X');
    await order('FIXMD-1', 'bid', '0.2700', '3');
    await md.type('X');
    md.send('V', [[262, 'snap'], [263, 0], [146, 1], [55, 'FIXMD-1']]);
    const snap = await md.next((m) => m.get(35) === 'W' && m.get(262) === 'snap', 'snapshot');
    expect(entries(snap)).toEqual([
      { 269: '0', 270: '27', 271: '3.00' },
      { 269: '0', 270: '25', 271: '1.00' },
      { 269: '1', 270: '60', 271: '2.00' },
    ]);

    md.send('V', [[263, 2], [146, 1], [55, 'FIXMD-1']]);
    await sync(md, 'unsub');
    await order('FIXMD-1', 'bid', '0.2000', '1');
    await sync(md, 'after');
    expect(md.got.filter((m) => m.get(35) === 'X')).toEqual([]);
  });

  it('a request naming an unknown symbol is refused whole (Y, 281=0) and subscribes to nothing', async () => {
    const md = await loggedOn('KalshiMD');
    md.send('V', [[262, 'bad'], [263, 1], [146, 2], [55, 'FIXMD-2'], [55, 'NO-SUCH-MARKET']]);
    const y = await md.type('Y', 'request reject');
    expect([y.get(262), y.get(281)]).toEqual(['bad', '0']);
    expect(y.get(58)).toMatch(/NO-SUCH-MARKET/);
    await order('FIXMD-2', 'bid', '0.4000', '1');
    await sync(md, 'x');
    expect(md.got.filter((m) => m.get(35) === 'W' || m.get(35) === 'X')).toEqual([]);
    md.send('V', [[263, 7], [146, 1], [55, 'FIXMD-2']]);
    expect((await md.type('Y')).get(58)).toMatch(/263/);
  });

  it('KalshiMD requires ResetSeqNumFlag=Y and takes no orders', async () => {
    const c = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiMD', sockets);
    c.logon(trader().private_key_pem, [], { reset: false });
    expect((await c.type('5')).get(58)).toMatch(/ResetSeqNumFlag/);
    const md = await loggedOn('KalshiMD');
    md.send('D', [[11, 'x'], [55, 'FIXMD-1'], [54, 1], [38, 1], [40, 2], [44, 10]]);
    const j = await md.type('j');
    expect([j.get(372), j.get(380)]).toEqual(['D', '3']);
  });
});

describe('FIX drop copy event resend (KalshiDC, U1)', () => {
  it('resends a REST order\'s reports by ExecID range with their original ExecIDs, then EventResendComplete', async () => {
    const dc = await loggedOn('KalshiDC');
    const rest = t.client('trader');
    const created = await rest.createOrder({ body: { ticker: 'FIXMD-2', side: 'bid', price: '0.1000', count: '1', client_order_id: crypto.randomUUID() } });
    const ours = (type: string) => (m: Msg) => m.get(35) === '8' && m.get(37) === created.order_id && m.get(150) === type;
    const nw = await dc.next(ours('0'), 'live New');
    await rest.cancelOrder({ params: { order_id: created.order_id } });
    const can = await dc.next(ours('4'), 'live Canceled');
    const [e1, e2] = [nw.get(17)!, can.get(17)!];
    expect(e1).not.toBe(e2);

    const u1Seq = dc.seq;
    dc.send('U1', [[21001, e1]]);
    const done = await dc.type('U2', 'EventResendComplete');
    expect(done.get(45)).toBe(String(u1Seq));
    const resent = dc.got.filter((m) => m.get(35) === '8' && m.get(37) === created.order_id);
    expect(resent.map((m) => [m.get(17), m.get(150)])).toEqual([
      [e1, '0'],
      [e2, '4'],
    ]);
    dc.got.length = 0;

    dc.send('U1', [[21001, e2], [21002, e2]]);
    await dc.type('U2');
    expect(dc.got.filter((m) => m.get(35) === '8').map((m) => m.get(17))).toEqual([e2]);
    dc.got.length = 0;

    dc.send('U1', [[21001, 'no-such-exec']]);
    expect((await dc.type('U3', 'EventResendReject')).get(58)).toMatch(/BeginExecID/);
    dc.send('U1', []);
    expect((await dc.type('U3')).get(58)).toMatch(/21001/);
    dc.send('U1', [[21001, e2], [21002, e1]]);
    expect((await dc.type('U3')).get(58)).toMatch(/before/);
  });
});

describe('FIX post trade (KalshiPT, and KalshiRT with 20127=Y)', () => {
  it('a settled market sends the account a MarketSettlementReport (UMS) with its position and payout', async () => {
    await t.client('trader').createOrder({ body: { ticker: 'FIXPT-1', side: 'bid', price: '0.5000', count: '2', client_order_id: crypto.randomUUID() } });
    await order('FIXPT-1', 'ask', '0.5000', '2');
    const pt = await loggedOn('KalshiPT');
    const rt = await loggedOn('KalshiRT', [[20127, 'Y']]);
    const node = t.ex.svc.node;
    for (const cmd of [
      { type: 'closeMarket', nowMs: node.now(), ticker: 'FIXPT-1' },
      { type: 'determineMarket', nowMs: node.now(), ticker: 'FIXPT-1', result: 'yes' },
      { type: 'settleMarket', nowMs: node.now(), ticker: 'FIXPT-1' },
    ]) {
      const r = await node.submit(cmd);
      expect(r.ok, JSON.stringify(r.result)).toBe(true);
    }
    for (const c of [pt, rt]) {
      const ums = await c.next((m) => m.get(35) === 'UMS' && m.get(55) === 'FIXPT-1', 'settlement report');
      expect([ums.get(20107), ums.get(730), ums.get(704), ums.get(705), ums.get(20110), ums.get(893), ums.get(1703)]).toEqual(['yes', '100', '2.00', '0.00', '24', 'Y', '1']);
      expect(Number(ums.get(1704))).toBe(2);
      expect(ums.get(715)).toMatch(/^\d{8}$/);
      expect(ums.get(20105)).toBeTruthy();
    }
    pt.send('D', [[11, 'pt-x'], [55, 'FIXMD-1'], [54, 1], [38, 1], [40, 2], [44, 10]]);
    expect((await pt.type('j')).get(58)).toMatch(/post trade session takes no orders/);
  });
});

describe('FIX RFQ (KalshiRFQ, market maker side)', () => {
  it('a REST RFQ arrives as QuoteRequest (R); Quote (S) makes the same quote REST sees; accept, QuoteConfirm (U7), QuoteCancel (Z)', async () => {
    const maker = t.account('counterparty');
    const mm = await Client.open(t.ex.fixPort, maker.api_key_id, 'KalshiRFQ', sockets);
    mm.logon(maker.private_key_pem);
    await mm.type('A');
    const requester = t.client('trader');
    const rfq = (await requester.createRfq({ body: { market_ticker: 'FIXRFQ-1', rest_remainder: false, contracts: 3 } })).rfq;
    const r = await mm.next((m) => m.get(35) === 'R' && m.get(131) === rfq.rfq_id, 'QuoteRequest');
    expect([r.get(55), r.get(38), r.get(146)]).toEqual(['FIXRFQ-1', '3.00', '1']);

    mm.send('S', [[131, rfq.rfq_id], [55, 'FIXRFQ-1'], [132, 40], [133, 55]]);
    const pending = await mm.type('AI', 'QuoteStatusReport pending');
    expect([pending.get(131), pending.get(297), pending.get(132), pending.get(133), pending.get(38)]).toEqual([rfq.rfq_id, '10', '40', '55', '3.00']);
    const quoteId = pending.get(117)!;
    expect((await requester.getQuote({ params: { quote_id: quoteId } })).quote).toMatchObject({ rfq_id: rfq.rfq_id, status: 'open', yes_bid_dollars: '0.4000', no_bid_dollars: '0.5500' });

    await requester.acceptQuote({ params: { quote_id: quoteId }, body: { accepted_side: 'yes' } });
    const accepted = await mm.next((m) => m.get(35) === 'AI' && m.get(297) === '0', 'QuoteStatusReport accepted');
    expect([accepted.get(117), accepted.get(54), accepted.get(38)]).toEqual([quoteId, '1', '3.00']);
    mm.send('U7', [[117, quoteId]]);
    await sync(mm, 'confirmed');
    expect(mm.got.filter((m) => m.get(35) === 'j')).toEqual([]);
    expect(['confirmed', 'executed']).toContain((await requester.getQuote({ params: { quote_id: quoteId } })).quote.status);

    // refusals change nothing; a quote can be withdrawn
    mm.send('S', [[131, rfq.rfq_id], [55, 'FIXRFQ-1'], [132, 0], [133, 0]]);
    expect((await mm.type('AI')).get(297)).toBe('5');
    mm.send('S', [[131, 'no-such-rfq'], [55, 'FIXRFQ-1'], [132, 10], [133, 10]]);
    const unknown = await mm.type('AI');
    expect([unknown.get(297), unknown.get(117)]).toEqual(['5', '']);
    const rfq2 = (await requester.createRfq({ body: { market_ticker: 'FIXRFQ-1', rest_remainder: false, contracts: 2 } })).rfq;
    await mm.next((m) => m.get(35) === 'R' && m.get(131) === rfq2.rfq_id, 'second QuoteRequest');
    mm.send('S', [[131, rfq2.rfq_id], [55, 'FIXRFQ-1'], [132, 30], [133, 60]]);
    const q2 = (await mm.next((m) => m.get(35) === 'AI' && m.get(297) === '10', 'second quote')).get(117)!;
    mm.send('Z', [[117, q2]]);
    expect((await mm.next((m) => m.get(35) === 'AI' && m.get(117) === q2, 'canceled')).get(297)).toBe('17');
    expect((await requester.getQuote({ params: { quote_id: q2 } })).quote.status).toBe('canceled');
  });
});

describe('FIX listener sessions (20126=Y)', () => {
  it('streams the account\'s execution reports from another session and takes no orders', async () => {
    const listener = await loggedOn('KalshiRT', [[20126, 'Y'], [21011, 'Y']]);
    const trading = await loggedOn('KalshiNR');
    const id = `lst-${process.pid}`;
    trading.send('D', [[11, id], [55, 'FIXMD-2'], [54, 1], [38, 2], [40, 2], [44, 5]]);
    const ack = await trading.type('8');
    const shadow = await listener.next((m) => m.get(35) === '8' && m.get(37) === ack.get(37), 'listener copy');
    expect([shadow.get(150), shadow.get(11), shadow.get(38), shadow.get(44)]).toEqual(['0', id, '2.00', '5']);
    listener.send('D', [[11, `${id}-x`], [55, 'FIXMD-2'], [54, 1], [38, 1], [40, 2], [44, 5]]);
    expect((await listener.type('j')).get(58)).toMatch(/listener session takes no orders/);
  });

  it('refuses a listener Logon without SkipPendingExecReports=Y or with CancelOrdersOnDisconnect=Y', async () => {
    for (const [extra, reason] of [
      [[[20126, 'Y']], /21011/],
      [[[20126, 'Y'], [21011, 'Y'], [8013, 'Y']], /8013/],
    ] as const) {
      const c = await Client.open(t.ex.fixPort, trader().api_key_id, 'KalshiNR', sockets);
      c.logon(trader().private_key_pem, extra.map(([a, b]) => [a, b]));
      expect((await c.type('5')).get(58)).toMatch(reason);
      await c.untilClosed();
    }
  });
});

describe('FIX over TLS', () => {
  it('serves the same sessions over TLS with the certificate named in credentials.json; an untrusted or plain client gets nothing', async () => {
    const creds = t.ex.credentials as { fix_tls_port?: number; fix_tls_cert?: string };
    expect(creds.fix_tls_port).toBe(t.ex.fixTlsPort);
    const ca = readFileSync(creds.fix_tls_cert!, 'utf8');
    expect(ca).toMatch(/BEGIN CERTIFICATE/);
    const c = await Client.openTls(t.ex.fixTlsPort, ca, trader().api_key_id, 'KalshiNR', sockets);
    c.logon(trader().private_key_pem);
    await c.type('A', 'Logon over TLS');
    c.send('D', [[11, `tls-${process.pid}`], [55, 'FIXMD-2'], [54, 1], [38, 1], [40, 2], [44, 3]]);
    const er = await c.type('8');
    expect([er.get(150), er.get(11)]).toEqual(['0', `tls-${process.pid}`]);
    expect((await t.client('trader').getOrder({ params: { order_id: er.get(37)! } })).order.client_order_id).toBe(`tls-${process.pid}`);

    // a client that does not trust the certificate refuses the handshake
    await expect(Client.openTls(t.ex.fixTlsPort, undefined, trader().api_key_id, 'KalshiNR', sockets)).rejects.toThrow(/self[- ]signed|certificate/i);
    // plain FIX on the TLS port is not a handshake: no Logon answer, the connection ends
    const plain = await Client.open(t.ex.fixTlsPort, trader().api_key_id, 'KalshiNR', sockets);
    plain.logon(trader().private_key_pem);
    await plain.untilClosed();
    expect(plain.got).toEqual([]);
  });
});
