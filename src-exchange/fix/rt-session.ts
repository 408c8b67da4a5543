// A KalshiRT session as the service defines it: the (key, KalshiRT) pair, not a connection, owns
// its orders and its outgoing sequence. It lives as long as the acceptor (and, through its store,
// across exchange restarts) and hears every exchange event, logged on or not:
// - while a connection is logged on, reports on its orders go out live on that connection,
//   whichever connection entered the order;
// - while logged out, each report (a fill by a REST counterparty, a cancel by REST or the
//   exchange, an expiry, a CancelOrdersOnDisconnect cancel, the answer to a command still in
//   flight when the connection dropped) takes the session's next sequence number and is stored,
//   so the next Logon's MsgSeqNum shows the gap and a ResendRequest brings them back (PossDup);
//   so are settlement reports (UMS) when the last Logon asked for them (20127=Y).
import type { ExchangeNode } from '../core/node';
import type { SettlementView } from '../engine/types';
import type { Fields, FixTrader } from './orders';
import { settlementReport } from './post-trade';
import { SessionOrders } from './session-orders';
import type { SeqStore } from './seq-store';

/** Where a logged-on connection takes the session's reports. */
export interface RtConnection {
  deliver(msgType: string, body: Fields): void;
}

const NOBODY: FixTrader = { userId: '', subaccount: null, canWrite: false, useDollars: false };

export class RtSession {
  readonly orders: SessionOrders;
  private conn: RtConnection | null = null;
  private readonly unlisten: () => void;

  constructor(
    private readonly node: ExchangeNode,
    readonly store: SeqStore,
  ) {
    this.orders = new SessionOrders(() => node.core.engine, {
      trader: () => store.trader ?? NOBODY,
      out: (msgType, body) => this.emit(msgType, body),
      own: (id, owned) => store.own(id, owned),
    });
    this.orders.adopt([...store.owned]);
    this.unlisten = node.onEvents((events) => {
      this.orders.onEvents(events);
      if (store.settlements && store.trader) this.settlements(events, store.trader);
    });
  }

  private settlements(events: Parameters<Parameters<ExchangeNode['onEvents']>[0]>[0], t: FixTrader): void {
    for (const e of events) {
      if (e.type !== 'settlement') continue;
      const s = (e as { settlement: SettlementView }).settlement;
      if (s.user_id !== t.userId || (t.subaccount !== null && s.subaccount !== t.subaccount)) continue;
      this.emit('UMS', settlementReport(s, t));
    }
  }

  /** The Logon was accepted (its answer sent): reports go to this connection from now on. */
  attach(conn: RtConnection, trader: FixTrader, settlements: boolean): void {
    this.store.setTrader(trader, settlements);
    this.conn = conn;
  }

  /** The connection is logging out or gone: reports are stored from now on. */
  detach(conn: RtConnection): void {
    if (this.conn === conn) this.conn = null;
  }

  get loggedOn(): boolean {
    return this.conn !== null;
  }

  private emit(msgType: string, body: Fields): void {
    if (this.conn) this.conn.deliver(msgType, body);
    else this.store.takeOut(msgType, body, this.node.now(), true);
  }

  close(): void {
    this.unlisten();
  }
}
