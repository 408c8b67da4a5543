// An independent FIX engine against the embedded exchange: jspurefix (a Node FIX engine nobody on
// this project wrote) with the project's QuickFIX dictionaries (docs/fix), on 127.0.0.1 port 0.
// Its session layer, not ours, frames, numbers, detects the gap and asks for the resend; the
// counterparty trades over REST. One exchange for the file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { mergedDictionary, startJsClient, type JsClientOpts, type KalshiJsSession, type Received } from './jspurefix-client';

let t: TestExchange;
let dict: string;
const open: KalshiJsSession[] = [];

async function addMarket(ticker: string): Promise<void> {
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker, eventTicker: ticker.split('-')[0]!, seriesTicker: `${ticker.split('-')[0]!}S` },
    { type: 'openMarket', nowMs: node.now(), ticker },
  ]) {
    const r = await node.submit(cmd as never);
    if (!r.ok) throw new Error(`cannot create market: ${JSON.stringify(r.result)}`);
  }
}

beforeAll(async () => {
  t = await startTestExchange();
  dict = mergedDictionary();
  await addMarket('JSP-1');
  await addMarket('JSP-2');
  await addMarket('JSP-3');
});
afterAll(async () => {
  for (const s of open.splice(0)) if (!s.stopped) s.logout();
  await t?.close();
});

async function connect(target: string, o: Partial<JsClientOpts> = {}) {
  const a = t.account('trader');
  const c = await startJsClient({ port: t.ex.fixPort, keyId: a.api_key_id, pem: a.private_key_pem, target, dictionary: dict, reset: true, ...o });
  open.push(c.session);
  return c;
}

const sell = (ticker: string, count: string, price = '0.1400') =>
  t.client('counterparty').createOrder({ body: { ticker, side: 'ask', price, count, client_order_id: crypto.randomUUID() } });

const er = (s: KalshiJsSession, pred: (r: Received) => boolean, what: string) =>
  s.until(() => s.got.find((r) => r.msgType === '8' && pred(r)), what);

describe('jspurefix, an independent engine, against the exchange', () => {
  it('KalshiRT: a fill while logged out (REST counterparty) comes back by the engine own ResendRequest, PossDup, after a Logon without reset', async () => {
    const storeDir = mkdtempSync(path.join(tmpdir(), 'jspurefix-store-'));
    const first = await connect('KalshiRT', { storeDir });
    first.session.sendApp('D', { ClOrdID: `jsp-${process.pid}-1`, Symbol: 'JSP-1', Side: '1', OrderQty: 2, OrdType: '2', Price: 14 });
    const ack = await er(first.session, (r) => r.obj.ExecType === '0', 'New');
    const orderId = ack.obj.OrderID as string;
    first.session.logout();
    await first.ended;
    const lastSent = first.session.sentSeq;
    const lastPeer = first.session.peerSeq;

    await sell('JSP-1', '1'); // fills 1 of the order while its session is logged out

    const second = await connect('KalshiRT', { reset: false, storeDir, nextSeq: lastSent + 1 });
    const resent = await er(second.session, (r) => r.obj.ExecType === 'F', 'the Trade made while logged out');
    expect(resent.possDup).toBe(true);
    expect(second.session.sentTypes).toContain('2'); // the engine's own ResendRequest brought it
    expect(resent.obj.OrderID).toBe(orderId);
    expect(Number(resent.obj.LastQty)).toBe(1);
    expect(resent.seq).toBeGreaterThan(lastPeer);

    await sell('JSP-1', '1'); // and a fill while up is live, on the same session
    const live = await er(second.session, (r) => r.obj.ExecType === 'F' && !r.possDup, 'the live Trade');
    expect(live.obj.OrderID).toBe(orderId);
    expect(live.obj.OrdStatus).toBe('2');
    expect(live.obj.ExecID).not.toBe(resent.obj.ExecID);
  });

  it('KalshiDC: an EventResendRequest from an order entry ExecutionReport ExecID is answered with that execution (and UOG / UOH on KalshiNR)', async () => {
    const oe = await connect('KalshiNR');
    oe.session.sendApp('D', { ClOrdID: `jsp-${process.pid}-2`, Symbol: 'JSP-2', Side: '1', OrderQty: 3, OrdType: '2', Price: 20 });
    const ack = await er(oe.session, (r) => r.obj.ExecType === '0', 'New');
    await sell('JSP-2', '1', '0.2000');
    const fill = await er(oe.session, (r) => r.obj.ExecType === 'F', 'Trade');

    // an order group over FIX, decoded by the engine with the shipped dictionary
    oe.session.sendApp('UOG', { OrderGroupAction: 1, OrderGroupContractsLimit: 5 });
    const group = await oe.session.until(() => oe.session.got.find((r) => r.msgType === 'UOH'), 'OrderGroupResponse');
    expect(group.obj).toMatchObject({ OrderGroupAction: 1, OrderGroupContractsLimit: 5, AllocAccount: '0' });
    expect(typeof group.obj.OrderGroupID).toBe('string');

    const dc = await connect('KalshiDC');
    dc.session.sendApp('U1', { BeginExecID: ack.obj.ExecID });
    await dc.session.until(() => dc.session.got.find((r) => r.msgType === 'U2'), 'EventResendComplete');
    const ids = dc.session.got.filter((r) => r.msgType === '8').map((r) => r.obj.ExecID);
    expect(ids[0]).toBe(ack.obj.ExecID);
    expect(ids).toContain(fill.obj.ExecID);
    expect(dc.session.got.some((r) => r.msgType === 'U3')).toBe(false);
  });

  it('KalshiMD: a subscription gets the snapshot (W), the SecurityStatus (f) and the book changes (X)', async () => {
    await sell('JSP-3', '5', '0.6000'); // an offer at 60
    const md = await connect('KalshiMD');
    md.session.sendApp('V', { SubscriptionRequestType: '1', NoRelatedSym: [{ Symbol: 'JSP-3' }] });
    const w = await md.session.until(() => md.session.got.find((r) => r.msgType === 'W'), 'snapshot');
    expect(w.obj.Symbol).toBe('JSP-3');
    const f = await md.session.until(() => md.session.got.find((r) => r.msgType === 'f'), 'SecurityStatus');
    expect(f.obj).toMatchObject({ Symbol: 'JSP-3', SecurityTradingStatus: 17, UnsolicitedIndicator: false });
    const levels = w.obj.NoMDEntries as Array<Record<string, unknown>>;
    expect(levels).toEqual([expect.objectContaining({ MDEntryType: '1', MDEntryPx: 60, MDEntrySize: 5 })]);
    await t.client('counterparty').createOrder({ body: { ticker: 'JSP-3', side: 'bid', price: '0.3000', count: '4', client_order_id: crypto.randomUUID() } });
    const x = await md.session.until(
      () => md.session.got.find((r) => r.msgType === 'X' && (r.obj.NoMDEntries as Array<Record<string, unknown>>).some((e) => e.MDEntryType === '0' && e.MDEntryPx === 30)),
      'the bid at 30',
    );
    const bid = (x.obj.NoMDEntries as Array<Record<string, unknown>>).find((e) => e.MDEntryType === '0')!;
    expect(bid).toMatchObject({ Symbol: 'JSP-3', MDEntrySize: 4 });
  });
});
