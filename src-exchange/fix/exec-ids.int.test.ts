// One ExecID per execution event on every session that reports it (order entry, listener, drop
// copy), and a drop copy history that survives an exchange restart (exec-history.ts). Driven by
// the independent raw client against a real exchange on 127.0.0.1 port 0.
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { Client, type Msg } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
const trader = () => t.account('trader');

async function loggedOn(target: string, extra: Array<[number, string | number]> = []): Promise<Client> {
  const c = await Client.open(t.ex.fixPort, trader().api_key_id, target, sockets);
  c.logon(trader().private_key_pem, extra);
  await c.type('A', `${target} Logon answer`);
  return c;
}

beforeAll(async () => {
  t = await startTestExchange();
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker: 'FIXX-1', eventTicker: 'FIXX', seriesTicker: 'FIXXS' },
    { type: 'openMarket', nowMs: node.now(), ticker: 'FIXX-1' },
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

const execReports = (c: Client, orderId: string) => c.got.filter((m) => m.get(35) === '8' && m.get(37) === orderId);
const ids = (ms: Msg[]) => ms.map((m) => [m.get(17), m.get(150)]);

describe('one ExecID per execution across sessions', () => {
  it('the drop copy answers an EventResendRequest begun from an order entry ExecID, before and after an exchange restart', async () => {
    const listener = await loggedOn('KalshiRT', [[20126, 'Y'], [21011, 'Y']]);
    const nr = await loggedOn('KalshiNR');
    nr.send('D', [[11, `x-${process.pid}`], [55, 'FIXX-1'], [54, 1], [38, 2], [40, 2], [44, 20]]);
    const ack = await nr.type('8', 'New');
    const orderId = ack.get(37)!;
    await t.client('counterparty').createOrder({ body: { ticker: 'FIXX-1', side: 'ask', price: '0.2000', count: '1', client_order_id: crypto.randomUUID() } });
    const trade = await nr.next((m) => m.get(35) === '8' && m.get(150) === 'F', 'Trade report');
    const want = [
      [ack.get(17), '0'],
      [trade.get(17), 'F'],
    ];
    expect(ack.get(17)).not.toBe(trade.get(17));

    // the listener saw the same two executions under the same ExecIDs
    const lf = await listener.next((m) => m.get(35) === '8' && m.get(150) === 'F' && m.get(37) === orderId, 'listener Trade report');
    expect([...ids(execReports(listener, orderId)), ...ids([lf])]).toEqual(want);

    const resend = async (): Promise<Msg[]> => {
      const dc = await loggedOn('KalshiDC');
      dc.send('U1', [[21001, ack.get(17)!]]);
      await dc.type('U2', 'EventResendComplete');
      return execReports(dc, orderId);
    };
    expect(ids(await resend())).toEqual(want);

    await t.restart();
    expect(ids(await resend())).toEqual(want);
  });
});
