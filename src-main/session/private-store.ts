// The account's private state in main: orders, positions, fills, balance, RFQs, quotes and
// order groups, fed by the private stream channels and reconciled over REST after every
// (re)connect. It records what changed so the coalescer can push upserts, not whole lists.
import type { PrivateUpdate } from '../../src-shared/ipc/contract';
import { countToCenti } from '../../src-shared/money';

type Row = Record<string, unknown>;

/**
 * The counts a row may carry in either spelling (the spec's name and the SDK's `_fp`): REST's order
 * carries both, the stream's user_order only `_fp`; the spec names the stream position's count
 * `position`, REST's `position_fp`. Rows merge, so a row that sets one spelling sets both: no
 * reader (the gate reads the spec's name first, the page the `_fp` one) is left with the older.
 */
const COUNT_PAIRS = {
  order: [
    ['remaining_count', 'remaining_count_fp'],
    ['fill_count', 'fill_count_fp'],
    ['initial_count', 'initial_count_fp'],
  ],
  position: [
    ['position', 'position_fp'],
    ['volume', 'volume_fp'],
  ],
} as const;

function unifyCounts(merged: Row, row: Row, pairs: readonly (readonly [string, string])[]): void {
  for (const [plain, fp] of pairs) {
    const v = row[fp] ?? row[plain];
    if (v === undefined) continue;
    merged[plain] = v;
    merged[fp] = v;
  }
}

/** The subaccount a row is in (the spec's REST rows: subaccount_number; the stream's: subaccount); absent = `absent` (the primary). */
export function subaccountOfRow(r: Row, absent = 0): number {
  const n = r.subaccount_number ?? r.subaccount;
  return typeof n === 'number' && Number.isInteger(n) ? n : absent;
}

const MAX_FILLS = 5_000;
/**
 * Ended orders (executed, canceled), RFQs and quotes kept, newest first: what is live (a resting
 * order, an open RFQ or quote) is always kept, what ended goes oldest first past these. A session
 * of a busy strategy ends hundreds of thousands of orders a day; a reconnect's reconcile reads the
 * exchange's own lists again anyway.
 */
export const MAX_ENDED_ORDERS = 5_000;
export const MAX_ENDED_COMMS = 1_000;
/** fill ids kept for de-duplication (a re-sent fill is a recent one) */
const MAX_FILL_IDS = 2 * MAX_FILLS;

/** Statuses that end an order, an RFQ, a quote (any other, unknown ones included, is kept as live). */
const ENDED_ORDER = new Set(['executed', 'canceled']);
const ENDED_RFQ = new Set(['canceled', 'closed']);
const ENDED_QUOTE = new Set(['executed', 'canceled']);
const endedBy = (statuses: ReadonlySet<string>) => (row: Row) => !statuses.has(String(row.status));

/** Keeps a map's ended entries to the newest `max` (by their last update); live ones are never dropped. */
class EndedCap {
  private readonly ended = new Set<string>();
  constructor(
    private readonly map: Map<string, Row>,
    private readonly max: number,
    private readonly isLive: (row: Row) => boolean,
  ) {}
  /** After the map set `id` to `row`. */
  noteSet(id: string, row: Row): void {
    this.ended.delete(id); // re-inserted last when it ended: the oldest go first
    if (this.isLive(row)) return;
    this.ended.add(id);
    if (this.ended.size <= this.max) return;
    const oldest = this.ended.values().next().value!;
    this.ended.delete(oldest);
    this.map.delete(oldest);
  }
  clear(): void {
    this.ended.clear();
  }
}

/** A private stream message noted while a reconcile read REST. */
export interface StreamNote {
  kind: 'order' | 'position' | 'fill';
  row: Row;
}

/** A count as integer centi-contracts for comparisons (absent or unreadable: -1, never newer). */
function centiOf(v: unknown): number {
  if (typeof v !== 'string' && typeof v !== 'number') return -1;
  try {
    return countToCenti(String(v));
  } catch {
    return -1;
  }
}

function keyOf(row: Row, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = row[k];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

export class PrivateStore {
  readonly orders = new Map<string, Row>();
  readonly positions = new Map<string, Row>();
  readonly fills: Row[] = [];
  private readonly fillIds = new Set<string>();
  balance: PrivateUpdate['balance'] | undefined;
  readonly rfqs = new Map<string, Row>();
  readonly quotes = new Map<string, Row>();
  readonly orderGroups = new Map<string, Row>();

  private pending: PrivateUpdate = {};
  /** position updates seen per market, and per order the fills seen and the position update count when the last came */
  private readonly positionSeen = new Map<string, number>();
  private readonly fillsByOrder = new Map<string, { centi: number; positionSeen: number }>();
  private readonly endedOrders = new EndedCap(this.orders, MAX_ENDED_ORDERS, endedBy(ENDED_ORDER));
  private readonly endedComms = new Map<Map<string, Row>, EndedCap>([
    [this.rfqs, new EndedCap(this.rfqs, MAX_ENDED_COMMS, endedBy(ENDED_RFQ))],
    [this.quotes, new EndedCap(this.quotes, MAX_ENDED_COMMS, endedBy(ENDED_QUOTE))],
  ]);
  /** REST snapshots taken in (a reconcile after an answer shows its fills in the positions it read) */
  resets = 0;

  /** Replace everything (after a reconnect's REST reconcile). */
  reset(data: { orders?: Row[]; positions?: Row[]; fills?: Row[]; balance?: PrivateUpdate['balance']; rfqs?: Row[]; quotes?: Row[]; orderGroups?: Row[] }): void {
    this.orders.clear();
    this.positions.clear();
    this.fills.length = 0;
    this.fillIds.clear();
    this.rfqs.clear();
    this.quotes.clear();
    this.orderGroups.clear();
    this.fillsByOrder.clear();
    this.endedOrders.clear();
    for (const cap of this.endedComms.values()) cap.clear();
    this.resets++;
    for (const o of data.orders ?? []) this.putOrder(o, false);
    // fills first: the positions read with them show them
    for (const f of data.fills ?? []) this.addFill(f, false);
    for (const p of data.positions ?? []) this.putPosition(p, false);
    for (const r of data.rfqs ?? []) this.putKeyed(this.rfqs, r, ['rfq_id', 'id'], false);
    for (const q of data.quotes ?? []) this.putKeyed(this.quotes, q, ['quote_id', 'id'], false);
    for (const g of data.orderGroups ?? []) this.putKeyed(this.orderGroups, g, ['order_group_id', 'id'], false);
    this.balance = data.balance;
    this.pending = {
      reset: true,
      orders: [...this.orders.values()],
      positions: [...this.positions.values()],
      fills: [...this.fills],
      rfqs: [...this.rfqs.values()],
      quotes: [...this.quotes.values()],
      orderGroups: [...this.orderGroups.values()],
      ...(this.balance ? { balance: this.balance } : {}),
    };
  }

  /** Orders merge: a stream update may carry only some fields. */
  putOrder(row: Row, record = true): void {
    const id = keyOf(row, 'order_id');
    if (!id) return;
    const merged: Row = { ...(this.orders.get(id) ?? {}), ...row };
    unifyCounts(merged, row, COUNT_PAIRS.order);
    // a row that names its market market_ticker only is found by ticker too (restingOrders(ticker), the ladder)
    if (typeof merged.ticker !== 'string' && typeof merged.market_ticker === 'string') merged.ticker = merged.market_ticker;
    this.orders.set(id, merged);
    this.endedOrders.noteSet(id, merged);
    if (record) (this.pending.orders ??= []).push(merged);
  }

  putPosition(row: Row, record = true): void {
    const ticker = keyOf(row, 'ticker', 'market_ticker');
    if (!ticker) return;
    const sub = subaccountOfRow(row);
    const id = `${ticker}#${sub}`;
    const merged = { ...(this.positions.get(id) ?? {}), ...row, ticker };
    unifyCounts(merged, row, COUNT_PAIRS.position);
    this.positions.set(id, merged);
    this.positionSeen.set(ticker, (this.positionSeen.get(ticker) ?? 0) + 1);
    if (record) (this.pending.positions ??= []).push(merged);
  }

  addFill(row: Row, record = true): void {
    const id = keyOf(row, 'fill_id', 'trade_id');
    if (id) {
      const unique = `${id}:${String(row.order_id ?? '')}`;
      if (this.fillIds.has(unique)) return;
      this.fillIds.add(unique);
      if (this.fillIds.size > MAX_FILL_IDS) this.fillIds.delete(this.fillIds.values().next().value!);
    }
    const orderId = keyOf(row, 'order_id');
    const ticker = keyOf(row, 'ticker', 'market_ticker');
    if (orderId && ticker) {
      const seen = this.fillsByOrder.get(orderId);
      const centi = Math.max(0, centiOf(row.count_fp ?? row.count));
      this.fillsByOrder.delete(orderId); // re-inserted last: the oldest go first when pruned
      this.fillsByOrder.set(orderId, { centi: (seen?.centi ?? 0) + centi, positionSeen: this.positionSeen.get(ticker) ?? 0 });
      if (this.fillsByOrder.size > MAX_FILLS) this.fillsByOrder.delete(this.fillsByOrder.keys().next().value!);
    }
    this.fills.push(row);
    if (this.fills.length > MAX_FILLS) this.fills.splice(0, this.fills.length - MAX_FILLS);
    if (record) (this.pending.fills ??= []).push(row);
  }

  setBalance(b: NonNullable<PrivateUpdate['balance']>): void {
    this.balance = b;
    this.pending.balance = b;
  }

  putRfq(row: Row): void {
    this.putKeyed(this.rfqs, row, ['rfq_id', 'id']);
  }
  putQuote(row: Row): void {
    this.putKeyed(this.quotes, row, ['quote_id', 'id']);
  }
  putOrderGroup(row: Row): void {
    this.putKeyed(this.orderGroups, row, ['order_group_id', 'id']);
  }

  private putKeyed(map: Map<string, Row>, row: Row, keys: string[], record = true): void {
    const id = keyOf(row, ...keys);
    if (!id) return;
    const merged = { ...(map.get(id) ?? {}), ...row };
    map.set(id, merged);
    this.endedComms.get(map)?.noteSet(id, merged);
    if (!record) return;
    const bucket = map === this.rfqs ? 'rfqs' : map === this.quotes ? 'quotes' : 'orderGroups';
    (this.pending[bucket] ??= []).push(merged);
  }

  /**
   * After a reset from a REST snapshot: the private stream messages that arrived while it was
   * read, in order. They may be newer than the snapshot or older; newer wins, by the counts that
   * only grow (an order's fills, a position's volume). Returns the orders left unsure: resting on
   * the stream but absent from the snapshot's resting list (placed after the read, or ended
   * before it), which the caller reads back one by one.
   */
  replay(seen: readonly StreamNote[], restingIds: ReadonlySet<string>): Set<string> {
    const unsure = new Set<string>();
    for (const { kind, row } of seen) {
      if (kind === 'fill') this.addFill(row);
      else if (kind === 'position') {
        const sub = subaccountOfRow(row);
        const cur = this.positions.get(`${String(row.ticker ?? row.market_ticker)}#${sub}`);
        if (cur && centiOf(cur.volume_fp ?? cur.volume) > centiOf(row.volume_fp ?? row.volume)) continue;
        this.putPosition(row);
      } else {
        const id = keyOf(row, 'order_id');
        if (!id) continue;
        const cur = this.orders.get(id);
        if (cur && centiOf(cur.fill_count_fp ?? cur.fill_count) > centiOf(row.fill_count_fp ?? row.fill_count)) continue;
        this.putOrder(row);
        if (row.status === 'resting' && !restingIds.has(id)) unsure.add(id);
        else unsure.delete(id);
      }
    }
    return unsure;
  }

  /**
   * Does the position show `centi` filled of this order: its fills came, and a position update of
   * the market after the last of them (the exchange sends a command's fills before its positions)?
   */
  fillPosted(orderId: string, ticker: string, centi: number): boolean {
    const f = this.fillsByOrder.get(orderId);
    return f !== undefined && f.centi >= centi && (this.positionSeen.get(ticker) ?? 0) > f.positionSeen;
  }

  /** The create answer's order, unless the stream told of it first (what it said is as new or newer). */
  putAnsweredOrder(row: Row): boolean {
    const id = keyOf(row, 'order_id');
    if (!id || this.orders.has(id)) return false;
    this.putOrder(row);
    return true;
  }

  /** An order as an answer gave it, unless the store already knows a later state (more filled, or no longer resting). */
  putOrderUnlessNewer(row: Row): void {
    const id = keyOf(row, 'order_id');
    const cur = id ? this.orders.get(id) : undefined;
    if (cur && (centiOf(cur.fill_count_fp ?? cur.fill_count) > centiOf(row.fill_count_fp ?? row.fill_count) || (cur.status !== 'resting' && row.status === 'resting'))) return;
    this.putOrder(row);
  }

  restingOrders(ticker?: string): Row[] {
    return [...this.orders.values()].filter((o) => o.status === 'resting' && (ticker === undefined || o.ticker === ticker));
  }

  /** What changed since the last call; undefined when nothing did. */
  take(): PrivateUpdate | undefined {
    const p = this.pending;
    this.pending = {};
    return Object.keys(p).length ? p : undefined;
  }
}
