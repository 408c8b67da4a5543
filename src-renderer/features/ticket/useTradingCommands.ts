// The trading keys: buy or sell at the inside (join or cross), size presets, price by tick, side,
// submit, cancel all in the market and flatten. Mounted once by the app so they work with the
// ticket panel closed.
import { Decimal, ticksToDollars } from '../../../src-shared/money';
import type { OrderAck, OrderOrigin } from '../../../src-shared/ipc/contract';
import { originOf, runCommand, useCommand } from '../../lib/commands';
import { validateTicket, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { formatPriceAtTick } from '../../../src-shared/price-ranges';
import { useMarketInfo, type FeeTerms } from '../../hooks/useMarketInfo';
import { bookOf, insideOf } from '../../stores/books';
import { notify } from '../../stores/notices';
import { privateStore } from '../../stores/private';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { refuseWhileTyping } from '../../stores/typed-size';
import { cancelAllIn, draftExtras, placeAt, sendOrder } from '../../services/trade';
import { confirmAction } from '../../ui/confirm';
import { nudgePrice, type PriceRange } from './price-step';
import { submitShownTicket } from './submit-shown';

function needMarket(): string | null {
  const t = useTrading.getState().ticker;
  if (!t) notify('warning', 'No market selected', 'Pick a market first (Alt+1, then Enter on a row).');
  return t;
}

function atInside(side: 'bid' | 'ask', take: 'bid' | 'ask', origin: OrderOrigin) {
  if (refuseWhileTyping()) return;
  const ticker = needMarket();
  if (!ticker) return;
  const inside = insideOf(bookOf(ticker));
  const price = take === 'bid' ? inside.bid : inside.ask;
  if (price === null) {
    notify('warning', `No ${take === 'bid' ? 'bid' : 'offer'} in ${ticker}`, 'Nothing to join or cross on that side.');
    return;
  }
  void placeAt(ticker, side, price, undefined, origin).catch(() => undefined);
}

/** Sends the ticket's draft as a limit for `ticker` (the ticket's own linked market); only the ticket form's submit calls it. */
export async function submitDraft(fee: FeeTerms, ticker: string | null = useTrading.getState().ticker, origin: OrderOrigin = 'ticket'): Promise<OrderAck | null> {
  const { draft } = useTrading.getState();
  if (!ticker) {
    notify('warning', 'No market selected', 'Pick a market before submitting.');
    return null;
  }
  const check = validateTicket(draft, { multiplier: fee.multiplier, makerFees: fee.makerFees });
  if (!check.ready || !check.price.value || !check.count.value) {
    notify('error', 'Ticket not ready', check.price.message ?? check.count.message ?? 'check price and count');
    return null;
  }
  return sendOrder({ ticker, side: draft.side, price: wirePrice(check.price.value), count: wireCount(check.count.value), ...draftExtras(draft), origin });
}

/** Cancels all my resting orders in the market (asking first when the settings say so). */
function cancelAllMarket(origin: OrderOrigin, confirmCancelAll: boolean) {
  const t = needMarket();
  if (!t) return;
  void (async () => {
    if (confirmCancelAll && !(await confirmAction({ title: 'Cancel all?', body: `Cancel every resting order of mine in ${t}?`, confirmLabel: 'Cancel all', danger: true }))) return;
    await cancelAllIn(t, origin);
  })();
}

/** Closes the position in the market at the inside (crossing the spread), once the trader confirms. */
function flatten(origin: OrderOrigin) {
  if (refuseWhileTyping()) return;
  const t = needMarket();
  if (!t) return;
  const pos = privateStore.getState().positions[t];
  const p = pos ? new Decimal(pos.position) : new Decimal(0);
  if (p.isZero()) {
    notify('info', `No position in ${t}`, 'Nothing to flatten.');
    return;
  }
  const inside = insideOf(bookOf(t));
  const side = p.gt(0) ? 'ask' : 'bid';
  const price = side === 'ask' ? inside.bid : inside.ask;
  if (price === null) {
    notify('warning', `Cannot flatten ${t}`, `There is no ${side === 'ask' ? 'bid to sell into' : 'offer to buy from'}.`);
    return;
  }
  const count = wireCount(p.abs());
  void (async () => {
    const ok = await confirmAction({
      title: 'Flatten position?',
      body: `${side === 'ask' ? 'Sell' : 'Buy'} ${fmtCount(count)} ${t} at ${fmtPx(t, ticksToDollars(price))} (crossing the spread).`,
      confirmLabel: 'Flatten',
      danger: true,
    });
    if (ok) await placeAt(t, side, price, count, origin).catch(() => undefined);
  })();
}

/** The draft's price one tick up or down the market's grid (from the inside when no price is typed). */
function nudgeDraftPrice(dir: 1 | -1, ranges: PriceRange[] | undefined) {
  const { draft, setDraft } = useTrading.getState();
  const t = useTrading.getState().ticker;
  let base: Decimal | null = null;
  if (/^\d*\.?\d+$/.test(draft.price.trim())) base = new Decimal(draft.price.trim());
  else if (t) {
    const inside = insideOf(bookOf(t));
    const start = draft.side === 'bid' ? (inside.bid ?? inside.ask) : (inside.ask ?? inside.bid);
    // start just short of the inside so the first step lands on it
    if (start !== null) base = new Decimal(ticksToDollars(start)).sub(new Decimal('0.0001').mul(dir));
  }
  const next = nudgePrice(base ?? new Decimal('0.5'), dir, ranges);
  setDraft({ price: formatPriceAtTick(next, ranges) });
}

export function useTradingCommands() {
  const ticker = useTrading((s) => s.ticker);
  const info = useMarketInfo(ticker);
  const ranges = info.market.data?.market.price_ranges as PriceRange[] | undefined;
  const presets = useSession((s) => s.settings.sizePresets);
  const confirmCancelAll = useSession((s) => s.settings.confirmCancelAll);

  useCommand('trade.buyBid', (via) => atInside('bid', 'bid', originOf(via)));
  useCommand('trade.buyAsk', (via) => atInside('bid', 'ask', originOf(via)));
  useCommand('trade.sellAsk', (via) => atInside('ask', 'ask', originOf(via)));
  useCommand('trade.sellBid', (via) => atInside('ask', 'bid', originOf(via)));
  useCommand('trade.cancelAllMarket', (via) => cancelAllMarket(originOf(via), confirmCancelAll));
  useCommand('trade.flatten', (via) => flatten(originOf(via)));

  const preset = (i: number) => () => {
    const size = presets[i];
    if (size) useTrading.getState().setDraft({ count: size });
    else notify('info', `No size preset ${i + 1}`, 'Set the presets in Settings.');
  };
  useCommand('ticket.size1', preset(0));
  useCommand('ticket.size2', preset(1));
  useCommand('ticket.size3', preset(2));
  useCommand('ticket.size4', preset(3));
  useCommand('ticket.size5', preset(4));

  useCommand('ticket.priceUp', () => nudgeDraftPrice(1, ranges));
  useCommand('ticket.priceDown', () => nudgeDraftPrice(-1, ranges));
  useCommand('ticket.toggleSide', () => {
    const { draft, setDraft } = useTrading.getState();
    setDraft({ side: draft.side === 'bid' ? 'ask' : 'bid' });
  });
  useCommand('ticket.focusPrice', () => {
    runCommand('panel.ticket');
    useTrading.getState().requestTicketFocus('price');
  });
  useCommand('ticket.focusCount', () => {
    runCommand('panel.ticket');
    useTrading.getState().requestTicketFocus('count');
  });
  // the ticket's own submit, so a key does exactly what the button in view says (a local stop
  // stays a local stop); with no ticket in view the key shows it and sends nothing
  useCommand('ticket.submit', (via) => {
    if (submitShownTicket(document, originOf(via))) return;
    if (document.querySelector('dialog[open]') !== null) return;
    runCommand('panel.ticket');
    notify('info', 'Nothing sent', 'The order ticket was not in view. Check it, then submit again.');
  });
}
