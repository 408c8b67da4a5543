// Finished orders in columns. A canceled or executed order never changes again, but kept as one
// 31-field object each it was the largest single cost in the full engine's benchmark: V8 placed
// every new order straight into the old generation, since orders outlived the young one. Here a
// finished order is one row of a Float64Array and an Int32Array, its strings interned, and its
// id made again from its number when asked. Reading a row back gives an object equal to the one stored, field order included
// (ORDER_FIELDS); an order in any other form is never put here (see `fitsColumns`).

import { NIL } from './book';
import { grownColumn } from './columns';
import { makeId } from './ids';
import type { OrderState } from './order-state';
import { STP_TYPES, TIMES_IN_FORCE, type BookSide, type OrderStatus, type SelfTradePreventionType, type TimeInForce } from './types';

/** What a field of an order may hold to fit a row (see fitsColumns). */
type FieldRule = 'id' | 'string' | 'number' | 'small' | 'time' | 'zero' | 'nil' | 'boolean' | 'group' | 'side' | 'final' | 'tif' | 'stp';

/** The fields of an order in the order the engine writes them (createOrder, block.ts), and what each may hold. */
const ORDER_FIELDS: Readonly<Record<keyof OrderState, FieldRule>> = {
  order_id: 'id',
  user_id: 'string',
  client_order_id: 'string',
  ticker: 'string',
  event_ticker: 'string',
  side: 'side',
  status: 'final',
  yes_price: 'small',
  fill_count: 'number',
  remaining_count: 'number',
  initial_count: 'number',
  taker_fill_cost: 'number',
  maker_fill_cost: 'number',
  taker_fees: 'number',
  maker_fees: 'number',
  created_time: 'number',
  last_update_time: 'number',
  expiration_time: 'time',
  time_in_force: 'tif',
  self_trade_prevention_type: 'stp',
  order_group_id: 'group',
  subaccount: 'small',
  post_only: 'boolean',
  num: 'number',
  // a finished order holds no queue place and no lock
  seq: 'zero',
  locked: 'zero',
  reserve: 'zero',
  taker_carry: 'number',
  maker_carry: 'number',
  slot: 'nil',
};
const ORDER_KEYS = Object.keys(ORDER_FIELDS) as (keyof OrderState)[];

const SIDES: readonly BookSide[] = ['bid', 'ask'];
const FINAL: readonly OrderStatus[] = ['canceled', 'executed'];

// one row: the numbers in a Float64Array ...
const FILL_COUNT = 0;
const REMAINING = 1;
const INITIAL = 2;
const TAKER_COST = 3;
const MAKER_COST = 4;
const TAKER_FEES = 5;
const MAKER_FEES = 6;
const CREATED = 7;
const UPDATED = 8;
const EXPIRES = 9; // NaN for null
const NUM = 10;
const TAKER_CARRY = 11;
const MAKER_CARRY = 12;
const WIDE = 13;
// ... and the small ones in an Int32Array (a finished order holds no lock and no queue place: its
// seq, locked and reserve are 0, which fitsColumns asks of a restored one)
const YES_PRICE = 0;
const USER = 1;
const TICKER = 2;
const EVENT = 3;
const GROUP = 4; // -1 for null
const CODES = 5; // side | status << 1 | tif << 2 | stp << 4 | post_only << 5 | subaccount << 8
const NARROW = 6;

/**
 * Whether an order can live in the columns and come back exactly: the engine's own field order,
 * every field as ORDER_FIELDS says (a final status, known enum values, a finite number in every
 * number field, no lock or queue place left) and the id the engine would make for its number.
 * Anything else (an old or hand-written snapshot) stays whole.
 */
export function fitsColumns(o: OrderState, n: number, idSeed: number): boolean {
  const keys = Object.keys(o);
  if (keys.length !== ORDER_KEYS.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as keyof OrderState;
    if (k !== ORDER_KEYS[i] || !fits(ORDER_FIELDS[k], o[k])) return false;
  }
  return makeId('order', n, idSeed) === o.order_id;
}

function fits(rule: FieldRule, v: unknown): boolean {
  switch (rule) {
    case 'id':
    case 'string':
      return typeof v === 'string';
    case 'number':
      return Number.isFinite(v);
    case 'small': // kept in an Int32Array (the subaccount in the 24 bits above the codes)
      return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0xff_ffff;
    case 'time':
      return v === null || Number.isFinite(v);
    case 'zero':
      return v === 0;
    case 'nil':
      return v === NIL;
    case 'boolean':
      return typeof v === 'boolean';
    case 'group':
      return v === null || typeof v === 'string';
    case 'side':
      return SIDES.includes(v as BookSide);
    case 'final':
      return FINAL.includes(v as OrderStatus);
    case 'tif':
      return TIMES_IN_FORCE.includes(v as TimeInForce);
    case 'stp':
      return STP_TYPES.includes(v as SelfTradePreventionType);
  }
}

/**
 * The rows. A row is handed out when an order finishes and handed back when it is pruned (the
 * next finished order reuses it), so the columns hold the finished orders there are, not every
 * order ever made. The index keeps, under each order's number, its row.
 */
export class OrderColumns {
  private wide = new Float64Array(0);
  private narrow = new Int32Array(0);
  private capacity = 0;
  /** rows handed out so far (row numbers below it are in use or free) */
  private next = 0;
  private readonly free: number[] = [];
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  /** per string column, the last string interned and its number (rows repeat their market, often their user) */
  private readonly lastString = ['', '', '', ''];
  private readonly lastIndex = [-1, -1, -1, -1];
  /** client order ids, by row, of the rows that have one */
  private readonly clientIds = new Map<number, string>();

  constructor(private readonly idSeed: number) {}

  get size(): number {
    return this.next - this.free.length;
  }

  /** Rows the columns hold, in use or free (what their memory follows). */
  get rows(): number {
    return this.next;
  }

  /**
   * Store a finished order in a free row; returns the row. The engine's own orders fit by how it
   * makes them; a restored one was checked with fitsColumns.
   */
  add(o: OrderState): number {
    const row = this.free.length > 0 ? this.free.pop()! : this.next++;
    if (row >= this.capacity) {
      const cap = Math.max(1024, this.capacity * 2);
      this.wide = grownColumn(this.wide, cap * WIDE);
      this.narrow = grownColumn(this.narrow, cap * NARROW);
      this.capacity = cap;
    }
    const w = this.wide;
    let at = row * WIDE;
    w[at + FILL_COUNT] = o.fill_count;
    w[at + REMAINING] = o.remaining_count;
    w[at + INITIAL] = o.initial_count;
    w[at + TAKER_COST] = o.taker_fill_cost;
    w[at + MAKER_COST] = o.maker_fill_cost;
    w[at + TAKER_FEES] = o.taker_fees;
    w[at + MAKER_FEES] = o.maker_fees;
    w[at + CREATED] = o.created_time;
    w[at + UPDATED] = o.last_update_time;
    w[at + EXPIRES] = o.expiration_time === null ? NaN : o.expiration_time;
    w[at + NUM] = o.num;
    w[at + TAKER_CARRY] = o.taker_carry;
    w[at + MAKER_CARRY] = o.maker_carry;
    const r = this.narrow;
    at = row * NARROW;
    r[at + YES_PRICE] = o.yes_price;
    r[at + USER] = this.intern(o.user_id, 0);
    r[at + TICKER] = this.intern(o.ticker, 1);
    r[at + EVENT] = this.intern(o.event_ticker, 2);
    r[at + GROUP] = o.order_group_id === null ? -1 : this.intern(o.order_group_id, 3);
    r[at + CODES] =
      (o.side === 'ask' ? 1 : 0) |
      ((o.status === 'executed' ? 1 : 0) << 1) |
      // (the position in TIMES_IN_FORCE, without searching it)
      ((o.time_in_force === 'good_till_canceled' ? 0 : o.time_in_force === 'immediate_or_cancel' ? 1 : 2) << 2) |
      ((o.self_trade_prevention_type === 'maker' ? 1 : 0) << 4) |
      ((o.post_only ? 1 : 0) << 5) |
      (o.subaccount << 8);
    if (o.client_order_id !== '') this.clientIds.set(row, o.client_order_id);
    return row;
  }

  /** Hand a row back (its order was pruned). */
  remove(row: number): void {
    this.clientIds.delete(row);
    this.free.push(row);
  }

  /** The id of the order numbered n. */
  idOf(n: number): string {
    return makeId('order', n, this.idSeed);
  }

  /** The order in `row`, whose id is `id` (idOf its number), as it was stored (a new object each call). */
  get(row: number, id: string): OrderState {
    const w = this.wide;
    const r = this.narrow;
    const at = row * WIDE;
    const an = row * NARROW;
    const codes = r[an + CODES]!;
    const expires = w[at + EXPIRES]!;
    const group = r[an + GROUP]!;
    return {
      order_id: id,
      user_id: this.strings[r[an + USER]!]!,
      client_order_id: this.clientIds.get(row) ?? '',
      ticker: this.strings[r[an + TICKER]!]!,
      event_ticker: this.strings[r[an + EVENT]!]!,
      side: SIDES[codes & 1]!,
      status: FINAL[(codes >> 1) & 1]!,
      yes_price: r[an + YES_PRICE]!,
      fill_count: w[at + FILL_COUNT]!,
      remaining_count: w[at + REMAINING]!,
      initial_count: w[at + INITIAL]!,
      taker_fill_cost: w[at + TAKER_COST]!,
      maker_fill_cost: w[at + MAKER_COST]!,
      taker_fees: w[at + TAKER_FEES]!,
      maker_fees: w[at + MAKER_FEES]!,
      created_time: w[at + CREATED]!,
      last_update_time: w[at + UPDATED]!,
      expiration_time: Number.isNaN(expires) ? null : expires,
      time_in_force: TIMES_IN_FORCE[(codes >> 2) & 3]!,
      self_trade_prevention_type: STP_TYPES[(codes >> 4) & 1]!,
      order_group_id: group < 0 ? null : this.strings[group]!,
      subaccount: codes >>> 8,
      post_only: ((codes >> 5) & 1) === 1,
      num: w[at + NUM]!,
      seq: 0,
      locked: 0,
      reserve: 0,
      taker_carry: w[at + TAKER_CARRY]!,
      maker_carry: w[at + MAKER_CARRY]!,
      slot: NIL,
    };
  }

  private intern(s: string, column: number): number {
    if (s === this.lastString[column]) return this.lastIndex[column]!;
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.stringIndex.set(s, i);
    }
    this.lastString[column] = s;
    this.lastIndex[column] = i;
    return i;
  }
}
