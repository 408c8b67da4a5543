// What the session maps for the views and its own figures: a fill as the trader's notice, an
// order answer as its row, an order in flight as the pending view, and the small statistics of
// ack times. Pure functions, out of the session's I/O.
import type { InFlightOrder, PlacedOrder } from '../api/orders';
import type { PendingOrderView } from '../../src-shared/ipc/contract';
import { Decimal, priceText } from '../../src-shared/money';

type Row = Record<string, unknown>;

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
