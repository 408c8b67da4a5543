import { describe, expect, it } from 'vitest';
import { normalizeFill, normalizeOrder, normalizePosition, yesLegSide } from './normalize';

describe('private record readers', () => {
  it('reads the REST order model', () => {
    const o = normalizeOrder({
      order_id: 'o1',
      ticker: 'T',
      status: 'resting',
      book_side: 'ask',
      yes_price_dollars: '0.5600',
      remaining_count_fp: '7.00',
      fill_count_fp: '3.00',
      initial_count_fp: '10.00',
      taker_fees_dollars: '0.0200',
      maker_fees_dollars: '0.0100',
    });
    expect(o).toMatchObject({ order_id: 'o1', side: 'ask', price: '0.5600', remaining: '7.00', filled: '3.00', initial: '10.00', fees: '0.0300' });
  });

  it('reads a user_order stream message with market_ticker and the cancelled spelling', () => {
    const o = normalizeOrder({ order_id: 'o2', market_ticker: 'T', status: 'cancelled', side: 'bid', yes_price_dollars: '0.4', remaining_count_fp: '0', fill_count_fp: '0' });
    expect(o).toMatchObject({ ticker: 'T', status: 'canceled', side: 'bid', initial: '0.00' });
  });

  it('derives the YES-leg side from outcome and action', () => {
    expect(yesLegSide({ side: 'yes', action: 'buy' })).toBe('bid');
    expect(yesLegSide({ side: 'yes', action: 'sell' })).toBe('ask');
    expect(yesLegSide({ side: 'no', action: 'buy' })).toBe('ask');
    expect(yesLegSide({ side: 'no', action: 'sell' })).toBe('bid');
    expect(yesLegSide({})).toBeUndefined();
  });

  it('takes the YES price from the NO price when that is all there is', () => {
    expect(normalizeOrder({ order_id: 'o', ticker: 'T', book_side: 'bid', no_price_dollars: '0.3500', remaining_count_fp: '1' })?.price).toBe('0.6500');
  });

  it('drops records it cannot place', () => {
    expect(normalizeOrder({ order_id: 'o', ticker: 'T' })).toBeNull();
    expect(normalizePosition({ ticker: 'T' })).toBeNull();
    expect(normalizeFill({ fill_id: 'f' })).toBeNull();
  });

  it('reads positions from REST and the stream', () => {
    expect(normalizePosition({ ticker: 'T', position_fp: '-5.00', market_exposure_dollars: '2.5000', realized_pnl_dollars: '1.0000' })).toMatchObject({
      ticker: 'T',
      position: '-5.00',
      exposure: '2.5000',
    });
    expect(normalizePosition({ market_ticker: 'T', position_fp: '3.00', position_cost_dollars: '1.5' })?.exposure).toBe('1.5');
  });

  it('reads fills in either spelling', () => {
    expect(normalizeFill({ trade_id: 't1', order_id: 'o', market_ticker: 'T', yes_price_dollars: '0.5', count_fp: '2.00', is_taker: true, side: 'yes', action: 'buy', ts: 1700000000 })).toMatchObject({
      fill_id: 't1',
      ticker: 'T',
      side: 'bid',
      is_taker: true,
      ts: 1700000000,
    });
  });
});
