// A recording as a replay tape: its rows (the recorder's `events` table, in arrival order) decoded
// once into typed columns of integers, prices in ticks of $0.0001 and sizes in centi-contracts as
// the engine keeps them, so a replay touches no strings and no decimals.
//
// Each trade is paired with the book decrease it caused (within a few rows either side: exchanges
// send the maker's delta before or after the trade), so the queue model can tell a level that
// shrank because it traded from one that shrank because orders were canceled.
import { TICKS_PER_DOLLAR } from '../engine/units';

export const K_SNAPSHOT = 0;
export const K_LEVEL = 1;
export const K_DELTA = 2;
export const K_TRADE = 3;
/** the recorder's own snapshot of main's book (`book` row, its `level` rows follow): the book as it
 * stands, taken when recording starts, when a market is first seen and at intervals. Unlike an
 * exchange `snapshot` it is no new subscription: what the trader took and trades still to come stay. */
export const K_BOOK = 4;

export const YES = 0;
export const NO = 1;

/** The recorder's columns (a subset), as read from a recording. */
export interface TapeRows {
  ts: readonly number[];
  kind: readonly string[];
  market: readonly string[];
  side: readonly (string | null)[];
  price: readonly (string | null)[];
  size: readonly (string | null)[];
}

export interface Tape {
  length: number;
  markets: string[];
  tsUs: Float64Array;
  kind: Uint8Array;
  market: Uint16Array;
  /** book side of the level (deltas, levels); for a trade: the side of the book it hit */
  side: Uint8Array;
  /** ticks; for a trade: the maker's price on the side it hit */
  price: Uint16Array;
  /** centi-contracts, signed for deltas */
  size: Int32Array;
  /** for a decrease: how much of it trades explain (the rest was canceled) */
  traded: Int32Array;
}

const TICK_WEIGHT = [1000, 100, 10, 1];

/** "0.5300" -> 5300; -1 unless a decimal within 0..1 on the 0.0001 tick. */
export function ticksOf(text: string): number {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  if (whole !== '0' && whole !== '1') return -1;
  let t = whole === '1' ? TICKS_PER_DOLLAR : 0;
  if (dot >= 0) {
    const frac = text.slice(dot + 1);
    if (frac.length === 0) return -1;
    for (let i = 0; i < frac.length; i++) {
      const c = frac.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return -1;
      if (i < 4) t += c * TICK_WEIGHT[i]!;
      else if (c !== 0) return -1;
    }
  }
  return t <= TICKS_PER_DOLLAR ? t : -1;
}

/** "-12.5" -> -1250 centi-contracts; NaN unless a decimal with at most two places. */
export function centiOf(text: string): number {
  const m = /^(-?)(\d{1,12})(?:\.(\d{0,2})0*)?$/.exec(text);
  if (!m) return Number.NaN;
  const v = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -v : v;
}

/** How far either side of a trade its book decrease is looked for. */
const PAIR_WINDOW = 8;
/** earlier rows first (this exchange sends the maker's delta before the trade), then later ones */
const PAIR_OFFSETS = [...Array.from({ length: PAIR_WINDOW }, (_, k) => -1 - k), ...Array.from({ length: PAIR_WINDOW }, (_, k) => 1 + k)];

export function decodeTape(rows: TapeRows): Tape {
  const n = rows.kind.length;
  const tape: Tape = {
    length: 0,
    markets: [],
    tsUs: new Float64Array(n),
    kind: new Uint8Array(n),
    market: new Uint16Array(n),
    side: new Uint8Array(n),
    price: new Uint16Array(n),
    size: new Int32Array(n),
    traded: new Int32Array(n),
  };
  const marketIds = new Map<string, number>();
  let j = 0;
  for (let i = 0; i < n; i++) {
    const k = rows.kind[i];
    let kind: number;
    if (k === 'delta') kind = K_DELTA;
    else if (k === 'level') kind = K_LEVEL;
    else if (k === 'snapshot') kind = K_SNAPSHOT;
    else if (k === 'trade') kind = K_TRADE;
    else if (k === 'book') kind = K_BOOK;
    else continue; // tickers, lifecycle and own activity do not move the replayed books
    const name = rows.market[i]!;
    let id = marketIds.get(name);
    if (id === undefined) {
      id = tape.markets.length;
      if (id > 0xffff) throw new Error('a replay holds at most 65,536 markets');
      marketIds.set(name, id);
      tape.markets.push(name);
    }
    let side = 0;
    let price = 0;
    let size = 0;
    if (kind !== K_SNAPSHOT && kind !== K_BOOK) {
      const p = ticksOf(rows.price[i] ?? '');
      const q = centiOf(rows.size[i] ?? '');
      if (p < 0 || Number.isNaN(q)) throw new Error(`row ${i}: not a price and size: ${rows.price[i]} ${rows.size[i]}`);
      if (kind === K_TRADE) {
        // the taker bought YES: it took NO bids at 1 - price; bought NO: it took YES bids at the price
        side = rows.side[i] === 'yes' ? NO : YES;
        price = side === NO ? TICKS_PER_DOLLAR - p : p;
      } else {
        side = rows.side[i] === 'no' ? NO : YES;
        price = p;
      }
      size = q;
    }
    tape.tsUs[j] = rows.ts[i]!;
    tape.kind[j] = kind;
    tape.market[j] = id;
    tape.side[j] = side;
    tape.price[j] = price;
    tape.size[j] = size;
    j++;
  }
  tape.length = j;
  pairTrades(tape);
  return tape;
}

/** For each trade, the decreases at its level nearby that it explains, up to its size. */
function pairTrades(t: Tape): void {
  for (let i = 0; i < t.length; i++) {
    if (t.kind[i] !== K_TRADE) continue;
    let left = t.size[i]!;
    for (const d of PAIR_OFFSETS) {
      const j = i + d;
      if (left <= 0) break;
      if (j < 0 || j >= t.length) continue;
      if (t.kind[j] !== K_DELTA || t.market[j] !== t.market[i] || t.side[j] !== t.side[i] || t.price[j] !== t.price[i]) continue;
      const open = -t.size[j]! - t.traded[j]!; // what of this decrease no trade explains yet
      if (open <= 0) continue;
      const x = Math.min(open, left);
      t.traded[j] = t.traded[j]! + x;
      left -= x;
    }
  }
}

/**
 * Where a replay rebuilding the books at row `cursor` can start: the earliest of each market's
 * last snapshot (the exchange's or the recorder's own) before `cursor`, so every market's book is
 * set again between there and `cursor` (a market with rows before `cursor` and no snapshot: 0).
 * `firstRow` is each market's first row (firstRows()).
 */
export function nearestBooks(t: Tape, cursor: number, firstRow: Int32Array): number {
  let needed = 0;
  for (let m = 0; m < firstRow.length; m++) if (firstRow[m]! >= 0 && firstRow[m]! < cursor) needed++;
  if (needed === 0) return cursor;
  const found = new Uint8Array(t.markets.length);
  for (let i = Math.min(cursor, t.length) - 1; i >= 0; i--) {
    const k = t.kind[i]!;
    if (k !== K_SNAPSHOT && k !== K_BOOK) continue;
    const m = t.market[i]!;
    if (found[m]) continue;
    found[m] = 1;
    if (--needed === 0) return i;
  }
  return 0;
}

/** Each market's first row (-1: none). */
export function firstRows(t: Tape): Int32Array {
  const out = new Int32Array(t.markets.length).fill(-1);
  for (let i = 0; i < t.length; i++) if (out[t.market[i]!] === -1) out[t.market[i]!] = i;
  return out;
}
