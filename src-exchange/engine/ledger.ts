// Accounts, subaccounts, cash and positions. Cash is held per subaccount in micro-dollars;
// `locked` is what resting orders hold. A buy of one outcome against an opposite
// position nets: each YES+NO pair pays 1 dollar back at once, so a position is one signed
// number (positive YES, negative NO) and the money behind open pairs is exactly
// 1 dollar per open YES contract (the conservation the tests check).

import type { MarketState, AccountState, PositionState, State, SubaccountState } from './engine-state';
import { MICRO_PER_CENTI_PAYOUT } from './units';
import { FillLog } from './fill-log';

export const MAX_SUBACCOUNT = 63;

export function newSubaccount(n: number, nowMs: number): SubaccountState {
  return { number: n, cash: 0, locked: 0, updated_ms: nowMs, positions: new Map(), touched: false };
}

export function ensureAccount(st: State, userId: string, nowMs: number): AccountState {
  let acc = st.accounts.get(userId);
  if (acc) return acc;
  acc = {
    user_id: userId,
    index: st.accountList.length,
    subs: [newSubaccount(0, nowMs)],
    clientOrders: new Map(),
    clientTransfers: new Map(),
    orders: [],
    fills: new FillLog(userId, st.idSeed),
    settlements: [],
    transfers: [],
    groups: [],
  };
  st.accounts.set(userId, acc);
  st.accountList.push(acc);
  return acc;
}

export function isSubaccountNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_SUBACCOUNT;
}

export function subOf(acc: AccountState | undefined, n: number): SubaccountState | undefined {
  return acc?.subs[n];
}

export function available(sub: SubaccountState): number {
  return sub.cash - sub.locked;
}

export function ensurePosition(sub: SubaccountState, market: MarketState, nowMs: number): PositionState {
  let p = sub.positions.get(market.ticker);
  if (!p) {
    p = {
      ticker: market.ticker,
      event_ticker: market.event_ticker,
      position: 0,
      market_exposure: 0,
      total_traded: 0,
      realized_pnl: 0,
      fees_paid: 0,
      resting_orders_count: 0,
      last_updated_ms: nowMs,
      settled: false,
    };
    sub.positions.set(market.ticker, p);
  }
  return p;
}

/** floor(a * b / c) exactly, for non-negative safe integers. */
function mulDivFloor(a: number, b: number, c: number): number {
  const prod = a * b;
  if (prod > Number.MAX_SAFE_INTEGER) return Number((BigInt(a) * BigInt(b)) / BigInt(c));
  let q = Math.floor(prod / c);
  const r = prod - q * c;
  if (r < 0) q -= 1;
  else if (r >= c) q += 1;
  return q;
}

/**
 * Apply one bought fill to a subaccount: pay `price x count + fee`, net against an
 * opposite position (1 dollar back per pair), move exposure and realized PnL. `price`
 * is on the bought outcome's own leg. Returns the signed position after the fill.
 */
export function applyBuy(
  st: State,
  market: MarketState,
  account: AccountState,
  sub: SubaccountState,
  buyYes: boolean,
  price: number,
  count: number,
  feeMicro: number,
  nowMs: number,
): number {
  const pos = ensurePosition(sub, market, nowMs);
  const cost = price * count;
  sub.cash -= cost + feeMicro;
  pos.total_traded += cost;
  pos.fees_paid += feeMicro;
  const before = pos.position;
  const signed = buyYes ? count : -count;
  if (before === 0 || (before > 0) === buyYes) {
    pos.market_exposure += cost;
  } else {
    const held = before > 0 ? before : -before;
    const closing = count < held ? count : held;
    const removed = closing === held ? pos.market_exposure : mulDivFloor(pos.market_exposure, closing, held);
    const payout = closing * MICRO_PER_CENTI_PAYOUT;
    sub.cash += payout;
    pos.realized_pnl += payout - price * closing - removed;
    pos.market_exposure -= removed;
    const opening = count - closing;
    if (opening > 0) pos.market_exposure += price * opening;
  }
  const after = before + signed;
  pos.position = after;
  pos.last_updated_ms = nowMs;
  pos.settled = false;
  market.open_interest += (after > 0 ? after : 0) - (before > 0 ? before : 0);
  sub.updated_ms = nowMs;
  st.touchSub(account, sub);
  st.touchPosition(account, sub.number, pos);
  return after;
}

/** Hold cash for an order (caller checked it is available). */
export function lock(st: State, account: AccountState, sub: SubaccountState, amount: number, nowMs: number): void {
  if (amount === 0) return;
  sub.locked += amount;
  sub.updated_ms = nowMs;
  st.touchSub(account, sub);
}

export function unlock(st: State, account: AccountState, sub: SubaccountState, amount: number, nowMs: number): void {
  if (amount === 0) return;
  sub.locked -= amount;
  sub.updated_ms = nowMs;
  st.touchSub(account, sub);
}

/**
 * Count a resting order on the position row of its market (rows exist for resting
 * orders). Not a position change: no position event (the stream sends those on fills
 * and settlement only).
 */
export function adjustResting(market: MarketState, sub: SubaccountState, delta: number, nowMs: number): void {
  ensurePosition(sub, market, nowMs).resting_orders_count += delta;
}
