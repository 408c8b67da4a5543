// Clearing-member (FCM) routes: subtraders, their blocked categories and daily caps, and
// reads of their orders, fills and positions. app.ts answers 403 to non-FCM callers before
// these run (rows are fcmOnly). Also `placeSubtraderOrder`: the exchange-internal entry point
// for a subtrader's order (the simulation, the FIX-equivalent path), which passes the same
// pre-trade check as every subtrader trade (state/fcm.ts checkSubtraderTrade).
import type { z } from 'zod';
import type { Engine } from '../engine/engine';
import type { FillView, OrderView } from '../engine/types';
import { centiToCount, dollarsToMicro, ticksToDollars } from '../engine/units';
import { invalidParameters, notFound } from '../core/errors';
import { cutoffsAt, isLiveOrder } from '../state/catalog';
import type { GetFcmOrdersQuery } from '../../src-shared/endpoints/fcm';
import type { FcmFill, SetBlockedCategoryRequest, SetDailyCapRequest } from '../../src-shared/wire/fcm';
import {
  dailyNotionalMicro,
  dailyRestingNotionalMicro,
  FCM_DOMAIN,
  ownedSubtrader,
  subtradersOf,
  utcDayStartMs,
  type FcmState,
  type SubtraderOrder,
  type SubtraderRecord,
} from '../state/fcm';
import { dollarsText, isoTime, presentOrder, seconds } from './present';
import { positionsPage, type PositionsQuery } from './positions-page';
import { caller, pageOf, type HandlerFamily, type HandlerMap } from './support';
import { run, type Services } from '../core/services';

const fcmState = (svc: Services): FcmState => svc.node.core.domain<FcmState>(FCM_DOMAIN);
const engineOf = (svc: Services): Engine => svc.node.core.engine;

function owned(svc: Services, fcmUserId: string, subtraderId: string): SubtraderRecord {
  const s = ownedSubtrader(fcmState(svc), fcmUserId, subtraderId);
  if (!s) throw notFound(`subtrader ${subtraderId}`);
  return s;
}

/**
 * Place an order for a subtrader of `fcmUserId`: checked against the subtrader's blocked
 * categories and daily cap, then entered from the subtrader's account. Resolves with the
 * order once durable; throws the protocol's error (ExchangeError) on rejection.
 */
export async function placeSubtraderOrder(
  svc: Services,
  req: { fcmUserId: string; subtraderId: string; order: SubtraderOrder; nowMs?: number },
): Promise<{ order: OrderView; duplicate: boolean }> {
  return run<{ order: OrderView; duplicate: boolean }>(svc, {
    type: 'placeSubtraderOrder',
    nowMs: req.nowMs ?? svc.node.now(),
    fcmUserId: req.fcmUserId,
    subtraderId: req.subtraderId,
    order: req.order,
  });
}

const inWindow = (ms: number, minTs: number | undefined, maxTs: number | undefined) =>
  (minTs === undefined || seconds(ms) >= minTs) && (maxTs === undefined || seconds(ms) <= maxTs);

/**
 * One row per trade a subtrader of the FCM took part in; when both sides are its
 * subtraders the row names both.
 */
function fcmFills(engine: Engine, subtraders: readonly SubtraderRecord[]): z.input<typeof FcmFill>[] {
  const byTrade = new Map<string, { maker?: FillView; taker?: FillView }>();
  for (const s of subtraders) {
    for (const f of engine.getFills(s.subtrader_id)) {
      const row = byTrade.get(f.trade_id) ?? {};
      if (f.is_taker) row.taker = f;
      else row.maker = f;
      byTrade.set(f.trade_id, row);
    }
  }
  const rows = [...byTrade.values()].map(({ maker, taker }) => {
    const f = (taker ?? maker)!;
    const takerSide = f.is_taker ? f.side : f.side === 'yes' ? 'no' : 'yes';
    return {
      fill_id: f.fill_id,
      trade_id: f.trade_id,
      ticker: f.ticker,
      taker_outcome_side: takerSide,
      yes_price_dollars: ticksToDollars(f.yes_price),
      count_fp: centiToCount(f.count),
      maker_subtrader_id: maker ? maker.user_id : null,
      taker_subtrader_id: taker ? taker.user_id : null,
      maker_fee_cost: maker ? dollarsText(maker.fee) : null,
      taker_fee_cost: taker ? dollarsText(taker.fee) : null,
      ts: seconds(f.ts),
      created_time: isoTime(f.ts),
      ms: f.ts,
    };
  });
  rows.sort((a, b) => b.ms - a.ms || (a.fill_id < b.fill_id ? 1 : -1));
  return rows.map(({ ms: _ms, ...r }) => r);
}

/** The FCM routes: subtraders and their limits, and the FCM's reads of its subtraders' trading. */
export const fcmHandlers: HandlerFamily = (svc) => ({
  ...subtraderHandlers(svc),
  ...fcmReadHandlers(svc),
});

function subtraderHandlers(svc: Services): HandlerMap {
  return {
    getSubtraders: (ctx) => {
      const c = caller(ctx);
      return {
        subtraders: subtradersOf(fcmState(svc), c.userId).map((s) => ({
          subtrader_id: s.subtrader_id,
          exchange_indices: [0],
          trading_blocked: false,
          fcm_trading_blocked: false,
          propagation_pending: false,
        })),
      };
    },

    createSubtrader: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as { subtrader_suffix: string };
      const r = await run<{ subtrader_id: string }>(svc, { type: 'createSubtrader', nowMs: ctx.nowMs, fcmUserId: c.userId, suffix: b.subtrader_suffix });
      return { subtrader_id: r.subtrader_id };
    },

    getSubtraderBlockedCategories: (ctx) => {
      const c = caller(ctx);
      const s = owned(svc, c.userId, (ctx.query as { subtrader_id: string }).subtrader_id);
      return { subtrader_id: s.subtrader_id, categories: [...s.blocked_categories], blocked_categories: [...s.blocked_categories] };
    },

    setSubtraderBlockedCategory: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as SetBlockedCategoryRequest;
      const r = await run<{ blocked_categories: string[] }>(svc, {
        type: 'setSubtraderBlockedCategory',
        nowMs: ctx.nowMs,
        fcmUserId: c.userId,
        subtraderId: b.subtrader_id,
        category: b.category,
        blocked: b.blocked,
      });
      return { subtrader_id: b.subtrader_id, categories: r.blocked_categories, blocked_categories: r.blocked_categories };
    },

    getSubtraderDailyCap: (ctx) => {
      const c = caller(ctx);
      const s = owned(svc, c.userId, (ctx.query as { subtrader_id: string }).subtrader_id);
      const used = dailyNotionalMicro(engineOf(svc), s.subtrader_id, ctx.nowMs);
      return {
        subtrader_id: s.subtrader_id,
        limit: s.daily_cap_micro === null ? null : dollarsText(s.daily_cap_micro),
        executed_utilization: dollarsText(used),
        // required by the SDK's model: the part of the day's notional still resting, and what is
        // in flight (nothing here: every order is accepted or refused before the answer)
        resting_order_utilization: dollarsText(dailyRestingNotionalMicro(engineOf(svc), s.subtrader_id, ctx.nowMs)),
        pending_order_utilization: dollarsText(0),
        cap_date: new Date(utcDayStartMs(ctx.nowMs)).toISOString().slice(0, 10),
      };
    },

    setSubtraderDailyCap: async (ctx) => {
      const c = caller(ctx);
      const b = ctx.body as SetDailyCapRequest;
      const limitMicro = dollarsToMicro(b.limit);
      if (limitMicro === undefined || limitMicro < 0) throw invalidParameters('limit must be a non-negative dollar amount');
      await run(svc, { type: 'setSubtraderDailyCap', nowMs: ctx.nowMs, fcmUserId: c.userId, subtraderId: b.subtrader_id, limitMicro });
      return {};
    },

    clearSubtraderDailyCap: async (ctx) => {
      const c = caller(ctx);
      const subtraderId = (ctx.query as { subtrader_id: string }).subtrader_id;
      await run(svc, { type: 'clearSubtraderDailyCap', nowMs: ctx.nowMs, fcmUserId: c.userId, subtraderId });
      return {};
    },
  };
}

function fcmReadHandlers(svc: Services): HandlerMap {
  return {
    getFcmOrders: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as z.output<typeof GetFcmOrdersQuery>;
      const engine = engineOf(svc);
      const subs = q.subtrader_id !== undefined ? [owned(svc, c.userId, q.subtrader_id)] : subtradersOf(fcmState(svc), c.userId);
      const filter = {
        ticker: q.ticker,
        eventTicker: q.event_ticker,
        status: q.status,
        minCreatedMs: q.min_ts === undefined ? undefined : q.min_ts * 1000,
        maxCreatedMs: q.max_ts === undefined ? undefined : q.max_ts * 1000 + 999,
      };
      let rows: OrderView[];
      if (q.client_order_ids && q.client_order_ids.length > 0) {
        const wanted = new Set(q.client_order_ids);
        rows = subs
          .flatMap((s) => engine.listOrders({ userId: s.subtrader_id, ...filter }))
          .filter((o) => wanted.has(o.client_order_id))
          .sort((a, b) => b.created_time - a.created_time);
      } else {
        rows = subs.flatMap((s) => engine.listOrders({ userId: s.subtrader_id, ...filter }));
      }
      // live route: orders past the historical cutoff have left it, as on /portfolio/orders
      const cut = cutoffsAt(ctx.nowMs);
      const page = pageOf(
        rows.filter((o) => isLiveOrder(o, cut)),
        q.cursor,
        q.limit,
      );
      return { orders: page.items.map(presentOrder), cursor: page.cursor, has_next: page.has_next };
    },

    getFcmFills: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { min_ts?: number; max_ts?: number; cursor?: string };
      const rows = fcmFills(engineOf(svc), subtradersOf(fcmState(svc), c.userId)).filter((r) => inWindow((r.ts as number) * 1000, q.min_ts, q.max_ts));
      const page = pageOf(rows, q.cursor, undefined);
      return { fills: page.items, cursor: page.cursor, has_next: page.has_next };
    },

    getFcmPositions: (ctx) => {
      const c = caller(ctx);
      // the positions query, for one subtrader instead of one subaccount
      const q = ctx.query as Omit<PositionsQuery, 'subaccount'> & { subtrader_id: string };
      const s = owned(svc, c.userId, q.subtrader_id);
      // an FCM reads its subtrader's positions across all of the subtrader's subaccounts
      return positionsPage(engineOf(svc), s.subtrader_id, { ...q, subaccount: undefined }, cutoffsAt(ctx.nowMs));
    },
  };
}
