// Validates the ticket as the trader types and prices it: cost, the worst-case (taker) fee, and
// what the order pays if it wins. decimal.js only, via money.ts.
import {
  checkOrderCount,
  checkOrderPrice,
  Decimal,
  fillFee,
  MAKER_FEE_RATE,
  orderCost,
  TAKER_FEE_RATE,
} from '../../src-shared/money';
import { offTickReason } from '../../src-shared/price-check';
import type { PriceRange } from '../../src-shared/price-ranges';

export interface FieldCheck {
  ok: boolean;
  message?: string;
  value?: Decimal;
}

export interface TicketQuote {
  /** collateral the order locks: price x count for a bid, (1 - price) x count for an ask */
  cost: string;
  takerFee: string;
  makerFee: string | null;
  /** gross payout if the order's side wins (1 dollar a contract) */
  payout: string;
  /** payout minus cost minus the taker fee */
  maxProfit: string;
}

export interface TicketCheck {
  price: FieldCheck;
  count: FieldCheck;
  quote: TicketQuote | null;
  ready: boolean;
}

const USER_DECIMAL_RE = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Reads what a person types (".53", "10", "0.5"); null when it is not a plain decimal. */
export function parseUserDecimal(text: string): Decimal | null {
  const t = text.trim();
  if (!USER_DECIMAL_RE.test(t)) return null;
  return new Decimal(t.startsWith('.') ? `0${t}` : t.endsWith('.') ? t.slice(0, -1) : t);
}

export function checkPriceText(text: string): FieldCheck {
  if (!text.trim()) return { ok: false, message: 'Enter a price' };
  const d = parseUserDecimal(text);
  if (!d) return { ok: false, message: 'Price must be a number like 0.53' };
  const c = checkOrderPrice(d);
  if (!c.ok) {
    const hint = d.isInteger() && d.gte(1) && d.lt(100) ? ` (did you mean ${d.div(100).toFixed(2)}?)` : '';
    return { ok: false, message: capitalize(c.reason ?? 'invalid price') + hint };
  }
  return { ok: true, value: d };
}

export function checkCountText(text: string): FieldCheck {
  if (!text.trim()) return { ok: false, message: 'Enter a count' };
  const d = parseUserDecimal(text);
  if (!d) return { ok: false, message: 'Count must be a number like 10' };
  const c = checkOrderCount(d);
  if (!c.ok) return { ok: false, message: capitalize(c.reason ?? 'invalid count') };
  return { ok: true, value: d };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Exact decimal text with at least 2 and at most 6 decimals. */
export function moneyText(d: Decimal): string {
  const dp = Math.min(6, Math.max(2, d.decimalPlaces()));
  return d.toFixed(dp);
}

export interface FeeContext {
  /** the series (or event override) fee multiplier, decimal text; null when unknown (then 1) */
  multiplier: string | null;
  /** the fee type charges makers too */
  makerFees: boolean;
}

export function validateTicket(draft: { side: 'bid' | 'ask'; price: string; count: string }, fees: FeeContext, ranges?: readonly PriceRange[]): TicketCheck {
  let price = checkPriceText(draft.price);
  // with the market's grid known, a price it does not take is no price
  const why = price.ok && price.value && ranges ? offTickReason(price.value, ranges) : null;
  if (why) price = { ok: false, message: why };
  const count = checkCountText(draft.count);
  if (!price.ok || !count.ok || !price.value || !count.value) return { price, count, quote: null, ready: false };
  const multiplier = fees.multiplier && USER_DECIMAL_RE.test(fees.multiplier) ? new Decimal(fees.multiplier) : new Decimal(1);
  const cost = orderCost(draft.side, price.value, count.value);
  const takerFee = fillFee(TAKER_FEE_RATE, multiplier, count.value, price.value);
  const makerFee = fees.makerFees ? fillFee(MAKER_FEE_RATE, multiplier, count.value, price.value) : null;
  const payout = count.value;
  return {
    price,
    count,
    quote: {
      cost: moneyText(cost),
      takerFee: moneyText(takerFee),
      makerFee: makerFee ? moneyText(makerFee) : null,
      payout: moneyText(payout),
      maxProfit: moneyText(payout.minus(cost).minus(takerFee)),
    },
    ready: true,
  };
}

/** Wire forms for the order draft: price with 4 decimals, count with 2. */
export function wirePrice(d: Decimal): string {
  return d.toFixed(4);
}
export function wireCount(d: Decimal): string {
  return d.toFixed(2);
}
