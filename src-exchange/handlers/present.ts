// Engine views (integer ticks, centi-contracts, micro-dollars, ms) as wire objects (decimal
// strings, cents, Unix seconds). One function per resource; the portfolio, FCM and historical
// handlers all present through these so a resource looks the same on every route.
// Where the spec and the SDK name a field differently and both fit, both are sent.
import type { z } from 'zod';
import type { Engine } from '../engine/engine';
import type { BalanceView, FillView, OrderGroupView, OrderView, PositionView, SettlementView } from '../engine/types';
import { centiToCount, microToCents, microToDollars, ticksToDollars, TICKS_PER_DOLLAR } from '../engine/units';
import type { Order, OrderGroup, OrderGroupDetail } from '../../src-shared/wire/orders';
import type { Balance, EventPosition, Fill, MarketPosition, Settlement } from '../../src-shared/wire/portfolio';

export type WireOrder = z.input<typeof Order>;
export type WireFill = z.input<typeof Fill>;
export type WireMarketPosition = z.input<typeof MarketPosition>;
export type WireEventPosition = z.input<typeof EventPosition>;
export type WireSettlement = z.input<typeof Settlement>;
export type WireBalance = z.input<typeof Balance>;
export type WireOrderGroup = z.input<typeof OrderGroup>;
export type WireOrderGroupDetail = z.input<typeof OrderGroupDetail>;

/** Micro-dollars as a dollar string: exact, at least 2 decimals ("1.00", "0.123456", "-2.50"). */
export function dollarsText(micro: number): string {
  const full = microToDollars(micro);
  return full.replace(/(\.\d\d\d*?)0+$/, '$1');
}

/** Unix ms as an RFC 3339 string (the SDK's form of order and fill times). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Unix ms to whole seconds. */
export const seconds = (ms: number): number => Math.floor(ms / 1000);

/** An order as the read model of GET /portfolio/orders (and /fcm/orders, /historical/orders). */
export function presentOrder(o: OrderView): WireOrder {
  const fill = centiToCount(o.fill_count);
  const remaining = centiToCount(o.remaining_count);
  const initial = centiToCount(o.initial_count);
  return {
    order_id: o.order_id,
    client_order_id: o.client_order_id,
    user_id: o.user_id,
    ticker: o.ticker,
    event_ticker: o.event_ticker,
    status: o.status,
    book_side: o.side,
    outcome_side: o.outcome_side,
    side: o.outcome_side,
    action: o.action,
    type: o.type,
    yes_price_dollars: ticksToDollars(o.yes_price),
    no_price_dollars: ticksToDollars(o.no_price),
    fill_count_fp: fill,
    remaining_count_fp: remaining,
    initial_count_fp: initial,
    // the spec's names for the same counts
    fill_count: fill,
    remaining_count: remaining,
    initial_count: initial,
    taker_fill_cost_dollars: dollarsText(o.taker_fill_cost),
    maker_fill_cost_dollars: dollarsText(o.maker_fill_cost),
    taker_fees_dollars: dollarsText(o.taker_fees),
    maker_fees_dollars: dollarsText(o.maker_fees),
    expiration_time: o.expiration_time === null ? null : isoTime(o.expiration_time * 1000),
    created_time: isoTime(o.created_time),
    last_update_time: isoTime(o.last_update_time),
    created_ts: seconds(o.created_time),
    last_update_ts: seconds(o.last_update_time),
    time_in_force: o.time_in_force,
    self_trade_prevention_type: o.self_trade_prevention_type,
    order_group_id: o.order_group_id,
    post_only: o.post_only,
    cancel_order_on_pause: false,
    subaccount_number: o.subaccount,
    exchange_index: o.exchange_index,
  };
}

/** A fill of the caller (GET /portfolio/fills, /historical/fills). */
export function presentFill(f: FillView): WireFill {
  return {
    fill_id: f.fill_id,
    trade_id: f.trade_id,
    order_id: f.order_id,
    client_order_id: f.client_order_id,
    ticker: f.ticker,
    market_ticker: f.ticker,
    exchange_index: f.exchange_index,
    yes_price_dollars: ticksToDollars(f.yes_price),
    no_price_dollars: ticksToDollars(f.no_price),
    count_fp: centiToCount(f.count),
    is_taker: f.is_taker,
    book_side: f.book_side,
    outcome_side: f.side,
    side: f.side,
    action: f.action,
    fee_cost: dollarsText(f.fee),
    post_position_fp: centiToCount(f.post_position),
    subaccount_number: f.subaccount,
    created_time: isoTime(f.ts),
    ts: seconds(f.ts),
  };
}

/** One market position row. */
export function presentPosition(p: PositionView): WireMarketPosition {
  return {
    ticker: p.ticker,
    event_ticker: p.event_ticker,
    exchange_index: p.exchange_index,
    position_fp: centiToCount(p.position),
    realized_pnl_dollars: dollarsText(p.realized_pnl),
    total_traded_dollars: dollarsText(p.total_traded),
    market_exposure_dollars: dollarsText(p.market_exposure),
    fees_paid_dollars: dollarsText(p.fees_paid),
    resting_orders_count: p.resting_orders_count,
    last_updated_ts: seconds(p.last_updated_ms),
    subaccount_number: p.subaccount,
  };
}

/**
 * Event aggregates of the given market positions (page-local, as the spec says), in the
 * order their events first appear.
 */
export function presentEventPositions(positions: readonly PositionView[]): WireEventPosition[] {
  const byEvent = new Map<string, { exposure: number; shares: number; pnl: number; fees: number }>();
  for (const p of positions) {
    let e = byEvent.get(p.event_ticker);
    if (!e) {
      e = { exposure: 0, shares: 0, pnl: 0, fees: 0 };
      byEvent.set(p.event_ticker, e);
    }
    e.exposure += p.market_exposure;
    e.shares += Math.abs(p.position);
    e.pnl += p.realized_pnl;
    e.fees += p.fees_paid;
  }
  return [...byEvent].map(([event_ticker, e]) => ({
    event_ticker,
    event_exposure_dollars: dollarsText(e.exposure),
    total_cost_dollars: dollarsText(e.exposure),
    total_cost_shares_fp: centiToCount(e.shares),
    realized_pnl_dollars: dollarsText(e.pnl),
    fees_paid_dollars: dollarsText(e.fees),
  }));
}

/** A settlement of the caller's position. `revenue` is cents (spec); `settled_time` is the SDK's name. */
export function presentSettlement(s: SettlementView): WireSettlement {
  return {
    ticker: s.ticker,
    event_ticker: s.event_ticker,
    exchange_index: s.exchange_index,
    market_result: s.market_result,
    revenue: microToCents(s.revenue),
    settled_at: s.settled_at,
    settled_time: isoTime(s.settled_at * 1000),
    yes_count_fp: centiToCount(s.yes_count),
    no_count_fp: centiToCount(s.no_count),
    yes_total_cost_dollars: dollarsText(s.yes_total_cost),
    no_total_cost_dollars: dollarsText(s.no_total_cost),
    fee_cost: dollarsText(s.fee_cost),
    // payout of one YES contract in cents
    value: Math.floor(s.value / 100),
    subaccount_number: s.subaccount,
  };
}

/**
 * Value of open positions in micro-dollars, marked at the market's last trade price (the
 * position's cost when the market has not traded). A NO position is worth 1 - price each.
 */
export function positionsValueMicro(engine: Engine, positions: readonly PositionView[]): number {
  let total = 0;
  for (const p of positions) {
    if (p.settled || p.position === 0) continue;
    const last = engine.getMarket(p.ticker)?.last_price ?? 0;
    if (last <= 0) {
      total += p.market_exposure;
      continue;
    }
    total += p.position > 0 ? p.position * last : -p.position * (TICKS_PER_DOLLAR - last);
  }
  return total;
}

/**
 * A balance: `balance` is the cash available for trading in cents (what resting orders hold is
 * not included), `balance_dollars` the same exactly, `portfolio_value` the marked value of open
 * positions in cents, `balance_breakdown` per exchange index in dollars.
 */
export function presentBalance(b: BalanceView, positionsMicro: number): WireBalance {
  const dollars = dollarsText(b.available);
  return {
    balance: microToCents(b.available),
    balance_dollars: dollars,
    portfolio_value: microToCents(positionsMicro),
    updated_ts: seconds(b.updated_ms),
    balance_breakdown: [{ exchange_index: 0, balance: dollars }],
  };
}

/** An order group; `detail` adds the ids of its resting orders (GET /portfolio/order_groups/{id}). */
export function presentOrderGroup(g: OrderGroupView, detail = false): WireOrderGroupDetail & WireOrderGroup {
  const limit = centiToCount(g.contracts_limit);
  const used = centiToCount(g.contracts_used);
  return {
    order_group_id: g.order_group_id,
    id: g.order_group_id,
    contracts_limit: limit,
    contracts_limit_fp: limit,
    contracts_used: used,
    contracts_used_fp: used,
    is_auto_cancel_enabled: g.is_auto_cancel_enabled,
    tripped: g.tripped,
    subaccount: g.subaccount,
    exchange_index: g.exchange_index,
    ...(detail ? { orders: [...g.orders] } : {}),
  };
}
