// What the session maps for the views and its own figures: a stream message as the page's
// ticker, trade, lifecycle or Pyth view, a fill as the trader's notice, an order answer as its
// ack and row, an order in flight as the pending view, and the small statistics of ack times.
// Pure functions, out of the session's I/O.
import type { InFlightOrder, PlacedOrder } from '../api/orders';
import type { MarketUpdate, OrderAck, PendingOrderView, PythValueView, TickerView, TradeView } from '../../src-shared/ipc/contract';
import type { StreamMessageOf } from '../../src-shared/wire/stream-messages';
import { Decimal, priceText } from '../../src-shared/money';

type Row = Record<string, unknown>;

export function tickerView(t: StreamMessageOf<'ticker'>['msg']): TickerView {
  return {
    ticker: t.market_ticker,
    yes_bid_dollars: t.yes_bid_dollars,
    yes_ask_dollars: t.yes_ask_dollars,
    price_dollars: t.price_dollars,
    volume_fp: t.volume_fp,
    open_interest_fp: t.open_interest_fp,
    ts: t.ts,
  };
}

export function tradeView(t: StreamMessageOf<'trade'>['msg']): TradeView {
  return {
    trade_id: t.trade_id,
    ticker: t.market_ticker,
    yes_price_dollars: t.yes_price_dollars,
    no_price_dollars: t.no_price_dollars,
    count_fp: t.count_fp,
    taker_side: t.taker_side,
    ts: t.ts,
    // the exchange's millisecond: trades in one second told apart on the tape
    ...(t.ts_ms !== undefined ? { ts_ms: t.ts_ms } : {}),
    ...(t.is_block_trade ? { is_block_trade: true } : {}),
  };
}

/** A lifecycle event as the page lists it, stamped with the time main read it. */
export function lifecycleView(msg: Row, now: number): MarketUpdate['lifecycle'][number] {
  return { ticker: String(msg.market_ticker ?? ''), event_type: String(msg.event_type ?? ''), ts: now };
}

export function pythView(v: StreamMessageOf<'pyth_value'>['msg']): PythValueView {
  return { underlying_ticker: v.underlying_ticker, value_usd: v.value_usd, source_ts_ms: v.source_ts_ms, received_at: v.received_at };
}

/**
 * "Bought 5 YES KX-1 at 0.52 · fee $0.09" (or "Filled 5 YES ..." for an order main does not know):
 * counts without trailing zeros, money as money. A fill
 * without `fee_cost` (the real service leaves it out) names no fee rather than a false $0.00.
 */
export function fillNotice(f: Record<string, unknown>, orderSide?: unknown): { level: 'success'; title: string; body: string; ts: number; source: 'fill' } {
  const count = new Decimal(String(f.count_fp ?? '0')).toString();
  const price = new Decimal(String(f.yes_price_dollars ?? '0'));
  const side = String(f.side ?? '').toUpperCase();
  const fee = f.fee_cost === undefined || f.fee_cost === null ? '' : ` · fee $${new Decimal(String(f.fee_cost)).toFixed(2)}`;
  const how = f.is_taker === true ? ' · taker' : f.is_taker === false ? ' · maker' : '';
  const ticker = String(f.market_ticker ?? '');
  // The trader's own terms where main knows the order: a bid bought YES, an ask sold YES (the
  // exchange reports an ask's fill as NO bought at 1 - price, which is not what the ticket said).
  if (orderSide === 'bid' || orderSide === 'ask') {
    return { level: 'success', title: `${orderSide === 'bid' ? 'Bought' : 'Sold'} ${count} YES ${ticker}`, body: `at ${priceText(price)}${fee}${how}`, ts: Date.now(), source: 'fill' };
  }
  const paid = side === 'NO' ? new Decimal(1).minus(price) : price;
  return { level: 'success', title: `Filled ${count} ${side} ${ticker}`, body: `at ${priceText(paid)}${fee}${how}`, ts: Date.now(), source: 'fill' };
}

/** The ack of an order the exchange answered: the create's counts (its schema normalised them), or the order's as listed after a lost answer. */
export function ackOf(placed: PlacedOrder): OrderAck {
  const counts = placed.created
    ? { fill_count: placed.created.fill_count, remaining_count: placed.created.remaining_count }
    : { fill_count: placed.listed?.fill_count_fp ?? '0', remaining_count: placed.listed?.remaining_count_fp ?? '0' };
  return { client_order_id: placed.clientOrderId, order_id: placed.orderId, ...counts };
}

/** The order row an answer holds: the create's `order`, or the row listed after a lost answer. */
export function orderOfAnswer(placed: PlacedOrder): Row | null {
  const inner = (placed.created as Row | undefined)?.order;
  if (inner !== null && typeof inner === 'object' && typeof (inner as Row).order_id === 'string') return inner as Row;
  if (placed.listed && typeof (placed.listed as Row).order_id === 'string') return placed.listed as Row;
  return null;
}

export function pendingView(o: InFlightOrder): PendingOrderView {
  const d = o.draft;
  return {
    clientOrderId: o.clientOrderId,
    ticker: d.ticker,
    side: d.side,
    price: d.price,
    count: d.count,
    state: o.state,
    sends: o.sends,
    lookups: o.lookups,
    lastError: o.lastError ?? null,
    startedAt: o.startedAt,
  };
}

export function pushBounded(list: number[], v: number, max: number): void {
  list.push(v);
  if (list.length > max) list.splice(0, list.length - max);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}
