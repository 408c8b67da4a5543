// The engine's state: plain records (what a snapshot holds) plus the runtime indexes
// rebuilt from them (books, slots, expiry heap). Every module works on one State.

import { Book, NIL, OrderSlots } from './book';
import { ExpiryHeap } from './expiry';
import { idOfSalt, idSalt, makeId, type IdKind } from './ids';
import { OrderIndex } from './order-index';
import { Matcher } from './matching';
import type { FillLog } from './fill-log';
import { TradeLog } from './trade-log';
import type {
  BalanceEvent,
  BalanceView,
  BookSide,
  EngineEvent,
  MarketView,
  OrderGroupView,
  OrderView,
  OutcomeSide,
  PositionView,
  SettlementView,
  TransferView,
} from './types';
import { TICKS_PER_DOLLAR } from './units';
import type { OrderState } from './order-state';

/** A market as the engine holds it: its view without the best prices (the book gives them), plus its book's index. */
export type MarketState = Omit<MarketView, 'yes_bid' | 'yes_ask' | 'no_bid' | 'no_ask'> & {
  /** Index of the market's book (order of creation). */
  book: number;
};

/** A position as a subaccount holds it: its view without the owner (the subaccount holding it says). */
export type PositionState = Omit<PositionView, 'user_id' | 'subaccount' | 'exchange_index'>;

export interface SubaccountState {
  number: number;
  cash: number;
  locked: number;
  updated_ms: number;
  positions: Map<string, PositionState>;
  /** Runtime: set while the sub is in the touched list of the current command. */
  touched: boolean;
}

export interface AccountState {
  user_id: string;
  /** Owner number used by the book for self-trade prevention. */
  index: number;
  subs: Array<SubaccountState | undefined>;
  clientOrders: Map<string, string>;
  clientTransfers: Map<string, string>;
  orders: string[];
  /** every fill, in columns (fill-log.ts) */
  fills: FillLog;
  settlements: SettlementView[];
  transfers: TransferView[];
  groups: string[];
}

/** An order group as the engine holds it: its view with its orders as a set, whether it was deleted, and its capacity slot. */
export type GroupState = Omit<OrderGroupView, 'is_auto_cancel_enabled' | 'orders' | 'exchange_index'> & {
  deleted: boolean;
  /** Index into the matcher's capacity table. */
  index: number;
  orders: Set<string>;
};

export interface Counters {
  order: number;
  trade: number;
  fill: number;
  transfer: number;
  group: number;
  seq: number;
}

export interface Totals {
  /** Fees collected by the exchange, micro. */
  fees: number;
  deposits: number;
  withdrawals: number;
}

export class State {
  idSeed: number;
  counters: Counters = { order: 0, trade: 0, fill: 0, transfer: 0, group: 0, seq: 0 };
  totals: Totals = { fees: 0, deposits: 0, withdrawals: 0 };
  markets = new Map<string, MarketState>();
  marketList: MarketState[] = [];
  books: Book[] = [];
  /** each market's public trade tape, in columns (trade-log.ts) */
  trades = new Map<string, TradeLog>();
  orders: OrderIndex;
  private readonly orderSalt: number;
  private readonly tradeSalt: number;
  private readonly fillSalt: number;
  accounts = new Map<string, AccountState>();
  accountList: AccountState[] = [];
  groups = new Map<string, GroupState>();
  groupList: GroupState[] = [];
  slots = new OrderSlots(1024);
  slotOrders: Array<OrderState | undefined> = [];
  matcher = new Matcher();
  expiry = new ExpiryHeap();
  // Subaccounts and positions changed by the current command (reported once at its end), in
  // parallel arrays with a count: the arrays keep their room from one command to the next
  // (`length = 0` gave the room back, and every command allocated it again).
  private touchedSubCount = 0;
  private readonly touchedSubAccounts: AccountState[] = [];
  private readonly touchedSubList: SubaccountState[] = [];
  private touchedPositionCount = 0;
  private readonly touchedPositionAccounts: AccountState[] = [];
  private readonly touchedPositionSubs: number[] = [];
  private readonly touchedPositionList: PositionState[] = [];
  /** the touched positions once there are more than a few to scan (settlement) */
  private readonly touchedPositionSet = new Set<PositionState>();
  /** Groups that reached their limit during the current command. */
  pendingTrips: GroupState[] = [];

  constructor(idSeed = 0) {
    this.idSeed = idSeed >>> 0;
    this.orders = new OrderIndex(this.idSeed);
    this.orderSalt = idSalt('order', this.idSeed);
    this.tradeSalt = idSalt('trade', this.idSeed);
    this.fillSalt = idSalt('fill', this.idSeed);
  }

  nextId(kind: IdKind): string {
    const n = ++this.counters[kind];
    return makeId(kind, n, this.idSeed);
  }

  // The ids every order and trade make, without nextId's counter and salt looked up by kind name
  nextOrderId(): string {
    return idOfSalt(this.orderSalt, ++this.counters.order);
  }

  nextTradeId(): string {
    return idOfSalt(this.tradeSalt, ++this.counters.trade);
  }

  nextFillId(): string {
    return idOfSalt(this.fillSalt, ++this.counters.fill);
  }

  /** The trade tape of a market (made with the market; made here if a restore lacked it). */
  tapeOf(ticker: string): TradeLog {
    let tape = this.trades.get(ticker);
    if (!tape) this.trades.set(ticker, (tape = new TradeLog(ticker, this.idSeed)));
    return tape;
  }

  bookOf(market: MarketState): Book {
    return this.books[market.book]!;
  }

  touchSub(account: AccountState, sub: SubaccountState): void {
    if (sub.touched) return;
    sub.touched = true;
    const n = this.touchedSubCount++;
    this.touchedSubAccounts[n] = account;
    this.touchedSubList[n] = sub;
  }

  touchPosition(account: AccountState, sub: number, position: PositionState): void {
    const n = this.touchedPositionCount;
    const list = this.touchedPositionList;
    if (n <= FEW_POSITIONS) {
      for (let i = 0; i < n; i++) if (list[i] === position) return;
      if (n === FEW_POSITIONS) for (let i = 0; i < n; i++) this.touchedPositionSet.add(list[i]!);
    }
    if (n >= FEW_POSITIONS) {
      if (this.touchedPositionSet.has(position)) return;
      this.touchedPositionSet.add(position);
    }
    this.touchedPositionAccounts[n] = account;
    this.touchedPositionSubs[n] = sub;
    list[n] = position;
    this.touchedPositionCount = n + 1;
  }

  /** Forget what this command changed of an account (a print's quiet accounts, print.ts): no position or balance event for it. */
  untouch(account: AccountState): void {
    let k = 0;
    for (let i = 0; i < this.touchedSubCount; i++) {
      if (this.touchedSubAccounts[i] === account) {
        this.touchedSubList[i]!.touched = false;
        continue;
      }
      this.touchedSubAccounts[k] = this.touchedSubAccounts[i]!;
      this.touchedSubList[k++] = this.touchedSubList[i]!;
    }
    this.touchedSubCount = k;
    const n = this.touchedPositionCount;
    k = 0;
    for (let i = 0; i < n; i++) {
      if (this.touchedPositionAccounts[i] === account) {
        this.touchedPositionSet.delete(this.touchedPositionList[i]!);
        continue;
      }
      this.touchedPositionAccounts[k] = this.touchedPositionAccounts[i]!;
      this.touchedPositionSubs[k] = this.touchedPositionSubs[i]!;
      this.touchedPositionList[k++] = this.touchedPositionList[i]!;
    }
    this.touchedPositionCount = k;
    // the Set is in use only past FEW_POSITIONS (touchPosition); below, the list is scanned again
    if (n > FEW_POSITIONS && k <= FEW_POSITIONS) this.touchedPositionSet.clear();
  }

  /** Emit one position and one balance event per thing the command changed. */
  flushTouched(events: EngineEvent[]): void {
    const np = this.touchedPositionCount;
    if (np) {
      for (let i = 0; i < np; i++) {
        events.push({ type: 'position', position: positionView(this.touchedPositionAccounts[i]!.user_id, this.touchedPositionSubs[i]!, this.touchedPositionList[i]!) });
      }
      this.touchedPositionCount = 0;
      // clearing an empty Set still allocates a new table: only the few commands that filled it
      if (np > FEW_POSITIONS) this.touchedPositionSet.clear();
    }
    const ns = this.touchedSubCount;
    if (ns) {
      for (let i = 0; i < ns; i++) {
        const sub = this.touchedSubList[i]!;
        sub.touched = false;
        const e: BalanceEvent = { type: 'balance', balance: balanceView(this.touchedSubAccounts[i]!.user_id, sub) };
        events.push(e);
      }
      this.touchedSubCount = 0;
    }
  }
}

/** Up to this many touched positions a command scans its list; beyond, it keeps a Set. */
const FEW_POSITIONS = 16;

export function ownPrice(order: { side: BookSide; yes_price: number }): number {
  return order.side === 'bid' ? order.yes_price : TICKS_PER_DOLLAR - order.yes_price;
}

export function outcomeOf(side: BookSide): OutcomeSide {
  return side === 'bid' ? 'yes' : 'no';
}

export function orderView(o: OrderState): OrderView {
  return {
    order_id: o.order_id,
    user_id: o.user_id,
    client_order_id: o.client_order_id,
    ticker: o.ticker,
    event_ticker: o.event_ticker,
    side: o.side,
    outcome_side: outcomeOf(o.side),
    action: 'buy',
    type: 'limit',
    status: o.status,
    yes_price: o.yes_price,
    no_price: TICKS_PER_DOLLAR - o.yes_price,
    fill_count: o.fill_count,
    remaining_count: o.remaining_count,
    initial_count: o.initial_count,
    taker_fill_cost: o.taker_fill_cost,
    maker_fill_cost: o.maker_fill_cost,
    taker_fees: o.taker_fees,
    maker_fees: o.maker_fees,
    created_time: o.created_time,
    last_update_time: o.last_update_time,
    expiration_time: o.expiration_time,
    time_in_force: o.time_in_force,
    self_trade_prevention_type: o.self_trade_prevention_type,
    order_group_id: o.order_group_id,
    subaccount: o.subaccount,
    post_only: o.post_only,
    exchange_index: 0,
  };
}

export function marketView(m: MarketState, book: Book | undefined): MarketView {
  const yesBid = book && book.bestYes !== NIL ? book.bestYes : 0;
  const noBid = book && book.bestNo !== NIL ? book.bestNo : 0;
  return {
    ticker: m.ticker,
    event_ticker: m.event_ticker,
    series_ticker: m.series_ticker,
    title: m.title,
    status: m.status,
    fee_type: m.fee_type,
    fee_multiplier: m.fee_multiplier,
    result: m.result,
    open_time: m.open_time,
    close_time: m.close_time,
    created_ms: m.created_ms,
    determined_ms: m.determined_ms,
    settled_ms: m.settled_ms,
    price_level_structure: m.price_level_structure,
    yes_bid: yesBid,
    yes_ask: TICKS_PER_DOLLAR - noBid,
    no_bid: noBid,
    no_ask: TICKS_PER_DOLLAR - yesBid,
    last_price: m.last_price,
    volume: m.volume,
    open_interest: m.open_interest,
  };
}

export function positionView(userId: string, sub: number, p: PositionState): PositionView {
  return {
    user_id: userId,
    subaccount: sub,
    ticker: p.ticker,
    event_ticker: p.event_ticker,
    position: p.position,
    market_exposure: p.market_exposure,
    total_traded: p.total_traded,
    realized_pnl: p.realized_pnl,
    fees_paid: p.fees_paid,
    resting_orders_count: p.resting_orders_count,
    last_updated_ms: p.last_updated_ms,
    settled: p.settled,
    exchange_index: 0,
  };
}

export function balanceView(userId: string, s: SubaccountState): BalanceView {
  return { user_id: userId, subaccount: s.number, cash: s.cash, locked: s.locked, available: s.cash - s.locked, updated_ms: s.updated_ms };
}

export function groupView(g: GroupState): OrderGroupView {
  return {
    order_group_id: g.order_group_id,
    user_id: g.user_id,
    subaccount: g.subaccount,
    contracts_limit: g.contracts_limit,
    contracts_used: g.contracts_used,
    tripped: g.tripped,
    is_auto_cancel_enabled: true,
    orders: [...g.orders],
    created_ms: g.created_ms,
    exchange_index: 0,
  };
}

/** Remaining capacity of a group as the matcher sees it. */
export function groupCapacity(g: GroupState): number {
  if (g.tripped || g.deleted) return 0;
  const left = g.contracts_limit - g.contracts_used;
  return left > 0 ? left : 0;
}

export function syncGroupCapacity(st: State, g: GroupState): void {
  st.matcher.ensureGroup(g.index);
  st.matcher.groupCap[g.index] = groupCapacity(g);
}
