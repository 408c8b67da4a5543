// One FIX connection to the embedded exchange, acceptor side (FIXT.1.1, FIX 5.0 SP2 application
// messages): the session layer, as docs.kalshi.com/fix/session-management and /fix/authentication
// lay it out. The application messages belong to the session kind's app (link.ts):
// order-entry.ts (KalshiNR, KalshiRT), drop-copy.ts (KalshiDC, and listener sessions on NR/RT),
// market-data.ts (KalshiMD), post-trade.ts (KalshiPT), rfq.ts (KalshiRFQ).
// - Logon (A) signed: RawData (96) is RSA-PSS (SHA-256, MGF1 SHA-256, 32-byte salt, base64) over
//   SendingTime SOH MsgType SOH MsgSeqNum SOH SenderCompID SOH TargetCompID, verified with the
//   account's API key; SenderCompID is the key id, SendingTime within 5 s of the exchange clock.
// - TargetCompID names the session; ResetSeqNumFlag=Y is required except on KalshiRT and
//   KalshiRFQ, whose sequence numbers survive a reconnect and an exchange restart (seq-store.ts):
//   ResendRequest is answered with the stored messages as PossDup and gap fills for the rest.
// - Heartbeat (0) / TestRequest (1), ResendRequest (2), SequenceReset (4), Logout (5) with the
//   reason in Text (58) on every refusal; CancelOrdersOnDisconnect (8013=Y) cancels the session's
//   resting orders when the connection ends for any reason.
import { constants, verify } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ExchangeEvent } from '../state/domain';
import { publicKeyFromPem, MAX_SKEW_MS } from '../auth/verify';
import type { KeyRecord } from '../http/app';
import type { Services } from '../core/services';
import { FixParser, SOH, encode, fixTime, parseFixTime, type FixMessage } from '../../src-shared/fix/codec';
import { DropCopyApp } from './drop-copy';
import type { ExecHistory } from './exec-history';
import type { SessionApp, SessionLink } from './link';
import { MarketDataApp } from './market-data';
import { OrderEntryApp } from './order-entry';
import { PostTradeApp } from './post-trade';
import { RfqApp } from './rfq';
import type { Fields, FixTrader } from './orders';
import type { RtSession } from './rt-session';
import { SeqStore } from './seq-store';

export const SESSION_TYPES = {
  KalshiNR: { retransmit: false, resetRequired: true, orders: true },
  KalshiRT: { retransmit: true, resetRequired: false, orders: true },
  // drop copy: every order of the account, however entered, as ExecutionReports; EventResendRequest; no order entry
  KalshiDC: { retransmit: false, resetRequired: true, orders: false },
  // market data: book snapshots (W) and incremental updates (X)
  KalshiMD: { retransmit: false, resetRequired: true, orders: false },
  // post trade: market settlement reports (UMS)
  KalshiPT: { retransmit: false, resetRequired: true, orders: false },
  // RFQ, market makers' side: quote requests out, quotes in (with retransmission)
  KalshiRFQ: { retransmit: true, resetRequired: false, orders: false },
} as const;
export type SessionType = keyof typeof SESSION_TYPES;

/** The acceptor's bounds (acceptor.ts holds the defaults). */
export interface FixLimits {
  /** a connection that has not logged on by then is closed */
  logonTimeoutMs: number;
  /** connections not yet logged on, at most (more are closed as they come) */
  maxUnauthenticated: number;
  /** connections in all, at most */
  maxConnections: number;
  /** bytes written but not yet taken by the peer: over this the session is logged out and dropped */
  maxUnsentBytes: number;
  /** ResendRequests served per second per session (more are refused with Reject 3) */
  resendsPerSecond: number;
}

export interface FixSessionDeps {
  limits: FixLimits;
  svc: Services;
  lookupKey(keyId: string): KeyRecord | undefined;
  /** the retransmit store of (key, session type), made (or read from disk) on first use */
  seqStore(keyId: string, type: SessionType): SeqStore;
  /** the accounts' execution reports for drop copy and listeners */
  history: ExecHistory;
  onClose(session: FixSession): void;
  /** a connection already logged in as (key, type) is refused: one at a time */
  claim(keyId: string, type: SessionType, session: FixSession): boolean;
  release(keyId: string, type: SessionType, session: FixSession): void;
  /** the (key, KalshiRT) session: its orders and reports outlive any one connection */
  rtSession(keyId: string): RtSession;
}

export function logonPreHash(sendingTime: string, msgType: string, seqNum: string, sender: string, target: string): string {
  return [sendingTime, msgType, seqNum, sender, target].join(SOH);
}

export class FixSession {
  private readonly parser = new FixParser();
  private state: 'awaiting_logon' | 'active' | 'closing' | 'closed' = 'awaiting_logon';
  private keyId = '';
  private type: SessionType = 'KalshiNR';
  private seq = new SeqStore(null);
  private heartbeatMs = 30_000;
  private lastIn = Date.now();
  private lastOut = Date.now();
  private testReqSent: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private trader: FixTrader | null = null;
  private app: SessionApp | null = null;
  private unlisten: (() => void) | null = null;
  /** the KalshiRT session this connection is logged on to (trading, not a listener) */
  private rt: RtSession | null = null;
  /**
   * Answers to order messages, in the order the messages came. Each order message is submitted
   * to the core as it arrives (so a burst shares the journal's group commit, and the apply order
   * is the arrival order); its answer waits here for the ones before it.
   */
  private replies: Promise<void> = Promise.resolve();
  /** when the ResendRequests of the last second were served */
  private resendTimes: number[] = [];

  constructor(
    private readonly socket: Socket,
    private readonly deps: FixSessionDeps,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('close', () => this.onSocketClosed());
    socket.on('error', () => undefined);
    this.timer = setInterval(() => this.tick(), 500);
    this.timer.unref();
    // a connection that never logs on holds a descriptor and a slot: it gets a few seconds
    setTimeout(() => {
      if (this.state === 'awaiting_logon') this.socket.destroy();
    }, deps.limits.logonTimeoutMs).unref();
  }

  get awaitingLogon(): boolean {
    return this.state === 'awaiting_logon';
  }

  get loggedIn(): boolean {
    return this.state === 'active';
  }

  // ------------------------------------------------------------------ wire

  /** A report of the KalshiRT session this connection is logged on to (rt-session.ts). */
  deliver(msgType: string, body: Fields): void {
    this.send(msgType, body);
  }

  private send(msgType: string, body: Fields, opts: { possDup?: { seq: number; origSentAt: number } } = {}): void {
    if (this.state === 'closed') return;
    const now = this.deps.svc.node.now();
    const keep = !opts.possDup && SESSION_TYPES[this.type].retransmit && isApplication(msgType);
    const seqNum = opts.possDup ? opts.possDup.seq : this.seq.takeOut(msgType, body, now, keep);
    const header: Fields = [
      [35, msgType],
      [49, this.type],
      [56, this.keyId || 'UNKNOWN'],
      [34, seqNum],
      [52, fixTime(now)],
    ];
    if (opts.possDup) header.push([43, 'Y'], [122, fixTime(opts.possDup.origSentAt)]);
    this.lastOut = Date.now();
    this.socket.write(encode([...header, ...body]));
    // a peer that does not read is not buffered for without end: logged out and dropped (a
    // KalshiRT session's reports are stored from here, for its next Logon)
    if (this.socket.writableLength > this.deps.limits.maxUnsentBytes && this.state !== 'closing') this.drop(`over ${this.deps.limits.maxUnsentBytes} bytes unread: the peer does not read`);
  }

  /** Logout (it may never be read) and close at once. */
  private drop(reason: string): void {
    if (this.state === 'closed') return;
    this.rt?.detach(this);
    this.state = 'closing';
    this.socket.write(encode([[35, '5'], [49, this.type], [56, this.keyId || 'UNKNOWN'], [34, this.seq.takeOut('5', [], this.deps.svc.node.now(), false)], [52, fixTime(this.deps.svc.node.now())], [58, reason]]));
    this.socket.destroy();
  }

  /** Logout with a reason, then close once the peer has had the chance to read it. */
  private logout(reason: string): void {
    if (this.state === 'closed' || this.state === 'closing') return;
    // a refused Logon: answer on seq 1 of a session that never started
    if (this.keyId === '' || this.state === 'awaiting_logon') this.seq = new SeqStore(null);
    // from here the session's reports are stored for the next Logon, not sent after the Logout
    this.rt?.detach(this);
    this.send('5', [[58, reason]]);
    this.state = 'closing';
    setTimeout(() => this.socket.end(), 50).unref();
    setTimeout(() => this.socket.destroy(), 2_000).unref();
  }

  private onData(chunk: Buffer): void {
    this.lastIn = Date.now();
    for (const r of this.parser.push(chunk)) {
      if (!r.ok) {
        this.logout(`garbled message: ${r.reason}`);
        return;
      }
      this.onMessage(r.msg);
      if (this.state === 'closed') return;
    }
  }

  // ------------------------------------------------------------------ session layer

  /** Queue an answer behind those before it. */
  private ordered(work: Promise<() => void>): void {
    const next = this.replies.then(() => work);
    this.replies = next.then(
      (emit) => emit(),
      (err: unknown) => {
        console.error('[exchange] FIX message failed', err);
        this.logout('internal error');
      },
    );
  }

  /** ResendRequest (2) for everything from `from` on. */
  private askResend(from: number): void {
    this.send('2', [
      [7, from],
      [16, 0],
    ]);
  }

  private onMessage(m: FixMessage): void {
    if (this.state === 'closed') return;
    if (this.state === 'awaiting_logon') {
      if (m.msgType !== 'A') return this.logout('first message must be Logon (35=A)');
      return this.onLogon(m);
    }
    if (this.state === 'closing') {
      if (m.msgType === '5') this.socket.end();
      return;
    }
    if (m.get(49) !== this.keyId || m.get(56) !== this.type) return this.logout(`CompIDs must be 49=${this.keyId} 56=${this.type}`);
    const seq = m.seqNum;
    if (!Number.isSafeInteger(seq) || seq < 1) return this.logout('MsgSeqNum (34) missing or not a positive integer');
    if (m.msgType === '4' && m.get(123) !== 'Y') {
      // SequenceReset-Reset: the number is set whatever it was
      const next = Number(m.get(36));
      if (!Number.isSafeInteger(next) || next < this.seq.nextIn) return this.reject(m, 36, 5, 'NewSeqNo (36) must not lower the expected sequence number');
      this.seq.setNextIn(next);
      return;
    }
    if (seq < this.seq.nextIn) {
      if (m.get(43) === 'Y') return; // a possible duplicate we already have
      return this.logout(`MsgSeqNum too low, expecting ${this.seq.nextIn} but received ${seq}`);
    }
    if (seq > this.seq.nextIn && SESSION_TYPES[this.type].retransmit) {
      // ask for the gap; what arrived out of order is dropped and comes again in the resend
      // (without retransmission the gap is accepted as it is)
      this.askResend(this.seq.nextIn);
      if (m.msgType !== '2' && m.msgType !== '5') return;
    }
    this.seq.setNextIn(seq + 1);
    switch (m.msgType) {
      case '0':
        if (this.testReqSent !== null && m.get(112) === this.testReqSent) this.testReqSent = null;
        return;
      case '1':
        this.send('0', [[112, m.get(112) ?? '']]);
        return;
      case '2':
        return this.onResendRequest(m);
      case '4': {
        const next = Number(m.get(36));
        if (Number.isSafeInteger(next) && next > this.seq.nextIn) this.seq.setNextIn(next);
        return;
      }
      case '5':
        // after the answers still owed
        this.ordered(
          Promise.resolve(() => {
            this.rt?.detach(this);
            this.send('5', [[58, 'logout acknowledged']]);
            this.state = 'closing';
            setTimeout(() => this.socket.end(), 20).unref();
          }),
        );
        return;
      case 'A':
        return this.logout('already logged on');
      case '3':
        return;
      default:
        if (!this.app?.onMessage(m)) this.businessReject(m, `unsupported message type ${m.msgType} on ${this.type}`, 3);
    }
  }

  /** Session-level Reject (3): SessionRejectReason 1 = required tag missing, 5 = value incorrect. */
  private reject(m: FixMessage, tag: number, reason: number, text: string): void {
    this.send('3', [
      [45, m.seqNum],
      [371, tag],
      [372, m.msgType],
      [373, reason],
      [58, text],
    ]);
  }

  private businessReject(m: FixMessage, text: string, reason = 0): void {
    this.send('j', [
      [45, m.seqNum],
      [372, m.msgType],
      [380, reason],
      [58, text],
    ]);
  }

  /** Why this Logon cannot be accepted, or null (everything but the sequence checks). */
  private refusal(m: FixMessage, key: KeyRecord | undefined): string | null {
    const sender = m.get(49) ?? '';
    const target = m.get(56) ?? '';
    const sendingTime = m.get(52) ?? '';
    if (!key) return `unknown API key ${sender} (SenderCompID must be the key id)`;
    const sentAt = parseFixTime(sendingTime);
    if (!Number.isFinite(sentAt)) return 'SendingTime (52) missing or malformed';
    if (Math.abs(this.deps.svc.node.now() - sentAt) > MAX_SKEW_MS) return 'SendingTime (52) is more than 5 s away from the exchange clock';
    const signature = m.get(96);
    if (!signature) return 'RawData (96) must hold the logon signature';
    const publicKey = publicKeyFromPem(key.publicKeyPem);
    const ok =
      publicKey.asymmetricKeyType === 'rsa' &&
      verify(
        'sha256',
        Buffer.from(logonPreHash(sendingTime, 'A', m.get(34) ?? '', sender, target)),
        { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
        Buffer.from(signature, 'base64'),
      );
    if (!ok) return 'logon signature does not verify';
    if ((m.get(98) ?? '0') !== '0') return 'EncryptMethod (98) must be 0';
    if (m.get(1137) !== '9') return 'DefaultApplVerID (1137) must be 9 (FIX50SP2)';
    const hb = Number(m.get(108) ?? '30');
    if (!Number.isSafeInteger(hb) || hb < 3) return 'HeartBtInt (108) must be at least 3 seconds';
    if (SESSION_TYPES[this.type].resetRequired && m.get(141) !== 'Y') return `ResetSeqNumFlag (141) must be Y on ${this.type}`;
    const seq = Number(m.get(34));
    if (!Number.isSafeInteger(seq) || seq < 1) return 'MsgSeqNum (34) missing or not a positive integer';
    if (m.get(141) === 'Y' && seq !== 1) return 'MsgSeqNum (34) must be 1 with ResetSeqNumFlag=Y';
    if (m.get(20126) === 'Y') {
      if (!SESSION_TYPES[this.type].orders) return `ListenerSession (20126) is a mode of KalshiNR and KalshiRT, not ${this.type}`;
      if (m.get(21011) !== 'Y') return 'SkipPendingExecReports (21011) must be Y with ListenerSession=Y';
      if (m.get(8013) === 'Y') return 'CancelOrdersOnDisconnect (8013) must be N on a listener session';
    }
    return null;
  }

  private onLogon(m: FixMessage): void {
    const sender = m.get(49) ?? '';
    const target = m.get(56) ?? '';
    this.keyId = sender;
    if (!(target in SESSION_TYPES)) return this.logout(`unknown TargetCompID ${target}: use ${Object.keys(SESSION_TYPES).join(', ')}`);
    this.type = target as SessionType;
    const key = this.deps.lookupKey(sender);
    const why = this.refusal(m, key);
    if (why !== null) return this.logout(why);
    if (!this.deps.claim(sender, this.type, this)) return this.logout(`a ${this.type} session for this key is already logged on`);

    const reset = m.get(141) === 'Y';
    const seq = Number(m.get(34));
    const store = SESSION_TYPES[this.type].retransmit ? this.deps.seqStore(sender, this.type) : new SeqStore(null);
    if (!reset && seq < store.nextIn) {
      this.deps.release(sender, this.type, this);
      return this.logout(`MsgSeqNum too low, expecting ${store.nextIn} but received ${seq}`);
    }
    if (reset) store.reset();
    const gap = seq > store.nextIn ? store.nextIn : 0;
    store.setNextIn(seq + 1);
    this.seq = store;
    const hb = Number(m.get(108) ?? '30');
    this.heartbeatMs = hb * 1000;
    const caller = key!.caller;
    this.trader = { userId: caller.userId, subaccount: caller.subaccount, canWrite: caller.scopes.includes('write'), useDollars: m.get(21005) === 'Y' };
    // the account's execution reports are kept from its first Logon on any session (drop copy's
    // EventResendRequest may start from an ExecID an order entry session reported)
    this.deps.history.enable(caller.userId);
    const link: SessionLink = {
      svc: this.deps.svc,
      trader: this.trader,
      history: this.deps.history,
      send: (t, body) => this.send(t, body),
      ordered: (work) => this.ordered(work),
      businessReject: (msg, text, reason) => this.businessReject(msg, text, reason),
    };
    if (m.get(20126) === 'Y') this.app = new DropCopyApp(link, 'listener');
    else if (this.type === 'KalshiDC') this.app = new DropCopyApp(link, 'drop copy');
    else if (this.type === 'KalshiMD') this.app = new MarketDataApp(link);
    else if (this.type === 'KalshiPT') this.app = new PostTradeApp(link);
    else if (this.type === 'KalshiRFQ') this.app = new RfqApp(link);
    else {
      if (this.type === 'KalshiRT') this.rt = this.deps.rtSession(sender);
      this.app = new OrderEntryApp(link, {
        cancelOnDisconnect: m.get(8013) === 'Y',
        // on KalshiRT the session sends them itself, stored while logged out (rt-session.ts)
        settlements: this.type === 'KalshiRT' && m.get(20127) === 'Y' && !this.rt,
        ...(this.rt ? { orders: this.rt.orders } : {}),
      });
    }
    this.state = 'active';
    this.unlisten = this.deps.svc.node.onEvents((events) => this.onEvents(events));
    this.send('A', [
      [98, 0],
      [108, hb],
      [1137, 9],
      ...(reset ? ([[141, 'Y']] as Fields) : []),
    ]);
    // reports go out live from here (after the Logon answer): whatever connection entered the order
    this.rt?.attach(this, this.trader, m.get(20127) === 'Y');
    if (gap) this.askResend(gap);
  }

  private onResendRequest(m: FixMessage): void {
    const now = Date.now();
    this.resendTimes = this.resendTimes.filter((at) => now - at < 1_000);
    if (this.resendTimes.length >= this.deps.limits.resendsPerSecond) {
      return this.reject(m, 7, 99, `ResendRequest refused: at most ${this.deps.limits.resendsPerSecond} per second are served`);
    }
    this.resendTimes.push(now);
    const begin = Number(m.get(7));
    const endRaw = Number(m.get(16));
    const last = this.seq.nextOut - 1;
    if (!Number.isSafeInteger(begin) || begin < 1) return this.reject(m, 7, 5, 'BeginSeqNo (7) must be a positive integer');
    const end = !Number.isSafeInteger(endRaw) || endRaw === 0 || endRaw > last ? last : endRaw;
    let gapFrom: number | null = null;
    const flushGap = (upTo: number) => {
      if (gapFrom === null) return;
      this.send(
        '4',
        [
          [123, 'Y'],
          [36, upTo],
        ],
        { possDup: { seq: gapFrom, origSentAt: this.deps.svc.node.now() } },
      );
      gapFrom = null;
    };
    for (let s = begin; s <= end; s++) {
      if (this.state !== 'active') return;
      const kept = this.seq.sent.get(s);
      if (!kept) {
        gapFrom ??= s;
        continue;
      }
      flushGap(s);
      this.send(kept.msgType, kept.fields, { possDup: { seq: s, origSentAt: kept.sentAt } });
    }
    flushGap(end + 1);
  }

  private tick(): void {
    if (this.state !== 'active') return;
    const now = Date.now();
    if (now - this.lastOut >= this.heartbeatMs) this.send('0', []);
    const silent = now - this.lastIn;
    if (this.testReqSent === null && silent >= this.heartbeatMs * 1.2) {
      this.testReqSent = `TEST-${now}`;
      this.send('1', [[112, this.testReqSent]]);
    } else if (this.testReqSent !== null && silent >= this.heartbeatMs * 2.4) {
      this.logout('no answer to TestRequest: heartbeat timeout');
    }
  }

  private onEvents(events: readonly ExchangeEvent[]): void {
    if (this.state !== 'active') return;
    this.app?.onEvents?.(events);
  }

  // ------------------------------------------------------------------ the end

  private onSocketClosed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    this.rt?.detach(this);
    if (this.keyId && this.trader) this.deps.release(this.keyId, this.type, this);
    this.app?.onClose?.();
    this.deps.onClose(this);
  }

  /** Stop now (the exchange is closing): Logout, then the socket. */
  shutdown(): void {
    if (this.state === 'active') this.logout('exchange shutting down');
    else this.socket.destroy();
  }
}

const ADMIN = new Set(['0', '1', '2', '3', '4', '5', 'A']);
function isApplication(msgType: string): boolean {
  return !ADMIN.has(msgType);
}
