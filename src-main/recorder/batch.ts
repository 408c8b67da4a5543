// What the recorder keeps of each stream message, as rows of one `events` table in arrival
// order. Money and counts stay the wire's decimal strings (never a float); a book snapshot
// becomes a `snapshot` row (the book is cleared there) followed by one `level` row per level,
// all under the snapshot's sid and seq, so a replay rebuilds exactly the book the terminal had.
// The recorder's own snapshot of main's book (when recording starts, when a market is first seen,
// and at intervals) is a `book` row followed by its `level` rows (no sid or seq: no subscription
// made it). Recordings made before the `book` kind read as they did.
// Pure: no DuckDB here (the rows cross to the store's thread as plain arrays).
import type { StreamRead } from '../../src-shared/wire/stream';

export const EVENT_KINDS = ['snapshot', 'book', 'level', 'delta', 'trade', 'ticker', 'lifecycle', 'fill', 'order'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** One batch of rows, column by column (structured-clone friendly; null where a column does not apply). */
export interface RowBatch {
  n: number[];
  ts: number[];
  kind: string[];
  market: string[];
  sid: (number | null)[];
  seq: (number | null)[];
  side: (string | null)[];
  price: (string | null)[];
  size: (string | null)[];
  extra: (string | null)[];
}

export const EVENTS_DDL = `CREATE TABLE IF NOT EXISTS events (
  n BIGINT NOT NULL,
  ts_us BIGINT NOT NULL,
  kind VARCHAR NOT NULL,
  market VARCHAR NOT NULL,
  sid INTEGER,
  seq BIGINT,
  side VARCHAR,
  price VARCHAR,
  size VARCHAR,
  extra VARCHAR
)`;

export function emptyBatch(): RowBatch {
  return { n: [], ts: [], kind: [], market: [], sid: [], seq: [], side: [], price: [], size: [], extra: [] };
}

/** Wall-clock microseconds since the epoch, at sub-millisecond resolution. */
export function nowUs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** The market a message is about, or undefined for messages the recorder does not keep. */
export function marketOf(m: StreamRead): string | undefined {
  switch (m.type) {
    case 'orderbook_delta':
    case 'orderbook_snapshot':
    case 'trade':
    case 'ticker':
      return m.msg.market_ticker;
    case 'market_lifecycle_v2':
    case 'fill':
    case 'user_order': {
      const r = m.msg as Record<string, unknown>;
      const t = r.market_ticker ?? r.ticker;
      return typeof t === 'string' ? t : undefined;
    }
    default:
      return undefined;
  }
}

export class BatchWriter {
  batch: RowBatch = emptyBatch();
  /** rows handed out so far (the next row's `n`) */
  next = 0;

  constructor(start = 0) {
    this.next = start;
  }

  get size(): number {
    return this.batch.n.length;
  }

  /** The rows so far, leaving an empty batch behind. */
  take(): RowBatch {
    const b = this.batch;
    this.batch = emptyBatch();
    return b;
  }

  private row(ts: number, kind: EventKind, market: string, sid: number | null, seq: number | null, side: string | null, price: string | null, size: string | null, extra: string | null): void {
    const b = this.batch;
    b.n.push(this.next++);
    b.ts.push(ts);
    b.kind.push(kind);
    b.market.push(market);
    b.sid.push(sid);
    b.seq.push(seq);
    b.side.push(side);
    b.price.push(price);
    b.size.push(size);
    b.extra.push(extra);
  }

  /** The recorder's snapshot of a book as main holds it: flat `[tick, centi, ...]` per side (market/book.ts `bids`). */
  addBook(ts: number, market: string, yes: ArrayLike<number>, no: ArrayLike<number>): void {
    this.row(ts, 'book', market, null, null, null, null, null, null);
    for (let j = 0; j + 1 < yes.length; j += 2) this.row(ts, 'level', market, null, null, 'yes', dollarsOf(yes[j]!), countOf(yes[j + 1]!), null);
    for (let j = 0; j + 1 < no.length; j += 2) this.row(ts, 'level', market, null, null, 'no', dollarsOf(no[j]!), countOf(no[j + 1]!), null);
  }

  /** One message as it arrived at `ts` (µs). Returns false for a message the recorder does not keep. */
  add(m: StreamRead, ts: number, market: string): boolean {
    switch (m.type) {
      case 'orderbook_delta': {
        const d = m.msg;
        this.row(ts, 'delta', market, m.sid, m.seq, d.side, d.price_dollars, d.delta_fp, null);
        return true;
      }
      case 'orderbook_snapshot': {
        const s = m.msg;
        this.row(ts, 'snapshot', market, m.sid, m.seq, null, null, null, null);
        for (const [p, q] of s.yes_dollars_fp) this.row(ts, 'level', market, m.sid, m.seq, 'yes', p, q, null);
        for (const [p, q] of s.no_dollars_fp) this.row(ts, 'level', market, m.sid, m.seq, 'no', p, q, null);
        return true;
      }
      case 'trade': {
        const t = m.msg;
        this.row(ts, 'trade', market, m.sid ?? null, m.seq ?? null, t.taker_side, t.yes_price_dollars, t.count_fp, JSON.stringify(t));
        return true;
      }
      case 'ticker': {
        const t = m.msg;
        this.row(ts, 'ticker', market, m.sid ?? null, m.seq ?? null, null, t.price_dollars, t.volume_fp, JSON.stringify(t));
        return true;
      }
      case 'market_lifecycle_v2': {
        const r = m.msg as Record<string, unknown>;
        this.row(ts, 'lifecycle', market, m.sid ?? null, m.seq ?? null, null, null, null, JSON.stringify(r));
        return true;
      }
      case 'fill': {
        const r = m.msg as Record<string, unknown>;
        this.row(ts, 'fill', market, m.sid ?? null, m.seq ?? null, str(r.side), str(r.yes_price_dollars), str(r.count_fp), JSON.stringify(r));
        return true;
      }
      case 'user_order': {
        const r = m.msg as Record<string, unknown>;
        this.row(ts, 'order', market, m.sid ?? null, m.seq ?? null, str(r.side), str(r.yes_price_dollars), str(r.remaining_count_fp), JSON.stringify(r));
        return true;
      }
      default:
        return false;
    }
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** 5300 ticks -> "0.5300" (integers only: no float formatting). */
export function dollarsOf(ticks: number): string {
  const t = Math.round(ticks);
  return `${Math.floor(t / 10_000)}.${String(t % 10_000).padStart(4, '0')}`;
}

/** 1250 centi-contracts -> "12.50". */
export function countOf(centi: number): string {
  const c = Math.round(centi);
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}
