// Answers are read liberally: a field the terminal does not act on never makes an answer
// unreadable. `exchange_index` (the shard) is required by the spec on market positions, fills,
// settlements and indexed balances; a production GET /portfolio/positions answer captured on
// 2026-05-24 had none on its market positions. The terminal reads it as 0 (every production
// shard is 0 today) and acts on it nowhere.
import { describe, expect, it } from 'vitest';
import { endpointRow } from '../endpoints';

// The shape of the captured answer (values changed): market positions without exchange_index.
const positions = {
  market_positions: [
    {
      ticker: 'KXHIGHNY-26MAY24-B75.5',
      position_fp: '12.00',
      realized_pnl_dollars: '0.000000',
      total_traded_dollars: '5.040000',
      market_exposure_dollars: '5.040000',
      fees_paid_dollars: '0.090000',
      resting_orders_count: 0,
      last_updated_ts: '2026-05-24T14:02:11.482Z',
    },
  ],
  event_positions: [{ event_ticker: 'KXHIGHNY-26MAY24', event_exposure_dollars: '5.040000', total_cost_dollars: '5.040000', realized_pnl_dollars: '0.000000', fees_paid_dollars: '0.090000' }],
  cursor: '',
};

describe('answers without exchange_index', () => {
  it('GET /portfolio/positions (and the FCM and historical positions) read, the shard as 0', () => {
    for (const id of ['getPositions', 'getFcmPositions', 'getHistoricalPositions'] as const) {
      const r = endpointRow(id).response.safeParse(positions);
      expect(r.success, id).toBe(true);
      if (r.success) expect((r.data as { market_positions: { exchange_index: number; ticker: string }[] }).market_positions[0]).toMatchObject({ ticker: 'KXHIGHNY-26MAY24-B75.5', exchange_index: 0 });
    }
  });

  it('fills, settlements and the balance breakdown read the same way; a shard that is sent is kept', () => {
    const fill = { fill_id: 'f1', trade_id: 'f1', order_id: 'o1', ticker: 'T', yes_price_dollars: '0.5300', count_fp: '1.00', is_taker: true, side: 'yes', action: 'buy', ts: 1_779_000_000 };
    const fills = endpointRow('getFills').response.safeParse({ fills: [fill, { ...fill, fill_id: 'f2', exchange_index: 3 }], cursor: '' });
    expect(fills.success).toBe(true);
    if (fills.success) expect((fills.data as { fills: { exchange_index: number }[] }).fills.map((f) => f.exchange_index)).toEqual([0, 3]);
    const settlement = { ticker: 'T', market_result: 'yes', revenue: 100, settled_time: '2026-05-24T00:00:00Z', yes_count_fp: '1.00', no_count_fp: '0.00' };
    expect(endpointRow('getSettlements').response.safeParse({ settlements: [settlement], cursor: '' }).success).toBe(true);
    const balance = { balance: 100, balance_dollars: '1.00', portfolio_value: 100, updated_ts: 1_779_000_000, balance_breakdown: [{ balance: '1.00' }] };
    expect(endpointRow('getBalance').response.safeParse(balance).success).toBe(true);
  });

  it('a shard of the wrong type is still refused (liberal about absence, not about garbage)', () => {
    const bad = { ...positions, market_positions: [{ ...positions.market_positions[0], exchange_index: 'zero' }] };
    expect(endpointRow('getPositions').response.safeParse(bad).success).toBe(false);
  });
});
