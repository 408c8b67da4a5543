// Order actions shared by the ladder, the ticket and the hotkeys: build an OrderDraft from the
// ticket's settings, send it through TerminalApi, and report the ack or the exchange's error.
import type { BracketInput, LocalOrdersInput, LocalOrdersView, OrderAck, OrderDraft, OrderOrigin } from '../../src-shared/ipc/contract';
import { Decimal, ticksToDollars } from '../../src-shared/money';
import { getTerminalApi } from '../lib/bridge';
import { errorText, isConfirmableRisk } from '../lib/errors';
import { confirmAction } from '../ui/confirm';
import { fmtCount } from '../lib/format';
import { fmtPx, priceRefusal } from '../lib/ticks';
import { notify } from '../stores/notices';
import { useTrading, type TicketDraft } from '../stores/trading';
import { checkCountText, wireCount } from '../lib/order-check';
import type { OrderRow } from '../stores/normalize';
import { plural } from '../../src-shared/text';
import { describeBatchCancel } from '../../src-shared/ipc/batch-cancel';

/** "1 order", "3 orders" (shared with main's messages). */
export { plural };

/** The draft's optional settings, as OrderDraft fields. */
export function draftExtras(d: TicketDraft): Partial<OrderDraft> {
  const out: Partial<OrderDraft> = {};
  if (d.tif !== 'good_till_canceled') out.time_in_force = d.tif;
  if (d.stp) out.self_trade_prevention_type = d.stp;
  if (d.orderGroupId) out.order_group_id = d.orderGroupId;
  if (d.subaccount !== '' && /^\d+$/.test(d.subaccount)) out.subaccount = Number(d.subaccount);
  if (d.postOnly) out.post_only = true;
  if (d.expiration) {
    const ms = Date.parse(d.expiration);
    if (!Number.isNaN(ms)) out.expiration_time = Math.floor(ms / 1000);
  }
  return out;
}


export function describeOrder(side: 'bid' | 'ask', count: string, price: string, ticker: string): string {
  return `${side === 'bid' ? 'Buy' : 'Sell'} ${fmtCount(count)} ${ticker} @ ${fmtPx(ticker, price)}`;
}

export function ackText(ack: OrderAck): string {
  const filled = new Decimal(ack.fill_count || '0');
  const resting = new Decimal(ack.remaining_count || '0');
  return `order ${ack.order_id}: ${filled.gt(0) ? `filled ${fmtCount(ack.fill_count)}, ` : ''}${resting.gt(0) ? `resting ${fmtCount(ack.remaining_count)}` : 'nothing resting'}`;
}

/** Places at a price in ticks with the ticket's size and settings (ladder clicks, hotkeys). */
export async function placeAt(ticker: string, side: 'bid' | 'ask', priceTicks: number, countText?: string, origin: OrderOrigin = 'ladder'): Promise<OrderAck | null> {
  const draft = useTrading.getState().draft;
  const count = checkCountText(countText ?? draft.count);
  if (!count.ok || !count.value) {
    notify('error', 'Order not sent', `Size: ${count.message ?? 'invalid'} (set it in the order ticket or with the size keys)`);
    return null;
  }
  if (priceTicks <= 0 || priceTicks >= 10_000) {
    notify('error', 'Order not sent', 'Price must be above 0 and below 1 dollar');
    return null;
  }
  const price = ticksToDollars(priceTicks);
  const order: OrderDraft = { ticker, side, price, count: wireCount(count.value), ...draftExtras(draft), origin };
  return sendOrder(order);
}

/**
 * Runs an order call; when main's risk gate asks for a confirmation (a duplicate, an order over
 * the confirm threshold) the trader is asked and the call is sent once more with `confirmed`.
 * Main checks every limit again either way.
 */
export async function withRiskConfirm<T>(what: string, send: (confirmed: boolean) => Promise<T>): Promise<T | null> {
  try {
    return await send(false);
  } catch (err) {
    if (!isConfirmableRisk(err)) throw err;
    const ok = await confirmAction({ title: 'Confirm this order?', body: `${what}. ${(err as Error).message}`, confirmLabel: 'Send anyway', danger: true });
    if (!ok) return null;
    return send(true);
  }
}

/** The call's input as sent again after the trader confirmed (`confirmed: true`), or unchanged. */
export function withConfirmed<I extends object>(input: I, confirmed: boolean): I & { confirmed?: boolean } {
  return confirmed ? { ...input, confirmed } : input;
}

/** withRiskConfirm for a call that takes one input: the resend carries `confirmed`. */
export function sendConfirmable<I extends object, T>(what: string, input: I, call: (input: I & { confirmed?: boolean }) => Promise<T>): Promise<T | null> {
  return withRiskConfirm(what, (confirmed) => call(withConfirmed(input, confirmed)));
}

/**
 * Amends a resting order to a price and a total count (dollars and contracts, wire strings),
 * asking the trader where the risk gate wants a confirmation. False: the trader kept it back.
 * The call's error is thrown for the caller to show.
 */
export async function amendOrderTo(o: Pick<OrderRow, 'order_id' | 'ticker' | 'side' | 'subaccount'>, price: string, count: string, origin: OrderOrigin, what: string): Promise<boolean> {
  const amend = { order_id: o.order_id, ticker: o.ticker, side: o.side, price, count, ...(o.subaccount ? { subaccount: o.subaccount } : {}), origin };
  return (await sendConfirmable(what, amend, (input) => getTerminalApi().amendOrder(input))) !== null;
}

export async function sendOrder(order: OrderDraft): Promise<OrderAck | null> {
  const what = describeOrder(order.side, order.count, order.price, order.ticker);
  // a price the market does not take is never sent (the exchange would answer invalid_price)
  const why = priceRefusal(order.ticker, order.price);
  if (why) {
    notify('error', `${what} not sent`, `${order.ticker} ${why}`);
    return null;
  }
  try {
    const ack = await sendConfirmable(what, order, (input) => getTerminalApi().placeOrder(input));
    if (ack === null) {
      notify('info', `${what} not sent`, 'You kept it back at the confirmation.');
      return null;
    }
    notify('success', what, ackText(ack));
    return ack;
  } catch (err) {
    notify('error', `${what} ${(err as { kind?: string }).kind === 'risk' ? 'refused' : 'failed'}`, errorText(err));
    throw err;
  }
}

export async function cancelOrders(orders: readonly Pick<OrderRow, 'order_id' | 'ticker' | 'subaccount'>[], origin: OrderOrigin = 'blotter'): Promise<void> {
  if (!orders.length) return;
  const api = getTerminalApi();
  try {
    if (orders.length === 1) {
      const o = orders[0]!;
      await api.cancelOrder({ order_id: o.order_id, ticker: o.ticker, ...(o.subaccount ? { subaccount: o.subaccount } : {}), origin });
      notify('info', `Canceled order ${o.order_id}`);
    } else {
      // main sends it in batches the write bucket can take, and says what each canceled
      const r = await api.batchCancel({ orders: orders.map((o) => ({ order_id: o.order_id, ticker: o.ticker, ...(o.subaccount ? { subaccount: o.subaccount } : {}) })), origin });
      if (r.failed.length === 0) notify('info', `Canceled ${plural(r.canceled, 'order')}`);
      else notify('error', `Canceled ${r.canceled} of ${plural(r.of, 'order')}`, describeBatchCancel(r));
    }
  } catch (err) {
    notify('error', 'Cancel failed', errorText(err));
  }
}

/** Moves a resting order to a new YES price, keeping its remaining size. */
export async function amendPrice(o: OrderRow, priceTicks: number, origin: OrderOrigin = 'ladder'): Promise<void> {
  const price = ticksToDollars(priceTicks);
  const total = new Decimal(o.filled).add(o.remaining).toFixed(2);
  const why = priceRefusal(o.ticker, price);
  if (why) {
    notify('error', `Order ${o.order_id} not moved`, `${o.ticker} ${why}`);
    return;
  }
  try {
    if (!(await amendOrderTo(o, price, total, origin, `Move order ${o.order_id} to ${fmtPx(o.ticker, price)}`))) return;
    notify('info', `Moved order ${o.order_id} to ${fmtPx(o.ticker, price)}`);
  } catch (err) {
    notify('error', `Amend of ${o.order_id} failed`, errorText(err));
  }
}

export async function cancelAllIn(ticker: string | undefined, origin: OrderOrigin = 'hotkey'): Promise<void> {
  try {
    const r = await getTerminalApi().cancelAll(ticker ? { ticker, origin } : { origin });
    notify('info', ticker ? `Canceled ${plural(r.canceled, 'order')} in ${ticker}` : `Canceled ${plural(r.canceled, 'order')}`);
  } catch (err) {
    notify('error', 'Cancel all failed', errorText(err));
  }
}

/** Hands local conditional orders (or a bracketed entry) to main, asking the trader where the gate wants a confirmation. */
export async function sendLocal(what: string, send: (confirmed: boolean) => Promise<LocalOrdersView>): Promise<LocalOrdersView | null> {
  try {
    const v = await withRiskConfirm(what, send);
    if (v === null) notify('info', `${what} not set`, 'You kept it back at the confirmation.');
    else notify('success', what, 'Held by this terminal: it fires only while the terminal runs and is connected.');
    return v;
  } catch (err) {
    notify('error', `${what} ${(err as { kind?: string }).kind === 'risk' ? 'refused' : 'failed'}`, errorText(err));
    throw err;
  }
}

export const placeLocal = (what: string, input: LocalOrdersInput) => sendLocal(what, (confirmed) => getTerminalApi().placeLocalOrders(withConfirmed(input, confirmed)));
export const placeBracket = (what: string, input: BracketInput) => sendLocal(what, (confirmed) => getTerminalApi().placeBracket(withConfirmed(input, confirmed)));
