import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import { BlockedCategories, CreateSubtraderRequest, DailyCap, FcmFill, SetBlockedCategoryRequest, SetDailyCapRequest, SubtradersResponse } from './fcm';
import { responseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('FCM', () => {
  it('subtrader suffix is 1-16 ASCII letters or digits', () => {
    expect(CreateSubtraderRequest.parse({ subtrader_suffix: 'desk01' })).toEqual({ subtrader_suffix: 'desk01' });
    expect(CreateSubtraderRequest.parse({ subtrader_suffix: 'A'.repeat(16) }).subtrader_suffix).toHaveLength(16);
    expect(rejects(CreateSubtraderRequest, { subtrader_suffix: 'A'.repeat(17) })).toMatch(/1-16/);
    rejects(CreateSubtraderRequest, { subtrader_suffix: '' });
    rejects(CreateSubtraderRequest, { subtrader_suffix: 'desk_01' });
    rejects(CreateSubtraderRequest, { subtrader_suffix: 'déska' });
  });

  it('orders need subtrader_id unless client_order_ids is given', () => {
    const q = endpoints.getFcmOrders.query;
    expect(rejects(q, { ticker: 'KXT' })).toMatch(/subtrader_id is required/);
    expect(q.parse({ client_order_ids: 'a,b' })).toEqual({ client_order_ids: ['a', 'b'] });
    expect(q.parse({ subtrader_id: 'fcm_a1', status: 'resting' })).toEqual({ subtrader_id: 'fcm_a1', status: 'resting' });
  });

  it('fills take min_ts, max_ts, cursor only (no limit)', () => {
    expect(endpoints.getFcmFills.query.parse({ min_ts: '1', cursor: 'c' })).toEqual({ min_ts: 1, cursor: 'c' });
    expect(rejects(endpoints.getFcmFills.query, { limit: 10 })).toMatch(/limit/);
    rejects(endpoints.getFcmFills.query, { subtrader_id: 'x' });
  });

  it('reads an FCM fill and rejects numeric money', () => {
    const page = endpoints.getFcmFills.response.parse(responseSamples.getFcmFills);
    expect(page.fills[0]).toMatchObject({ fill_id: 'fill-9', taker_outcome_side: 'yes', count_fp: '1.00', maker_fee_cost: '0.000000' });
    const fill = (responseSamples.getFcmFills as { fills: object[] }).fills[0]!;
    rejects(FcmFill, { ...fill, maker_fee_cost: 0 });
    expect(FcmFill.parse({ ...fill, taker_outcome_side: 'bid' }).taker_outcome_side).toBe('bid');
    rejects(FcmFill, { ...fill, taker_outcome_side: null });
  });

  it('positions need subtrader_id', () => {
    expect(rejects(endpoints.getFcmPositions.query, {})).toMatch(/subtrader_id/);
    expect(endpoints.getFcmPositions.query.parse({ subtrader_id: 'fcm_a1', settlement_status: 'settled' })).toEqual({ subtrader_id: 'fcm_a1', settlement_status: 'settled' });
  });

  it('subtraders: envelope or bare list read to { subtraders }', () => {
    expect(SubtradersResponse.parse([{ subtrader_id: 'fcm_a1' }]).subtraders).toHaveLength(1);
    expect(SubtradersResponse.parse(responseSamples.getSubtraders).subtraders[0]?.subtrader_id).toBe('fcm_a1');
    rejects(SubtradersResponse, { subtraders: [{}] });
  });

  it('blocked categories: one switch in, the full set out (null = none)', () => {
    expect(SetBlockedCategoryRequest.parse({ subtrader_id: 'fcm_a1', category: 'Sports', blocked: true })).toMatchObject({ blocked: true });
    rejects(SetBlockedCategoryRequest, { subtrader_id: 'fcm_a1', category: 'Sports' });
    expect(BlockedCategories.parse({ subtrader_id: 'fcm_a1', blocked_categories: null }).categories).toEqual([]);
    rejects(endpoints.getSubtraderBlockedCategories.query, {});
  });

  it('blocked categories read in the real service form and every older one, out in one shape', () => {
    expect(BlockedCategories.parse({ categories: ['Sports', 'Weather'] })).toEqual({ categories: ['Sports', 'Weather'] });
    expect(BlockedCategories.parse({ subtrader_id: 's', blocked_categories: ['A'] })).toEqual({ subtrader_id: 's', categories: ['A'] });
    expect(BlockedCategories.parse({ categories: null })).toEqual({ categories: [] });
    expect(BlockedCategories.parse([{ category: 'A', blocked: true }, { category: 'B', blocked: false }, 'C', 'A'])).toEqual({ categories: ['A', 'C'] });
    expect(BlockedCategories.parse({ categories: ['X'], blocked_categories: ['Y'] })).toEqual({ categories: ['X'] });
    rejects(BlockedCategories, { categories: 'Sports' });
    rejects(BlockedCategories, { categories: [1] });
  });

  it('daily cap: limit in dollars text', () => {
    expect(SetDailyCapRequest.parse({ subtrader_id: 'fcm_a1', limit: '5000.00' })).toEqual({ subtrader_id: 'fcm_a1', limit: '5000.00' });
    expect(rejects(SetDailyCapRequest, { subtrader_id: 'fcm_a1', limit: 5000 })).toBeTruthy();
    rejects(SetDailyCapRequest, { subtrader_id: 'fcm_a1', limit: '-1' });
    expect(DailyCap.parse(responseSamples.getSubtraderDailyCap).limit).toBe('5000.00');
    rejects(endpoints.clearSubtraderDailyCap.query, {});
  });
});
