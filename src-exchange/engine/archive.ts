// The history archive: snapshots that do not rewrite history.
//
// A finished order (canceled or executed), a fill and a trade do not change once made, yet a
// whole-state snapshot wrote every one of them again each time: after ~80k orders a snapshot was
// 45 MB and took the snapshot worker ~400 ms of CPU every few seconds, which on a busy machine
// showed up as the exchange's tail latency. Instead the snapshot worker appends to an archive
// file, at each snapshot, only the history records that appeared (or changed, or were pruned)
// since the last one, and the snapshot itself holds the live state plus where the archive ends.
// Restoring = replaying the archive's records up to that point into the same full snapshot the
// engine always restored from (hydrateEngineSnapshot), so the engine's own restore is unchanged.
//
// Record kinds (one JSON object each):
//   {"o":<order>}            a finished order, new or changed since it was archived
//   {"od":"<order_id>"}      an archived order removed from the state (pruned)
//   {"f":<fill>}             a fill (its user_id says whose)
//   {"fd":"<fill_id>"}       an archived fill removed from the state (pruned)
//   {"t":<trade>}            a trade (its ticker says whose tape)
//   {"td":"<trade_id>"}      an archived trade removed from the state
// The archive is append-only; once its records are mostly superseded the worker rewrites it as
// a new generation holding only what is current (HistoryArchiver.wantsCompaction).

import { liveSnapshotJson, orderJson, orderSig, type EngineSnapshot, type OrderSnapshot } from './snapshot';
import type { State } from './state';
import type { FillView, TradeView } from './types';

/** Where a snapshot's history is: the archive file (in the journal's directory) and its length. */
export interface ArchiveRef {
  file: string;
  records: number;
  bytes: number;
}

export type ArchiveRecord =
  | { o: OrderSnapshot }
  | { od: string }
  | { f: FillView }
  | { fd: string }
  | { t: TradeView }
  | { td: string };

/** What the archive holds after replaying its records: the history, by id, in archive order. */
export class ArchivedHistory {
  readonly orders = new Map<string, OrderSnapshot>();
  readonly fills = new Map<string, FillView>();
  readonly trades = new Map<string, TradeView>();

  apply(rec: ArchiveRecord): void {
    if ('o' in rec) this.orders.set(rec.o.order_id, rec.o);
    else if ('od' in rec) this.orders.delete(rec.od);
    else if ('f' in rec) this.fills.set(rec.f.fill_id, rec.f);
    else if ('fd' in rec) this.fills.delete(rec.fd);
    else if ('t' in rec) this.trades.set(rec.t.trade_id, rec.t);
    else if ('td' in rec) this.trades.delete(rec.td);
    else throw new Error(`unknown archive record ${JSON.stringify(rec).slice(0, 80)}`);
  }
}

/**
 * The full engine snapshot: `live` (what the archived snapshot holds: resting orders, no fills,
 * empty trade tapes) with the archive's history put back where the original state had it.
 * Orders are in creation order (`num`), which is the order the engine's index iterates; fills
 * and trades in the order they were archived, which is the order they were made.
 */
export function hydrateEngineSnapshot(live: EngineSnapshot, history: ArchivedHistory): EngineSnapshot {
  const orders = [...history.orders.values(), ...live.orders].sort((a, b) => a.num - b.num);
  const fillsOf = new Map<string, FillView[]>();
  for (const f of history.fills.values()) {
    let list = fillsOf.get(f.user_id);
    if (!list) fillsOf.set(f.user_id, (list = []));
    list.push(f);
  }
  const tradesOf = new Map<string, TradeView[]>();
  for (const t of history.trades.values()) {
    let list = tradesOf.get(t.ticker);
    if (!list) tradesOf.set(t.ticker, (list = []));
    list.push(t);
  }
  for (const [ticker] of tradesOf) {
    if (!live.trades.some(([t]) => t === ticker)) throw new Error(`archived trades of ${ticker}, a market the snapshot does not have`);
  }
  for (const [user] of fillsOf) {
    if (!live.accounts.some((a) => a.user_id === user)) throw new Error(`archived fills of ${user}, an account the snapshot does not have`);
  }
  return {
    ...live,
    orders,
    trades: live.trades.map(([ticker, list]) => [ticker, [...(tradesOf.get(ticker) ?? []), ...list]]),
    accounts: live.accounts.map((a) => ({ ...a, fills: [...(fillsOf.get(a.user_id) ?? []), ...a.fills] })),
  };
}

interface Held {
  /** the order's signature when archived ('' for fills and trades, which never change) */
  sig: string;
  /** the pass that last saw it in the state */
  pass: number;
}

/**
 * The snapshot worker's side: knows what the archive holds and, given the state, says what to
 * append (records as JSON text) and gives the live part of the snapshot.
 */
export class HistoryArchiver {
  private orders = new Map<string, Held>();
  private fills = new Map<string, Held>();
  private trades = new Map<string, Held>();
  private pass = 0;
  /** records in the current archive generation */
  private written = 0;

  /** Start from an archive that holds `history` in `records` records. */
  static resume(history: ArchivedHistory, records: number): HistoryArchiver {
    const a = new HistoryArchiver();
    for (const o of history.orders.values()) a.orders.set(o.order_id, { sig: orderSig(o), pass: 0 });
    for (const id of history.fills.keys()) a.fills.set(id, { sig: '', pass: 0 });
    for (const id of history.trades.keys()) a.trades.set(id, { sig: '', pass: 0 });
    a.written = records;
    return a;
  }

  /** Records in the archive's current generation. */
  get records(): number {
    return this.written;
  }

  /**
   * Whether the archive should be rewritten as a new generation: over half of its records are
   * superseded or removed (so the rewrite costs at most what was appended since the last one).
   */
  wantsCompaction(): boolean {
    const current = this.orders.size + this.fills.size + this.trades.size;
    return this.written > 2 * current + 10_000;
  }

  /** Forget the archive: the next `collect` writes all history again (a new generation). */
  restart(): void {
    this.orders.clear();
    this.fills.clear();
    this.trades.clear();
    this.written = 0;
  }

  /**
   * The records to append so that the archive holds the state's history (JSON texts, in order),
   * and the live snapshot's JSON. The caller must make the records durable before the snapshot
   * that relies on them, and call `collect` again only after that (or after `restart`).
   */
  collect(st: State): { records: string[]; liveJson: string } {
    const pass = ++this.pass;
    const records: string[] = [];
    for (const o of st.orders.values()) {
      if (o.status === 'resting') continue;
      const held = this.orders.get(o.order_id);
      const sig = orderSig(o);
      if (held === undefined) this.orders.set(o.order_id, { sig, pass });
      else {
        held.pass = pass;
        if (held.sig === sig) continue;
        held.sig = sig;
      }
      records.push(`{"o":${orderJson(o)}}`);
    }
    for (const a of st.accountList) {
      for (const f of a.fills) if (this.see(this.fills, f.fill_id, pass)) records.push(`{"f":${JSON.stringify(f)}}`);
    }
    for (const tape of st.trades.values()) {
      for (const t of tape) if (this.see(this.trades, t.trade_id, pass)) records.push(`{"t":${JSON.stringify(t)}}`);
    }
    this.drop(this.orders, pass, 'od', records);
    this.drop(this.fills, pass, 'fd', records);
    this.drop(this.trades, pass, 'td', records);
    this.written += records.length;
    return { records, liveJson: liveSnapshotJson(st) };
  }

  /** Mark an immutable record seen; true when the archive does not hold it yet. */
  private see(map: Map<string, Held>, id: string, pass: number): boolean {
    const held = map.get(id);
    if (held !== undefined) {
      held.pass = pass;
      return false;
    }
    map.set(id, { sig: '', pass });
    return true;
  }

  private drop(map: Map<string, Held>, pass: number, kind: 'od' | 'fd' | 'td', records: string[]): void {
    if (map.size === 0) return;
    for (const [id, held] of map) {
      if (held.pass === pass) continue;
      map.delete(id);
      records.push(`{"${kind}":${JSON.stringify(id)}}`);
    }
  }
}
