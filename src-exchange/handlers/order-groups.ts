// Order groups: a contracts-limit bucket over several orders (exchange index 0 only). The list
// is a plain array (spec); the detail adds the ids of the group's resting orders.
import type { z } from 'zod';
import type { OrderGroupView } from '../engine/types';
import type { HandlerCtx } from '../http/app';
import { notFound } from '../core/errors';
import type { CreateOrderGroupRequest, UpdateOrderGroupLimitRequest } from '../../src-shared/wire/orders';
import { countCenti, engineOf, requireShard, subaccountFilter } from './engine-access';
import { presentOrderGroup } from './present';
import { caller, subaccountOf, type HandlerMap } from './support';
import { run, type Services } from '../core/services';

/** The caller's live group (within the subaccount asked for or a scoped key's), else 404. */
function ownGroup(svc: Services, ctx: HandlerCtx, subaccount: number | undefined): OrderGroupView {
  const c = caller(ctx);
  const id = ctx.params.id!;
  const sub = subaccountFilter(ctx, subaccount);
  const g = engineOf(svc).getOrderGroup(c.userId, id);
  if (!g || (sub !== undefined && g.subaccount !== sub)) throw notFound(`order group ${id}`);
  return g;
}

type GroupCommand = 'resetOrderGroup' | 'triggerOrderGroup' | 'deleteOrderGroup';

async function groupCommand(svc: Services, ctx: HandlerCtx, type: GroupCommand): Promise<Record<string, never>> {
  const q = ctx.query as { subaccount?: number; exchange_index?: number };
  requireShard(q.exchange_index);
  const g = ownGroup(svc, ctx, q.subaccount);
  await run(svc, { type, nowMs: svc.node.now(), userId: g.user_id, orderGroupId: g.order_group_id, subaccount: g.subaccount });
  return {};
}

export function orderGroupHandlers(svc: Services): HandlerMap {
  return {
    getOrderGroups: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { subaccount?: number };
      const sub = subaccountFilter(ctx, q.subaccount);
      // the spec's plain array (the SDK wraps it in { order_groups }; the client reads both)
      return engineOf(svc)
        .listOrderGroups(c.userId, sub)
        .map((g) => presentOrderGroup(g));
    },

    getOrderGroup: (ctx) => {
      const q = ctx.query as { subaccount?: number };
      return presentOrderGroup(ownGroup(svc, ctx, q.subaccount), true);
    },

    createOrderGroup: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as z.output<typeof CreateOrderGroupRequest>;
      requireShard(b.exchange_index);
      const subaccount = subaccountOf(ctx, b.subaccount, 0) ?? 0;
      const r = await run<{ group: OrderGroupView }>(svc, {
        type: 'createOrderGroup',
        nowMs: svc.node.now(),
        userId: c.userId,
        subaccount,
        contractsLimitCenti: countCenti(b.contracts_limit, 'contracts_limit'),
      });
      return { order_group_id: r.group.order_group_id, subaccount: r.group.subaccount, exchange_index: r.group.exchange_index };
    },

    deleteOrderGroup: (ctx) => groupCommand(svc, ctx, 'deleteOrderGroup'),
    resetOrderGroup: (ctx) => groupCommand(svc, ctx, 'resetOrderGroup'),
    triggerOrderGroup: (ctx) => groupCommand(svc, ctx, 'triggerOrderGroup'),

    updateOrderGroupLimit: async (ctx) => {
      const q = ctx.query as { exchange_index?: number };
      requireShard(q.exchange_index);
      const b = ctx.body as z.output<typeof UpdateOrderGroupLimitRequest>;
      const g = ownGroup(svc, ctx, undefined);
      await run(svc, {
        type: 'updateOrderGroupLimit',
        nowMs: svc.node.now(),
        userId: g.user_id,
        orderGroupId: g.order_group_id,
        subaccount: g.subaccount,
        contractsLimitCenti: countCenti(b.contracts_limit, 'contracts_limit'),
      });
      return {};
    },
  };
}
