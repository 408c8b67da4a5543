// Reading orders, fills and positions as the risk gate needs them, from rows in either the
// spec's or the SDK's spelling (the stream and REST differ): the YES-leg side, the YES price,
// counts. Unknown or missing values read as "not known", never as zero exposure by accident.
import { Decimal, isDecimalString } from '../../src-shared/money';
import type { RestingOrder, Side } from './gate';

type Row = Record<string, unknown>;

const dec = (v: unknown): Decimal | null => (isDecimalString(v) ? new Decimal(v) : typeof v === 'number' && Number.isFinite(v) ? new Decimal(String(v)) : null);

/** The YES-leg side: bid = buy YES (or sell NO), ask = sell YES (or buy NO). */
export function bookSideOf(r: Row): Side | null {
  if (r.book_side === 'bid' || r.book_side === 'ask') return r.book_side;
  if (r.side === 'bid' || r.side === 'ask') return r.side;
  const outcome = r.side === 'yes' || r.side === 'no' ? r.side : r.outcome_side === 'yes' || r.outcome_side === 'no' ? r.outcome_side : typeof r.is_yes === 'boolean' ? (r.is_yes ? 'yes' : 'no') : null;
  if (!outcome) return null;
  const buy = r.action !== 'sell';
  return (outcome === 'yes') === buy ? 'bid' : 'ask';
}

export function tickerOf(r: Row): string | null {
  const t = r.ticker ?? r.market_ticker;
  return typeof t === 'string' && t ? t : null;
}

/** A resting order as the gate counts it, or null when it is not resting or unreadable. */
export function restingOrderOf(r: Row): RestingOrder | null {
  if (r.status !== 'resting') return null;
  const ticker = tickerOf(r);
  const side = bookSideOf(r);
  const price = dec(r.yes_price_dollars ?? r.price_dollars);
  const remaining = dec(r.remaining_count ?? r.remaining_count_fp);
  const orderId = typeof r.order_id === 'string' ? r.order_id : null;
  if (!ticker || !side || !price || !remaining || !orderId) return null;
  return { orderId, ticker, side, price, remaining };
}

/** Signed YES contracts of a position row (negative = NO). */
export function positionCountOf(r: Row): Decimal {
  return dec(r.position_fp ?? r.position) ?? new Decimal(0);
}

export interface FillLeg {
  id: string;
  ticker: string;
  /** signed YES contracts the fill added */
  yesDelta: Decimal;
  yesPrice: Decimal;
  fee: Decimal;
  /** ms since epoch */
  at: number;
}

/** A fill as a signed YES-leg trade, or null when a field the P&L needs is unreadable. */
export function fillLegOf(r: Row): FillLeg | null {
  // trade_id is on the stream's fill and on REST's alike (REST adds its own fill_id): one key for
  // both, so a fill seen live and again in a reconcile counts once
  const id = typeof r.trade_id === 'string' ? r.trade_id : typeof r.fill_id === 'string' ? r.fill_id : null;
  const ticker = tickerOf(r);
  const side = bookSideOf(r);
  const count = dec(r.count_fp ?? r.count);
  const price = dec(r.yes_price_dollars);
  if (!id || !ticker || !side || !count || !price) return null;
  const tsMs = typeof r.ts_ms === 'number' ? r.ts_ms : typeof r.ts === 'number' ? r.ts * 1000 : typeof r.created_time === 'string' ? Date.parse(r.created_time) : NaN;
  if (!Number.isFinite(tsMs)) return null;
  return { id: `${id}:${String(r.order_id ?? '')}`, ticker, yesDelta: side === 'bid' ? count : count.neg(), yesPrice: price, fee: dec(r.fee_cost) ?? new Decimal(0), at: tsMs };
}
