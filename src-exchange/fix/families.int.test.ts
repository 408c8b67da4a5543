// The FIX message families built last (issue 35): order groups over FIX (UOG / UOH), market data
// SecurityStatus (f) on KalshiMD, and the RFQ creator's messages on KalshiRT (QuoteRequest in,
// QuoteRequestAck and Quote out, AcceptQuote in, the execution's ExecutionReport). Driven by the
// independent raw client (raw-client.ts) on a socket against a real exchange on 127.0.0.1 port 0,
// checked against REST. One exchange for the file.
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { Client } from './raw-client';

let t: TestExchange;
const sockets: Socket[] = [];
let n = 0;
const id = (p: string) => `${p}-${process.pid}-${++n}`;

async function submit(cmd: Record<string, unknown>): Promise<void> {
  const node = t.ex.svc.node;
  const r = await node.submit({ nowMs: node.now(), ...cmd } as never);
  if (!r.ok) throw new Error(`${String(cmd['type'])}: ${JSON.stringify(r.result)}`);
}

async function addMarket(ticker: string): Promise<void> {
  const ev = ticker.split('-')[0]!;
  await submit({ type: 'addMarket', ticker, eventTicker: ev, seriesTicker: `${ev}S` });
  await submit({ type: 'openMarket', ticker });
}

beforeAll(async () => {
  t = await startTestExchange();
  for (const m of ['FAMOG-1', 'FAMSS-1', 'FAMRQ-1']) await addMarket(m);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});
afterAll(async () => {
  await t?.close();
});

async function logon(target: string, who = 'trader'): Promise<Client> {
  const a = t.account(who);
  const c = await Client.open(t.ex.fixPort, a.api_key_id, target, sockets);
  c.logon(a.private_key_pem);
  expect((await c.type('A', `${target} Logon answer`)).get(35)).toBe('A');
  return c;
}

describe('order groups over FIX (UOG / UOH)', () => {
  it('create, an order in the group, update, trigger (cancels it), reset, delete; refusals change nothing', async () => {
    const c = await logon('KalshiNR');
    c.send('UOG', [[20131, 1], [20132, 5]]);
    const created = await c.type('UOH', 'create answer');
    const groupId = created.get(20130)!;
    expect(created.get(20131)).toBe('1');
    expect(created.get(20132)).toBe('5.00');
    expect(created.get(79)).toBe('0');
    const rest = (await t.client('trader').getOrderGroup({ params: { id: groupId } })) as { contracts_limit?: number | string };
    expect(Number(rest.contracts_limit)).toBe(5);

    const cl = id('og');
    c.send('D', [[11, cl], [55, 'FAMOG-1'], [54, 1], [38, 3], [40, 2], [44, 20], [526, groupId]]);
    const ack = await c.next((m) => m.get(35) === '8' && m.get(11) === cl, 'New in the group');
    expect(ack.get(150)).toBe('0');

    c.send('UOG', [[20131, 5], [20130, groupId], [20132, 10]]);
    expect((await c.next((m) => m.get(35) === 'UOH' && m.get(20131) === '5', 'update answer')).get(20132)).toBe('10.00');

    c.send('UOG', [[20131, 4], [20130, groupId]]);
    await c.next((m) => m.get(35) === 'UOH' && m.get(20131) === '4', 'trigger answer');
    const canceled = await c.next((m) => m.get(35) === '8' && m.get(37) === ack.get(37) && m.get(150) === '4', 'the grouped order canceled by the trigger');
    expect(canceled.get(39)).toBe('4');

    c.send('UOG', [[20131, 2], [20130, groupId]]);
    await c.next((m) => m.get(35) === 'UOH' && m.get(20131) === '2', 'reset answer');

    // refusals: another subaccount's id, no such group, a limit out of range, an unknown action
    c.send('UOG', [[20131, 4], [20130, groupId], [79, 3]]);
    const other = await c.next((m) => m.get(35) === 'j', 'not found in subaccount 3');
    expect(other.get(380)).toBe('1');
    expect(other.get(58)).toContain('ORDER_GROUP_NOT_FOUND');
    c.send('UOG', [[20131, 2], [20130, 'no-such-group']]);
    expect((await c.next((m) => m.get(35) === 'j' && m.get(58)!.includes('no-such-group'), 'unknown group')).get(380)).toBe('1');
    c.send('UOG', [[20131, 1], [20132, 0]]);
    expect((await c.next((m) => m.get(35) === 'j' && m.get(58)!.includes('20132'), 'limit 0')).get(380)).toBe('0');
    c.send('UOG', [[20131, 9]]);
    await c.next((m) => m.get(35) === 'j' && m.get(58)!.includes('20131'), 'unknown action');

    c.send('UOG', [[20131, 3], [20130, groupId]]);
    await c.next((m) => m.get(35) === 'UOH' && m.get(20131) === '3', 'delete answer');
    const listed = (await t.client('trader').getOrderGroups({ query: {} })) as unknown as { order_group_id: string }[] | { order_groups: { order_group_id: string }[] };
    const groups = Array.isArray(listed) ? listed : listed.order_groups;
    expect(groups.map((g) => g.order_group_id)).not.toContain(groupId);
  });
});

describe('market data SecurityStatus (f)', () => {
  it('the status after the snapshot, then each change on a subscription: open 17, paused 2, closed 18', async () => {
    const c = await logon('KalshiMD');
    c.send('V', [[263, 1], [146, 1], [55, 'FAMSS-1']]);
    await c.type('W', 'snapshot');
    const now = await c.type('f', 'status now');
    expect([now.get(55), now.get(326), now.get(325)]).toEqual(['FAMSS-1', '17', 'N']);
    await submit({ type: 'pauseMarket', ticker: 'FAMSS-1' });
    const paused = await c.next((m) => m.get(35) === 'f' && m.get(326) === '2', 'paused');
    expect(paused.get(325)).toBe('Y');
    await submit({ type: 'closeMarket', ticker: 'FAMSS-1' });
    expect((await c.next((m) => m.get(35) === 'f' && m.get(326) === '18', 'closed')).get(58)).toBe('closed');
  });
});

describe('the RFQ creator on KalshiRT', () => {
  it('QuoteRequest creates the RFQ under its QuoteReqID, a maker quote arrives as Quote, AcceptQuote then the confirm executes it as a Trade report', async () => {
    const c = await logon('KalshiRT');
    const rfqId = crypto.randomUUID();
    c.send('R', [[131, rfqId], [146, 1], [55, 'FAMRQ-1'], [38, 10]]);
    const ack = await c.type('b', 'QuoteRequestAck');
    expect([ack.get(131), ack.get(297)]).toEqual([rfqId, '0']);
    expect((await t.client('trader').getRfq({ params: { rfq_id: rfqId } })).rfq.market_ticker).toBe('FAMRQ-1');

    const maker = t.client('counterparty');
    const quoteId = (await maker.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.4000', no_bid: '0.5500', rest_remainder: false } })).quote.quote_id;
    const quote = await c.type('S', 'the maker quote');
    expect([quote.get(117), quote.get(131), quote.get(55), quote.get(132), quote.get(133), quote.get(38)]).toEqual([quoteId, rfqId, 'FAMRQ-1', '40', '55', '10.00']);

    c.send('UA', [[117, 'no-such-quote'], [54, 1]]);
    expect((await c.type('j', 'unknown quote')).get(380)).toBe('1');
    c.send('UA', [[117, quoteId], [131, rfqId], [54, 2]]); // accept the NO side
    await expect.poll(async () => (await maker.getQuote({ params: { quote_id: quoteId } })).quote.status).toBe('accepted');
    await maker.confirmQuote({ params: { quote_id: quoteId } });
    const trade = await c.next((m) => m.get(35) === '8' && m.get(150) === 'F', 'the Trade of the RFQ execution');
    expect([trade.get(55), trade.get(32)]).toEqual(['FAMRQ-1', '10.00']);

    c.send('R', [[131, crypto.randomUUID()], [146, 1], [55, 'NOPE-1'], [38, 1]]);
    const refused = await c.next((m) => m.get(35) === 'b' && m.get(297) === '5', 'refused');
    expect(refused.get(300)).toBe('1');
    c.send('R', [[131, crypto.randomUUID()], [146, 1], [55, 'FAMRQ-1'], [38, 1], [152, 5]]);
    expect((await c.next((m) => m.get(35) === 'b' && m.get(58)?.includes('exactly one') === true, 'both sizes')).get(297)).toBe('5');
  });
});
