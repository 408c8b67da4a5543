// Test-only: a FIX initiator built on jspurefix (an engine nobody on this project wrote: its own
// framing, sequence numbers, gap detection, ResendRequest, PossDup handling and dictionary-driven
// encoding and decoding). Loaded only by *.int.test.ts files; never imported by the exchange.
// The dictionaries are the project's own QuickFIX-format ones (docs/fix/KalshiFIXT11.xml for the
// transport, docs/fix/KalshiFIX50SP2.xml for the application), merged into the one file jspurefix's
// QuickFIX parser reads (header, trailer and session messages from FIXT11, the rest from 50SP2).
// The service's Logon signature (RSA-PSS over SendingTime, MsgType, MsgSeqNum, SenderCompID,
// TargetCompID) is put in RawData (96; jspurefix writes RawDataLength 95 before it) by fixing the
// transmitter's clock for the Logon, so the SendingTime it encodes is the one signed.
import 'reflect-metadata';
import { constants, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AsciiSession } from 'jspurefix/dist/transport';
import type { MsgView } from 'jspurefix/dist/buffer/msg-view';
import { SessionContainer, DITokens } from 'jspurefix/dist/runtime';
import type { IJsFixConfig } from 'jspurefix/dist/config';
import type { ILooseObject } from 'jspurefix/dist/collections/collection';

const DOCS = path.join(__dirname, '../../docs/fix');

function section(xml: string, tag: string): string {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? m[1]! : '';
}

/** One QuickFIX file from the project's two: FIXT11's header, trailer and session messages, 50SP2's application messages, every field once. */
export function mergedDictionary(): string {
  const t = readFileSync(path.join(DOCS, 'KalshiFIXT11.xml'), 'utf8');
  const a = readFileSync(path.join(DOCS, 'KalshiFIX50SP2.xml'), 'utf8');
  const fields = new Map<string, string>();
  for (const xml of [t, a]) {
    for (const f of section(xml, 'fields').match(/<field number="\d+"[^>]*?(\/>|[^/]>[\s\S]*?<\/field>)/g) ?? []) {
      const num = /number="(\d+)"/.exec(f)![1]!;
      // RawData as a STRING: jspurefix's DATA encoding writes RawDataLength with the wire's SOH
      // but RawData's own delimiter as its log '|', which the exchange then reads as one field
      if (!fields.has(num)) fields.set(num, num === '96' ? f.replace('type="DATA"', 'type="STRING"') : f);
    }
  }
  const xml = [
    '<fix type="FIX" major="5" minor="0" servicepack="2">',
    `<header>${section(t, 'header')}</header>`,
    `<messages>${section(t, 'messages')}${section(a, 'messages')}</messages>`,
    `<trailer>${section(t, 'trailer')}</trailer>`,
    '<components/>',
    `<fields>${[...fields.values()].join('\n')}</fields>`,
    '</fix>',
  ].join('\n');
  const dir = mkdtempSync(path.join(tmpdir(), 'jspurefix-dict-'));
  const file = path.join(dir, 'KalshiMerged.xml');
  writeFileSync(file, xml);
  return file;
}

function utcStamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

export interface Received {
  msgType: string;
  obj: ILooseObject;
  seq: number;
  possDup: boolean;
}

interface Transmitter {
  time: Date | null;
  msgSeqNum: number;
}

/** A jspurefix session that signs its Logon the service's way and records what the application layer got. */
export class KalshiJsSession extends AsciiSession {
  readonly got: Received[] = [];
  readonly admin: Received[] = [];
  ready = false;
  stopped = false;
  /** The last MsgSeqNum this side sent, and the highest it received (what a reconnect without reset starts from). */
  sentSeq = 0;
  /** The MsgType of everything the engine encoded (its own session messages included). */
  readonly sentTypes: string[] = [];
  peerSeq = 0;
  private waiters: Array<() => void> = [];

  constructor(
    config: IJsFixConfig,
    private readonly pem: string,
    private nextSeq?: number,
  ) {
    super(config);
    this.logReceivedMsgs = true;
  }

  protected override send(msgType: string, obj: ILooseObject, callback?: never): void {
    if (msgType === 'A') {
      const tx = (this.transport as unknown as { transmitter: Transmitter }).transmitter;
      const now = new Date();
      tx.time = now;
      // jspurefix's file store writes behind the socket, so a reconnect right after a Logout may
      // read a number it already used: the caller says where its numbers go on
      if (this.nextSeq !== undefined) tx.msgSeqNum = this.nextSeq;
      this.nextSeq = undefined;
      const d = this.config.description;
      const pre = [utcStamp(now), 'A', String(tx.msgSeqNum), d.SenderCompId, d.TargetCompID].join('\x01');
      const sig = sign('sha256', Buffer.from(pre), { key: this.pem, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }).toString('base64');
      super.send(msgType, { ...obj, RawData: sig }, callback);
      tx.time = null;
      this.noteSent();
      return;
    }
    super.send(msgType, obj, callback);
    this.noteSent();
  }

  private noteSent(): void {
    const tx = (this.transport as unknown as { transmitter?: Transmitter } | null)?.transmitter;
    if (tx) this.sentSeq = Math.max(this.sentSeq, tx.msgSeqNum - 1);
  }

  /** Sends an application message through the engine (it numbers and frames it). */
  sendApp(msgType: string, obj: ILooseObject): void {
    this.send(msgType, obj);
  }

  private record(list: Received[], msgType: string, view: MsgView): void {
    const hdr = view.getView('StandardHeader');
    const seq = Number(view.getTyped('MsgSeqNum') ?? hdr?.getTyped('MsgSeqNum'));
    if (Number.isFinite(seq)) this.peerSeq = Math.max(this.peerSeq, seq);
    list.push({
      msgType,
      obj: (view.toObject() ?? {}) as ILooseObject,
      seq: Number(view.getTyped('MsgSeqNum') ?? hdr?.getTyped('MsgSeqNum')),
      possDup: (view.getTyped('PossDupFlag') ?? hdr?.getTyped('PossDupFlag')) === true,
    });
    for (const w of this.waiters.splice(0)) w();
  }

  protected override onMsg(msgType: string, view: MsgView): void {
    this.record(this.admin, msgType, view);
    super.onMsg(msgType, view);
  }

  protected onApplicationMsg(msgType: string, view: MsgView): void {
    this.record(this.got, msgType, view);
  }

  protected onReady(): void {
    this.ready = true;
    for (const w of this.waiters.splice(0)) w();
  }

  protected onStopped(): void {
    this.stopped = true;
    for (const w of this.waiters.splice(0)) w();
  }

  protected onLogon(): boolean {
    return true;
  }

  /** JSFIX_TRACE=1 prints every message the engine decodes and encodes. */
  protected onDecoded(msgType: string, txt: string): void {
    if (process.env.JSFIX_TRACE) console.log(`<- ${txt}`);
  }

  protected onEncoded(msgType: string, txt: string): void {
    this.sentTypes.push(msgType);
    if (process.env.JSFIX_TRACE) console.log(`-> ${txt}`);
  }

  /** Waits until `pred` holds over what was received (the engine's own delivery; no fixed sleeps). */
  async until<T>(pred: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`jspurefix: no ${what}; got ${this.got.map((r) => r.msgType).join(',')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  logout(): void {
    this.done();
  }
}

export interface JsClientOpts {
  port: number;
  keyId: string;
  pem: string;
  target: string;
  dictionary: string;
  reset: boolean;
  /** jspurefix's own file store for the sequence numbers (a reconnect without reset recovers them from it). */
  storeDir?: string;
  /** The MsgSeqNum of the Logon when not resetting (the last one sent before + 1). */
  nextSeq?: number;
  logon?: ILooseObject;
}

/** Starts a jspurefix TCP initiator; resolves once the engine says the session is ready. */
export async function startJsClient(o: JsClientOpts): Promise<{ session: KalshiJsSession; ended: Promise<unknown> }> {
  const description = {
    application: { type: 'initiator', name: `js-${o.target}`, protocol: 'ascii', dictionary: o.dictionary, tcp: { host: '127.0.0.1', port: o.port }, reconnectSeconds: 0 },
    Username: '',
    Password: '',
    EncryptMethod: 0,
    ResetSeqNumFlag: o.reset,
    HeartBtInt: 30,
    SenderCompId: o.keyId,
    TargetCompID: o.target,
    BeginString: 'FIXT.1.1',
    // the exchange's framing takes up to 6 digits of BodyLength; jspurefix pads to 7 by default
    BodyLengthChars: 6,
    ...(o.storeDir ? { store: { type: 'file', directory: o.storeDir } } : {}),
    Logon: { DefaultApplVerID: '9', ...(o.reset ? {} : { ResetSeqNumFlag: false }), ...o.logon },
  };
  const sc = new SessionContainer();
  sc.registerGlobal('error');
  const container = await sc.makeSystem(description as never);
  let session: KalshiJsSession | null = null;
  container.register(DITokens.FixSession, {
    useFactory: (c) => (session = new KalshiJsSession(c.resolve<IJsFixConfig>(DITokens.IJsFixConfig), o.pem, o.nextSeq)),
  });
  const entity = container.resolve<{ start(): Promise<unknown> }>(DITokens.FixEntity);
  const ended = entity.start();
  ended.catch(() => undefined);
  const deadline = Date.now() + 15_000;
  while (!(session as KalshiJsSession | null)?.ready) {
    if (Date.now() > deadline) throw new Error(`jspurefix: ${o.target} logon did not complete`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { session: session!, ended };
}
