// Subaccounts through the terminal's client: open, transfer cash (idempotent by
// client_transfer_id), balances, transfer history, netting, and restart durability.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, centsOf, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
});
afterAll(async () => {
  await t?.close();
});

describe('subaccounts', () => {
  it('opens numbered subaccounts from an empty JSON body; a non-JSON body is 400', async () => {
    expect(await trader.createSubaccount({ body: {} })).toEqual({ subaccount_number: 1 });
    expect((await trader.createSubaccount({ body: { exchange_index: 0 } })).subaccount_number).toBe(2);
    const text = await fetch(`${t.ex.baseUrl}/portfolio/subaccounts`, { method: 'POST', body: 'x' });
    expect(text.status).toBe(401); // unsigned first; a signed non-JSON body:
    const a = t.account('trader');
    const { createSigner } = await import('../src-main/api/signer');
    const { createPrivateKey } = await import('node:crypto');
    const signer = createSigner({ credentials: { keyId: a.api_key_id, key: createPrivateKey(a.private_key_pem) } });
    const path = '/trade-api/v2/portfolio/subaccounts';
    const res = await fetch(`http://127.0.0.1:${t.ex.port}${path}`, { method: 'POST', headers: { ...signer.headers('POST', path, Date.now()), 'content-type': 'text/plain' }, body: 'hello' });
    expect(res.status).toBe(400);
    expect((await rawSigned(t, 'trader', 'POST', '/portfolio/subaccounts', { exchange_index: 3 })).status).toBe(400);
    const balances = await trader.getSubaccountBalances();
    expect(balances.subaccount_balances.map((b) => b.subaccount_number)).toEqual([0, 1, 2]);
    expect(balances.subaccount_balances[1]).toMatchObject({ balance: '0.00', exchange_index: 0 });
  });

  it('moves cash between subaccounts once per client_transfer_id', async () => {
    const id = randomUUID();
    const before = await trader.getBalance();
    expect(await trader.transferBetweenSubaccounts({ body: { client_transfer_id: id, from_subaccount: 0, to_subaccount: 1, amount_cents: 12_345 } })).toEqual({});
    expect(await trader.transferBetweenSubaccounts({ body: { client_transfer_id: id, from_subaccount: 0, to_subaccount: 1, amount_cents: 12_345 } })).toEqual({});
    expect(before.balance - (await trader.getBalance()).balance).toBe(12_345);
    const sub1 = await trader.getBalance({ query: { subaccount: 1 } });
    expect(sub1.balance).toBe(12_345);
    expect(sub1.balance_dollars).toBe('123.45');
    const balances = (await trader.getSubaccountBalances()).subaccount_balances;
    expect(centsOf(balances.find((b) => b.subaccount_number === 1)!.balance)).toBe(12_345);

    const { transfers } = await trader.getSubaccountTransfers();
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ from_subaccount: 0, to_subaccount: 1, amount_cents: 12_345, exchange_index: 0 });
    await trader.transferBetweenSubaccounts({ body: { client_transfer_id: randomUUID(), from_subaccount: 1, to_subaccount: 2, amount_cents: 45 } });
    const p1 = await trader.getSubaccountTransfers({ query: { limit: 1 } });
    expect(p1.transfers[0]).toMatchObject({ from_subaccount: 1, to_subaccount: 2, amount_cents: 45 });
    expect(p1.has_next).toBe(true);
    const p2 = await trader.getSubaccountTransfers({ query: { limit: 1, cursor: p1.cursor ?? '' } });
    expect(p2.transfers[0]!.transfer_id).toBe(transfers[0]!.transfer_id);
    expect((await counterparty.getSubaccountTransfers()).transfers).toEqual([]);
  });

  it('refuses overdrafts, unknown subaccounts and a same-subaccount transfer; nothing moves', async () => {
    const before = (await trader.getSubaccountBalances()).subaccount_balances;
    const over = await apiError(trader.transferBetweenSubaccounts({ body: { client_transfer_id: randomUUID(), from_subaccount: 2, to_subaccount: 0, amount_cents: 1_000_000 } }));
    expect(over.status).toBe(400);
    const unknown = await apiError(trader.transferBetweenSubaccounts({ body: { client_transfer_id: randomUUID(), from_subaccount: 0, to_subaccount: 9, amount_cents: 1 } }));
    expect(unknown.status).toBe(404);
    const same = await rawSigned(t, 'trader', 'POST', '/portfolio/subaccounts/transfer', { client_transfer_id: randomUUID(), from_subaccount: 1, to_subaccount: 1, amount_cents: 1 });
    expect(same.status).toBe(400);
    const notUuid = await rawSigned(t, 'trader', 'POST', '/portfolio/subaccounts/transfer', { client_transfer_id: 'abc', from_subaccount: 0, to_subaccount: 1, amount_cents: 1 });
    expect(notUuid.status).toBe(400);
    expect((await trader.getSubaccountBalances()).subaccount_balances).toEqual(before);
  });

  it('trades in a subaccount stay in that subaccount', async () => {
    const ticker = freshTicker('SUB');
    await openMarket(t, ticker, 'SUB');
    const o = await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '10', price: '0.10', subaccount: 1 } });
    await counterparty.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'ask', count: '10', price: '0.10' } });
    expect((await trader.getOrder({ params: { order_id: o.order_id } })).order.subaccount_number).toBe(1);
    expect((await trader.getPositions({ query: { ticker, subaccount: 1 } })).market_positions).toHaveLength(1);
    expect((await trader.getPositions({ query: { ticker, subaccount: 0 } })).market_positions).toEqual([]);
    expect((await trader.getBalance({ query: { subaccount: 1 } })).balance).toBe(12_345 - 45 - 100);
    expect((await trader.getOrders({ query: { ticker, subaccount: 0 } })).orders).toEqual([]);
    expect((await trader.getFills({ query: { ticker: [ticker], subaccount: 1 } })).fills).toHaveLength(1);
    expect((await trader.getFills({ query: { ticker: [ticker], subaccount: 0 } })).fills).toEqual([]);
    // an omitted subaccount on a read means every subaccount
    expect((await trader.getOrders({ query: { ticker } })).orders.map((x) => x.order_id)).toEqual([o.order_id]);
    expect((await trader.getPositions({ query: { ticker } })).market_positions).toEqual([expect.objectContaining({ subaccount_number: 1, position_fp: '10.00' })]);
    expect((await trader.getFills({ query: { ticker: [ticker] } })).fills).toHaveLength(1);
    // a lookup by id finds it without naming the subaccount; naming another is 404
    const resting = await trader.createOrder({ body: { ticker, client_order_id: randomUUID(), side: 'bid', count: '1', price: '0.05', subaccount: 1 } });
    expect((await trader.getOrder({ params: { order_id: resting.order_id } })).order.status).toBe('resting');
    expect((await apiError(trader.cancelOrder({ params: { order_id: resting.order_id }, query: { subaccount: 0 } }))).status).toBe(404);
    expect((await trader.cancelOrder({ params: { order_id: resting.order_id }, query: { subaccount: 1 } })).reduced_by).toBe('1.00');
  });

  it('netting is off until set, per subaccount; an unknown subaccount is 404; it survives restart', async () => {
    expect((await trader.getSubaccountNetting()).netting_configs).toEqual([
      { subaccount_number: 0, enabled: false, exchange_index: 0 },
      { subaccount_number: 1, enabled: false, exchange_index: 0 },
      { subaccount_number: 2, enabled: false, exchange_index: 0 },
    ]);
    expect(await trader.setSubaccountNetting({ body: { subaccount_number: 1, enabled: true } })).toEqual({});
    expect((await apiError(trader.setSubaccountNetting({ body: { subaccount_number: 30, enabled: true } }))).status).toBe(404);
    const configs = (await trader.getSubaccountNetting()).netting_configs;
    expect(configs.map((c) => c.enabled)).toEqual([false, true, false]);
    expect((await counterparty.getSubaccountNetting()).netting_configs).toEqual([{ subaccount_number: 0, enabled: false, exchange_index: 0 }]);

    const balances = await trader.getSubaccountBalances();
    await t.restart();
    trader = t.client('trader');
    counterparty = t.client('counterparty');
    expect((await trader.getSubaccountNetting()).netting_configs).toEqual(configs);
    expect(await trader.getSubaccountBalances()).toEqual(balances);
    await trader.setSubaccountNetting({ body: { subaccount_number: 1, enabled: false } });
    expect((await trader.getSubaccountNetting()).netting_configs.map((c) => c.enabled)).toEqual([false, false, false]);
  });
});
