// The one pre-trade risk gate. Pure: it takes what is asked (an intent on the YES leg), the
// profile's limits and a snapshot of what main knows (books, positions, resting orders, today's
// P&L, the kill switch, recent orders) and says yes or names the limit, the value and the order.
// Every path that can create or enlarge exposure asks it before anything reaches the exchange.
import { Decimal, orderCost } from '../../src-shared/money';
import { formatPriceAtTick } from '../../src-shared/price-ranges';
import type { RiskLimits } from '../../src-shared/ipc/risk';

export type Side = 'bid' | 'ask';

export interface OrderIntent {
  /** what the call does: place, amend, quote, accept_quote, confirm_quote, block_propose, ... */
  action: string;
  ticker: string;
  /** YES leg: bid buys YES, ask sells YES (buys NO at 1 - price) */
  side: Side;
  /** YES price, dollars */
  price: Decimal;
  count: Decimal;
  /** RFQ and block trades do not meet the book: no collar, no staleness, no resting order */
  offBook?: boolean;
  /** an amend: the order as it rests now (its remaining count) */
  previous?: { side: Side; price: Decimal; count: Decimal };
  confirmed?: boolean;
}

export interface BookTop {
  stale: boolean;
  yesBid: Decimal | null;
  yesAsk: Decimal | null;
}

export interface RestingOrder {
  orderId: string;
  ticker: string;
  side: Side;
  price: Decimal;
  remaining: Decimal;
}

export interface RecentOrder {
  ticker: string;
  side: Side;
  price: string;
  count: string;
  at: number;
}

export interface RiskState {
  now: number;
  killSwitch: boolean;
  /** undefined: main holds no live book for the market */
  book(ticker: string): BookTop | undefined;
  /** signed YES contracts held (negative = NO), all subaccounts */
  position(ticker: string): Decimal;
  resting: readonly RestingOrder[];
  /** today's P&L in dollars (negative is a loss) */
  dailyPnl: Decimal;
  recent: readonly RecentOrder[];
  /**
   * What passed the gate and is not yet accounted for in `resting` and `position`: sends not
   * yet answered, and the filled part of answered ones until the position shows it. Each counts
   * toward the position on its side, and toward the open-order counts when it would rest as a
   * new order.
   */
  reserved?: readonly ReservedExposure[];
  /**
   * Why `position` and `resting` may not be the whole account (a key scoped to one subaccount,
   * without a fresh read of the others: risk/account-view.ts); only orders that reduce go through.
   */
  accountIncomplete?: string | null;
}

export interface ReservedExposure {
  ticker: string;
  side: Side;
  count: Decimal;
  /** a new order that may rest: counts as an open order */
  opensOrder: boolean;
}

export type RiskCode =
  | 'kill_switch'
  | 'invalid_order'
  | 'max_order_contracts'
  | 'max_order_cost'
  | 'no_book'
  | 'stale_book'
  | 'price_collar'
  | 'max_position'
  | 'max_open_orders'
  | 'max_open_orders_market'
  | 'max_daily_loss'
  | 'duplicate'
  | 'confirm_required'
  | 'account_incomplete';

/** A refusal by the gate, as the door hands it to the renderer (TerminalError kind 'risk'). */
export class RiskRefusal extends Error {
  override name = 'RiskRefusal';
  constructor(
    readonly code: RiskCode | 'not_sized',
    message: string,
    readonly confirmable = false,
  ) {
    super(message);
  }
}

export type RiskVerdict = { ok: true } | { ok: false; code: RiskCode; message: string; confirmable: boolean };

const ZERO = new Decimal(0);

/** A price in a message: at least cents, and every digit it has ("0.53", "0.095", never "0.5300"). */
const px = (p: Decimal) => formatPriceAtTick(p, undefined);

/** "buy 100000 YES KX-1 @ 0.53" (a bid) or "sell 10 YES KX-1 @ 0.40" (an ask). */
export function describeIntent(i: Pick<OrderIntent, 'side' | 'count' | 'ticker' | 'price'>): string {
  return `${i.side === 'bid' ? 'buy' : 'sell'} ${i.count.toString()} YES ${i.ticker} @ ${px(i.price)}`;
}

const signed = (side: Side, count: Decimal) => (side === 'bid' ? count : count.neg());

/** The order only takes the position toward zero, never past it. */
export function reducesExposure(side: Side, count: Decimal, position: Decimal): boolean {
  return side === 'bid' ? position.lt(0) && count.lte(position.neg()) : position.gt(0) && count.lte(position);
}

/** An amend that neither adds contracts nor moves the price toward the other side. */
function amendEnlarges(i: OrderIntent): boolean {
  const p = i.previous;
  if (!p || p.side !== i.side) return true;
  const moreAggressive = i.side === 'bid' ? i.price.gt(p.price) : i.price.lt(p.price);
  return i.count.gt(p.count) || moreAggressive;
}

export function checkOrder(i: OrderIntent, limits: RiskLimits, s: RiskState): RiskVerdict {
  const what = describeIntent(i);
  const refuse = (code: RiskCode, message: string, confirmable = false): RiskVerdict => ({ ok: false, code, message: `${message} (${what})`, confirmable });

  if (!i.count.isFinite() || i.count.lte(0) || !i.price.isFinite() || i.price.lte(0) || i.price.gte(1)) {
    return refuse('invalid_order', 'an order needs a count above 0 and a price between 0 and 1');
  }
  if (i.previous && !amendEnlarges(i)) return { ok: true }; // smaller or less aggressive: never adds exposure
  if (s.killSwitch) return refuse('kill_switch', 'kill switch engaged: no new orders until it is released');

  const position = s.position(i.ticker);
  // an amend adds only what it adds over the order as it rests
  const added = i.previous && i.previous.side === i.side ? Decimal.max(ZERO, i.count.minus(i.previous.count)) : i.count;
  const reserved = (s.reserved ?? []).filter((r) => r.ticker === i.ticker);
  // what already rests or is on its way on this side counts: concurrent "reducing" orders must not together go past zero
  const restingSameSide = s.resting
    .filter((o) => o.ticker === i.ticker && o.side === i.side)
    .reduce((sum, o) => sum.plus(o.remaining), reserved.filter((r) => r.side === i.side).reduce((sum, r) => sum.plus(r.count), ZERO));
  const reducing = reducesExposure(i.side, restingSameSide.plus(added), position);

  if (s.accountIncomplete && !reducing) {
    return refuse('account_incomplete', `the gate does not see the whole account: ${s.accountIncomplete}; only orders that reduce a position go through`);
  }

  const maxCount = new Decimal(limits.maxOrderContracts);
  if (i.count.gt(maxCount)) return refuse('max_order_contracts', `max contracts per order: ${i.count.toString()} > ${maxCount.toString()}`);
  const cost = orderCost(i.side, i.price, i.count);
  const maxCost = new Decimal(limits.maxOrderCost);
  if (cost.gt(maxCost)) return refuse('max_order_cost', `max cost per order: $${cost.toFixed(2)} > $${maxCost.toFixed(2)}`);

  if (!i.offBook) {
    const book = s.book(i.ticker);
    if (!book) return refuse('no_book', `no live book for ${i.ticker}: open it in a ladder or the watchlist first`);
    if (book.stale) return refuse('stale_book', `the book of ${i.ticker} is STALE (resyncing): no orders until it is live again`);
    const collar = new Decimal(limits.priceCollar);
    if (i.side === 'bid' && book.yesAsk !== null && i.price.gt(book.yesAsk.plus(collar))) {
      return refuse('price_collar', `price collar: bid ${px(i.price)} is more than ${collar.toFixed(2)} through the best ask ${px(book.yesAsk)}`);
    }
    if (i.side === 'ask' && book.yesBid !== null && i.price.lt(book.yesBid.minus(collar))) {
      return refuse('price_collar', `price collar: ask ${px(i.price)} is more than ${collar.toFixed(2)} through the best bid ${px(book.yesBid)}`);
    }
  }

  if (!reducing) {
    const projected = position.plus(signed(i.side, restingSameSide.plus(added)));
    const maxPos = new Decimal(limits.maxPositionContracts);
    if (projected.abs().gt(maxPos)) {
      return refuse('max_position', `max position per market: ${projected.abs().toString()} contracts with resting orders > ${maxPos.toString()}`);
    }
    if (s.dailyPnl.neg().gt(new Decimal(limits.maxDailyLoss))) {
      return refuse('max_daily_loss', `max loss per day passed: $${s.dailyPnl.neg().toFixed(2)} lost today > $${new Decimal(limits.maxDailyLoss).toFixed(2)}; only orders that reduce exposure go through`);
    }
  }

  if (!i.offBook && !i.previous) {
    const open = s.resting.length + (s.reserved ?? []).filter((r) => r.opensOrder).length;
    if (open + 1 > limits.maxOpenOrders) return refuse('max_open_orders', `max open orders: ${open + 1} > ${limits.maxOpenOrders}`);
    const here = s.resting.filter((o) => o.ticker === i.ticker).length + reserved.filter((r) => r.opensOrder).length;
    if (here + 1 > limits.maxOpenOrdersPerMarket) return refuse('max_open_orders_market', `max open orders in ${i.ticker}: ${here + 1} > ${limits.maxOpenOrdersPerMarket}`);
  }

  if (!i.confirmed) {
    const price = i.price.toFixed(4);
    const count = i.count.toString();
    const dup = s.recent.some((r) => r.ticker === i.ticker && r.side === i.side && r.price === price && r.count === count && s.now - r.at <= limits.duplicateWindowMs);
    if (dup) return refuse('duplicate', `the same order was sent less than ${limits.duplicateWindowMs} ms ago; confirm to send it again`, true);
    const overCount = i.count.gt(new Decimal(limits.confirmAboveContracts));
    const overCost = cost.gt(new Decimal(limits.confirmAboveCost));
    if (overCount || overCost) {
      const why = overCount ? `${count} contracts > ${limits.confirmAboveContracts}` : `$${cost.toFixed(2)} > $${new Decimal(limits.confirmAboveCost).toFixed(2)}`;
      return refuse('confirm_required', `confirm this order: ${why}`, true);
    }
  }
  return { ok: true };
}

/** What the gate remembers of an order it passed, for the duplicate guard. */
export function recentOf(i: OrderIntent, now: number): RecentOrder {
  return { ticker: i.ticker, side: i.side, price: i.price.toFixed(4), count: i.count.toString(), at: now };
}

/** For each limit, whether a larger value lets more through (the duplicate window is the one where smaller does). */
const LOOSER_WHEN_LARGER: Record<keyof RiskLimits, boolean> = {
  maxOrderContracts: true,
  maxOrderCost: true,
  priceCollar: true,
  maxPositionContracts: true,
  maxOpenOrders: true,
  maxOpenOrdersPerMarket: true,
  maxDailyLoss: true,
  duplicateWindowMs: false,
  confirmAboveContracts: true,
  confirmAboveCost: true,
};

/** The limits `next` loosens against `prev`, as "name prev -> next"; empty when it only tightens or keeps them. */
export function loosenedLimits(prev: RiskLimits, next: RiskLimits): string[] {
  const out: string[] = [];
  for (const key of Object.keys(LOOSER_WHEN_LARGER) as (keyof RiskLimits)[]) {
    const a = new Decimal(String(prev[key]));
    const b = new Decimal(String(next[key]));
    if (LOOSER_WHEN_LARGER[key] ? b.gt(a) : b.lt(a)) out.push(`${key} ${String(prev[key])} -> ${String(next[key])}`);
  }
  return out;
}
