// A KalshiRT session as the service defines it: the (key, KalshiRT) pair, not a connection, owns
// its orders and its outgoing sequence. It lives as long as the acceptor (and, through its store,
// across exchange restarts) and hears every exchange event, logged on or not:
// - while a connection is logged on, reports on its orders go out live on that connection,
//   whichever connection entered the order;
// - while logged out, each report (a fill by a REST counterparty, a cancel by REST or the
//   exchange, an expiry, a CancelOrdersOnDisconnect cancel, the answer to a command still in
//   flight when the connection dropped) takes the session's next sequence number and is stored,
//   so the next Logon's MsgSeqNum shows the gap and a ResendRequest brings them back (PossDup).
import type { ExchangeNode } from '../core/node';
import type { Fields, FixTrader } from './orders';
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
    this.unlisten = node.onEvents((events) => this.orders.onEvents(events));
  }

  /** The Logon was accepted (its answer sent): reports go to this connection from now on. */
  attach(conn: RtConnection, trader: FixTrader): void {
    this.store.setTrader(trader);
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
