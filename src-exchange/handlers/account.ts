// Account limits (usage tier and token buckets), endpoint costs, volume progress and the
// usage-level upgrade. API key routes live in api-keys.ts and join this family.
import { apiOrdersOf, type OrdersState } from '../core/orders-module';
import { endpointList } from '../../src-shared/endpoints';
import { centiToCount } from '../engine/units';
import { forbidden, notFound } from '../core/errors';
import { endpointCostTable, tierLimits } from '../http/ratelimit';
import { DEFAULT_COST, type UsageTier } from '../../src-shared/rate-limits';
import { apiKeyHandlers } from './api-keys';
import { engineOf } from './engine-access';
import { seconds } from './present';
import { caller, type HandlerFamily } from './support';
import { run, users } from '../core/services';

const DAY_MS = 86_400_000;
/** How many of the caller's newest orders the upgrade rule looks at. */
export const UPGRADE_WINDOW = 100;

/** Trailing 30-day volume (whole contracts) to earn and to keep each volume-based level. */
export const VOLUME_GOALS: readonly { level: UsageTier; earn: number; keep: number }[] = [
  { level: 'expert', earn: 250_000, keep: 200_000 },
  { level: 'premier', earn: 1_000_000, keep: 800_000 },
  { level: 'paragon', earn: 5_000_000, keep: 4_000_000 },
  { level: 'prime', earn: 20_000_000, keep: 16_000_000 },
  { level: 'prestige', earn: 50_000_000, keep: 40_000_000 },
];

export const accountHandlers: HandlerFamily = (svc) => ({
  ...apiKeyHandlers(svc),

  getAccountLimits: (ctx) => {
    const user = users(svc).users[caller(ctx).userId];
    if (!user) throw notFound('account');
    const limits = tierLimits(user.usage_tier);
    return { usage_tier: user.usage_tier, read: limits.read, write: limits.write, grants: user.grants.map((g) => ({ ...g })) };
  },

  getEndpointCosts: () => ({ default_cost: DEFAULT_COST, endpoint_costs: endpointCostTable(endpointList) }),

  getVolumeProgress: (ctx) => {
    const c = caller(ctx);
    const now = svc.node.now();
    let volume = 0;
    for (const f of engineOf(svc).getFills(c.userId, { minTs: now - 30 * DAY_MS, maxTs: now })) volume += f.count;
    return {
      volume_progress: [
        {
          computed_ts: seconds(now),
          exchange_instance: 'event_contract',
          trailing_30d_volume_fp: centiToCount(volume),
          trailing_30d_volume: centiToCount(volume),
          goals: VOLUME_GOALS.map((g) => {
            const earn = centiToCount(g.earn * 100);
            const keep = centiToCount(g.keep * 100);
            return { level: g.level, earn_volume_goal_fp: earn, keep_volume_goal_fp: keep, earn_volume_goal: earn, keep_volume_goal: keep };
          }),
        },
      ],
    };
  },

  upgradeApiUsageLevel: async (ctx) => {
    const c = caller(ctx);
    const user = users(svc).users[c.userId];
    if (!user) throw notFound('account');
    const viaApi = new Set(apiOrdersOf(svc.node.core.domain<OrdersState>('orders'), c.userId));
    const recent = engineOf(svc).listOrders({ userId: c.userId }).slice(0, UPGRADE_WINDOW);
    if (!recent.some((o) => viaApi.has(o.order_id))) {
      throw forbidden(`none of your last ${UPGRADE_WINDOW} orders was created through the API`);
    }
    // Already Advanced or above: nothing to grant (a grant never lowers a tier).
    if (user.usage_tier === 'basic') {
      await run(svc, { type: 'grantUsageLevel', nowMs: svc.node.now(), user_id: c.userId, level: 'advanced' });
    }
    return {};
  },
});
