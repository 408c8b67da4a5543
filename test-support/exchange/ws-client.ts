// A small stream client for the integration tests: opens the socket (signed or not), keeps
// every frame, checks each against the wire schemas (src-shared/wire/stream.ts), and waits for
// replies and data. Test support only; the terminal's own client lives in src-main/stream.
import WebSocket from 'ws';
import { constants, sign } from 'node:crypto';
import { WS_PATH } from '../../src-shared/endpoints';
import { parseStreamFrame, type StreamMessage } from '../../src-shared/wire/stream';

export interface Frame {
  raw: Record<string, unknown>;
  msg: StreamMessage;
}

export interface OpenOptions {
  /** sign the upgrade with this key */
  key?: { keyId: string; privateKeyPem: string; prefix?: string };
  /** answer the server's pings (default true) */
  autoPong?: boolean;
}

/** The three upgrade headers, signed as the protocol notes (docs/spec/protocol-notes.md) say (RSA-PSS over ts + GET + path). */
export function signedUpgradeHeaders(keyId: string, privateKeyPem: string, prefix = 'SVC-', nowMs = Date.now(), path = WS_PATH): Record<string, string> {
  const signature = sign('sha256', Buffer.from(`${nowMs}GET${path}`), {
    key: privateKeyPem,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
  return { [`${prefix}ACCESS-KEY`]: keyId, [`${prefix}ACCESS-TIMESTAMP`]: String(nowMs), [`${prefix}ACCESS-SIGNATURE`]: signature };
}

/** Resolves with the upgrade's HTTP status when the server refuses it. */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (err) => reject(err));
  });
}

export class TestStream {
  readonly frames: Frame[] = [];
  /** frames that failed their schema: must stay empty */
  readonly malformed: string[] = [];
  pings = 0;
  closed: { code: number; reason: string } | null = null;
  private nextId = 1;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      const parsed = parseStreamFrame(text);
      if (!parsed.ok) this.malformed.push(`${parsed.reason}: ${text.slice(0, 300)}`);
      else this.frames.push({ raw: JSON.parse(text) as Record<string, unknown>, msg: parsed.msg });
      this.wake();
    });
    ws.on('ping', () => {
      this.pings++;
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string, opts: OpenOptions = {}): Promise<TestStream> {
    const headers = opts.key ? signedUpgradeHeaders(opts.key.keyId, opts.key.privateKeyPem, opts.key.prefix) : {};
    const ws = new WebSocket(url, { headers, perMessageDeflate: false, autoPong: opts.autoPong ?? true });
    const s = new TestStream(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(s));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Send raw text (for malformed frames) or an object as JSON. */
  sendRaw(payload: string | object): void {
    this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  /** Send a command with a fresh id; returns the id. */
  send(cmd: string, params?: Record<string, unknown>): number {
    const id = this.nextId++;
    this.sendRaw(params === undefined ? { id, cmd } : { id, cmd, params });
    return id;
  }

  /** Wait until `pred` holds over the frames received so far. */
  async until<T>(pred: (frames: readonly Frame[]) => T | undefined | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = pred(this.frames);
      if (v !== undefined && v !== false) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; ${this.state()}; last frames: ${this.frames.slice(-5).map((f) => short(JSON.stringify(f.raw))).join(' | ')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** How the connection stands, for a wait that gave up: open or closed (and why), what came. */
  state(): string {
    const socket = (this.ws as unknown as { _socket?: { isPaused?: () => boolean; readableLength?: number } })._socket;
    const paused = socket?.isPaused?.() ? ', its socket paused' : '';
    const closed = this.closed ? `closed ${this.closed.code}${this.closed.reason ? ` (${this.closed.reason})` : ''}` : ['connecting', 'open', 'closing', 'closed'][this.ws.readyState];
    return `connection ${closed}${paused}; ${this.frames.length} frames (${this.malformed.length} malformed), ${this.pings} pings received`;
  }

  /** The replies (frames with this id), once `count` have arrived. */
  replies(id: number, count = 1, timeoutMs = 5_000): Promise<Frame[]> {
    return this.until(
      (fs) => {
        const got = fs.filter((f) => f.raw.id === id);
        return got.length >= count ? got : undefined;
      },
      timeoutMs,
      `${count} replies to #${id}`,
    );
  }

  /** Send a command and wait for its first reply. */
  async command(cmd: string, params?: Record<string, unknown>): Promise<Frame> {
    const id = this.send(cmd, params);
    return (await this.replies(id))[0]!;
  }

  /** Data frames (no id) of a type, optionally on one sid. */
  data(type: string, sid?: number): Frame[] {
    return this.frames.filter((f) => f.msg.type === type && f.raw.id === undefined && (sid === undefined || f.raw.sid === sid));
  }

  /** Wait for an event-free moment: a round trip through the server (list_subscriptions). */
  async sync(): Promise<void> {
    await this.command('list_subscriptions');
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
      setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 1_000).unref();
    });
  }
}

/** The node as the tests drive it (a market made and opened through ordinary journaled commands). */
interface NodeLike {
  now(): number;
  submit(cmd: { type: string; nowMs: number; [k: string]: unknown }): Promise<{ ok: boolean; result: Record<string, unknown> }>;
}

export async function openTestMarket(node: NodeLike, ticker: string, eventTicker = `${ticker}-EV`, seriesTicker = 'WSTEST'): Promise<void> {
  const add = await node.submit({ type: 'addMarket', nowMs: node.now(), ticker, eventTicker, seriesTicker, title: `Test market ${ticker}` });
  if (!add.ok) throw new Error(`addMarket ${ticker}: ${JSON.stringify(add.result)}`);
  const open = await node.submit({ type: 'openMarket', nowMs: node.now(), ticker });
  if (!open.ok) throw new Error(`openMarket ${ticker}: ${JSON.stringify(open.result)}`);
}

/** A frame as a wait's error shows it: a book snapshot of thousands of levels cut to its start. */
function short(text: string): string {
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
}
