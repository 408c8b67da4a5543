// Sends the ticket's local (terminal-held) orders: a limit with a bracket, a trailing stop, a
// stop or a take profit, each with the confirm-and-resend flow of services/trade.
import type { Decimal } from '../../../src-shared/money';
import { fmtCount } from '../../lib/format';
import { wireCount, wirePrice } from '../../lib/order-check';
import { fmtPx } from '../../lib/ticks';
import { placeBracket, placeLocal } from '../../services/trade';
import type { TicketDraft } from '../../stores/trading';
import { ticksThrough, type LocalOpts, type OrderMode } from './ticket-modes';

export async function sendLocalOrder(mode: Exclude<OrderMode, 'limit'>, o: LocalOpts, draft: TicketDraft, ticker: string, checked: { price: Decimal | undefined; count: Decimal }): Promise<void> {
  const count = wireCount(checked.count);
  const sub = draft.subaccount ? { subaccount: Number(draft.subaccount) } : {};
  const through = ticksThrough(o) ?? 0;
  const limit = { kind: 'through' as const, ticks: through };
  const price = checked.price ? wirePrice(checked.price) : '';
  const side = draft.side === 'bid' ? 'Buy' : 'Sell';
  if (mode === 'bracket') {
    await placeBracket(`${side} ${fmtCount(count)} ${ticker} @ ${fmtPx(ticker, price)} with a bracket`, {
      ticker,
      side: draft.side,
      price,
      count,
      ...sub,
      targetTicks: Number(o.target),
      stopTicks: Number(o.stop),
      stopThroughTicks: through,
      stopSource: o.source,
    });
  } else if (mode === 'trailing_stop') {
    await placeLocal(`Local trailing stop: ${side.toLowerCase()} ${fmtCount(count)} ${ticker}, trail ${o.trail} ticks`, {
      orders: [{ kind: 'trailing_stop', ticker, side: draft.side, count, trailTicks: Number(o.trail), source: o.source, limit, ...sub }],
      oco: false,
    });
  } else {
    await placeLocal(`Local ${mode === 'stop' ? 'stop' : 'take profit'}: ${side.toLowerCase()} ${fmtCount(count)} ${ticker} when ${o.source} reaches ${fmtPx(ticker, price)}`, {
      orders: [{ kind: mode, ticker, side: draft.side, count, trigger: price, source: o.source, limit, ...sub }],
      oco: false,
    });
  }
}
