// Test support: an independent FIX client for the conformance and crash tests. It builds and
// reads raw tag=value text itself (its own BodyLength and CheckSum) and shares no code with the
// acceptor (src-shared/fix/codec.ts), so the two cannot agree on a mistake.
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { constants, sign } from 'node:crypto';

export const SOH = '\x01';
const HEAD = new RegExp(`^8=FIXT\\.1\\.1${SOH}9=(\\d+)${SOH}`);
const shown = (raw: string) => raw.split(SOH).join('|');

export function frame(fields: Array<[number, string | number]>): string {
  const body = fields.map(([k, v]) => `${k}=${v}${SOH}`).join('');
  const head = `8=FIXT.1.1${SOH}9=${Buffer.byteLength(body)}${SOH}`;
  let sum = 0;
  for (const b of Buffer.from(head + body)) sum = (sum + b) % 256;
  return `${head}${body}10=${String(sum).padStart(3, '0')}${SOH}`;
}

export function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/-/g, '').replace('T', '-').replace('Z', '');
}

export type Msg = Map<number, string> & { raw: string };

export class Client {
  readonly got: Msg[] = [];
  seq = 1;
  closed = false;
  private buf = '';
  private waiters: Array<() => void> = [];

  constructor(
    readonly sock: Socket,
    readonly keyId: string,
    readonly target: string,
  ) {
    sock.on('data', (d) => {
      this.buf += d.toString('latin1');
      for (;;) {
        const m = HEAD.exec(this.buf);
        if (!m) break;
        const end = m[0].length + Number(m[1]) + 7;
        if (this.buf.length < end) break;
        const raw = this.buf.slice(0, end);
        this.buf = this.buf.slice(end);
        const msg = new Map<number, string>() as Msg;
        msg.raw = raw;
        for (const part of raw.split(SOH)) if (part) msg.set(Number(part.split('=')[0]), part.slice(part.indexOf('=') + 1));
        this.got.push(msg);
      }
      this.wake();
    });
    sock.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  static async open(port: number, keyId: string, target = 'KalshiNR', sockets: Socket[] = []): Promise<Client> {
    const sock = connect({ host: '127.0.0.1', port });
    sockets.push(sock);
    await new Promise<void>((r, j) => sock.once('connect', () => r()).once('error', j));
    return new Client(sock, keyId, target);
  }

  /** Over TLS, trusting `ca` (the exchange's self-signed certificate) only. */
  static async openTls(port: number, ca: string | undefined, keyId: string, target = 'KalshiNR', sockets: Socket[] = []): Promise<Client> {
    const sock = connectTls({ host: '127.0.0.1', port, ...(ca !== undefined ? { ca } : {}) });
    sockets.push(sock);
    await new Promise<void>((r, j) => sock.once('secureConnect', () => r()).once('error', j));
    return new Client(sock, keyId, target);
  }

  send(msgType: string, body: Array<[number, string | number]>, opts: { seq?: number; sendingTime?: string } = {}): void {
    const seq = opts.seq ?? this.seq++;
    this.sock.write(frame([[35, msgType], [49, this.keyId], [56, this.target], [34, seq], [52, opts.sendingTime ?? utc(Date.now())], ...body]));
  }

  logon(pem: string, extra: Array<[number, string | number]> = [], opts: { sendingTime?: string; reset?: boolean } = {}): void {
    const sendingTime = opts.sendingTime ?? utc(Date.now());
    const seq = this.seq;
    const preHash = [sendingTime, 'A', String(seq), this.keyId, this.target].join(SOH);
    const sig = sign('sha256', Buffer.from(preHash), { key: pem, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }).toString('base64');
    const reset: Array<[number, string]> = opts.reset === false ? [] : [[141, 'Y']];
    this.send('A', [[98, 0], [108, 30], [1137, 9], [96, sig], ...reset, ...extra], { sendingTime });
  }

  async next(pred: (m: Msg) => boolean, what: string, timeoutMs = 10_000): Promise<Msg> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.got.find(pred);
      if (hit) {
        this.got.splice(this.got.indexOf(hit), 1);
        return hit;
      }
      if (this.closed && !this.got.some(pred)) throw new Error(`connection closed before ${what}; got ${this.got.map((m) => shown(m.raw)).join(' ; ')}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${this.got.map((m) => shown(m.raw)).join(' ; ')}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  type(msgType: string, what = `35=${msgType}`): Promise<Msg> {
    return this.next((m) => m.get(35) === msgType, what);
  }

  /** Resolves once the peer has closed the connection (throws if it stays open 10 s). */
  async untilClosed(): Promise<void> {
    await this.next(() => false, 'close').catch(() => undefined);
    if (!this.closed) throw new Error('the connection is still open');
  }
}

