// The order entry sessions' application side (KalshiNR, KalshiRT; docs.kalshi.com/fix/order-entry):
// NewOrderSingle, OrderCancelRequest and OrderCancelReplaceRequest submitted to the one core in
// arrival order (orders.ts), answered with ExecutionReports / OrderCancelRejects; fills of the
// session's orders reported as they happen, never twice; CancelOrdersOnDisconnect on close;
// settlement reports on KalshiRT when the Logon asked (post-trade.ts).
import type { ExchangeEvent } from '../state/domain';
import type { OrderView } from '../engine/types';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionApp, SessionLink } from './link';
import { orderGroupRequest } from './order-groups';
import { sendSettlements } from './post-trade';
import { RfqCreator } from './rfq-creator';
import { FixReject, orderGateway, type OrderGateway } from './orders';
import { CXL_REJ } from './reasons';
import { SessionOrders } from './session-orders';

export class OrderEntryApp implements SessionApp {
  private readonly gateway: OrderGateway;
  /** the session's orders: this connection's (KalshiNR), or the (key, KalshiRT) session's, fed by it */
  private readonly orders: SessionOrders;
  private readonly shared: boolean;
  /** KalshiRT only: the RFQ creator's messages (rfq-creator.ts) */
  private readonly creator: RfqCreator | null;

  constructor(
    private readonly link: SessionLink,
    private readonly opts: { cancelOnDisconnect: boolean; settlements: boolean; orders?: SessionOrders },
  ) {
    this.gateway = orderGateway(link.svc, link.trader);
    this.shared = opts.orders !== undefined;
    this.orders = opts.orders ?? new SessionOrders(() => this.engine, { trader: () => link.trader, out: (t, body) => link.send(t, body) });
    this.creator = this.shared ? new RfqCreator(link, (t, body) => this.orders.out(t, body)) : null;
  }

  onMessage(m: FixMessage): boolean {
    if (m.msgType === 'D') this.link.ordered(this.onNewOrder(m));
    else if (m.msgType === 'F') this.link.ordered(this.onCancel(m));
    else if (m.msgType === 'G') this.link.ordered(this.onReplace(m));
    else if (m.msgType === 'UOG') this.link.ordered(orderGroupRequest(this.link, m));
    else return this.creator?.onMessage(m) ?? false;
    return true;
  }

  private get engine() {
    return this.link.svc.node.core.engine;
  }

  /** an answer goes where the session's reports go (on KalshiRT: stored if the connection is gone) */
  private out(msgType: string, body: Parameters<SessionLink['send']>[1]): void {
    this.orders.out(msgType, body);
  }

  private orderReject(m: FixMessage, text: string, reason: number): void {
    this.out('8', [
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
      [103, reason],
      [58, text],
    ]);
  }

  private cancelReject(m: FixMessage, responseTo: '1' | '2', text: string, reason: number, order?: OrderView): void {
    this.out('9', [
      [37, order?.order_id ?? 'NONE'],
      [11, m.get(11) ?? ''],
      [41, m.get(41) ?? order?.client_order_id ?? ''],
      [39, order ? (order.status === 'resting' ? (order.fill_count > 0 ? '1' : '0') : order.status === 'executed' ? '2' : '4') : '8'],
      [434, responseTo],
      [102, reason],
      [58, text],
    ]);
  }

  private async onNewOrder(m: FixMessage): Promise<() => void> {
    const clOrdId = m.get(11) ?? '';
    const waiting = this.orders.beginCreate(clOrdId);
    try {
      const o = await this.gateway.create(m);
      this.orders.created(o, waiting);
      return () => this.orders.answer(o, o.fill_count > 0 ? 'F' : '0');
    } catch (err) {
      if (!(err instanceof FixReject)) throw err;
      const { message, reason } = err;
      return () => this.orderReject(m, message, reason);
    } finally {
      this.orders.endCreate(clOrdId);
    }
  }

  /** Cancel (F) and cancel/replace (G): the same tracking, a different command and answer. */
  private async onAmend(m: FixMessage, kind: 'cancel' | 'replace'): Promise<() => void> {
    let order: OrderView | undefined;
    try {
      order = this.gateway.ownOrder(m, 'cancel');
      this.orders.hold(order);
      if (kind === 'cancel') {
        const r = await this.gateway.cancel(m);
        return () => this.orders.answer(r.order, '4', [[41, r.origClOrdId]], m.get(11));
      }
      const r = await this.gateway.replace(m);
      // the amend made a new order: its fills are tracked from here
      if (r.order.order_id !== order.order_id) this.orders.moved(order.order_id, r.order.order_id);
      return () => this.orders.answer(r.order, '5', [[41, r.origClOrdId]]);
    } catch (err) {
      if (!(err instanceof FixReject)) throw err;
      const text = err.message;
      // a parse refusal of the replace's price keeps its meaning; other order-side codes are "other"
      const reason = err.kind === 'cancel' || err.reason === CXL_REJ.invalidPriceIncrement ? err.reason : CXL_REJ.other;
      const o = order;
      return () => {
        if (o) this.orders.release(o.order_id);
        this.cancelReject(m, kind === 'cancel' ? '1' : '2', text, reason, o ? (this.engine.getOrder(o.order_id) ?? o) : undefined);
      };
    }
  }

  private onCancel(m: FixMessage): Promise<() => void> {
    return this.onAmend(m, 'cancel');
  }

  private onReplace(m: FixMessage): Promise<() => void> {
    return this.onAmend(m, 'replace');
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    // ReceiveSettlementReports (20127=Y, KalshiRT): the post trade session's reports here too
    if (this.opts.settlements) sendSettlements(this.link, events);
    this.creator?.onEvents(events);
    // a KalshiRT session's orders are fed by the session itself, logged on or not
    if (!this.shared) this.orders.onEvents(events);
  }

  onClose(): void {
    if (this.opts.cancelOnDisconnect) void this.cancelResting();
  }

  /** CancelOrdersOnDisconnect: every order this session owns that still rests. */
  private async cancelResting(): Promise<void> {
    const node = this.link.svc.node;
    for (const id of this.orders.ids()) {
      const o = this.engine.getOrder(id);
      if (!o || o.status !== 'resting') continue;
      await node.submit({ type: 'cancelOrder', nowMs: node.now(), userId: o.user_id, orderId: o.order_id, subaccount: o.subaccount });
    }
  }
}
