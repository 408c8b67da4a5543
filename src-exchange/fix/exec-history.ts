// The execution reports of an account's orders however they were entered (REST, FIX, RFQ), kept
// by the acceptor for the drop copy (docs.kalshi.com/fix/drop-copy: EventResendRequest over the
// last 3 hours) and fed live to drop copy and listener sessions (docs.kalshi.com/fix/listener-sessions).
// An account's reports are kept from its first FIX Logon on (the real service keeps them from
// allowlisting on; "allowlisting does not backfill earlier events"). Each report has the ExecID of
// its execution event (orders.ts execIdOf), the one every session shows for it, so a range may
// start from an ExecID an order entry session reported. With a file (`<fix dir>/exec-history.jsonl`,
// beside the journal like the KalshiRT stores) the history survives an exchange restart: one JSON
// line per report, written synchronously as it is recorded, the 3-hour window kept on load.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ExchangeEvent } from '../state/domain';
import type { FillView, OrderView } from '../engine/types';
import { execIdOf, execReport, fillReport, type Fields, type FixTrader } from './orders';
import { jsonLines } from './jsonl';

export interface ExecEntry {
  execId: string;
  at: number;
  userId: string;
  subaccount: number;
  order: OrderView;
  execType: string;
  fill?: FillView;
}

export const LOOKBACK_MS = 3 * 3_600_000;
const MAX_PER_USER = 20_000;

/** The report's fields as a session shows them (its price unit), under the entry's ExecID. */
export function renderEntry(e: ExecEntry, t: FixTrader): Fields {
  const body = e.fill ? fillReport(e.order, e.fill, t) : execReport(e.order, e.execType, t);
  return body.map((f) => (f[0] === 17 ? ([17, e.execId] as const) : f));
}

type Line = { u: string } | { e: ExecEntry };

export class ExecHistory {
  private readonly byUser = new Map<string, ExecEntry[]>();
  /** what each tracked order last looked like (to tell New, Replaced and fills apart) */
  private readonly seen = new Map<string, { price: number; count: number; fill: number }>();
  private readonly listeners = new Set<(e: ExecEntry) => void>();
  private fd: number | null = null;
  private lines = 0;

  /** `file` null: in memory only. */
  constructor(
    private readonly getOrder: (orderId: string) => OrderView | undefined,
    private readonly now: () => number,
    private readonly file: string | null = null,
  ) {
    if (file === null) return;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (existsSync(file)) this.load(readFileSync(file, 'utf8'));
    this.compact();
    this.fd = openSync(file, 'a', 0o600);
  }

  private load(text: string): void {
    const cutoff = this.now() - LOOKBACK_MS;
    for (const line of jsonLines<Line>(text)) {
      if ('u' in line) this.byUser.set(line.u, this.byUser.get(line.u) ?? []);
      else {
        const e = line.e;
        const list = this.byUser.get(e.userId);
        if (!list) this.byUser.set(e.userId, [e]);
        else list.push(e);
        this.remember(e.order);
      }
    }
    for (const list of this.byUser.values()) {
      const from = list.findIndex((e) => e.at >= cutoff);
      list.splice(0, from < 0 ? list.length : from);
      if (list.length > MAX_PER_USER) list.splice(0, list.length - MAX_PER_USER);
    }
  }

  /** Rewrite the file as the present history (on load, and when it has grown long). */
  private compact(): void {
    const file = this.file!;
    const out: string[] = [];
    for (const [userId, list] of this.byUser) {
      out.push(JSON.stringify({ u: userId }));
      for (const e of list) out.push(JSON.stringify({ e }));
    }
    writeFileSync(`${file}.tmp`, out.length ? `${out.join('\n')}\n` : '', { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
    this.lines = out.length;
  }

  private write(line: Line): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
    if (++this.lines > MAX_PER_USER * 4) {
      closeSync(this.fd);
      this.compact();
      this.fd = openSync(this.file!, 'a', 0o600);
    }
  }

  /** The order's state as the last report showed it (what the next event is compared with). */
  private remember(o: OrderView): void {
    if (o.status === 'resting') this.seen.set(o.order_id, { price: o.yes_price, count: o.initial_count, fill: o.fill_count });
    else this.seen.delete(o.order_id);
  }

  /** Keep this account's reports from now on. */
  enable(userId: string): void {
    if (this.byUser.has(userId)) return;
    this.byUser.set(userId, []);
    this.write({ u: userId });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  listen(fn: (e: ExecEntry) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private add(userId: string, order: OrderView, execType: string, fill?: FillView): void {
    const list = this.byUser.get(userId);
    if (!list) return;
    const at = this.now();
    const e: ExecEntry = { execId: execIdOf(order, execType, fill), at, userId, subaccount: order.subaccount, order, execType, ...(fill ? { fill } : {}) };
    list.push(e);
    this.write({ e });
    while (list.length > MAX_PER_USER || (list.length > 0 && list[0]!.at < at - LOOKBACK_MS)) list.shift();
    for (const fn of this.listeners) fn(e);
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    for (const e of events) {
      if (e.type === 'fill') {
        const f = (e as { fill: FillView }).fill;
        if (!this.byUser.has(f.user_id)) continue;
        const o = this.getOrder(f.order_id);
        if (o) this.add(f.user_id, o, 'F', f);
        continue;
      }
      if (e.type !== 'order') continue;
      const o = (e as { order: OrderView }).order;
      if (!this.byUser.has(o.user_id)) continue;
      const seen = this.seen.get(o.order_id);
      this.seen.set(o.order_id, { price: o.yes_price, count: o.initial_count, fill: o.fill_count });
      if (o.status === 'canceled') {
        this.seen.delete(o.order_id);
        this.add(o.user_id, o, '4');
      } else if (!seen) this.add(o.user_id, o, '0');
      else if (seen.fill === o.fill_count && (seen.price !== o.yes_price || seen.count !== o.initial_count)) this.add(o.user_id, o, '5');
      if (o.status === 'executed') this.seen.delete(o.order_id);
    }
  }

  /**
   * The account's reports from `begin` to `end` (inclusive; no end = the latest), within the
   * lookback window. A string is the reason the range cannot be served.
   */
  range(userId: string, begin: string, end: string | undefined): ExecEntry[] | string {
    const list = this.byUser.get(userId) ?? [];
    const cutoff = this.now() - LOOKBACK_MS;
    const from = list.findIndex((e) => e.execId === begin);
    if (from < 0) return `BeginExecID ${begin} is not in the last 3 hours of this account's execution reports`;
    const to = end === undefined ? list.length - 1 : list.findIndex((e) => e.execId === end);
    if (to < 0) return `EndExecID ${end} is not in the last 3 hours of this account's execution reports`;
    if (to < from) return 'EndExecID comes before BeginExecID';
    return list.slice(from, to + 1).filter((e) => e.at >= cutoff);
  }
}
