// Portfolio reads (balance, positions, settlements, fills, resting order value) and money
// records (deposits, withdrawals, instance transfers, target allocation). Subaccount routes
// live in subaccounts.ts and join this family.
// Fills and positions leave out what /historical/* serves (engine-access.ts isLive*);
// settlements have no cutoff in the spec and stay here.
import type { z } from 'zod';
import { microToCents } from '../engine/units';
import { invalidParameters, notFound } from '../core/errors';
import type { GetFillsQuery, GetPositionsQuery } from '../../src-shared/endpoints/portfolio';
import type { SetTargetBalanceAllocationRequest } from '../../src-shared/wire/portfolio';
import { fcmStateOf, subtradersOf } from '../state/fcm';
import { checkAllocation, DEFAULT_ALLOCATION, walletOf, type InstanceTransfer } from '../state/wallet';
import { engineOf, inSecondsWindow, isLiveFill, liveCutoffs, requireShard, shardMatches, walletState, subaccountFilter } from './engine-access';
import {
  dollarsText,
  positionsValueMicro,
  presentBalance,
  presentFill,
  presentSettlement,
} from './present';
import { positionsPage } from './positions-page';
import { subaccountHandlers } from './subaccounts';
import { caller, pageOf, subaccountOf, type HandlerFamily, type HandlerMap } from './support';
import { run, type Services } from '../core/services';

function presentInstanceTransfer(t: InstanceTransfer) {
  return {
    transfer_id: t.transfer_id,
    source: t.source,
    destination: t.destination,
    source_exchange_shard: t.source_exchange_shard,
    destination_exchange_shard: t.destination_exchange_shard,
    amount: dollarsText(t.amount_micro),
    status: t.status,
    created_ts: t.created_ts,
  };
}

/** The portfolio routes: subaccounts, balance and positions, money movements and allocation. */
export const portfolioHandlers: HandlerFamily = (svc) => ({
  ...subaccountHandlers(svc),

  ...holdingsHandlers(svc),
  ...moneyHandlers(svc),
});

function holdingsHandlers(svc: Services): HandlerMap {
  return {
    getBalance: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { subaccount?: number; exchange_index?: number };
      requireShard(q.exchange_index);
      const sub = subaccountOf(ctx, q.subaccount, 0) ?? 0;
      const engine = engineOf(svc);
      const b = engine.getBalance(c.userId, sub);
      if (!b) throw notFound(`subaccount ${sub}`);
      const open = engine.getPositions(c.userId, { subaccount: sub, settled: false });
      return presentBalance(b, positionsValueMicro(engine, open));
    },

    getPositions: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetPositionsQuery>;
      const subaccount = subaccountFilter(ctx, q.subaccount);
      return positionsPage(engineOf(svc), c.userId, { ...q, subaccount }, liveCutoffs(ctx), !shardMatches(q.exchange_index));
    },

    getSettlements: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { ticker?: string; event_ticker?: string; min_ts?: number; max_ts?: number; limit?: number; cursor?: string; subaccount?: number };
      const subaccount = subaccountFilter(ctx, q.subaccount);
      const rows = engineOf(svc)
        .getSettlements(c.userId, { subaccount, ticker: q.ticker })
        .filter((s) => (q.event_ticker === undefined || s.event_ticker === q.event_ticker) && inSecondsWindow(s.settled_at * 1000, q.min_ts, q.max_ts));
      const page = pageOf(rows, q.cursor, q.limit);
      return { settlements: page.items.map(presentSettlement), cursor: page.cursor, has_next: page.has_next };
    },

    getFills: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetFillsQuery>;
      const subaccount = subaccountFilter(ctx, q.subaccount);
      const tickers = q.ticker && q.ticker.length ? new Set(q.ticker) : null;
      const cut = liveCutoffs(ctx);
      const rows = shardMatches(q.exchange_index)
        ? engineOf(svc)
            .getFills(c.userId, { subaccount, orderId: q.order_id, ticker: tickers?.size === 1 ? [...tickers][0] : undefined })
            .filter((f) => isLiveFill(f, cut) && (!tickers || tickers.has(f.ticker)) && inSecondsWindow(f.ts, q.min_ts, q.max_ts))
        : [];
      const page = pageOf(rows, q.cursor, q.limit);
      return { fills: page.items.map(presentFill), cursor: page.cursor, has_next: page.has_next };
    },

    getTotalRestingOrderValue: (ctx) => {
      // The route is fcmOnly: non-FCM callers got 403 before this runs. The member's own resting
      // orders and its subtraders' count: what each would pay at its own price.
      const c = caller(ctx);
      const owners = [c.userId, ...subtradersOf(fcmStateOf(svc.node.core.domains), c.userId).map((s) => s.subtrader_id)];
      let micro = 0;
      for (const userId of owners) {
        for (const o of engineOf(svc).listOrders({ userId, status: 'resting' })) {
          micro += (o.side === 'bid' ? o.yes_price : o.no_price) * o.remaining_count;
        }
      }
      return {
        total_resting_order_value: microToCents(micro),
        resting_order_value_breakdown: [{ exchange_index: 0, balance: dollarsText(micro) }],
      };
    },
  };
}

function moneyHandlers(svc: Services): HandlerMap {
  return {
    getDeposits: (ctx) => {
      const q = ctx.query as { limit?: number; cursor?: string };
      const page = pageOf([...walletOf(walletState(svc), caller(ctx).userId).deposits].reverse(), q.cursor, q.limit);
      return { deposits: page.items, cursor: page.cursor, has_next: page.has_next };
    },

    getWithdrawals: (ctx) => {
      const q = ctx.query as { limit?: number; cursor?: string };
      const page = pageOf([...walletOf(walletState(svc), caller(ctx).userId).withdrawals].reverse(), q.cursor, q.limit);
      return { withdrawals: page.items, cursor: page.cursor, has_next: page.has_next };
    },

    getIntraExchangeTransfers: (ctx) => {
      const q = ctx.query as { limit?: number; cursor?: string };
      const all = [...walletOf(walletState(svc), caller(ctx).userId).instance_transfers].reverse();
      const page = pageOf(all, q.cursor, q.limit);
      return { transfers: page.items.map(presentInstanceTransfer), cursor: page.cursor, has_next: page.has_next };
    },

    getIntraExchangeTransfer: (ctx) => {
      const id = ctx.params.transfer_id!;
      const t = walletOf(walletState(svc), caller(ctx).userId).instance_transfers.find((x) => x.transfer_id === id);
      if (!t) throw notFound(`intra-exchange instance transfer ${id}`);
      return { transfer: presentInstanceTransfer(t) };
    },

    getTargetBalanceAllocation: (ctx) => {
      const a = walletOf(walletState(svc), caller(ctx).userId).allocation ?? DEFAULT_ALLOCATION;
      return { allocations: a.allocations.map((r) => ({ ...r })), resting_margin_reservation: a.resting_margin_reservation };
    },

    setTargetBalanceAllocation: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as z.output<typeof SetTargetBalanceAllocationRequest>;
      const allocation = { allocations: b.allocations, resting_margin_reservation: b.resting_margin_reservation ?? 'sum' } as const;
      const bad = checkAllocation(allocation);
      if (bad) throw invalidParameters(bad);
      await run(svc, { type: 'setTargetBalanceAllocation', nowMs: svc.node.now(), userId: c.userId, allocation });
      return {};
    },
  };
}
