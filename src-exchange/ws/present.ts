// Engine views and events as the stream's `msg` payloads (src-shared/wire/stream.ts). Integers
// in, decimal strings out: prices 4 decimals, counts 2, cash 6; `ts` seconds unless RFC 3339.
import { rangesOf } from '../../src-shared/price-ranges';
import { centiToCount, microToDollars, msToSeconds, ticksToDollars } from '../engine/units';
import type { BookEvent, FillView, MarketEvent, OrderGroupEvent, OrderView, PositionView, TradeView } from '../engine/types';
import type { MarketView } from '../engine/types';
import type { Top } from './book-mirror';

const rfc3339 = (ms: number) => new Date(ms).toISOString();

export function snapshotMsg(ticker: string, yes: ReadonlyArray<[number, number]>, no: ReadonlyArray<[number, number]>) {
  const rows = (levels: ReadonlyArray<[number, number]>) => levels.map(([p, c]) => [ticksToDollars(p), centiToCount(c)] as [string, string]);
  return { market_ticker: ticker, yes_dollars_fp: rows(yes), no_dollars_fp: rows(no) };
}

/** Delta msg; `withClientOrderId` only for the order owner's signed connection. */
export function deltaMsg(e: BookEvent, withClientOrderId: boolean) {
  return {
    market_ticker: e.ticker,
    price_dollars: ticksToDollars(e.price),
    delta_fp: centiToCount(e.delta),
    side: e.side,
    ts: rfc3339(e.ts),
    ...(withClientOrderId && e.client_order_id ? { client_order_id: e.client_order_id } : {}),
  };
}

export function tickerMsg(market: MarketView, top: Top, lastTradeSize: number | undefined, nowMs: number) {
  return {
    market_ticker: market.ticker,
    price_dollars: ticksToDollars(market.last_price),
    yes_bid_dollars: ticksToDollars(top.yesBid),
    // No NO bids: nothing to buy YES from; the ask shows as 1 (the engine's convention too).
    yes_ask_dollars: ticksToDollars(top.noBid > 0 ? 10_000 - top.noBid : 10_000),
    yes_bid_size_fp: centiToCount(top.yesBidSize),
    yes_ask_size_fp: centiToCount(top.noBidSize),
    volume_fp: centiToCount(market.volume),
    open_interest_fp: centiToCount(market.open_interest),
    ...(lastTradeSize !== undefined ? { last_trade_size_fp: centiToCount(lastTradeSize) } : {}),
    ts: msToSeconds(nowMs),
    ts_ms: nowMs,
  };
}

export function tradeMsg(t: TradeView) {
  return {
    trade_id: t.trade_id,
    market_ticker: t.ticker,
    yes_price_dollars: ticksToDollars(t.yes_price),
    no_price_dollars: ticksToDollars(t.no_price),
    count_fp: centiToCount(t.count),
    taker_side: t.taker_side,
    ts: msToSeconds(t.created_time),
    ts_ms: t.created_time,
  };
}

export function fillMsg(f: FillView) {
  return {
    trade_id: f.trade_id,
    order_id: f.order_id,
    market_ticker: f.ticker,
    is_taker: f.is_taker,
    side: f.side,
    purchased_side: f.side,
    action: f.action,
    yes_price_dollars: ticksToDollars(f.yes_price),
    no_price_dollars: ticksToDollars(f.no_price),
    count_fp: centiToCount(f.count),
    post_position_fp: centiToCount(f.post_position),
    fee_cost: microToDollars(f.fee),
    ts: msToSeconds(f.ts),
    ts_ms: f.ts,
    ...(f.client_order_id ? { client_order_id: f.client_order_id } : {}),
    subaccount: f.subaccount,
    exchange_index: f.exchange_index,
  };
}

export function userOrderMsg(o: OrderView) {
  return {
    order_id: o.order_id,
    ...(o.client_order_id ? { client_order_id: o.client_order_id } : {}),
    user_id: o.user_id,
    ticker: o.ticker,
    market_ticker: o.ticker,
    status: o.status,
    side: o.side,
    is_yes: o.outcome_side === 'yes',
    yes_price_dollars: ticksToDollars(o.yes_price),
    initial_count_fp: centiToCount(o.initial_count),
    fill_count_fp: centiToCount(o.fill_count),
    remaining_count_fp: centiToCount(o.remaining_count),
    taker_fill_cost_dollars: microToDollars(o.taker_fill_cost),
    maker_fill_cost_dollars: microToDollars(o.maker_fill_cost),
    taker_fees_dollars: microToDollars(o.taker_fees),
    maker_fees_dollars: microToDollars(o.maker_fees),
    time_in_force: o.time_in_force,
    self_trade_prevention_type: o.self_trade_prevention_type,
    order_group_id: o.order_group_id,
    created_time: rfc3339(o.created_time),
    created_ts_ms: o.created_time,
    last_update_time: rfc3339(o.last_update_time),
    expiration_time: o.expiration_time === null ? null : rfc3339(o.expiration_time * 1000),
    subaccount: o.subaccount,
    subaccount_number: o.subaccount,
    exchange_index: o.exchange_index,
  };
}

/** `volumeCenti`: contracts the position has traded (the view carries its cost, not its count). */
export function positionMsg(p: PositionView, volumeCenti: number) {
  return {
    market_ticker: p.ticker,
    user_id: p.user_id,
    position_fp: centiToCount(p.position),
    position_cost_dollars: microToDollars(p.market_exposure),
    market_exposure_dollars: microToDollars(p.market_exposure),
    realized_pnl_dollars: microToDollars(p.realized_pnl),
    fees_paid_dollars: microToDollars(p.fees_paid),
    volume_fp: centiToCount(volumeCenti),
    subaccount: p.subaccount,
    exchange_index: p.exchange_index,
  };
}

export function orderGroupMsg(e: OrderGroupEvent) {
  const g = e.group;
  return {
    order_group_id: g.order_group_id,
    event_type: e.event,
    contracts_limit: centiToCount(g.contracts_limit),
    contracts_limit_fp: centiToCount(g.contracts_limit),
    contracts_used: centiToCount(g.contracts_used),
    is_auto_cancel_enabled: g.is_auto_cancel_enabled,
  };
}

/**
 * A market event as `market_lifecycle_v2`, or null when the spec has no such message
 * (engine fee changes are per market; the event-level `event_fee_update` is a domain event).
 * `wasPaused`: the market was paused before this event (re-activation reads as un-deactivation);
 * `subtitle`: the catalog's, when it has the market.
 */
export function lifecycleMsg(e: MarketEvent, wasPaused: boolean, subtitle?: string) {
  const m = e.market;
  const base = { market_ticker: m.ticker, exchange_index: 0 };
  const open = {
    ...base,
    open_ts: m.open_time,
    close_ts: m.close_time,
    title: m.title,
    ...(subtitle ? { subtitle } : {}),
    series_ticker: m.series_ticker,
    event_ticker: m.event_ticker,
    price_level_structure: m.price_level_structure,
    price_ranges: rangesOf(m.price_level_structure),
  };
  switch (e.event) {
    case 'created':
      return { event_type: 'created' as const, ...open };
    case 'activated':
      return wasPaused ? { event_type: 'deactivated' as const, ...base, is_deactivated: false } : { event_type: 'activated' as const, ...open };
    case 'paused':
      return { event_type: 'deactivated' as const, ...base, is_deactivated: true };
    case 'closed':
      return { event_type: 'close_date_updated' as const, ...base, close_ts: msToSeconds(e.ts) };
    case 'determined':
      return { event_type: 'determined' as const, ...base, result: m.result, determination_ts: msToSeconds(m.determined_ms || e.ts) };
    case 'settled':
      return {
        event_type: 'settled' as const,
        ...base,
        settlement_value: m.result === 'yes' ? '1.0000' : '0.0000',
        settled_ts: msToSeconds(m.settled_ms || e.ts),
      };
    case 'fees_updated':
      return null;
  }
}
