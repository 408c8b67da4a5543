// The client's books as a pure state machine: parsed stream messages in, book updates and
// actions out (no sockets, no timers). Orderbook messages carry `seq` 1, 2, 3... per sid with no
// holes; a hole, a repeat, a malformed frame or a level gone negative means data was lost, so
// the books of that sid turn stale, their deltas are dropped, and the machine asks for a resync
// (`update_subscription` with `get_snapshot`). Each snapshot makes its book fresh again.
import type { StreamRead } from '../../src-shared/wire/stream';
import { WS_ERROR, MESSAGE_TYPES } from '../../src-shared/wire/stream';
import { DELTA_APPLIED, DELTA_CORRUPT, NO, OrderBook, YES, type BookSide, type LevelInput } from './book';
import { priceToTicks, countToCentiFast } from './fixed';

export type BookAction =
  /**
   * Send `update_subscription {sid, action: "get_snapshot", market_tickers}` (or resubscribe).
   * An empty `marketTickers` means every market of the sid.
   */
  | { kind: 'resync'; sid: number; marketTickers: string[]; reason: string }
  /** A frame that could not be read; for the log. */
  | { kind: 'malformed'; reason: string };

const NO_ACTIONS: readonly BookAction[] = Object.freeze([]);

interface SidState {
  /** Highest seq seen; the next must be lastSeq + 1. */
  lastSeq: number;
  /** Markets whose snapshots arrived on this sid. */
  readonly markets: Set<string>;
  /** Markets a resync was asked for and whose snapshot has not come yet. */
  readonly awaiting: Set<string>;
}

export interface BookStats {
  deltasApplied: number;
  deltasDropped: number;
  snapshots: number;
  gaps: number;
  corrupt: number;
  malformed: number;
}

export class BookMachine {
  private readonly byTicker = new Map<string, OrderBook>();
  private readonly sids = new Map<number, SidState>();
  private readonly dirty = new Set<string>();
  readonly stats: BookStats = { deltasApplied: 0, deltasDropped: 0, snapshots: 0, gaps: 0, corrupt: 0, malformed: 0 };

  book(marketTicker: string): OrderBook | undefined {
    return this.byTicker.get(marketTicker);
  }
  books(): IterableIterator<OrderBook> {
    return this.byTicker.values();
  }
  /** Orderbook sids being tracked. */
  trackedSids(): number[] {
    return [...this.sids.keys()];
  }

  /** Markets whose book changed (levels or stale flag) since the last call, for coalesced pushes. */
  takeDirty(): string[] {
    const out = [...this.dirty];
    this.dirty.clear();
    return out;
  }

  /** Any parsed server message. Messages of other channels are ignored. */
  handle(msg: StreamRead): readonly BookAction[] {
    switch (msg.type) {
      case 'orderbook_delta': {
        const m = msg.msg;
        return this.onDelta(msg.sid, msg.seq, m.market_ticker, m.side === 'yes' ? YES : NO, priceToTicks(m.price_dollars), countToCentiFast(m.delta_fp));
      }
      case 'orderbook_snapshot': {
        const m = msg.msg;
        return this.onSnapshot(msg.sid, msg.seq, m.market_ticker, levelsOf(m.yes_dollars_fp), levelsOf(m.no_dollars_fp));
      }
      case 'subscribed': {
        const sid = msg.msg?.sid ?? msg.sid;
        if (sid !== undefined && msg.msg?.channel === 'orderbook_delta') {
          this.forgetSid(sid, 'subscription replaced');
          this.track(sid);
        }
        return NO_ACTIONS;
      }
      case 'ok':
      case 'unsubscribed': {
        // Replies on an orderbook sid take a place in its sequence.
        if (msg.sid === undefined || !this.sids.has(msg.sid)) return NO_ACTIONS;
        const actions = msg.seq === undefined ? NO_ACTIONS : this.checkSeq(msg.sid, msg.seq, undefined);
        if (msg.type === 'unsubscribed') this.forgetSid(msg.sid, 'unsubscribed');
        return actions;
      }
      case 'error':
        if (msg.msg.code === WS_ERROR.BUFFER_OVERFLOW) {
          const sids = msg.sid !== undefined && this.sids.has(msg.sid) ? [msg.sid] : this.trackedSids();
          return sids.map((sid) => this.lose(sid, 'subscription buffer overflow (error 25)'));
        }
        return NO_ACTIONS;
      case 'unknown':
        return this.onUnknown(msg.unknownType, msg.sid, msg.seq);
      default:
        return NO_ACTIONS;
    }
  }

  /**
   * A frame of a type no schema knows. Off the orderbook subscriptions it is none of the books'
   * business. On one, it may have carried book data we cannot apply, so the sid's books are lost
   * and resynced; its seq takes its slot when it is the next one, so the count stays in line.
   */
  private onUnknown(type: string, sid: number | undefined, seq: number | undefined): readonly BookAction[] {
    if (sid === undefined || !this.sids.has(sid)) return NO_ACTIONS;
    const reason = `unknown message type ${JSON.stringify(type)} on orderbook sid ${sid}`;
    if (seq !== undefined) {
      const gap = this.checkSeq(sid, seq, undefined);
      if (gap !== NO_ACTIONS) return gap;
    }
    return [this.lose(sid, reason)];
  }

  /** A delta already in integers (the frame fast path). */
  onDelta(sid: number, seq: number, marketTicker: string, side: BookSide, priceTicks: number, deltaCenti: number): readonly BookAction[] {
    const gap = this.checkSeq(sid, seq, marketTicker);
    const book = this.byTicker.get(marketTicker);
    if (book === undefined || book.stale) {
      this.stats.deltasDropped++;
      if (gap !== NO_ACTIONS) return gap;
      const st = this.sids.get(sid)!;
      if (st.awaiting.has(marketTicker)) return NO_ACTIONS;
      st.awaiting.add(marketTicker);
      return [{ kind: 'resync', sid, marketTickers: [marketTicker], reason: book ? `book stale: ${book.staleReason}` : 'delta before any snapshot' }];
    }
    const outcome = book.applyDelta(side, priceTicks, deltaCenti);
    this.dirty.add(marketTicker);
    if (outcome === DELTA_APPLIED) {
      this.stats.deltasApplied++;
      return gap;
    }
    if (outcome === DELTA_CORRUPT) this.stats.corrupt++;
    else book.markStale(`invalid delta (tick ${priceTicks}, count ${deltaCenti})`);
    this.sids.get(sid)!.awaiting.add(marketTicker);
    return [...gap, { kind: 'resync', sid, marketTickers: [marketTicker], reason: book.staleReason ?? 'corrupt book' }];
  }

  /** A snapshot already in integers: levels as flat `[tick, centi, ...]` or tuples. */
  onSnapshot(sid: number, seq: number, marketTicker: string, yesLevels: LevelInput, noLevels: LevelInput): readonly BookAction[] {
    const gap = this.checkSeq(sid, seq, undefined);
    const st = this.sids.get(sid)!;
    let book = this.byTicker.get(marketTicker);
    if (book === undefined) {
      book = new OrderBook(marketTicker);
      this.byTicker.set(marketTicker, book);
    }
    for (const [other, s] of this.sids) {
      if (other !== sid && s.markets.delete(marketTicker)) s.awaiting.delete(marketTicker);
    }
    st.markets.add(marketTicker);
    this.dirty.add(marketTicker);
    const outcome = book.applySnapshot(yesLevels, noLevels);
    if (!outcome.ok) {
      this.stats.malformed++;
      st.awaiting.add(marketTicker);
      const reason = `bad snapshot for ${marketTicker}: ${outcome.reason}`;
      return [...gap, { kind: 'malformed', reason }, { kind: 'resync', sid, marketTickers: [marketTicker], reason }];
    }
    this.stats.snapshots++;
    st.awaiting.delete(marketTicker);
    return gap;
  }

  /**
   * A frame that failed to parse or validate. With a tracked `sid` only that sid resyncs; with
   * no usable sid every orderbook sid does, unless the frame's `type` says it was not a book frame.
   */
  onMalformed(reason: string, sid?: number, seq?: number, type?: string): readonly BookAction[] {
    this.stats.malformed++;
    const report: BookAction = { kind: 'malformed', reason };
    if (sid !== undefined && this.sids.has(sid)) {
      const st = this.sids.get(sid)!;
      // A malformed frame's seq is as untrustworthy as the rest of it: let it take its slot
      // only when it is the very next one, so a garbage seq cannot push the expectation ahead.
      if (seq !== undefined && seq === st.lastSeq + 1) st.lastSeq = seq;
      return [report, this.lose(sid, `malformed frame: ${reason}`)];
    }
    const bookType = type === undefined || type === 'orderbook_delta' || type === 'orderbook_snapshot' || !(type in MESSAGE_TYPES);
    if (!bookType || sid !== undefined) return [report];
    return [report, ...this.trackedSids().map((s) => this.lose(s, `malformed frame: ${reason}`))];
  }

  /** The connection dropped: every book stale, every sid forgotten (a new connection numbers afresh). */
  onDisconnect(): void {
    for (const sid of this.trackedSids()) this.forgetSid(sid, 'disconnected');
  }

  /** Stop keeping a market's book. */
  drop(marketTicker: string): void {
    this.byTicker.delete(marketTicker);
    for (const st of this.sids.values()) {
      st.markets.delete(marketTicker);
      st.awaiting.delete(marketTicker);
    }
    this.dirty.add(marketTicker);
  }

  // --- internals ----------------------------------------------------------------------------

  private track(sid: number): SidState {
    const st: SidState = { lastSeq: 0, markets: new Set(), awaiting: new Set() };
    this.sids.set(sid, st);
    return st;
  }

  /** Count `seq` on `sid`; on a hole or a repeat, lose the sid's books. */
  private checkSeq(sid: number, seq: number, marketTicker: string | undefined): readonly BookAction[] {
    const st = this.sids.get(sid) ?? this.track(sid);
    const expected = st.lastSeq + 1;
    if (seq === expected) {
      st.lastSeq = seq;
      return NO_ACTIONS;
    }
    this.stats.gaps++;
    const reason = seq > expected ? `seq gap on sid ${sid}: expected ${expected}, got ${seq}` : `seq out of order on sid ${sid}: expected ${expected}, got ${seq}`;
    if (seq > st.lastSeq) st.lastSeq = seq;
    if (marketTicker !== undefined) st.awaiting.add(marketTicker);
    return [this.lose(sid, reason)];
  }

  /** Data on `sid` was lost: its books turn stale and a resync of all of them is asked for. */
  private lose(sid: number, reason: string): BookAction {
    const st = this.sids.get(sid)!;
    for (const t of st.markets) {
      this.byTicker.get(t)?.markStale(reason);
      st.awaiting.add(t);
      this.dirty.add(t);
    }
    return { kind: 'resync', sid, marketTickers: [...st.awaiting], reason };
  }

  private forgetSid(sid: number, reason: string): void {
    const st = this.sids.get(sid);
    if (st === undefined) return;
    for (const t of st.markets) {
      this.byTicker.get(t)?.markStale(reason);
      this.dirty.add(t);
    }
    this.sids.delete(sid);
  }
}

/** Wire levels `[["0.5300","10.00"], ...]` as flat integers; a bad level becomes -1 / NaN and fails the snapshot. */
export function levelsOf(rows: readonly (readonly [string, string])[]): Float64Array {
  const out = new Float64Array(rows.length * 2);
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j]!;
    out[2 * j] = priceToTicks(row[0]);
    out[2 * j + 1] = countToCentiFast(row[1]);
  }
  return out;
}
