// Consistency checks over the whole state: money is conserved, books are not crossed,
// level totals and locks agree with the orders. Used by tests; cheap enough to call
// after every command in a property test.

import { LEVELS_PER_SIDE, NIL, NO, YES, type Book, type BookSideIndex } from './book';
import { ownPrice, type MarketState, type State } from './engine-state';
import { MICRO_PER_CENTI_PAYOUT } from './units';

export interface AuditTotals {
  /** Cash in every subaccount, including what resting orders hold (micro). */
  cash: number;
  locked: number;
  fees: number;
  /** Open YES/NO pairs over all markets (centi). */
  openPairs: number;
  deposits: number;
  withdrawals: number;
  /** cash + fees + 1 dollar per open pair - (deposits - withdrawals): always 0. */
  imbalance: number;
}

export function auditTotals(st: State): AuditTotals {
  let cash = 0;
  let locked = 0;
  for (const a of st.accountList) {
    for (const s of a.subs) {
      if (!s) continue;
      cash += s.cash;
      locked += s.locked;
    }
  }
  let openPairs = 0;
  for (const m of st.marketList) openPairs += m.open_interest;
  const fees = st.totals.fees;
  const imbalance = cash + fees + openPairs * MICRO_PER_CENTI_PAYOUT - (st.totals.deposits - st.totals.withdrawals);
  return { cash, locked, fees, openPairs, deposits: st.totals.deposits, withdrawals: st.totals.withdrawals, imbalance };
}

export function checkInvariants(st: State): string[] {
  const problems: string[] = [];
  const totals = auditTotals(st);
  if (totals.imbalance !== 0) problems.push(`money not conserved: imbalance ${totals.imbalance}`);
  const { lockedBySub, restingByPos } = checkOrders(st, problems);
  checkSubaccounts(st, lockedBySub, restingByPos, problems);
  for (const m of st.marketList) checkMarket(st, m, problems);
  return problems;
}

/** Every order: only resting ones hold cash, each in its slot, group and counts; sums what they hold and rest per subaccount and position. */
function checkOrders(st: State, problems: string[]): { lockedBySub: Map<string, number>; restingByPos: Map<string, number> } {
  const lockedBySub = new Map<string, number>();
  const restingByPos = new Map<string, number>();
  for (const o of st.orders.values()) {
    if (o.status !== 'resting') {
      if (o.locked !== 0) problems.push(`order ${o.order_id} is ${o.status} but holds ${o.locked}`);
      continue;
    }
    const key = `${o.user_id}/${o.subaccount}`;
    lockedBySub.set(key, (lockedBySub.get(key) ?? 0) + o.locked);
    const pk = `${key}/${o.ticker}`;
    restingByPos.set(pk, (restingByPos.get(pk) ?? 0) + 1);
    if (o.slot === NIL || st.slotOrders[o.slot] !== o) problems.push(`resting order ${o.order_id} has no slot`);
    else if (st.slots.remaining[o.slot] !== o.remaining_count) problems.push(`order ${o.order_id} slot count differs`);
    if (o.remaining_count <= 0) problems.push(`resting order ${o.order_id} has nothing left`);
    if (o.locked < ownPrice(o) * o.remaining_count) problems.push(`order ${o.order_id} holds less than its cost`);
    if (o.fill_count + o.remaining_count > o.initial_count) problems.push(`order ${o.order_id} counts exceed initial`);
    if (o.order_group_id !== null && !st.groups.get(o.order_group_id)?.orders.has(o.order_id)) {
      problems.push(`order ${o.order_id} missing from its group`);
    }
  }
  return { lockedBySub, restingByPos };
}

/** Every subaccount holds what its orders hold, within its cash; its positions count their resting orders. */
function checkSubaccounts(st: State, lockedBySub: Map<string, number>, restingByPos: Map<string, number>, problems: string[]): void {
  for (const a of st.accountList) {
    for (const s of a.subs) {
      if (!s) continue;
      const key = `${a.user_id}/${s.number}`;
      if (s.locked !== (lockedBySub.get(key) ?? 0)) problems.push(`${key} locked ${s.locked} != orders ${lockedBySub.get(key) ?? 0}`);
      if (s.cash < s.locked) problems.push(`${key} cash ${s.cash} below locked ${s.locked}`);
      if (s.locked < 0) problems.push(`${key} negative locked`);
      for (const p of s.positions.values()) {
        const n = restingByPos.get(`${key}/${p.ticker}`) ?? 0;
        if (p.resting_orders_count !== n) problems.push(`${key}/${p.ticker} resting count ${p.resting_orders_count} != ${n}`);
        if (p.market_exposure < 0) problems.push(`${key}/${p.ticker} negative exposure`);
        if (p.position === 0 && p.market_exposure !== 0) problems.push(`${key}/${p.ticker} exposure without position`);
      }
    }
  }
}

/** A market: its book not crossed, yes and no positions equal to the open interest, each side's levels sound. */
function checkMarket(st: State, m: MarketState, problems: string[]): void {
  const book = st.bookOf(m);
  if (book.isCrossed()) problems.push(`book ${m.ticker} is crossed: yes ${book.bestYes} no ${book.bestNo}`);
  let yes = 0;
  let no = 0;
  for (const a of st.accountList) {
    for (const s of a.subs) {
      const p = s?.positions.get(m.ticker);
      if (!p) continue;
      if (p.position > 0) yes += p.position;
      else no -= p.position;
    }
  }
  if (yes !== no || yes !== m.open_interest) problems.push(`market ${m.ticker}: yes ${yes} no ${no} open interest ${m.open_interest}`);
  for (const side of [YES, NO] as const) checkBookSide(st, m.ticker, book, side, problems);
}

/** One side of a book: each level FIFO and totalling its orders, empty levels empty, the best price and order count right. */
function checkBookSide(st: State, ticker: string, book: Book, side: BookSideIndex, problems: string[]): void {
  let best = NIL;
  let count = 0;
  // the book's level arrays read directly (this runs after every command in the property tests:
  // through levelHead/levelQty it was half of their time); none allocated: every level empty
  const heads = book.head;
  const qtys = book.qty;
  const base = side * LEVELS_PER_SIDE;
  for (let p = heads.length === 0 ? -1 : LEVELS_PER_SIDE - 1; p >= 0; p--) {
    const head = heads[base + p]!;
    if (head === NIL) {
      if (qtys[base + p] !== 0) problems.push(`${ticker} empty level ${side}/${p} has count`);
      continue;
    }
    if (best === NIL) best = p;
    let sum = 0;
    let prevSeq = -1;
    for (let cur = head; cur !== NIL; cur = st.slots.next[cur]!) {
      const o = st.slotOrders[cur]!;
      sum += o.remaining_count;
      count++;
      if (o.seq <= prevSeq) problems.push(`${ticker} level ${side}/${p} not FIFO at ${o.order_id}`);
      prevSeq = o.seq;
    }
    if (sum !== book.levelQty(side, p)) problems.push(`${ticker} level ${side}/${p} total ${book.levelQty(side, p)} != ${sum}`);
  }
  if (best !== book.best(side)) problems.push(`${ticker} best ${side} is ${book.best(side)}, expected ${best}`);
  if (count !== (side === YES ? book.yesOrders : book.noOrders)) problems.push(`${ticker} side ${side} order count is off`);
}
