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

import { liveSnapshotJson, orderJson, type AccountSnapshot, type EngineSnapshot, type OrderSnapshot } from './snapshot';
import type { State } from './engine-state';
import type { OrderState } from './order-state';
import type { TradeLog } from './trade-log';
import type { FillLog } from './fill-log';
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

/** The live part as the archive's snapshot holds it: an account's list of its order ids is left out (history). */
export type LiveEngineSnapshot = Omit<EngineSnapshot, 'accounts'> & { accounts: Array<Omit<AccountSnapshot, 'orders'> & { orders?: string[] }> };

/**
 * The full engine snapshot: `live` (what the archived snapshot holds: resting orders, no fills,
 * empty trade tapes, no account order lists) with the archive's history put back where the
 * original state had it. Orders are in creation order (`num`), which is the order the engine's
 * index iterates; an account's order list is its orders' ids in that order (the engine appends
 * each order it makes to its account's list and prunes both alike); fills and trades are in the
 * order they were archived, which is the order they were made.
 */
export function hydrateEngineSnapshot(live: LiveEngineSnapshot, history: ArchivedHistory): EngineSnapshot {
  const orders = [...history.orders.values(), ...live.orders].sort((a, b) => a.num - b.num);
  const ordersOf = groupBy(orders, (o) => o.user_id);
  const fillsOf = groupBy(history.fills.values(), (f) => f.user_id);
  const tradesOf = groupBy(history.trades.values(), (t) => t.ticker);
  for (const [ticker] of tradesOf) {
    if (!live.trades.some(([t]) => t === ticker)) throw new Error(`archived trades of ${ticker}, a market the snapshot does not have`);
  }
  for (const [what, byUser] of [['archived fills', fillsOf], ['orders', ordersOf]] as const) {
    for (const [user] of byUser) {
      if (!live.accounts.some((a) => a.user_id === user)) throw new Error(`${what} of ${user}, an account the snapshot does not have`);
    }
  }
  return {
    ...live,
    orders,
    trades: live.trades.map(([ticker, list]) => [ticker, [...(tradesOf.get(ticker) ?? []), ...list]]),
    accounts: live.accounts.map((a) => ({
      user_id: a.user_id,
      subs: a.subs,
      client_orders: a.client_orders,
      client_transfers: a.client_transfers,
      // an older live part still carries the list itself
      orders: a.orders ?? (ordersOf.get(a.user_id) ?? []).map((o) => o.order_id),
      fills: [...(fillsOf.get(a.user_id) ?? []), ...a.fills],
      settlements: a.settlements,
      transfers: a.transfers,
      groups: a.groups,
    })),
  };
}

/** `items` in lists by `key`, each list in the items' order. */
function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** What the archive holds of a finished order: the fields that could still change. */
interface HeldOrder {
  pass: number;
  status: string;
  last: number;
  fill: number;
  remaining: number;
  seq: number;
  locked: number;
}

function sameOrder(h: HeldOrder, o: OrderSnapshot): boolean {
  return h.status === o.status && h.last === o.last_update_time && h.fill === o.fill_count && h.remaining === o.remaining_count && h.seq === o.seq && h.locked === o.locked;
}

function holdOrder(h: HeldOrder, o: OrderSnapshot, pass: number): HeldOrder {
  h.pass = pass;
  h.status = o.status;
  h.last = o.last_update_time;
  h.fill = o.fill_count;
  h.remaining = o.remaining_count;
  h.seq = o.seq;
  h.locked = o.locked;
  return h;
}

/** One list as the archiver reads it: an account's fills (an array) or a market's tape. */
interface ListView {
  readonly length: number;
  idAt(i: number): string;
  json(i: number): string;
}

const fillsView = (log: FillLog): ListView => ({ length: log.length, idAt: (i) => log.idAt(i), json: (i) => JSON.stringify(log.get(i)) });
const tapeView = (log: TradeLog): ListView => ({ length: log.length, idAt: (i) => log.idAt(i), json: (i) => JSON.stringify(log.get(i)) });

/**
 * What the archive holds of one append-only list and how far into it the last snapshot went.
 * The engine only appends to these lists, so the next snapshot looks only at what follows (the
 * list still has the last id seen where it was). An account's fills may also be pruned: then
 * they are compared by id (`ids`). A trade tape is never pruned, so only its length is kept.
 */
class HeldList {
  /** the ids archived (fills); null for a tape, which only grows */
  readonly ids: Set<string> | null;
  /** how many of the list are archived; -1: not known (fills resumed from an archive), compare by id */
  private n = 0;
  private lastId = '';

  constructor(
    private readonly add: 'f' | 't',
    private readonly remove: 'fd' | 'td',
    growOnly: boolean,
  ) {
    this.ids = growOnly ? null : new Set<string>();
  }

  get size(): number {
    return this.ids ? this.ids.size : Math.max(this.n, 0);
  }

  /** Resumed from the archive: `n` archived, the last one `lastId` (fills: -1, position unknown). */
  resumeAt(n: number, lastId: string): void {
    this.n = n;
    this.lastId = lastId;
  }

  collect(list: ListView, records: string[]): void {
    const n = this.n;
    if (n >= 0 && list.length >= n && (n === 0 || list.idAt(n - 1) === this.lastId)) {
      for (let i = n; i < list.length; i++) {
        this.ids?.add(list.idAt(i));
        records.push(`{"${this.add}":${list.json(i)}}`);
      }
    } else {
      const ids = this.ids;
      if (!ids) throw new Error(`a trade tape changed other than by growing (${n} archived, ${list.length} now)`);
      const now = new Set<string>();
      for (let i = 0; i < list.length; i++) {
        const id = list.idAt(i);
        now.add(id);
        if (ids.has(id)) continue;
        ids.add(id);
        records.push(`{"${this.add}":${list.json(i)}}`);
      }
      for (const id of ids) {
        if (now.has(id)) continue;
        ids.delete(id);
        records.push(`{"${this.remove}":${JSON.stringify(id)}}`);
      }
    }
    this.n = list.length;
    this.lastId = list.length ? list.idAt(list.length - 1) : '';
  }
}

const fillList = () => new HeldList('f', 'fd', false);
const tradeList = () => new HeldList('t', 'td', true);

/**
 * The snapshot worker's side: knows what the archive holds and, given the state, says what to
 * append (records as JSON text) and gives the live part of the snapshot.
 */
export class HistoryArchiver {
  private orders = new Map<string, HeldOrder>();
  private fills = new Map<string, HeldList>();
  private trades = new Map<string, HeldList>();
  /** resting orders' JSON, reused while the order is unchanged (a copy of it says so) */
  private resting = new WeakMap<OrderState, { copy: OrderState; text: string }>();
  private pass = 0;
  /** where the last pass left the order index (collectOrders); null: walk it all */
  private follow: { index: State['orders']; at: number; deletions: number; resting: Set<OrderState> } | null = null;
  /** records in the current archive generation */
  private written = 0;

  /** Start from an archive that holds `history` in `records` records. */
  static resume(history: ArchivedHistory, records: number): HistoryArchiver {
    const a = new HistoryArchiver();
    for (const o of history.orders.values()) a.orders.set(o.order_id, holdOrder({} as HeldOrder, o, 0));
    for (const f of history.fills.values()) listOf(a.fills, f.user_id, fillList).ids!.add(f.fill_id);
    for (const l of a.fills.values()) l.resumeAt(-1, '');
    const tapes = new Map<string, { n: number; last: string }>();
    for (const t of history.trades.values()) {
      const at = tapes.get(t.ticker);
      if (at) {
        at.n++;
        at.last = t.trade_id;
      } else tapes.set(t.ticker, { n: 1, last: t.trade_id });
    }
    for (const [ticker, { n, last }] of tapes) listOf(a.trades, ticker, tradeList).resumeAt(n, last);
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
    let current = this.orders.size;
    for (const l of this.fills.values()) current += l.size;
    for (const l of this.trades.values()) current += l.size;
    return this.written > 2 * current + 10_000;
  }

  /** Forget the archive: the next `collect` writes all history again (a new generation). */
  restart(): void {
    this.follow = null;
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
    const resting = this.collectOrders(st, pass, records);
    for (const a of st.accountList) listOf(this.fills, a.user_id, fillList).collect(fillsView(a.fills), records);
    for (const [ticker, tape] of st.trades) listOf(this.trades, ticker, tradeList).collect(tapeView(tape), records);
    this.written += records.length;
    return { records, liveJson: liveSnapshotJson(st, (o) => this.restingJson(o), resting) };
  }

  /**
   * Appends the records of finished orders that are new or changed; returns every resting order
   * in creation order. A finished order never changes again (the engine only prunes it, which the
   * index's deletion count tells), so after one walk of the whole index the next passes look only
   * at the orders made since and at those that were resting: the cost follows the flow between
   * two snapshots, not the length of the history. Any deletion, a foreign id or another state
   * walks everything again.
   */
  private collectOrders(st: State, pass: number, records: string[]): Set<OrderState> {
    const index = st.orders;
    const f = this.follow;
    if (f !== null && f.index === index && f.deletions === index.deletions && index.ownIdsOnly) {
      const finished: OrderState[] = [];
      for (const o of f.resting) {
        if (o.status === 'resting') continue;
        f.resting.delete(o);
        finished.push(o);
      }
      f.at = index.forEachFrom(f.at, (o) => {
        if (o.status === 'resting') f.resting.add(o); // made since, so after every order already in the set
        else finished.push(o);
      });
      finished.sort((a, b) => a.num - b.num);
      for (const o of finished) this.archiveOrder(o, pass, records);
      return f.resting;
    }
    const resting = new Set<OrderState>();
    const visit = (o: OrderState): void => {
      if (o.status === 'resting') resting.add(o);
      else this.archiveOrder(o, pass, records);
    };
    let at = 0;
    if (index.ownIdsOnly) at = index.forEachFrom(0, visit);
    else index.forEach(visit);
    for (const [id, held] of this.orders) {
      if (held.pass === pass) continue;
      this.orders.delete(id);
      records.push(`{"od":${JSON.stringify(id)}}`);
    }
    this.follow = index.ownIdsOnly ? { index, at, deletions: index.deletions, resting } : null;
    return resting;
  }

  private archiveOrder(o: OrderState, pass: number, records: string[]): void {
    const held = this.orders.get(o.order_id);
    if (held === undefined) this.orders.set(o.order_id, holdOrder({} as HeldOrder, o, pass));
    else if (sameOrder(held, o)) {
      held.pass = pass;
      return;
    } else holdOrder(held, o, pass);
    records.push(`{"o":${orderJson(o)}}`);
  }

  private restingJson(o: OrderState): string {
    const hit = this.resting.get(o);
    if (hit !== undefined && sameFields(hit.copy, o)) return hit.text;
    const text = orderJson(o);
    this.resting.set(o, { copy: { ...o }, text });
    return text;
  }
}

function listOf(map: Map<string, HeldList>, key: string, make: () => HeldList): HeldList {
  let l = map.get(key);
  if (l === undefined) map.set(key, (l = make()));
  return l;
}

/** Every field of `b` equal in `a` (orders are flat records of strings, numbers and booleans). */
function sameFields(a: OrderState, b: OrderState): boolean {
  for (const k in b) if (a[k as keyof OrderState] !== b[k as keyof OrderState]) return false;
  return true;
}
