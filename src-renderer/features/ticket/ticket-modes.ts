// The ticket's order types besides the plain limit: the local (terminal-held) stop, take profit,
// trailing stop and limit + bracket. What each needs before it can be sent, where a bracket's
// legs land, the submit button's words and the local order each sends, as plain functions.
import type { KeyboardEvent } from 'react';
import type { Decimal } from '../../../src-shared/money';
import { stepAt, type PriceRange } from '../../../src-shared/price-ranges';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import type { TicketCheck } from '../../lib/order-check';

export type OrderMode = 'limit' | 'bracket' | 'stop' | 'take_profit' | 'trailing_stop';
export const MODE_LABEL: Record<OrderMode, string> = { limit: 'Limit', bracket: 'Limit + bracket', stop: 'Stop', take_profit: 'Take profit', trailing_stop: 'Trailing stop' };

export type TriggerSource = 'last' | 'bid' | 'ask';
/** The local order fields as typed (tick counts are text until they parse). */
export interface LocalOpts {
  source: TriggerSource;
  through: string;
  trail: string;
  target: string;
  stop: string;
}
export const DEFAULT_LOCAL_OPTS: LocalOpts = { source: 'last', through: '2', trail: '5', target: '5', stop: '5' };

/** A whole number of at most four digits within [min, max], else null. */
export function intOf(text: string, min: number, max: number): number | null {
  return /^\d{1,4}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : null;
}
export const ticksThrough = (o: LocalOpts) => intOf(o.through, 0, 100);

/** Whether the ticket can be sent in this mode (a trailing stop needs no price). */
export function ticketReady(mode: OrderMode, o: LocalOpts, check: Pick<TicketCheck, 'ready' | 'count'>): boolean {
  if (mode === 'limit') return check.ready;
  if (ticksThrough(o) === null) return false;
  if (mode === 'trailing_stop') return intOf(o.trail, 1, 5000) !== null && check.count.ok;
  if (mode === 'bracket' && (intOf(o.target, 1, 5000) === null || intOf(o.stop, 1, 5000) === null)) return false;
  return check.ready;
}

/** Where a bracket's target and stop land, at the market's own step (null outside bracket mode). */
export function bracketHint(mode: OrderMode, o: LocalOpts, side: 'bid' | 'ask', ticker: string, price: Decimal | undefined, ranges: PriceRange[] | undefined): { target: string; stop: string } | null {
  const t = intOf(o.target, 1, 5000);
  const st = intOf(o.stop, 1, 5000);
  if (mode !== 'bracket' || !price || t === null || st === null) return null;
  const step = stepAt(price, ranges);
  const sign = side === 'bid' ? 1 : -1;
  return { target: `target ${fmtPx(ticker, price.plus(step.mul(t * sign)))}`, stop: `stop ${fmtPx(ticker, price.minus(step.mul(st * sign)))}` };
}

/** The submit button's words: what a press would send. */
export function submitText(a: { mode: OrderMode; busy: boolean; ready: boolean; side: 'bid' | 'ask'; count: string; ticker: string; price: Decimal | null; source: TriggerSource }): string {
  const { mode, side, count, ticker, price, source } = a;
  const verb = side === 'bid' ? 'Buy YES' : 'Sell YES';
  const act = side === 'bid' ? 'buy' : 'sell';
  if (a.busy) return 'Sending…';
  if (!a.ready) return mode !== 'limit' ? `${MODE_LABEL[mode]} (local)` : verb;
  if (mode === 'limit') return `${verb} ${fmtCount(count)} @ ${fmtPx(ticker, price)}`;
  if (mode === 'bracket') return `${verb} ${fmtCount(count)} @ ${fmtPx(ticker, price)} + bracket`;
  if (mode === 'trailing_stop') return `Set trailing stop: ${act} ${fmtCount(count)}`;
  return `Set ${MODE_LABEL[mode].toLowerCase()}: ${act} ${fmtCount(count)} at ${source} ${fmtPx(ticker, price)}`;
}

/**
 * A key in the ticket's price or count field: digits, '.' and editing keys type; ↑ ↓ and (price
 * only) = + - step the price one tick; any other printable key does nothing (it is neither typed
 * nor a trading key). Returns the step asked for.
 */
export function fieldKey(e: KeyboardEvent<HTMLInputElement>, price: boolean): 'up' | 'down' | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const up = price && (e.key === 'ArrowUp' || e.key === '=' || e.key === '+');
  const down = price && (e.key === 'ArrowDown' || e.key === '-');
  if (up || down) {
    e.preventDefault();
    return up ? 'up' : 'down';
  }
  if (e.key.length === 1 && !/[0-9.]/.test(e.key)) e.preventDefault();
  return null;
}
