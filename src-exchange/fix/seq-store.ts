// Sequence state of one FIX session: the next numbers in and out and, on a retransmit session,
// the application messages sent (for ResendRequest). A retransmit session's state is kept in a
// file beside the journal (`<data dir>/fix/<key>.<session>.seq`), one JSON line per change,
// written synchronously before the message reaches the socket: a kill -9 of the exchange loses
// no number it used and no message it sent (the page cache outlives the process). A torn last
// line (the kill landed mid-write) is ignored on load.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Fields, FixTrader } from './orders';
import { jsonLines } from './jsonl';

export interface SentMessage {
  fields: Fields;
  msgType: string;
  sentAt: number;
}

/** How many sent messages a retransmit session keeps for resending. */
export const MAX_RETAINED = 10_000;

type Line = { i: number } | { o: number; t?: string; at?: number; f?: Fields } | { r: 1 } | { m: string } | { d: string } | { u: FixTrader; s?: 1 };

export class SeqStore {
  nextIn = 1;
  nextOut = 1;
  readonly sent = new Map<number, SentMessage>();
  /** orders the session entered that can still change (KalshiRT) */
  readonly owned = new Set<string>();
  /** who the session last logged on as (KalshiRT) */
  trader: FixTrader | null = null;
  /** the last Logon asked for settlement reports (ReceiveSettlementReports 20127=Y) */
  settlements = false;
  private fd: number | null = null;
  private lines = 0;

  /** `file` null: kept in memory only (sessions without retransmission). */
  constructor(private readonly file: string | null = null) {
    if (file === null) return;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (existsSync(file)) this.load(readFileSync(file, 'utf8'));
    if (this.lines > MAX_RETAINED * 4) this.compact();
    this.fd = openSync(file, 'a', 0o600);
  }

  private load(text: string): void {
    for (const line of jsonLines<Line>(text)) {
      this.lines++;
      this.apply(line);
    }
  }

  private apply(line: Line): void {
    if ('m' in line) this.owned.add(line.m);
    else if ('d' in line) this.owned.delete(line.d);
    else if ('u' in line) {
      this.trader = line.u;
      this.settlements = line.s === 1;
    }
    else if ('r' in line) {
      this.nextIn = 1;
      this.nextOut = 1;
      this.sent.clear();
    } else if ('i' in line) this.nextIn = Math.max(this.nextIn, line.i);
    else {
      this.nextOut = Math.max(this.nextOut, line.o + 1);
      if (line.t !== undefined && line.f !== undefined) this.keep(line.o, { msgType: line.t, fields: line.f, sentAt: line.at ?? 0 });
    }
  }

  private keep(seq: number, m: SentMessage): void {
    this.sent.set(seq, m);
    if (this.sent.size > MAX_RETAINED) this.sent.delete(this.sent.keys().next().value!);
  }

  private write(line: Line): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    if (++this.lines > MAX_RETAINED * 4) {
      closeSync(this.fd);
      this.compact();
      this.fd = openSync(this.file!, 'a', 0o600);
    }
  }

  /** Rewrite the file as the present state (on load, when it has grown long). */
  private compact(): void {
    const file = this.file!;
    const out: string[] = [JSON.stringify({ i: this.nextIn }), JSON.stringify({ o: this.nextOut - 1 })];
    if (this.trader) out.push(JSON.stringify({ u: this.trader, ...(this.settlements ? { s: 1 } : {}) }));
    for (const id of this.owned) out.push(JSON.stringify({ m: id }));
    for (const [seq, m] of this.sent) out.push(JSON.stringify({ o: seq, t: m.msgType, at: m.sentAt, f: m.fields }));
    writeFileSync(`${file}.tmp`, `${out.join('\n')}\n`, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.lines = out.length;
  }

  /** The next number expected from the peer is `next`. */
  setNextIn(next: number): void {
    this.nextIn = next;
    this.write({ i: next });
  }

  /** Take the next outgoing number; an application message is kept for resending when `keep`. */
  takeOut(msgType: string, fields: Fields, sentAt: number, keep: boolean): number {
    const seq = this.nextOut++;
    if (keep) {
      this.keep(seq, { msgType, fields, sentAt });
      this.write({ o: seq, t: msgType, at: sentAt, f: fields });
    } else this.write({ o: seq });
    return seq;
  }

  /** The session owns this order from now on (or, `false`, no longer: it cannot change again). */
  own(orderId: string, owned = true): void {
    if (owned === this.owned.has(orderId)) return;
    if (owned) this.owned.add(orderId);
    else this.owned.delete(orderId);
    this.write(owned ? { m: orderId } : { d: orderId });
  }

  setTrader(t: FixTrader, settlements = false): void {
    if (JSON.stringify(t) === JSON.stringify(this.trader) && settlements === this.settlements) return;
    this.trader = { ...t };
    this.settlements = settlements;
    this.write({ u: this.trader, ...(settlements ? { s: 1 as const } : {}) });
  }

  /** ResetSeqNumFlag: both numbers back to 1, nothing kept (the owned orders stay the session's). */
  reset(): void {
    this.nextIn = 1;
    this.nextOut = 1;
    this.sent.clear();
    this.write({ r: 1 });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
