// An account's fills, kept in columns, as trade-log.ts keeps a market's tape. Every fill an
// account ever had is served by GET /portfolio/fills, so as one object per fill (18 fields, and
// its id string) they were most of what the engine keeps per trade: in the engine benchmark not
// storing fills at all made the whole engine about a fifth faster, nearly all of it the collector
// copying and marking them. In columns a fill is about 80 bytes and nothing for the collector to
// trace but three shared strings (its order's id and client id, its market's ticker); a fill is
// made an object again only when it is read.
//
// Exact: the columns hold the engine's own fills (ids made by makeId from the fill and trade
// counters and the engine's seed, the account's own user id, action 'buy', exchange_index 0).
// A fill of any other form (from an old snapshot, say) is kept whole beside the columns, so
// get(i) always gives back exactly what was pushed, field order included.
import { grownColumn } from './columns';
import { idCounter, makeId } from './ids';
import type { FillView } from './types';

/** The engine's fills, field by field in this order (what the columns give back). */
const FIELDS = 'fill_id,trade_id,order_id,client_order_id,user_id,subaccount,ticker,side,book_side,action,yes_price,no_price,count,is_taker,fee,ts,post_position,exchange_index';
const SIDE_NO = 1;
const BOOK_ASK = 2;
const TAKER = 4;

export class FillLog {
  private n = 0;
  /** the fill counter in the id (makeId('fill', n, seed)); -1: the fill is in `odd` */
  private num = new Float64Array(0);
  private trade = new Float64Array(0);
  private sub = new Uint8Array(0);
  private yes = new Int32Array(0);
  private no = new Int32Array(0);
  private count = new Float64Array(0);
  private fee = new Float64Array(0);
  private time = new Float64Array(0);
  private post = new Float64Array(0);
  private flags = new Uint8Array(0);
  private orderIds: string[] = [];
  private clientIds: string[] = [];
  private tickers: string[] = [];
  private odd: Map<number, FillView> | null = null;

  constructor(
    readonly userId: string,
    private readonly seed: number,
  ) {}

  static from(userId: string, seed: number, fills: readonly FillView[]): FillLog {
    const log = new FillLog(userId, seed);
    for (const f of fills) log.push(f);
    return log;
  }

  get length(): number {
    return this.n;
  }

  /** Append a fill of any form (checked: one the columns cannot hold exactly is kept whole). */
  push(f: FillView): void {
    const n = idCounter(f.fill_id);
    const t = idCounter(f.trade_id);
    const exact =
      n > 0 &&
      t > 0 &&
      Object.keys(f).join(',') === FIELDS &&
      makeId('fill', n, this.seed) === f.fill_id &&
      makeId('trade', t, this.seed) === f.trade_id &&
      this.fits(f);
    this.append(exact ? n : -1, t, f);
  }

  /**
   * Append a fill the engine just made with `st.nextFillId()` (counter `counter`) for the trade
   * it just made (counter `tradeCounter`): the hot path, without the id checks `push` makes.
   */
  add(counter: number, tradeCounter: number, f: FillView): void {
    this.append(this.fits(f) ? counter : -1, tradeCounter, f);
  }

  /** The i-th fill (oldest first), a fresh object. */
  get(i: number): FillView {
    const num = this.num[i]!;
    if (num < 0) return { ...this.odd!.get(i)! };
    const fl = this.flags[i]!;
    return {
      fill_id: makeId('fill', num, this.seed),
      trade_id: makeId('trade', this.trade[i]!, this.seed),
      order_id: this.orderIds[i]!,
      client_order_id: this.clientIds[i]!,
      user_id: this.userId,
      subaccount: this.sub[i]!,
      ticker: this.tickers[i]!,
      side: fl & SIDE_NO ? 'no' : 'yes',
      book_side: fl & BOOK_ASK ? 'ask' : 'bid',
      action: 'buy',
      yes_price: this.yes[i]!,
      no_price: this.no[i]!,
      count: this.count[i]!,
      is_taker: (fl & TAKER) !== 0,
      fee: this.fee[i]!,
      ts: this.time[i]!,
      post_position: this.post[i]!,
      exchange_index: 0,
    };
  }

  /** The i-th fill's fields without making the fill (filters, the archive). */
  idAt(i: number): string {
    const num = this.num[i]!;
    return num < 0 ? this.odd!.get(i)!.fill_id : makeId('fill', num, this.seed);
  }

  tsAt(i: number): number {
    return this.num[i]! < 0 ? this.odd!.get(i)!.ts : this.time[i]!;
  }

  subaccountAt(i: number): number {
    return this.num[i]! < 0 ? this.odd!.get(i)!.subaccount : this.sub[i]!;
  }

  tickerAt(i: number): string {
    return this.num[i]! < 0 ? this.odd!.get(i)!.ticker : this.tickers[i]!;
  }

  orderIdAt(i: number): string {
    return this.num[i]! < 0 ? this.odd!.get(i)!.order_id : this.orderIds[i]!;
  }

  toArray(): FillView[] {
    const out = new Array<FillView>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.get(i);
    return out;
  }

  /** Keep only the fills `keep` says (in order); returns how many went. */
  retain(keep: (i: number) => boolean): number {
    const kept = new FillLog(this.userId, this.seed);
    for (let i = 0; i < this.n; i++) {
      if (!keep(i)) continue;
      if (this.num[i]! < 0) kept.append(-1, 0, this.odd!.get(i)!);
      else kept.append(this.num[i]!, this.trade[i]!, this.get(i));
    }
    const gone = this.n - kept.n;
    if (gone > 0) Object.assign(this, kept);
    return gone;
  }

  private fits(f: FillView): boolean {
    return (
      f.user_id === this.userId &&
      typeof f.order_id === 'string' &&
      typeof f.client_order_id === 'string' &&
      typeof f.ticker === 'string' &&
      (f.side === 'yes' || f.side === 'no') &&
      (f.book_side === 'bid' || f.book_side === 'ask') &&
      f.action === 'buy' &&
      f.exchange_index === 0 &&
      typeof f.is_taker === 'boolean' &&
      Number.isInteger(f.subaccount) &&
      f.subaccount >= 0 &&
      f.subaccount <= 255 &&
      (f.yes_price | 0) === f.yes_price &&
      (f.no_price | 0) === f.no_price &&
      Number.isSafeInteger(f.count) &&
      Number.isSafeInteger(f.fee) &&
      Number.isSafeInteger(f.ts) &&
      Number.isSafeInteger(f.post_position)
    );
  }

  private append(num: number, tradeNum: number, f: FillView): void {
    if (this.n === this.num.length) this.grow();
    const i = this.n++;
    this.num[i] = num;
    if (num < 0) {
      (this.odd ??= new Map()).set(i, { ...f });
      this.orderIds.push('');
      this.clientIds.push('');
      this.tickers.push('');
      return;
    }
    this.trade[i] = tradeNum;
    this.sub[i] = f.subaccount;
    this.yes[i] = f.yes_price;
    this.no[i] = f.no_price;
    this.count[i] = f.count;
    this.fee[i] = f.fee;
    this.time[i] = f.ts;
    this.post[i] = f.post_position;
    this.flags[i] = (f.side === 'no' ? SIDE_NO : 0) | (f.book_side === 'ask' ? BOOK_ASK : 0) | (f.is_taker ? TAKER : 0);
    this.orderIds.push(f.order_id);
    this.clientIds.push(f.client_order_id);
    this.tickers.push(f.ticker);
  }

  private grow(): void {
    const size = Math.max(8, this.num.length * 2);
    this.num = grownColumn(this.num, size);
    this.trade = grownColumn(this.trade, size);
    this.sub = grownColumn(this.sub, size);
    this.yes = grownColumn(this.yes, size);
    this.no = grownColumn(this.no, size);
    this.count = grownColumn(this.count, size);
    this.fee = grownColumn(this.fee, size);
    this.time = grownColumn(this.time, size);
    this.post = grownColumn(this.post, size);
    this.flags = grownColumn(this.flags, size);
  }
}
