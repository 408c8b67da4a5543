// The orders an order entry session owns and what it has reported on them. A KalshiNR session
// owns what its connection entered (a new Logon resets everything); a KalshiRT session owns its
// orders beyond any one connection (rt-session.ts keeps one of these per key and feeds it every
// event, logged on or not). Every change of an owned order is reported once, in order:
// - the answer to a command on it (ExecutionReport or OrderCancelReject), then the fills that
//   came after that answer's state (while a command is in flight its events wait for the answer);
// - fills, cancels and replaces made elsewhere (a REST counterparty, the exchange's expiry, a REST
//   cancel or amend) as they happen.
import type { ExchangeEvent } from '../state/domain';
import type { Engine } from '../engine/engine';
import type { FillView, OrderView } from '../engine/types';
import { execReport, fillReport, type Fields, type FixTrader } from './orders';

interface Tracked {
  /** the fill count reported (centi) */
  cum: number;
  /** the price and count last reported (to tell a replace made elsewhere) */
  price: number;
  count: number;
  /** while a command on the order is in flight: the fills waiting for its answer */
  busy: FillView[] | null;
  /** a cancel seen while a command was in flight (reported after its answer unless that is the cancel) */
  canceled: OrderView | null;
}

export interface OrdersSink {
  /** who the reports are for (the price unit comes from the last Logon) */
  trader(): FixTrader;
  /** send (or, logged out, store) an application message on the session */
  out(msgType: string, body: Fields): void;
  /** the session owns the order from now on / no longer (it cannot change again) */
  own?(orderId: string, owned: boolean): void;
}

export class SessionOrders {
  private readonly mine = new Map<string, Tracked>();
  /** creates in flight by ClOrdID: their fills arrive before the create answers */
  private readonly creating = new Map<string, FillView[]>();

  constructor(
    private readonly engine: () => Engine,
    private readonly sink: OrdersSink,
  ) {}

  /** Orders owned before (a KalshiRT session after a restart): reported from their present state on. */
  adopt(orderIds: Iterable<string>): void {
    for (const id of orderIds) {
      const o = this.engine().getOrder(id);
      if (!o || o.status !== 'resting') this.sink.own?.(id, false);
      else this.mine.set(id, { cum: o.fill_count, price: o.yes_price, count: o.initial_count, busy: null, canceled: null });
    }
  }

  /** send (or store) an application message on the session */
  out(msgType: string, body: Fields): void {
    this.sink.out(msgType, body);
  }

  ids(): string[] {
    return [...this.mine.keys()];
  }

  /** A create is about to be submitted: its fills (by ClOrdID) wait for its answer. */
  beginCreate(clOrdId: string): FillView[] {
    const waiting: FillView[] = [];
    if (clOrdId) this.creating.set(clOrdId, waiting);
    return waiting;
  }

  endCreate(clOrdId: string): void {
    if (clOrdId) this.creating.delete(clOrdId);
  }

  /** The create answered with `o`: own it, with the fills that came before the answer waiting. */
  created(o: OrderView, waiting: FillView[]): void {
    // a reused ClOrdID answers with the original order: keep what was already reported on it
    const prev = this.mine.get(o.order_id);
    this.mine.set(o.order_id, {
      cum: prev?.cum ?? 0,
      price: o.yes_price,
      count: o.initial_count,
      busy: prev ? [...(prev.busy ?? []), ...waiting] : waiting,
      canceled: null,
    });
    this.sink.own?.(o.order_id, true);
  }

  /** A cancel or replace of `o` is about to be submitted: its events wait for the answer. */
  hold(o: OrderView): void {
    let t = this.mine.get(o.order_id);
    if (!t) {
      this.mine.set(o.order_id, (t = { cum: o.fill_count, price: o.yes_price, count: o.initial_count, busy: null, canceled: null }));
      this.sink.own?.(o.order_id, true);
    }
    t.busy ??= [];
  }

  /** A replace answered with a different order: the tracking moves to it. */
  moved(fromId: string, toId: string): void {
    const was = this.mine.get(fromId);
    this.mine.delete(fromId);
    this.sink.own?.(fromId, false);
    this.mine.set(toId, { cum: was?.cum ?? 0, price: was?.price ?? 0, count: was?.count ?? 0, busy: was?.busy ?? [], canceled: null });
    this.sink.own?.(toId, true);
  }

  /** A command on the order was refused: report what waited on it. */
  release(orderId: string): void {
    const t = this.mine.get(orderId);
    if (!t?.busy) return;
    const waiting = t.busy;
    t.busy = null;
    const o = this.engine().getOrder(orderId);
    const trader = this.sink.trader();
    for (const f of waiting) {
      t.cum += f.count;
      if (o) this.sink.out('8', fillReport(o, f, trader));
    }
    this.afterHold(orderId, t, null);
  }

  /**
   * Report a command's answer on an order: its ExecutionReport, then any fills that waited on it
   * and are not already in the answer's CumQty (events arrive in apply order, so the first ones up
   * to that count are the command's own or earlier), then a cancel made elsewhere meanwhile.
   */
  answer(o: OrderView, execType: string, extra: Fields = [], clOrdId?: string): void {
    let t = this.mine.get(o.order_id);
    if (!t) {
      this.mine.set(o.order_id, (t = { cum: 0, price: o.yes_price, count: o.initial_count, busy: null, canceled: null }));
      this.sink.own?.(o.order_id, true);
    }
    const waiting = t.busy ?? [];
    t.busy = null;
    let running = t.cum;
    const after: FillView[] = [];
    for (const f of waiting) {
      running += f.count;
      if (running > o.fill_count) after.push(f);
    }
    t.cum = Math.max(o.fill_count, running);
    t.price = o.yes_price;
    t.count = o.initial_count;
    const trader = this.sink.trader();
    const body = execReport(o, execType, trader, extra);
    if (clOrdId !== undefined) body[1] = [11, clOrdId];
    this.sink.out('8', body);
    for (const f of after) this.sink.out('8', fillReport(o, f, trader));
    this.afterHold(o.order_id, t, o);
  }

  /** A cancel of the order seen while a command on it was in flight, and not its answer. */
  private afterHold(orderId: string, t: Tracked, answered: OrderView | null): void {
    const canceled = t.canceled;
    t.canceled = null;
    if (answered && answered.status !== 'resting') return this.forget(orderId);
    if (canceled) {
      this.sink.out('8', execReport(canceled, '4', this.sink.trader()));
      this.forget(orderId);
    }
  }

  private forget(orderId: string): void {
    if (!this.mine.delete(orderId)) return;
    this.sink.own?.(orderId, false);
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    const trader = this.sink.trader();
    for (const e of events) {
      if (e.type === 'fill') {
        const f = (e as { fill: FillView }).fill;
        if (f.user_id !== trader.userId) continue;
        const t = this.mine.get(f.order_id);
        if (t) {
          if (t.busy) t.busy.push(f);
          else {
            t.cum += f.count;
            const o = this.engine().getOrder(f.order_id);
            if (o) this.sink.out('8', fillReport(o, f, trader));
            if (o && o.status === 'executed' && o.fill_count <= t.cum) this.forget(o.order_id);
          }
          continue;
        }
        this.creating.get(f.client_order_id)?.push(f);
        continue;
      }
      if (e.type !== 'order') continue;
      const o = (e as { order: OrderView }).order;
      const t = this.mine.get(o.order_id);
      if (!t) continue;
      if (t.busy) {
        // a command of this session on it answers for itself (a cancel from elsewhere comes after)
        if (o.status === 'canceled') t.canceled = o;
        continue;
      }
      if (o.status === 'canceled') {
        // by REST, by the exchange (expiry, a closed market, an order group), or on disconnect
        this.sink.out('8', execReport(o, '4', trader));
        this.forget(o.order_id);
      } else if (o.status === 'resting' && o.fill_count === t.cum && (o.yes_price !== t.price || o.initial_count !== t.count)) {
        // amended (or decreased) elsewhere
        t.price = o.yes_price;
        t.count = o.initial_count;
        this.sink.out('8', execReport(o, '5', trader));
      }
    }
  }
}
