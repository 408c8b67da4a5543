import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AccountLimits, EndpointCosts, VolumeProgress } from './account';
import { responseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('account', () => {
  it('reads limits with nested read/write buckets', () => {
    const l = AccountLimits.parse(responseSamples.getAccountLimits);
    expect(l.read).toEqual({ bucket_capacity: 200, refill_rate: 200 });
    expect(l.grants[0]).toMatchObject({ exchange_instance: 'event_contract', expires_ts: null });
  });
  it('reads the published read_limit / write_limit integers as buckets', () => {
    const l = AccountLimits.parse({ usage_tier: 'basic', read_limit: 200, write_limit: 100, grants: null });
    expect(l.write).toEqual({ bucket_capacity: 100, refill_rate: 100 });
    expect(l.grants).toEqual([]);
    expect(rejects(AccountLimits, { usage_tier: 'basic', grants: [] })).toMatch(/read/);
    const perps = AccountLimits.parse({ ...(responseSamples.getAccountLimits as object), grants: [{ exchange_instance: 'perps', level: 'x', source: 'manual' }] });
    expect(perps.grants[0]?.exchange_instance).toBe('perps');
  });
  it('reads endpoint costs', () => {
    expect(EndpointCosts.parse(responseSamples.getEndpointCosts).default_cost).toBe(10);
    rejects(EndpointCosts, { default_cost: '10', endpoint_costs: [] });
  });
  it('reads volume progress as counts, also from unsuffixed names', () => {
    const v = VolumeProgress.parse(responseSamples.getVolumeProgress);
    expect(v.volume_progress[0]?.goals[0]).toMatchObject({ earn_volume_goal_fp: '5000.00', keep_volume_goal_fp: '2500.00' });
    const u = VolumeProgress.parse({ volume_progress: [{ computed_ts: 1, trailing_30d_volume: '5.00', goals: [{ level: 'x', earn_volume_goal: '1', keep_volume_goal: '2' }] }] });
    expect(u.volume_progress[0]?.trailing_30d_volume_fp).toBe('5.00');
    rejects(VolumeProgress, { volume_progress: [{ computed_ts: 1, trailing_30d_volume_fp: 5, goals: [] }] });
  });
});
