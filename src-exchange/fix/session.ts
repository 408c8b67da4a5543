// One FIX connection to the embedded exchange, acceptor side (FIXT.1.1, FIX 5.0 SP2 application
// messages), as docs.kalshi.com/fix lays the service's sessions out:
// - Logon (A) signed: RawData (96) is RSA-PSS (SHA-256, MGF1 SHA-256, 32-byte salt, base64) over
//   SendingTime SOH MsgType SOH MsgSeqNum SOH SenderCompID SOH TargetCompID, verified with the
//   account's API key; SenderCompID is the key id, SendingTime within 5 s of the exchange clock.
// - TargetCompID names the session: KalshiNR (order entry, no retransmission, ResetSeqNumFlag=Y
//   required) or KalshiRT (order entry with retransmission: sequence numbers survive a reconnect,
//   ResendRequest is answered with the stored messages as PossDup and gap fills for the rest), or
//   KalshiDC (drop copy: the account's orders however entered, as ExecutionReports; no orders).
// - Heartbeat (0) / TestRequest (1), ResendRequest (2), SequenceReset (4), Logout (5) with the
//   reason in Text (58) on every refusal; CancelOrdersOnDisconnect (8013=Y) cancels the session's
//   resting orders when the connection ends for any reason.
import { constants, verify } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ExchangeEvent } from '../core/domain';
import type { FillView, OrderView } from '../engine/types';
import { publicKeyFromPem, MAX_SKEW_MS } from '../auth/verify';
import type { KeyRecord } from '../http/app';
import type { Services } from '../handlers/support';
import { FixParser, SOH, encode, fixTime, parseFixTime, type FixMessage } from '../../src-shared/fix/codec';
import { FixReject, execReport, fillReport, orderGateway, type Fields, type FixTrader, type OrderGateway } from './orders';

export const SESSION_TYPES = {
  KalshiNR: { retransmit: false, resetRequired: true, dropCopy: false },
  KalshiRT: { retransmit: true, resetRequired: false, dropCopy: false },
  // drop copy: every order of the account, however entered (REST, FIX, the WebSocket's RFQs), as ExecutionReports; no order entry
  KalshiDC: { retransmit: false, resetRequired: true, dropCopy: true },
} as const;
export type SessionType = keyof typeof SESSION_TYPES;
export const OTHER_SESSIONS = ['KalshiPT', 'KalshiRFQ'] as const;

/** Sequence state of a retransmit session, kept by the acceptor across connections (in memory). */
export interface SeqStore {
  nextIn: number;
  nextOut: number;
  /** sent application messages by seq (for ResendRequest) */
  sent: Map<number, { fields: Fields; msgType: string; sentAt: number }>;
}

export interface FixSessionDeps {
  svc: Services;
  lookupKey(keyId: string): KeyRecord | undefined;
  /** the retransmit store of (key, session type), made on first use */
  seqStore(keyId: string, type: SessionType): SeqStore;
  onClose(session: FixSession): void;
  /** a connection already logged in as (key, type) is refused: one at a time */
  claim(keyId: string, type: SessionType, session: FixSession): boolean;
  release(keyId: string, type: SessionType, session: FixSession): void;
}

const MAX_RETAINED = 10_000;

export function logonPreHash(sendingTime: string, msgType: string, seqNum: string, sender: string, target: string): string {
  return [sendingTime, msgType, seqNum, sender, target].join(SOH);
}

export class FixSession {
  private readonly parser = new FixParser();
  private state: 'awaiting_logon' | 'active' | 'closing' | 'closed' = 'awaiting_logon';
  private keyId = '';
  private type: SessionType = 'KalshiNR';
  private seq: SeqStore = { nextIn: 1, nextOut: 1, sent: new Map() };
  private heartbeatMs = 30_000;
  private lastIn = Date.now();
  private lastOut = Date.now();
  private testReqSent: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private trader: FixTrader | null = null;
  private gateway: OrderGateway | null = null;
  private cancelOnDisconnect = false;
  /** orders entered here -> fills reported (centi); while a command on one is in flight its fills wait */
  private readonly mine = new Map<string, { cum: number; busy: FillView[] | null }>();
  /** creates in flight by ClOrdID: their fills arrive before the create answers */
  private readonly creating = new Map<string, FillView[]>();
  private unlisten: (() => void) | null = null;
  /**
   * Answers to order messages, in the order the messages came. Each order message is submitted
   * to the core as it arrives (so a burst shares the journal's group commit, and the apply order
   * is the arrival order); its answer waits here for the ones before it.
   */
  private replies: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly deps: FixSessionDeps,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('close', () => this.onSocketClosed());
    socket.on('error', () => undefined);
    this.timer = setInterval(() => this.tick(), 500);
    this.timer.unref();
  }

  get loggedIn(): boolean {
    return this.state === 'active';
  }

  // ------------------------------------------------------------------ wire

  private send(msgType: string, body: Fields, opts: { possDup?: { seq: number; origSentAt: number } } = {}): void {
    if (this.state === 'closed') return;
    const now = this.deps.svc.node.now();
    const seqNum = opts.possDup ? opts.possDup.seq : this.seq.nextOut++;
    const header: Fields = [
      [35, msgType],
      [49, this.type],
      [56, this.keyId || 'UNKNOWN'],
      [34, seqNum],
      [52, fixTime(now)],
    ];
    if (opts.possDup) header.push([43, 'Y'], [122, fixTime(opts.possDup.origSentAt)]);
    if (!opts.possDup && SESSION_TYPES[this.type].retransmit && isApplication(msgType)) {
      this.seq.sent.set(seqNum, { fields: body, msgType, sentAt: now });
      if (this.seq.sent.size > MAX_RETAINED) this.seq.sent.delete(this.seq.sent.keys().next().value!);
    }
    this.lastOut = Date.now();
    this.socket.write(encode([...header, ...body]));
  }

  /** Logout with a reason, then close once the peer has had the chance to read it. */
  private logout(reason: string): void {
    if (this.state === 'closed' || this.state === 'closing') return;
    if (this.keyId === '' || this.state === 'awaiting_logon') {
      // a refused Logon: answer on seq 1 of a session that never started
      this.seq = { nextIn: 1, nextOut: 1, sent: new Map() };
    }
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
    }
  }

  // ------------------------------------------------------------------ session layer

  /** Queue an order message's answer behind those before it. */
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
      this.seq.nextIn = next;
      return;
    }
    if (seq < this.seq.nextIn) {
      if (m.get(43) === 'Y') return; // a possible duplicate we already have
      return this.logout(`MsgSeqNum too low, expecting ${this.seq.nextIn} but received ${seq}`);
    }
    if (seq > this.seq.nextIn) {
      if (SESSION_TYPES[this.type].retransmit) {
        // ask for the gap; what arrived out of order is dropped and comes again in the resend
        this.send('2', [
          [7, this.seq.nextIn],
          [16, 0],
        ]);
        if (m.msgType !== '2' && m.msgType !== '5') return;
      }
      // no retransmission here: the gap is accepted as it is
    }
    this.seq.nextIn = seq + 1;
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
        if (Number.isSafeInteger(next) && next > this.seq.nextIn) this.seq.nextIn = next;
        return;
      }
      case '5':
        // after the answers still owed
        this.ordered(
          Promise.resolve(() => {
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
      case 'D':
      case 'F':
      case 'G':
        if (SESSION_TYPES[this.type].dropCopy) {
          this.send('j', [
            [45, seq],
            [372, m.msgType],
            [380, 3],
            [58, 'a drop copy session takes no orders'],
          ]);
          return;
        }
        if (m.msgType === 'F') return this.ordered(this.onCancel(m));
        if (m.msgType === 'G') return this.ordered(this.onReplace(m));
        return this.ordered(this.onNewOrder(m));
      default:
        this.send('j', [
          [45, seq],
          [372, m.msgType],
          [380, 3],
          [58, `unsupported message type ${m.msgType} on ${this.type}`],
        ]);
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

  private onLogon(m: FixMessage): void {
    const sender = m.get(49) ?? '';
    const target = m.get(56) ?? '';
    const sendingTime = m.get(52) ?? '';
    const seqRaw = m.get(34) ?? '';
    this.keyId = sender;
    if (!(target in SESSION_TYPES)) {
      const other = (OTHER_SESSIONS as readonly string[]).includes(target);
      return this.logout(other ? `${target} sessions are not offered by the embedded exchange` : `unknown TargetCompID ${target}: use KalshiNR, KalshiRT or KalshiDC`);
    }
    this.type = target as SessionType;
    const key = this.deps.lookupKey(sender);
    if (!key) return this.logout(`unknown API key ${sender} (SenderCompID must be the key id)`);
    const sentAt = parseFixTime(sendingTime);
    if (!Number.isFinite(sentAt)) return this.logout('SendingTime (52) missing or malformed');
    if (Math.abs(this.deps.svc.node.now() - sentAt) > MAX_SKEW_MS) return this.logout('SendingTime (52) is more than 5 s away from the exchange clock');
    const signature = m.get(96);
    if (!signature) return this.logout('RawData (96) must hold the logon signature');
    const publicKey = publicKeyFromPem(key.publicKeyPem);
    const ok =
      publicKey.asymmetricKeyType === 'rsa' &&
      verify(
        'sha256',
        Buffer.from(logonPreHash(sendingTime, 'A', seqRaw, sender, target)),
        { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
        Buffer.from(signature, 'base64'),
      );
    if (!ok) return this.logout('logon signature does not verify');
    if ((m.get(98) ?? '0') !== '0') return this.logout('EncryptMethod (98) must be 0');
    if (m.get(1137) !== '9') return this.logout('DefaultApplVerID (1137) must be 9 (FIX50SP2)');
    const hb = Number(m.get(108) ?? '30');
    if (!Number.isSafeInteger(hb) || hb < 3) return this.logout('HeartBtInt (108) must be at least 3 seconds');
    const reset = m.get(141) === 'Y';
    if (SESSION_TYPES[this.type].resetRequired && !reset) return this.logout(`ResetSeqNumFlag (141) must be Y on ${this.type}`);
    const seq = Number(seqRaw);
    if (!Number.isSafeInteger(seq) || seq < 1) return this.logout('MsgSeqNum (34) missing or not a positive integer');
    if (!this.deps.claim(sender, this.type, this)) return this.logout(`a ${this.type} session for this key is already logged on`);

    const store = SESSION_TYPES[this.type].retransmit ? this.deps.seqStore(sender, this.type) : { nextIn: 1, nextOut: 1, sent: new Map() };
    if (reset) {
      store.nextIn = 1;
      store.nextOut = 1;
      store.sent.clear();
      if (seq !== 1) {
        this.deps.release(sender, this.type, this);
        return this.logout('MsgSeqNum (34) must be 1 with ResetSeqNumFlag=Y');
      }
    } else if (seq < store.nextIn) {
      this.deps.release(sender, this.type, this);
      return this.logout(`MsgSeqNum too low, expecting ${store.nextIn} but received ${seq}`);
    }
    const gap = seq > store.nextIn ? store.nextIn : 0;
    store.nextIn = seq + 1;
    this.seq = store;
    this.heartbeatMs = hb * 1000;
    this.cancelOnDisconnect = m.get(8013) === 'Y';
    this.trader = {
      userId: key.caller.userId,
      subaccount: key.caller.subaccount,
      canWrite: key.caller.scopes.includes('write'),
      useDollars: m.get(21005) === 'Y',
    };
    this.gateway = orderGateway(this.deps.svc, this.trader);
    this.state = 'active';
    this.unlisten = this.deps.svc.node.onEvents((events) => this.onEvents(events));
    this.send('A', [
      [98, 0],
      [108, hb],
      [1137, 9],
      ...(reset ? ([[141, 'Y']] as Fields) : []),
    ]);
    if (gap) {
      this.send('2', [
        [7, gap],
        [16, 0],
      ]);
    }
  }

  private onResendRequest(m: FixMessage): void {
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
      const kept = SESSION_TYPES[this.type].retransmit ? this.seq.sent.get(s) : undefined;
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

  // ------------------------------------------------------------------ order entry

  private orderReject(m: FixMessage, text: string): void {
    this.send('8', [
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
    this.send('9', [
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
      const o = await this.gateway!.create(m);
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

  private async onCancel(m: FixMessage): Promise<() => void> {
    let order: OrderView | undefined;
    try {
      order = this.gateway!.ownOrder(m, 'cancel');
      const track = this.track(order.order_id, order.fill_count);
      track.busy ??= [];
      const r = await this.gateway!.cancel(m);
      return () => this.settle(r.order, '4', [[41, r.origClOrdId]], m.get(11));
    } catch (err) {
      if (!(err instanceof FixReject)) throw err;
      const text = err.message;
      const o = order;
      return () => {
        if (o) this.release(o.order_id);
        this.cancelReject(m, '1', text, o ? (this.deps.svc.node.core.engine.getOrder(o.order_id) ?? o) : undefined);
      };
    }
  }

  private async onReplace(m: FixMessage): Promise<() => void> {
    let order: OrderView | undefined;
    try {
      order = this.gateway!.ownOrder(m, 'cancel');
      const track = this.track(order.order_id, order.fill_count);
      track.busy ??= [];
      const r = await this.gateway!.replace(m);
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
        this.cancelReject(m, '2', text, o ? (this.deps.svc.node.core.engine.getOrder(o.order_id) ?? o) : undefined);
      };
    }
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
    const o = this.deps.svc.node.core.engine.getOrder(orderId);
    for (const f of waiting) {
      t.cum += f.count;
      if (o) this.send('8', fillReport(o, f, this.trader!));
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
    const body = execReport(o, execType, this.trader!, extra);
    if (clOrdId !== undefined) body[1] = [11, clOrdId];
    this.send('8', body);
    for (const f of after) this.send('8', fillReport(o, f, this.trader!));
  }

  /** Drop copy: the account's orders as they change, whoever entered them. */
  private readonly dcSeen = new Map<string, { price: number; count: number; fill: number }>();
  private dropCopy(events: readonly ExchangeEvent[]): void {
    const t = this.trader!;
    for (const e of events) {
      if (e.type === 'fill') {
        const f = (e as { fill: FillView }).fill;
        if (f.user_id !== t.userId) continue;
        const o = this.deps.svc.node.core.engine.getOrder(f.order_id);
        if (o) this.send('8', fillReport(o, f, t));
        continue;
      }
      if (e.type !== 'order') continue;
      const o = (e as { order: OrderView }).order;
      if (o.user_id !== t.userId || (t.subaccount !== null && o.subaccount !== t.subaccount)) continue;
      const seen = this.dcSeen.get(o.order_id);
      this.dcSeen.set(o.order_id, { price: o.yes_price, count: o.initial_count, fill: o.fill_count });
      if (o.status === 'canceled') {
        this.dcSeen.delete(o.order_id);
        this.send('8', execReport(o, '4', t));
      } else if (!seen) this.send('8', execReport(o, '0', t));
      else if (seen.fill === o.fill_count && (seen.price !== o.yes_price || seen.count !== o.initial_count)) this.send('8', execReport(o, '5', t));
      if (o.status === 'executed') this.dcSeen.delete(o.order_id);
    }
  }

  private onEvents(events: readonly ExchangeEvent[]): void {
    if (this.state !== 'active' || !this.trader) return;
    if (SESSION_TYPES[this.type].dropCopy) return this.dropCopy(events);
    for (const e of events) {
      if (e.type !== 'fill') continue;
      const f = (e as { fill: FillView }).fill;
      if (f.user_id !== this.trader.userId) continue;
      const t = this.mine.get(f.order_id);
      if (t) {
        if (t.busy) t.busy.push(f);
        else {
          t.cum += f.count;
          const o = this.deps.svc.node.core.engine.getOrder(f.order_id);
          if (o) this.send('8', fillReport(o, f, this.trader));
        }
        continue;
      }
      this.creating.get(f.client_order_id)?.push(f);
    }
  }

  // ------------------------------------------------------------------ the end

  private onSocketClosed(): void {
    if (this.state === 'closed') return;
    const wasActive = this.state === 'active' || this.state === 'closing';
    this.state = 'closed';
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    if (this.keyId && this.trader) this.deps.release(this.keyId, this.type, this);
    if (wasActive && this.cancelOnDisconnect && this.trader) void this.cancelResting();
    this.deps.onClose(this);
  }

  /** CancelOrdersOnDisconnect: every order this session entered that still rests. */
  private async cancelResting(): Promise<void> {
    const engine = this.deps.svc.node.core.engine;
    for (const id of this.mine.keys()) {
      const o = engine.getOrder(id);
      if (!o || o.status !== 'resting') continue;
      await this.deps.svc.node.submit({ type: 'cancelOrder', nowMs: this.deps.svc.node.now(), userId: o.user_id, orderId: o.order_id, subaccount: o.subaccount });
    }
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
