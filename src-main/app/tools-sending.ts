// Sending what local orders decided: each `send` goes through TradingService.placeOrder (the same
// risk gate and audit journal as any order) and each `cancel` through cancelOrder, with a notice
// either way; and the fills of the orders they sent, which may arrive before main knows the order's
// id (the stream can beat the create's answer), so fills are kept a minute by order id.
import { Decimal, priceText } from '../../src-shared/money';
import type { StreamName, StreamPayloads, TerminalError } from '../../src-shared/ipc/contract';
import type { LocalAction, LocalOrderEngine } from '../conditional/engine';
import type { TradingService } from './trading-service';

export interface LocalSenderOptions {
  /** the active profile's local orders (replaced when the profile changes) */
  local: () => LocalOrderEngine;
  trading: Pick<TradingService, 'placeOrder' | 'cancelOrder'>;
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  describeError: (err: unknown) => TerminalError;
  /** saves the local orders and pushes their view */
  changed: () => void;
  /** streams the markets the tools watch */
  repin: () => Promise<void>;
}

export class LocalSender {
  /** fills by order id for a minute, for orders whose id main learns after their first fill */
  private readonly recentFills = new Map<string, { at: number; tradeId: string; count: Decimal }[]>();
  private readonly seenTrades = new Set<string>();

  constructor(private readonly opts: LocalSenderOptions) {}

  /** One of my fills (once per trade id). */
  fill(orderId: string, tradeId: string, count: Decimal): void {
    if (this.seenTrades.has(tradeId)) return;
    const now = Date.now();
    const list = (this.recentFills.get(orderId) ?? []).filter((x) => now - x.at < 60_000);
    list.push({ at: now, tradeId, count });
    this.recentFills.set(orderId, list);
    this.applyFill(orderId, tradeId, count);
  }

  private applyFill(orderId: string, tradeId: string, count: Decimal): void {
    const local = this.opts.local();
    const involved = [...local.orders.values()].some((o) => o.entryOrderId === orderId || o.sentOrderIds.includes(orderId));
    if (!involved || this.seenTrades.has(tradeId)) return;
    this.seenTrades.add(tradeId);
    if (this.seenTrades.size > 10_000) this.seenTrades.clear();
    const { targets } = local.onFill(orderId, count);
    this.opts.changed();
    if (targets.length) void this.placeTargets(targets);
  }

  /** Fills that came before main knew the order id. */
  replayFills(orderId: string): void {
    for (const f of this.recentFills.get(orderId) ?? []) this.applyFill(orderId, f.tradeId, f.count);
  }

  async run(actions: LocalAction[]): Promise<void> {
    for (const a of actions) {
      if (a.type === 'send') {
        const o = this.opts.local().orders.get(a.id);
        try {
          const ack = await this.opts.trading.placeOrder({
            ticker: a.ticker,
            side: a.side,
            price: a.price.toFixed(4),
            count: a.count.toFixed(2),
            ...(a.subaccount !== undefined ? { subaccount: a.subaccount } : {}),
            origin: 'conditional',
            originId: a.id,
            ...(o?.confirmed ? { confirmed: true } : {}),
          });
          const more = this.opts.local().sent(a.id, ack.order_id);
          this.opts.emit('notices', { level: 'success', title: `Local ${a.kind.replace('_', ' ')} sent`, body: `${a.side === 'bid' ? 'Buy' : 'Sell'} ${a.count.toString()} ${a.ticker} at ${priceText(a.price)}: ${o?.detail ?? ''}`, ts: Date.now(), source: 'local' });
          this.replayFills(ack.order_id);
          if (more.length) await this.run(more);
        } catch (e) {
          const err = this.opts.describeError(e);
          this.opts.local().failed(a.id, err.message);
          this.opts.emit('notices', { level: 'error', title: `Local ${a.kind.replace('_', ' ')} not sent`, body: `${a.ticker}: ${err.message}`, ts: Date.now(), source: 'local' });
        }
      } else {
        await this.opts.trading.cancelOrder({ order_id: a.orderId, ticker: a.ticker, ...(a.subaccount !== undefined ? { subaccount: a.subaccount } : {}), origin: 'conditional' }).catch((e: unknown) => {
          const err = this.opts.describeError(e);
          // an order that already ended needs no cancel
          if (err.status !== 404) this.opts.emit('notices', { level: 'warning', title: 'Local order: a cancel failed', body: `${a.why}: ${err.message}`, ts: Date.now(), source: 'local' });
        });
      }
      this.opts.changed();
    }
    await this.opts.repin();
  }

  private async placeTargets(targets: { id: string; count: Decimal; price: Decimal }[]): Promise<void> {
    for (const t of targets) {
      const o = this.opts.local().orders.get(t.id);
      if (!o) continue;
      await this.run([{ type: 'send', id: t.id, ticker: o.ticker, side: o.side, price: t.price, count: t.count, subaccount: o.subaccount, kind: o.kind }]);
    }
  }
}
