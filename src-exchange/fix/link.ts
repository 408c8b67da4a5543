// What a FIX session's application side (order entry, drop copy, listener, market data) sees of
// its connection: who trades, how to send, and the shared state the acceptor keeps. The session
// layer (session.ts) owns sequence numbers, heartbeats, resends and the Logon; an app owns the
// application messages of its session kind.
import type { ExchangeEvent } from '../state/domain';
import type { Services } from '../core/services';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { ExecHistory } from './exec-history';
import type { Fields, FixTrader } from './orders';

export interface SessionLink {
  readonly svc: Services;
  readonly trader: FixTrader;
  readonly history: ExecHistory;
  /** send an application (or session) message on this connection */
  send(msgType: string, body: Fields): void;
  /** queue an answer behind the answers owed to earlier messages (submits stay in arrival order) */
  ordered(work: Promise<() => void>): void;
  /** BusinessMessageReject (j): 380 = 3 unsupported message type, 0 other */
  businessReject(m: FixMessage, text: string, reason?: number): void;
}

export interface SessionApp {
  /** an application message; false when this session kind does not take it */
  onMessage(m: FixMessage): boolean;
  onEvents?(events: readonly ExchangeEvent[]): void;
  /** the connection ended (any way) */
  onClose?(): void;
}
