// Portfolio reads and money records through the terminal's client: balance, positions,
// settlements, fills, total resting order value (FCM only), deposits, withdrawals, instance
// transfers and target allocation. Subaccounts are in subaccounts.int.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError, centsOf, freshTicker, openMarket, rawSigned } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';

let t: TestExchange;
let trader: ApiClient;
let counterparty: ApiClient;
let fcm: ApiClient;

const STARTING_CENTS = 100_000 * 100;
const cid = () => randomUUID();

beforeAll(async () => {
  t = await startTestExchange();
  trader = t.client('trader');
  counterparty = t.client('counterparty');
  fcm = t.client('fcm');
});
afterAll(async () => {
  await t?.close();
});

/** trader buys `count` YES at `price` from counterparty in a fresh market of `event`. */
async function trade(event: string, count: string, price: string): Promise<string> {
  const ticker = freshTicker(event);
  await openMarket(t, ticker, event);
  await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count, price } });
  await counterparty.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count, price } });
  return ticker;
}

async function settle(ticker: string, result: 'yes' | 'no'): Promise<void> {
  const node = t.ex.svc.node;
  for (const cmd of [
    { type: 'determineMarket', nowMs: node.now(), ticker, result },
    { type: 'settleMarket', nowMs: node.now(), ticker },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`${cmd.type}: ${JSON.stringify(r.result)}`);
  }
}

describe('balance', () => {
  it('answers cents, dollars, portfolio value, updated_ts and the per-index breakdown', async () => {
    const b = await trader.getBalance();
    expect(b.balance).toBe(STARTING_CENTS);
    expect(b.balance_dollars).toBe('100000.00');
    expect(b.portfolio_value).toBe(0);
    expect(b.updated_ts).toBeGreaterThan(1_600_000_000);
    expect(b.balance_breakdown).toEqual([{ exchange_index: 0, balance: '100000.00' }]);
    expect(await trader.getBalance({ query: { subaccount: 0, exchange_index: 0 } })).toEqual(b);
  });

  it('resting orders hold cash out of the balance until cancelled', async () => {
    const ticker = freshTicker('BAL');
    await openMarket(t, ticker, 'BAL');
    const before = await trader.getBalance();
    const o = await trader.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '10', price: '0.25' } });
    const held = await trader.getBalance();
    expect(before.balance - held.balance).toBeGreaterThanOrEqual(250);
    await trader.cancelOrder({ params: { order_id: o.order_id } });
    expect((await trader.getBalance()).balance).toBe(before.balance);
  });

  it('refuses an unknown subaccount (404) and an unknown exchange index (400)', async () => {
    expect((await apiError(trader.getBalance({ query: { subaccount: 17 } }))).status).toBe(404);
    expect((await apiError(trader.getBalance({ query: { exchange_index: 3 } }))).status).toBe(400);
  });
});

describe('positions, fills and settlements', () => {
  it('positions answer market and event positions with count_filter and settlement_status', async () => {
    const a = await trade('POSA', '4', '0.30');
    const b = await trade('POSA', '2', '0.70');
    const r = await trader.getPositions({ query: { event_ticker: 'POSA' } });
    expect(r.market_positions.map((p) => p.ticker).sort()).toEqual([a, b].sort());
    expect(r.event_positions).toEqual([
      expect.objectContaining({ event_ticker: 'POSA', event_exposure_dollars: '2.60', total_cost_shares_fp: '6.00' }),
    ]);
    expect(r.has_next).toBe(false);
    const page = await trader.getPositions({ query: { event_ticker: 'POSA', limit: 1 } });
    expect(page.market_positions).toHaveLength(1);
    expect(page.has_next).toBe(true);
    const rest = await trader.getPositions({ query: { event_ticker: 'POSA', limit: 1, cursor: page.cursor ?? '' } });
    expect(rest.market_positions).toHaveLength(1);
    expect(rest.market_positions[0]!.ticker).not.toBe(page.market_positions[0]!.ticker);
    expect((await trader.getPositions({ query: { ticker: a, exchange_index: 1 } })).market_positions).toEqual([]);

    // a position closed out by an opposite trade stays as a row with zero position
    await trader.createOrder({ body: { ticker: a, client_order_id: cid(), side: 'ask', count: '4', price: '0.30' } });
    await counterparty.createOrder({ body: { ticker: a, client_order_id: cid(), side: 'bid', count: '4', price: '0.30' } });
    expect((await trader.getPositions({ query: { ticker: a } })).market_positions[0]!.position_fp).toBe('0.00');
    expect((await trader.getPositions({ query: { ticker: a, count_filter: 'position' } })).market_positions).toEqual([]);
    expect((await trader.getPositions({ query: { ticker: a, count_filter: 'position,total_traded' } })).market_positions).toHaveLength(1);
    expect((await apiError(trader.getPositions({ query: { count_filter: 'colour' } }))).status).toBe(400);

    await settle(b, 'yes');
    expect((await trader.getPositions({ query: { ticker: b } })).market_positions).toEqual([]);
    const settled = await trader.getPositions({ query: { ticker: b, settlement_status: 'settled' } });
    expect(settled.market_positions).toEqual([expect.objectContaining({ ticker: b, position_fp: '0.00' })]);
    expect((await trader.getPositions({ query: { event_ticker: 'POSA', settlement_status: 'all' } })).market_positions).toHaveLength(2);
  });

  it('pages of open positions lose none when a position of an earlier page closes between the reads, nor repeat any', async () => {
    const tickers: string[] = [];
    for (let i = 0; i < 5; i++) tickers.push(await trade('POSP', '1', '0.40'));
    tickers.sort();
    const q = { event_ticker: 'POSP', count_filter: 'position', limit: 2 } as const;
    const p1 = await trader.getPositions({ query: q });
    expect(p1.market_positions.map((p) => p.ticker)).toEqual(tickers.slice(0, 2));
    // the first position of page 1 closes (sold back) before page 2 is read
    await trader.createOrder({ body: { ticker: tickers[0]!, client_order_id: cid(), side: 'ask', count: '1', price: '0.40' } });
    await counterparty.createOrder({ body: { ticker: tickers[0]!, client_order_id: cid(), side: 'bid', count: '1', price: '0.40' } });
    expect((await trader.getPositions({ query: { ticker: tickers[0]!, count_filter: 'position' } })).market_positions).toEqual([]);
    const p2 = await trader.getPositions({ query: { ...q, cursor: p1.cursor ?? '' } });
    expect(p2.market_positions.map((p) => p.ticker)).toEqual(tickers.slice(2, 4));
    const p3 = await trader.getPositions({ query: { ...q, cursor: p2.cursor ?? '' } });
    expect(p3.market_positions.map((p) => p.ticker)).toEqual(tickers.slice(4));
    expect(p3.has_next).toBe(false);
    // a cursor of another list (an order's key, an offset) or of nothing is refused
    for (const cursor of [Buffer.from(JSON.stringify({ k: 3 })).toString('base64url'), Buffer.from(JSON.stringify({ s: [3, 'x'] })).toString('base64url'), 'not-a-cursor']) {
      const e = await apiError(trader.getPositions({ query: { ...q, cursor } }));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(/cursor is not one this exchange issued/);
    }
  });

  it('settlements record the result and the payout in cents; the winner is paid', async () => {
    const ticker = await trade('SET', '3', '0.40');
    const before = await trader.getBalance();
    await settle(ticker, 'yes');
    const after = await trader.getBalance();
    expect(after.balance - before.balance).toBe(300);
    const s = await trader.getSettlements({ query: { ticker } });
    expect(s.settlements).toEqual([expect.objectContaining({ ticker, event_ticker: 'SET', market_result: 'yes', revenue: 300, exchange_index: 0, yes_count_fp: '3.00' })]);
    expect(s.settlements[0]!.settled_at).toBeGreaterThan(1_600_000_000);
    const loser = await counterparty.getSettlements({ query: { event_ticker: 'SET' } });
    expect(loser.settlements).toEqual([expect.objectContaining({ ticker, revenue: 0, no_count_fp: '3.00' })]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await trader.getSettlements({ query: { ticker, min_ts: future } })).settlements).toEqual([]);
    expect((await trader.getSettlements({ query: { ticker, subaccount: 0, max_ts: future } })).settlements).toHaveLength(1);
  });

  it('fills filter by a ticker list, order id and time', async () => {
    const a = await trade('FIL', '1', '0.50');
    const b = await trade('FIL', '2', '0.50');
    const both = await trader.getFills({ query: { ticker: [a, b] } });
    expect(both.fills.map((f) => f.ticker).sort()).toEqual([a, b].sort());
    const one = both.fills.find((f) => f.ticker === b)!;
    expect((await trader.getFills({ query: { order_id: one.order_id } })).fills.map((f) => f.fill_id)).toEqual([one.fill_id]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await trader.getFills({ query: { ticker: [a], min_ts: future } })).fills).toEqual([]);
    expect((await trader.getFills({ query: { ticker: [a], max_ts: future, exchange_index: 0, subaccount: 0 } })).fills).toHaveLength(1);
    expect((await trader.getFills({ query: { ticker: [a], exchange_index: 2 } })).fills).toEqual([]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `T-${i}`).join(',');
    expect((await rawSigned(t, 'trader', 'GET', `/portfolio/fills?ticker=${tooMany}`)).status).toBe(400);
  });
});

describe('total resting order value', () => {
  it('is 403 for a non-FCM account and cents plus breakdown for an FCM member', async () => {
    expect((await apiError(trader.getTotalRestingOrderValue())).status).toBe(403);
    const ticker = freshTicker('RV');
    await openMarket(t, ticker, 'RV');
    const empty = await fcm.getTotalRestingOrderValue();
    expect(empty.total_resting_order_value).toBe(0);
    await fcm.createOrder({ body: { ticker, client_order_id: cid(), side: 'bid', count: '10', price: '0.30' } });
    await fcm.createOrder({ body: { ticker, client_order_id: cid(), side: 'ask', count: '5', price: '0.90' } });
    const r = await fcm.getTotalRestingOrderValue();
    expect(r.total_resting_order_value).toBe(300 + 50); // 10 YES at 0.30 and 5 NO at 0.10
    expect(r.resting_order_value_breakdown).toEqual([{ exchange_index: 0, balance: '3.50' }]);
  });
});

describe('money records', () => {
  it('deposits and withdrawals are seeded and add up to the starting balance', async () => {
    const deposits = (await trader.getDeposits({ query: { limit: 100 } })).deposits;
    const withdrawals = (await trader.getWithdrawals()).withdrawals;
    expect(deposits.length).toBeGreaterThanOrEqual(3);
    expect(withdrawals.length).toBeGreaterThanOrEqual(1);
    const applied = (xs: typeof deposits) => xs.filter((x) => x.status === 'applied');
    const net =
      applied(deposits).reduce((s, d) => s + d.amount_cents - d.fee_cents, 0) - applied(withdrawals).reduce((s, w) => s + w.amount_cents + w.fee_cents, 0);
    expect(net).toBe(STARTING_CENTS);
    for (const d of [...deposits, ...withdrawals]) {
      expect(['pending', 'applied', 'failed', 'returned']).toContain(d.status);
      expect(['ach', 'wire', 'crypto', 'debit', 'apm']).toContain(d.type);
      if (d.status === 'pending') expect(d.finalized_ts ?? null).toBeNull();
      else expect(d.finalized_ts).toBeGreaterThan(d.created_ts);
    }
    // newest first, in pages
    const created = deposits.map((d) => d.created_ts);
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const p1 = await trader.getDeposits({ query: { limit: 2 } });
    expect(p1.has_next).toBe(true);
    const p2 = await trader.getDeposits({ query: { limit: 100, cursor: p1.cursor ?? '' } });
    expect([...p1.deposits, ...p2.deposits].map((d) => d.id)).toEqual(deposits.map((d) => d.id));
    // each account has its own history
    expect((await counterparty.getDeposits()).deposits.map((d) => d.id)).not.toContain(deposits[0]!.id);
  });

  it('intra-exchange instance transfers list and read one; an unknown id is 404', async () => {
    const { transfers } = await trader.getIntraExchangeTransfers();
    expect(transfers.length).toBeGreaterThanOrEqual(2);
    let net = 0;
    for (const x of transfers) {
      expect(x.source).not.toBe(x.destination);
      net += (x.source === 'event_contract' ? -1 : 1) * centsOf(x.amount);
    }
    expect(net).toBe(0);
    const one = await trader.getIntraExchangeTransfer({ params: { transfer_id: transfers[0]!.transfer_id } });
    expect(one.transfer).toEqual(transfers[0]);
    expect((await apiError(trader.getIntraExchangeTransfer({ params: { transfer_id: randomUUID() } }))).status).toBe(404);
    expect((await trader.getIntraExchangeTransfers({ query: { limit: 1 } })).transfers).toHaveLength(1);
  });

  it('target balance allocation: default, replace-all, validation leaves it unchanged, survives restart', async () => {
    expect(await trader.getTargetBalanceAllocation()).toEqual({ allocations: [{ exchange_index: 0, percent: 100 }], resting_margin_reservation: 'sum' });
    await trader.setTargetBalanceAllocation({ body: { allocations: [{ exchange_index: 0, percent: 70 }, { exchange_index: 1, percent: 30 }], resting_margin_reservation: 'max' } });
    const set = { allocations: [{ exchange_index: 0, percent: 70 }, { exchange_index: 1, percent: 30 }], resting_margin_reservation: 'max' };
    expect(await trader.getTargetBalanceAllocation()).toEqual(set);
    // replace-all: the omitted reservation goes back to the default
    await trader.setTargetBalanceAllocation({ body: { allocations: [{ exchange_index: 2, percent: 10 }] } });
    expect(await trader.getTargetBalanceAllocation()).toEqual({ allocations: [{ exchange_index: 2, percent: 10 }], resting_margin_reservation: 'sum' });
    await trader.setTargetBalanceAllocation({ body: { allocations: set.allocations, resting_margin_reservation: 'max' } });

    const over = await rawSigned(t, 'trader', 'POST', '/portfolio/target_balance_allocation', { allocations: [{ exchange_index: 0, percent: 101 }] });
    expect(over.status).toBe(400);
    const rows = Array.from({ length: 102 }, (_, i) => ({ exchange_index: i, percent: 0 }));
    expect((await rawSigned(t, 'trader', 'POST', '/portfolio/target_balance_allocation', { allocations: rows })).status).toBe(400);
    expect((await rawSigned(t, 'trader', 'POST', '/portfolio/target_balance_allocation', { allocations: rows.slice(0, 101) })).status).toBe(200);
    await trader.setTargetBalanceAllocation({ body: { allocations: set.allocations, resting_margin_reservation: 'max' } });
    const dup = await apiError(trader.setTargetBalanceAllocation({ body: { allocations: [{ exchange_index: 0, percent: 10 }, { exchange_index: 0, percent: 20 }] } }));
    expect(dup.status).toBe(400);
    const sum = await apiError(trader.setTargetBalanceAllocation({ body: { allocations: [{ exchange_index: 0, percent: 60 }, { exchange_index: 1, percent: 60 }] } }));
    expect(sum.status).toBe(400);
    expect(await trader.getTargetBalanceAllocation()).toEqual(set);
    // another account is unaffected
    expect((await counterparty.getTargetBalanceAllocation()).allocations).toEqual([{ exchange_index: 0, percent: 100 }]);

    const deposits = await trader.getDeposits();
    await t.restart();
    trader = t.client('trader');
    counterparty = t.client('counterparty');
    fcm = t.client('fcm');
    expect(await trader.getTargetBalanceAllocation()).toEqual(set);
    expect(await trader.getDeposits()).toEqual(deposits);
  });
});
