import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import {
  Balance,
  CreateSubaccountRequest,
  Deposit,
  Fill,
  MarketPosition,
  PositionsResponse,
  SetSubaccountNettingRequest,
  SetTargetBalanceAllocationRequest,
  Settlement,
  SubaccountTransferRequest,
  TotalRestingOrderValue,
} from './portfolio';
import { responseSamples, sampleFill, samplePositions, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('balance', () => {
  it('reads cents as integers and dollars as text', () => {
    const b = Balance.parse(responseSamples.getBalance);
    expect(b).toMatchObject({ balance: 100_000, balance_dollars: '1000.00', portfolio_value: 2_500 });
    expect(b.balance_breakdown?.[0]).toMatchObject({ exchange_index: 0, balance: '1000.00' });
  });
  it('rejects fractional cents, a numeric balance_dollars, or a missing balance_dollars', () => {
    rejects(Balance, { ...(responseSamples.getBalance as object), balance: 10.5 });
    rejects(Balance, { ...(responseSamples.getBalance as object), balance_dollars: 1000 });
    const { balance_dollars: _omit, ...noDollars } = responseSamples.getBalance as Record<string, unknown>;
    expect(rejects(Balance, noDollars)).toMatch(/balance_dollars/);
  });
  it('the total resting order value breakdown may be empty or null', () => {
    expect(TotalRestingOrderValue.parse({ total_resting_order_value: 0, resting_order_value_breakdown: null }).resting_order_value_breakdown).toEqual([]);
    rejects(TotalRestingOrderValue, { total_resting_order_value: '450' });
  });
});

describe('positions', () => {
  it('reads market and event positions with _fp / _dollars names', () => {
    const p = PositionsResponse.parse(samplePositions);
    expect(p.market_positions[0]).toMatchObject({ position_fp: '5.00', realized_pnl_dollars: '-0.120000', exchange_index: 0 });
    expect(p.event_positions[0]?.event_exposure_dollars).toBe('2.250000');
  });
  it('reads null arrays as empty', () => {
    expect(PositionsResponse.parse({ market_positions: null, event_positions: null })).toMatchObject({ market_positions: [], event_positions: [] });
  });
  it('reads a market position without exchange_index (spec 3.29.0 requires it; production left it out) as shard 0, and rejects numeric money', () => {
    const pos = samplePositions.market_positions![0]!;
    const { exchange_index: _e, ...noIndex } = pos;
    expect(MarketPosition.parse(noIndex).exchange_index).toBe(0);
    expect(rejects(MarketPosition, { ...pos, exchange_index: '0' })).toMatch(/exchange_index/);
    rejects(MarketPosition, { ...pos, realized_pnl_dollars: -0.12 });
  });
  it('reads an SDK RFC 3339 last_updated_ts as Unix seconds', () => {
    const pos = { ...samplePositions.market_positions![0], last_updated_ts: '2025-01-01T00:00:00Z' };
    expect(MarketPosition.parse(pos).last_updated_ts).toBe(1_735_689_600);
  });
  it('takes settlement_status unsettled/settled/all', () => {
    expect(endpoints.getPositions.query.parse({ settlement_status: 'all', count_filter: 'position' })).toEqual({ settlement_status: 'all', count_filter: 'position' });
    rejects(endpoints.getPositions.query, { settlement_status: 'open' });
  });
});

describe('settlements', () => {
  it('reads settled_at (spec) and the SDK settled_time to settled_at in Unix seconds', () => {
    const spec = endpoints.getSettlements.response.parse(responseSamples.getSettlements);
    expect(spec.settlements[0]?.settled_at).toBe(1_735_689_600);
    const sdk = endpoints.getSettlements.response.parse(sdkResponseSamples.getSettlements);
    expect(sdk.settlements[0]?.settled_at).toBe(1_735_689_600);
  });
  it('rejects a settlement with neither time; one without exchange_index reads as shard 0', () => {
    expect(rejects(Settlement, { ticker: 'T', exchange_index: 0, market_result: 'yes', revenue: 1 })).toMatch(/settled_at/);
    expect(Settlement.parse({ ticker: 'T', market_result: 'yes', revenue: 1, settled_at: 1 }).exchange_index).toBe(0);
  });
});

describe('fills', () => {
  it('reads a fill and fills both ids from either', () => {
    const f = Fill.parse({ ...sampleFill, trade_id: undefined });
    expect(f.fill_id).toBe('fill-1');
    expect(f.trade_id).toBe('fill-1');
    expect(Fill.parse({ ...sampleFill, ticker: undefined, market_ticker: 'KXT' }).ticker).toBe('KXT');
  });
  it('reads a fill without exchange_index as shard 0; rejects a numeric count', () => {
    const { exchange_index: _e, ...noIndex } = sampleFill;
    expect(Fill.parse(noIndex).exchange_index).toBe(0);
    rejects(Fill, { ...sampleFill, count_fp: 2 });
  });
  it('the ticker filter is a comma list of at most 100 tickers', () => {
    const q = endpoints.getFills.query;
    expect(q.parse({ ticker: 'A,B,C' }).ticker).toEqual(['A', 'B', 'C']);
    const hundred = Array.from({ length: 100 }, (_, i) => `T${i}`);
    expect(q.parse({ ticker: hundred.join(',') }).ticker).toHaveLength(100);
    expect(rejects(q, { ticker: [...hundred, 'T100'].join(',') })).toMatch(/at most 100/);
  });
});

describe('deposits, withdrawals, transfers', () => {
  it('reads the shared shape with integer cents and nullable finalized_ts', () => {
    expect(endpoints.getWithdrawals.response.parse(responseSamples.getWithdrawals).withdrawals[0]?.finalized_ts).toBeNull();
    expect(Deposit.parse({ id: 'd', status: 'settled', type: 'rtp', amount_cents: 1, fee_cents: 0, created_ts: 1 })).toMatchObject({ status: 'settled', type: 'rtp' });
    rejects(Deposit, { id: 'd', status: 'applied', type: 'ach', amount_cents: '1', fee_cents: 0, created_ts: 1 });
  });
  it('reads intra-exchange transfers between the two instances', () => {
    expect(endpoints.getIntraExchangeTransfer.response.parse(responseSamples.getIntraExchangeTransfer).transfer.amount).toBe('10.00');
    const perps = { transfer_id: 't', source: 'perps', destination: 'margined', amount: '1', status: 'x', created_ts: 1 };
    expect(endpoints.getIntraExchangeTransfer.response.parse({ transfer: perps }).transfer.source).toBe('perps');
    rejects(endpoints.getIntraExchangeTransfer.response, { transfer: { ...perps, amount: 1 } });
  });
});

describe('target balance allocation', () => {
  it('accepts percent 0-100 integers, at most 101 rows', () => {
    const rows = Array.from({ length: 101 }, (_, i) => ({ exchange_index: i, percent: i === 0 ? 100 : 0 }));
    expect(SetTargetBalanceAllocationRequest.parse({ allocations: rows, resting_margin_reservation: 'max' }).allocations).toHaveLength(101);
    expect(rejects(SetTargetBalanceAllocationRequest, { allocations: [...rows, { exchange_index: 101, percent: 0 }] })).toMatch(/101/);
    expect(rejects(SetTargetBalanceAllocationRequest, { allocations: [{ exchange_index: 0, percent: 101 }] })).toMatch(/0-100/);
    rejects(SetTargetBalanceAllocationRequest, { allocations: [{ exchange_index: 0, percent: 50.5 }] });
    rejects(SetTargetBalanceAllocationRequest, { allocations: [], resting_margin_reservation: 'min' });
  });
});

describe('subaccounts', () => {
  it('create takes {} (or no body) and an optional exchange_index, nothing else', () => {
    expect(CreateSubaccountRequest.parse({})).toEqual({});
    expect(CreateSubaccountRequest.parse(undefined)).toEqual({});
    expect(CreateSubaccountRequest.parse({ exchange_index: 0 })).toEqual({ exchange_index: 0 });
    rejects(CreateSubaccountRequest, { number: 4 });
  });
  it('transfer needs a UUID client_transfer_id and integer amount_cents between subaccounts 0-63', () => {
    const good = { client_transfer_id: '6f1c2a8e-0d7b-4c1e-9a55-3b2f1e0c9d11', from_subaccount: 0, to_subaccount: 1, amount_cents: 500 };
    expect(SubaccountTransferRequest.parse(good)).toEqual(good);
    expect(rejects(SubaccountTransferRequest, { ...good, client_transfer_id: 'abc' })).toMatch(/UUID/);
    expect(rejects(SubaccountTransferRequest, { ...good, amount_cents: 5.5 })).toMatch(/integer/);
    rejects(SubaccountTransferRequest, { ...good, amount_cents: '500' });
    rejects(SubaccountTransferRequest, { ...good, to_subaccount: 64 });
    expect(rejects(SubaccountTransferRequest, { ...good, to_subaccount: 0 })).toMatch(/differ/);
  });
  it('netting takes subaccount_number and enabled', () => {
    expect(SetSubaccountNettingRequest.parse({ subaccount_number: 2, enabled: false })).toEqual({ subaccount_number: 2, enabled: false });
    rejects(SetSubaccountNettingRequest, { subaccount_number: 2 });
  });
  it('reads balances with dollars text', () => {
    expect(endpoints.getSubaccountBalances.response.parse(responseSamples.getSubaccountBalances).subaccount_balances[0]?.balance).toBe('1000.00');
    rejects(endpoints.getSubaccountBalances.response, { subaccount_balances: [{ subaccount_number: 0, balance: 1000, updated_ts: 1 }] });
  });
});
