// The terminal's side of one FIX session (FIXT.1.1 / FIX 5.0 SP2): a TCP connection to the
// exchange's FIX gateway, the signed Logon, sequence numbers, heartbeats and test requests,
// Logout, and a reconnect with backoff while the session is wanted. Framing is the shared codec
// (src-shared/fix/codec.ts, the one the embedded exchange's acceptor uses). The Logon is signed
// here in main with the profile's key (api/signer's RSA-PSS), over the service's pre-hash string
// SendingTime SOH MsgType SOH MsgSeqNum SOH SenderCompID SOH TargetCompID; the key never leaves.
// Every session asks for ResetSeqNumFlag=Y (the service requires it on NR and DC): a reconnect
// starts at 1, and what was missed is read back over REST by the caller.
// A signed Logon can be replayed by whoever receives it (the signature covers no destination), so
// it is signed only for the destination the profile's key is bound to: right before signing, the
// endpoint this session connected to, and the socket's peer port, must be the one `bound()` names
// now; otherwise nothing is signed and the session stops.
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { KeyObject } from 'node:crypto';
import { FixParser, SOH, encode, fixTime, type FixMessage } from '../../src-shared/fix/codec';
import { signMessage } from '../api/signer';
import { NudgeBound } from '../base/nudge';

export type Fields = Array<readonly [number, string | number]>;
export type FixTarget = 'KalshiNR' | 'KalshiRT' | 'KalshiDC';
export type FixPhase = 'down' | 'connecting' | 'up' | 'stopped';

export interface FixEndpoint {
  host: string;
  port: number;
  /** TLS (the real gateway requires it; the embedded exchange's loopback port is plain TCP) */
  tls?: boolean;
}

export interface FixInitiatorOptions {
  endpoint: FixEndpoint;
  /** where the key may sign a Logon now (read right before signing), or why nowhere */
  bound: () => FixEndpoint | string;
  target: FixTarget;
  signer: { keyId: string; key: KeyObject };
  /** the exchange's clock as main knows it (SendingTime must be within 5 s of it) */
  now?: () => number;
  heartbeatSec?: number;
  /** Logon flags beyond the required ones (e.g. 8013 CancelOrdersOnDisconnect, 21005 UseDollars) */
  logonFlags?: Fields;
  onMessage(m: FixMessage): void;
  onPhase?(phase: FixPhase, detail: string): void;
  /** ms before the first reconnect (doubling to 10 s); default 500 */
  retryMs?: number;
}

/** The pre-hash string of a signed Logon (docs.kalshi.com/fix/authentication). */
export function logonPreHash(sendingTime: string, seqNum: number, sender: string, target: string): string {
  return [sendingTime, 'A', String(seqNum), sender, target].join(SOH);
}

/** the longest wait before a reconnect (the first is retryMs, doubling to this) */
const MAX_RETRY_MS = 10_000;

export class FixInitiator {
  private socket: Socket | null = null;
  private parser = new FixParser();
  private nextOut = 1;
  private nextIn = 1;
  private lastIn = 0;
  private lastOut = 0;
  private testReq: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  /** how soon a REST answer may cut the reconnect wait short (nudge) */
  private readonly nudges = new NudgeBound(MAX_RETRY_MS);
  private wanted = false;
  phase: FixPhase = 'down';
  detail = 'not started';

  constructor(private readonly opts: FixInitiatorOptions) {
    this.retryMs = opts.retryMs ?? 500;
  }

  get up(): boolean {
    return this.phase === 'up';
  }

  private setPhase(phase: FixPhase, detail: string): void {
    this.phase = phase;
    this.detail = detail;
    this.opts.onPhase?.(phase, detail);
  }

  start(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.connect();
  }

  private now(): number {
    return Math.round(this.opts.now?.() ?? Date.now());
  }

  /**
   * The exchange answered on another path (a REST call): a session waiting out its reconnect
   * delay (up to 10 s) tries now, as the stream does (StreamConnection.nudge), so that FIX orders
   * are not refused for seconds after the exchange is back while REST ones go through. Bounded by
   * NudgeBound (1 s since the last try, doubling with each nudge taken until logged on again).
   */
  nudge(): void {
    if (!this.wanted || !this.retry) return;
    if (!this.nudges.take()) return;
    clearTimeout(this.retry);
    this.connect();
  }

  private connect(): void {
    // a wait it ended (its timer, or a nudge) is no longer one a nudge could cut short
    this.retry = null;
    if (!this.wanted) return;
    this.nudges.tried();
    const { host, port, tls } = this.opts.endpoint;
    this.setPhase('connecting', `connecting to ${host}:${port} (${this.opts.target})`);
    this.parser = new FixParser();
    this.nextOut = 1;
    this.nextIn = 1;
    const sock: Socket = tls ? connectTls({ host, port, servername: host }) : connect({ host, port, noDelay: true });
    this.socket = sock;
    sock.on(tls ? 'secureConnect' : 'connect', () => this.logon());
    sock.on('data', (chunk: Buffer) => {
      if (this.socket !== sock) return;
      this.lastIn = Date.now();
      for (const r of this.parser.push(chunk)) {
        if (!r.ok) {
          this.drop(`garbled message from the exchange: ${r.reason}`);
          return;
        }
        this.onMessage(r.msg);
      }
    });
    sock.on('error', (e) => {
      if (this.socket === sock) this.detail = e.message;
    });
    sock.on('close', () => {
      if (this.socket !== sock) return;
      this.socket = null;
      this.stopTimer();
      if (!this.wanted) return;
      const why = this.phase === 'up' || this.phase === 'connecting' ? this.detail : 'closed';
      this.setPhase('down', why);
      this.retry = setTimeout(() => {
        this.retry = null;
        this.connect();
      }, this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    });
  }

  private logon(): void {
    const refused = this.unbound();
    if (refused !== null) {
      // nothing signed: no reconnect either (a settings change starts a new session)
      this.wanted = false;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
      this.setPhase('stopped', `no Logon signed: ${refused}`);
      this.socket?.destroy();
      this.socket = null;
      return;
    }
    const sendingTime = fixTime(this.now());
    const seq = this.nextOut;
    const sig = signMessage(this.opts.signer.key, logonPreHash(sendingTime, seq, this.opts.signer.keyId, this.opts.target));
    const hb = this.opts.heartbeatSec ?? 30;
    this.write('A', [[98, 0], [108, hb], [141, 'Y'], [1137, 9], [96, sig], ...(this.opts.logonFlags ?? [])], sendingTime);
  }

  /** Why this connection may not carry the key's signed Logon, or null when it may. */
  private unbound(): string | null {
    const e = this.opts.endpoint;
    let b: FixEndpoint | string;
    try {
      b = this.opts.bound();
    } catch (err) {
      b = (err as Error).message;
    }
    const at = `${e.host}:${e.port}${e.tls ? ' (TLS)' : ''}`;
    if (typeof b === 'string') return `${at} is not where this key is bound (${b})`;
    if (b.host !== e.host || b.port !== e.port || Boolean(b.tls) !== Boolean(e.tls)) {
      return `${at} is not where this key is bound (${b.host}:${b.port}${b.tls ? ' (TLS)' : ''})`;
    }
    const peer = this.socket?.remotePort;
    if (peer !== e.port) return `the connection's peer port ${String(peer)} is not ${e.port}`;
    return null;
  }

  private write(msgType: string, body: Fields, sendingTime = fixTime(this.now())): number {
    const seq = this.nextOut++;
    this.lastOut = Date.now();
    this.socket?.write(encode([[35, msgType], [49, this.opts.signer.keyId], [56, this.opts.target], [34, seq], [52, sendingTime], ...body]), 'latin1');
    return seq;
  }

  /** Sends an application message; the seq it went out with, or null when the session is not up. */
  send(msgType: string, body: Fields): number | null {
    if (this.phase !== 'up' || !this.socket) return null;
    return this.write(msgType, body);
  }

  private onMessage(m: FixMessage): void {
    const seq = m.seqNum;
    if (m.msgType === '4') {
      const next = Number(m.get(36));
      if (Number.isSafeInteger(next)) this.nextIn = next;
      return;
    }
    if (Number.isSafeInteger(seq)) {
      if (seq < this.nextIn && m.get(43) !== 'Y') return this.drop(`MsgSeqNum too low from the exchange: expected ${this.nextIn}, got ${seq}`);
      // no retransmission is asked for: what a gap held is read back over REST by the caller
      this.nextIn = seq + 1;
    }
    switch (m.msgType) {
      case 'A':
        this.retryMs = this.opts.retryMs ?? 500;
        this.nudges.up();
        this.startTimer(Number(m.get(108) ?? this.opts.heartbeatSec ?? 30));
        this.setPhase('up', `logged on to ${this.opts.target} at ${this.opts.endpoint.host}:${this.opts.endpoint.port}`);
        return;
      case '0':
        if (this.testReq !== null && m.get(112) === this.testReq) this.testReq = null;
        return;
      case '1':
        this.write('0', [[112, m.get(112) ?? '']]);
        return;
      case '5': {
        const why = m.get(58) ?? 'no reason given';
        this.detail = `logged out by the exchange: ${why}`;
        if (this.phase === 'up') this.write('5', []);
        this.socket?.end();
        return;
      }
      case '2':
        // we keep no application messages to resend: gap-fill all of it
        this.write('4', [[123, 'Y'], [36, this.nextOut + 1]]);
        return;
      default:
        this.opts.onMessage(m);
    }
  }

  private startTimer(hbSec: number): void {
    this.stopTimer();
    const hb = Math.max(1, hbSec) * 1000;
    this.lastIn = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      if (now - this.lastOut >= hb) this.write('0', []);
      if (this.testReq === null && now - this.lastIn >= hb * 1.5) {
        this.testReq = `T${now}`;
        this.write('1', [[112, this.testReq]]);
      } else if (this.testReq !== null && now - this.lastIn >= hb * 2.5) {
        this.drop('no answer to a TestRequest: the connection is dead');
      }
    }, 250);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.testReq = null;
  }

  private drop(reason: string): void {
    this.detail = reason;
    this.socket?.destroy();
  }

  /** Logout (when up) and close; no reconnect after this. */
  async stop(): Promise<void> {
    this.wanted = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.stopTimer();
    const sock = this.socket;
    if (sock) {
      if (this.phase === 'up') this.write('5', [[58, 'terminal closing the session']]);
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          sock.destroy();
          resolve();
        }, 1000);
        t.unref();
        sock.once('close', () => {
          clearTimeout(t);
          resolve();
        });
        sock.end();
      });
    }
    this.socket = null;
    this.setPhase('stopped', 'stopped');
  }
}
