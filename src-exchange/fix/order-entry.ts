// The order entry sessions' application side (KalshiNR, KalshiRT; docs.kalshi.com/fix/order-entry):
// NewOrderSingle, OrderCancelRequest and OrderCancelReplaceRequest submitted to the one core in
// arrival order (orders.ts), answered with ExecutionReports / OrderCancelRejects; fills of the
// session's orders reported as they happen, never twice; CancelOrdersOnDisconnect on close;
// settlement reports on KalshiRT when the Logon asked (post-trade.ts).
import type { ExchangeEvent } from '../core/domain';
import type { FillView, OrderView } from '../engine/types';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionApp, SessionLink } from './link';
import { sendSettlements } from './post-trade';
import { FixReject, execReport, fillReport, orderGateway, type Fields, type OrderGateway } from './orders';

export class OrderEntryApp implements SessionApp {
  private readonly gateway: OrderGateway;
  /** orders entered here -> fills reported (centi); while a command on one is in flight its fills wait */
  private readonly mine = new Map<string, { cum: number; busy: FillView[] | null }>();
  /** creates in flight by ClOrdID: their fills arrive before the create answers */
  private readonly creating = new Map<string, FillView[]>();

  constructor(
    private readonly link: SessionLink,
    private readonly opts: { cancelOnDisconnect: boolean; settlements: boolean },
  ) {
    this.gateway = orderGateway(link.svc, link.trader);
  }

  onMessage(m: FixMessage): boolean {
    if (m.msgType === 'D') this.link.ordered(this.onNewOrder(m));
    else if (m.msgType === 'F') this.link.ordered(this.onCancel(m));
    else if (m.msgType === 'G') this.link.ordered(this.onReplace(m));
    else return false;
    return true;
  }

  private get engine() {
    return this.link.svc.node.core.engine;
  }

  private orderReject(m: FixMessage, text: string): void {
    this.link.send('8', [
      [37, 'NONE'],
      [11, m.get(11) ?? ''],
      [17, `R${Date.now().toString(36)}${m.seqNum}`],
      [150, '8'],
      [39, '8'],
      [55, m.get(55) ?? ''],
      [54, m.get(54) ?? ''],
      [38, m.get(38) ?? '0'],
      [14, '0'],
      [151, '0'],
      [6, '0'],
      [103, 99],
      [58, text],
    ]);
  }

  private cancelReject(m: FixMessage, responseTo: '1' | '2', text: string, order?: OrderView): void {
    this.link.send('9', [
      [37, order?.order_id ?? 'NONE'],
      [11, m.get(11) ?? ''],
      [41, m.get(41) ?? order?.client_order_id ?? ''],
      [39, order ? (order.status === 'resting' ? (order.fill_count > 0 ? '1' : '0') : order.status === 'executed' ? '2' : '4') : '8'],
      [434, responseTo],
      [102, order ? 99 : 1],
      [58, text],
    ]);
  }

  private async onNewOrder(m: FixMessage): Promise<() => void> {
    const clOrdId = m.get(11) ?? '';
    const waiting: FillView[] = [];
    if (clOrdId) this.creating.set(clOrdId, waiting);
    try {
      const o = await this.gateway.create(m);
      // a reused ClOrdID answers with the original order: keep what was already reported on it
      const prev = this.mine.get(o.order_id);
      this.mine.set(o.order_id, { cum: prev?.cum ?? 0, busy: prev ? [...(prev.busy ?? []), ...waiting] : waiting });
      return () => this.settle(o, o.fill_count > 0 ? 'F' : '0');
    } catch (err) {
      if (!(err instanceof FixReject)) throw err;
      const text = err.message;
      return () => this.orderReject(m, text);
    } finally {
      if (clOrdId) this.creating.delete(clOrdId);
    }
  }

  /** Cancel (F) and cancel/replace (G): the same tracking, a different command and answer. */
  private async onAmend(m: FixMessage, kind: 'cancel' | 'replace'): Promise<() => void> {
    let order: OrderView | undefined;
    try {
      order = this.gateway.ownOrder(m, 'cancel');
      const track = this.track(order.order_id, order.fill_count);
      track.busy ??= [];
      if (kind === 'cancel') {
        const r = await this.gateway.cancel(m);
        return () => this.settle(r.order, '4', [[41, r.origClOrdId]], m.get(11));
      }
      const r = await this.gateway.replace(m);
      if (r.order.order_id !== order.order_id) {
        // the amend made a new order: its fills are tracked from here
        const was = this.mine.get(order.order_id);
        this.mine.delete(order.order_id);
        this.mine.set(r.order.order_id, { cum: was?.cum ?? 0, busy: was?.busy ?? [] });
      }
      return () => this.settle(r.order, '5', [[41, r.origClOrdId]]);
    } catch (err) {
      if (!(err instanceof FixReject)) throw err;
      const text = err.message;
      const o = order;
      return () => {
        if (o) this.release(o.order_id);
        this.cancelReject(m, kind === 'cancel' ? '1' : '2', text, o ? (this.engine.getOrder(o.order_id) ?? o) : undefined);
      };
    }
  }

  private onCancel(m: FixMessage): Promise<() => void> {
    return this.onAmend(m, 'cancel');
  }

  private onReplace(m: FixMessage): Promise<() => void> {
    return this.onAmend(m, 'replace');
  }

  private track(orderId: string, fillCount: number) {
    let t = this.mine.get(orderId);
    if (!t) this.mine.set(orderId, (t = { cum: fillCount, busy: null }));
    return t;
  }

  private release(orderId: string): void {
    const t = this.mine.get(orderId);
    if (!t?.busy) return;
    const waiting = t.busy;
    t.busy = null;
    const o = this.engine.getOrder(orderId);
    for (const f of waiting) {
      t.cum += f.count;
      if (o) this.link.send('8', fillReport(o, f, this.link.trader));
    }
  }

  /**
   * Report a command's answer on an order: its ExecutionReport, then any fills that waited on it
   * and are not already in the answer's CumQty (events arrive in apply order, so the first ones up
   * to that count are the command's own or earlier).
   */
  private settle(o: OrderView, execType: string, extra: Fields = [], clOrdId?: string): void {
    const t = this.track(o.order_id, 0);
    const waiting = t.busy ?? [];
    t.busy = null;
    let running = t.cum;
    const after: FillView[] = [];
    for (const f of waiting) {
      running += f.count;
      if (running > o.fill_count) after.push(f);
    }
    t.cum = Math.max(o.fill_count, running);
    const body = execReport(o, execType, this.link.trader, extra);
    if (clOrdId !== undefined) body[1] = [11, clOrdId];
    this.link.send('8', body);
    for (const f of after) this.link.send('8', fillReport(o, f, this.link.trader));
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    // ReceiveSettlementReports (20127=Y, KalshiRT): the post trade session's reports here too
    if (this.opts.settlements) sendSettlements(this.link, events);
    const trader = this.link.trader;
    for (const e of events) {
      if (e.type !== 'fill') continue;
      const f = (e as { fill: FillView }).fill;
      if (f.user_id !== trader.userId) continue;
      const t = this.mine.get(f.order_id);
      if (t) {
        if (t.busy) t.busy.push(f);
        else {
          t.cum += f.count;
          const o = this.engine.getOrder(f.order_id);
          if (o) this.link.send('8', fillReport(o, f, trader));
        }
        continue;
      }
      this.creating.get(f.client_order_id)?.push(f);
    }
  }

  onClose(): void {
    if (this.opts.cancelOnDisconnect) void this.cancelResting();
  }

  /** CancelOrdersOnDisconnect: every order this session entered that still rests. */
  private async cancelResting(): Promise<void> {
    const node = this.link.svc.node;
    for (const id of this.mine.keys()) {
      const o = this.engine.getOrder(id);
      if (!o || o.status !== 'resting') continue;
      await node.submit({ type: 'cancelOrder', nowMs: node.now(), userId: o.user_id, orderId: o.order_id, subaccount: o.subaccount });
    }
  }
}
