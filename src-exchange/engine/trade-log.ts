// A market's public trade tape, kept in columns. The tape only grows (every trade the exchange
// ever matched is served by GET /markets/trades and the candles), so as one object per trade it
// was what grew the exchange's memory under the simulation (about 250 bytes a trade, held by the
// exchange and again by the snapshot worker's replica) and a cost of every young-generation
// collection that copied it. In columns a trade is 33 bytes and nothing for the collector to
// trace; a trade is made an object again only when it is read.
//
// Exact: the columns hold the engine's own trades (an id made by makeId from the trade counter
// and the engine's seed, the sides as the engine writes them). A trade of any other form (from
// an old snapshot, say) is kept whole beside the columns, so get(i) always gives back exactly
// what was pushed, field order included.
import { grownColumn } from './columns';
import { idCounter, makeId } from './ids';
import type { TradeView } from './types';

/** The engine's trades, field by field in this order (what the columns give back). */
const FIELDS = 'trade_id,ticker,taker_side,taker_book_side,yes_price,no_price,count,created_time,is_block_trade';
const TAKER_NO = 1;
const BOOK_ASK = 2;
const BLOCK = 4;

/** What the read side may do with a tape: read it. */
export type TradeTapeView = Pick<TradeLog, 'ticker' | 'length' | 'get' | 'idAt' | 'timeAt' | 'yesPriceAt' | 'countAt' | 'takerAskAt' | 'blockAt'>;

export class TradeLog {
  private n = 0;
  /** the trade counter in the id (makeId('trade', n, seed)); -1: the trade is in `odd` */
  private num = new Float64Array(16);
  private yes = new Int32Array(16);
  private no = new Int32Array(16);
  private count = new Float64Array(16);
  private time = new Float64Array(16);
  private flags = new Uint8Array(16);
  private odd: Map<number, TradeView> | null = null;

  constructor(
    readonly ticker: string,
    private readonly seed: number,
  ) {}

  static from(ticker: string, seed: number, trades: readonly TradeView[]): TradeLog {
    const log = new TradeLog(ticker, seed);
    for (const t of trades) log.push(t);
    return log;
  }

  get length(): number {
    return this.n;
  }

  /** Append a trade of any form (checked: one the columns cannot hold exactly is kept whole). */
  push(t: TradeView): void {
    const n = idCounter(t.trade_id);
    const exact =
      n > 0 && Object.keys(t).join(',') === FIELDS && makeId('trade', n, this.seed) === t.trade_id && t.ticker === this.ticker && this.fits(t);
    this.append(exact ? n : -1, t);
  }

  /**
   * Append a trade the engine just made with `st.nextTradeId()` (its counter is `counter`):
   * the hot path, without the checks `push` makes.
   */
  add(counter: number, t: TradeView): void {
    this.append(t.ticker === this.ticker && this.fits(t) ? counter : -1, t);
  }

  /** The i-th trade (oldest first), a fresh object. */
  get(i: number): TradeView {
    const num = this.num[i]!;
    if (num < 0) return { ...this.odd!.get(i)! };
    const f = this.flags[i]!;
    return {
      trade_id: makeId('trade', num, this.seed),
      ticker: this.ticker,
      taker_side: f & TAKER_NO ? 'no' : 'yes',
      taker_book_side: f & BOOK_ASK ? 'ask' : 'bid',
      yes_price: this.yes[i]!,
      no_price: this.no[i]!,
      count: this.count[i]!,
      created_time: this.time[i]!,
      is_block_trade: (f & BLOCK) !== 0,
    };
  }

  /** The i-th trade's fields without making the trade (the read side's loops). */
  idAt(i: number): string {
    const num = this.num[i]!;
    return num < 0 ? this.odd!.get(i)!.trade_id : makeId('trade', num, this.seed);
  }

  timeAt(i: number): number {
    return this.num[i]! < 0 ? this.odd!.get(i)!.created_time : this.time[i]!;
  }

  yesPriceAt(i: number): number {
    return this.num[i]! < 0 ? this.odd!.get(i)!.yes_price : this.yes[i]!;
  }

  countAt(i: number): number {
    return this.num[i]! < 0 ? this.odd!.get(i)!.count : this.count[i]!;
  }

  /** the taker sold YES into the bid (taker_book_side 'ask') */
  takerAskAt(i: number): boolean {
    return this.num[i]! < 0 ? this.odd!.get(i)!.taker_book_side === 'ask' : (this.flags[i]! & BOOK_ASK) !== 0;
  }

  blockAt(i: number): boolean {
    return this.num[i]! < 0 ? this.odd!.get(i)!.is_block_trade : (this.flags[i]! & BLOCK) !== 0;
  }

  toArray(): TradeView[] {
    const out = new Array<TradeView>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.get(i);
    return out;
  }

  private fits(t: TradeView): boolean {
    return (
      (t.taker_side === 'yes' || t.taker_side === 'no') &&
      (t.taker_book_side === 'bid' || t.taker_book_side === 'ask') &&
      typeof t.is_block_trade === 'boolean' &&
      (t.yes_price | 0) === t.yes_price &&
      (t.no_price | 0) === t.no_price &&
      Number.isSafeInteger(t.count) &&
      Number.isSafeInteger(t.created_time)
    );
  }

  private append(num: number, t: TradeView): void {
    if (this.n === this.num.length) this.grow();
    const i = this.n++;
    this.num[i] = num;
    if (num < 0) {
      (this.odd ??= new Map()).set(i, { ...t });
      return;
    }
    this.yes[i] = t.yes_price;
    this.no[i] = t.no_price;
    this.count[i] = t.count;
    this.time[i] = t.created_time;
    this.flags[i] = (t.taker_side === 'no' ? TAKER_NO : 0) | (t.taker_book_side === 'ask' ? BOOK_ASK : 0) | (t.is_block_trade ? BLOCK : 0);
  }

  private grow(): void {
    const size = this.num.length * 2;
    this.num = grownColumn(this.num, size);
    this.yes = grownColumn(this.yes, size);
    this.no = grownColumn(this.no, size);
    this.count = grownColumn(this.count, size);
    this.time = grownColumn(this.time, size);
    this.flags = grownColumn(this.flags, size);
  }
}
