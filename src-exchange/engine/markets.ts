// Market lifecycle: unopened -> open <-> paused -> closed -> determined -> settled.
// Closing or determining cancels resting orders; settling pays 1 dollar per winning
// contract, flattens positions and records a settlement per holder.

import { Book, NO, YES } from './book';
import { isId, isTimestamp, reject, type Reject } from './errors';
import { MAX_FEE_MULTIPLIER_E4, type FeeType } from './fees';
import { DEFAULT_PRICE_LEVEL_STRUCTURE, isPriceLevelStructure } from './price-levels';
import { refreshReserve } from './amend';
import { cancelResting } from './orders';
import { marketView, type MarketState, type State } from './engine-state';
import type {
  AddMarketCommand,
  CommandOutputs,
  DetermineMarketCommand,
  EngineEvent,
  MarketCommand,
  MarketEvent,
  MarketResult,
  MarketStatus,
  SettleMarketCommand,
  SettlementView,
  UpdateMarketFeesCommand,
} from './types';
import { MICRO_PER_CENTI_PAYOUT, TICKS_PER_DOLLAR } from './units';

const FEE_TYPES: ReadonlySet<string> = new Set<FeeType>(['quadratic', 'quadratic_with_maker_fees']);

function isFeeMultiplier(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_FEE_MULTIPLIER_E4;
}

function marketEvent(st: State, m: MarketState, event: MarketEvent['event'], ts: number): MarketEvent {
  return { type: 'market', event, market: marketView(m, st.bookOf(m)), ts };
}

export function addMarket(st: State, cmd: AddMarketCommand, ev: EngineEvent[]): Reject | CommandOutputs['addMarket'] {
  if (!isId(cmd.ticker, 128) || !isId(cmd.eventTicker, 128) || !isId(cmd.seriesTicker, 128)) {
    return reject('invalid_parameters', 'ticker, event ticker and series ticker are required');
  }
  if (st.markets.has(cmd.ticker)) return reject('invalid_parameters', `market ${cmd.ticker} already exists`);
  const feeType = cmd.feeType ?? 'quadratic';
  if (!FEE_TYPES.has(feeType)) return reject('invalid_parameters', `unknown fee type ${String(feeType)}`);
  const mult = cmd.feeMultiplierE4 ?? 10_000;
  if (!isFeeMultiplier(mult)) return reject('invalid_parameters', 'fee multiplier must be an integer per 10,000 between 0 and 1,000,000');
  if (cmd.openTime !== undefined && !isTimestamp(cmd.openTime)) return reject('invalid_parameters', 'open time must be Unix seconds');
  if (cmd.closeTime !== undefined && !isTimestamp(cmd.closeTime)) return reject('invalid_parameters', 'close time must be Unix seconds');
  if (cmd.title !== undefined && typeof cmd.title !== 'string') return reject('invalid_parameters', 'title must be a string');
  const levels = cmd.priceLevelStructure ?? DEFAULT_PRICE_LEVEL_STRUCTURE;
  if (!isPriceLevelStructure(levels)) return reject('invalid_parameters', `unknown price level structure ${String(levels)}`);
  const m: MarketState = {
    ticker: cmd.ticker,
    event_ticker: cmd.eventTicker,
    series_ticker: cmd.seriesTicker,
    title: cmd.title ?? '',
    status: 'unopened',
    fee_type: feeType,
    fee_multiplier: mult,
    result: '',
    open_time: cmd.openTime ?? 0,
    close_time: cmd.closeTime ?? 0,
    created_ms: cmd.nowMs,
    determined_ms: 0,
    settled_ms: 0,
    price_level_structure: levels,
    last_price: 0,
    volume: 0,
    open_interest: 0,
    book: st.books.length,
  };
  addMarketState(st, m);
  ev.push(marketEvent(st, m, 'created', cmd.nowMs));
  return { market: marketView(m, st.bookOf(m)) };
}

/** Register a market record and its book (also used by restore). */
export function addMarketState(st: State, m: MarketState): void {
  m.book = st.books.length;
  st.books.push(new Book(m.book, st.slots));
  st.markets.set(m.ticker, m);
  st.marketList.push(m);
  st.tapeOf(m.ticker);
}

function findMarket<T extends string>(st: State, cmd: MarketCommand<T>, from: readonly MarketStatus[]): MarketState | Reject {
  if (!isId(cmd.ticker)) return reject('invalid_parameters', 'ticker is required');
  const m = st.markets.get(cmd.ticker);
  if (!m) return reject('not_found', `market ${cmd.ticker} not found`);
  if (!from.includes(m.status)) return reject('invalid_parameters', `market ${cmd.ticker} is ${m.status}`);
  return m;
}

/** Cancel every resting order of a market, best price first, FIFO within a level. */
function cancelMarketOrders(st: State, m: MarketState, ev: EngineEvent[], now: number): string[] {
  const book = st.bookOf(m);
  const slots = [...book.slotsInPriority(YES), ...book.slotsInPriority(NO)];
  const ids: string[] = [];
  for (const slot of slots) {
    const order = st.slotOrders[slot]!;
    ids.push(order.order_id);
    cancelResting(st, order, ev, now);
  }
  return ids;
}

export function openMarket(st: State, cmd: MarketCommand<'openMarket'>, ev: EngineEvent[]): Reject | CommandOutputs['openMarket'] {
  const m = findMarket(st, cmd, ['unopened', 'paused']);
  if ('ok' in m) return m;
  m.status = 'open';
  ev.push(marketEvent(st, m, 'activated', cmd.nowMs));
  return { market: marketView(m, st.bookOf(m)) };
}

export function pauseMarket(st: State, cmd: MarketCommand<'pauseMarket'>, ev: EngineEvent[]): Reject | CommandOutputs['pauseMarket'] {
  const m = findMarket(st, cmd, ['open']);
  if ('ok' in m) return m;
  m.status = 'paused';
  ev.push(marketEvent(st, m, 'paused', cmd.nowMs));
  return { market: marketView(m, st.bookOf(m)) };
}

export function closeMarket(st: State, cmd: MarketCommand<'closeMarket'>, ev: EngineEvent[]): Reject | CommandOutputs['closeMarket'] {
  const m = findMarket(st, cmd, ['unopened', 'open', 'paused']);
  if ('ok' in m) return m;
  const canceled = cancelMarketOrders(st, m, ev, cmd.nowMs);
  m.status = 'closed';
  ev.push(marketEvent(st, m, 'closed', cmd.nowMs));
  return { market: marketView(m, st.bookOf(m)), canceled };
}

export function determineMarket(st: State, cmd: DetermineMarketCommand, ev: EngineEvent[]): Reject | CommandOutputs['determineMarket'] {
  if (cmd.result !== 'yes' && cmd.result !== 'no') return reject('invalid_parameters', "result must be 'yes' or 'no'");
  const m = findMarket(st, cmd, ['open', 'paused', 'closed']);
  if ('ok' in m) return m;
  const canceled = determine(st, m, cmd.result, ev, cmd.nowMs);
  return { market: marketView(m, st.bookOf(m)), canceled };
}

function determine(st: State, m: MarketState, result: MarketResult, ev: EngineEvent[], now: number): string[] {
  const canceled = cancelMarketOrders(st, m, ev, now);
  m.status = 'determined';
  m.result = result;
  m.determined_ms = now;
  ev.push(marketEvent(st, m, 'determined', now));
  return canceled;
}

export function settleMarket(st: State, cmd: SettleMarketCommand, ev: EngineEvent[]): Reject | CommandOutputs['settleMarket'] {
  if (cmd.result !== undefined && cmd.result !== 'yes' && cmd.result !== 'no') return reject('invalid_parameters', "result must be 'yes' or 'no'");
  const m = findMarket(st, cmd, cmd.result === undefined ? ['determined'] : ['open', 'paused', 'closed', 'determined']);
  if ('ok' in m) return m;
  if (m.status === 'determined' && cmd.result !== undefined && cmd.result !== m.result) {
    return reject('invalid_parameters', `market ${m.ticker} was determined ${m.result}`);
  }
  const now = cmd.nowMs;
  if (m.status !== 'determined') determine(st, m, cmd.result!, ev, now);
  const yesWins = m.result === 'yes';
  const settlements: SettlementView[] = [];
  for (const account of st.accountList) {
    for (const sub of account.subs) {
      const pos = sub?.positions.get(m.ticker);
      if (!sub || !pos || pos.settled) continue;
      pos.settled = true;
      pos.last_updated_ms = now;
      st.touchPosition(account, sub.number, pos);
      if (pos.position === 0) continue;
      const yesCount = pos.position > 0 ? pos.position : 0;
      const noCount = pos.position < 0 ? -pos.position : 0;
      const revenue = (yesWins ? yesCount : noCount) * MICRO_PER_CENTI_PAYOUT;
      sub.cash += revenue;
      sub.updated_ms = now;
      st.touchSub(account, sub);
      pos.realized_pnl += revenue - pos.market_exposure;
      const s: SettlementView = {
        user_id: account.user_id,
        subaccount: sub.number,
        ticker: m.ticker,
        event_ticker: m.event_ticker,
        market_result: yesWins ? 'yes' : 'no',
        settled_at: Math.floor(now / 1000),
        yes_count: yesCount,
        no_count: noCount,
        yes_total_cost: yesCount > 0 ? pos.market_exposure : 0,
        no_total_cost: noCount > 0 ? pos.market_exposure : 0,
        revenue,
        fee_cost: pos.fees_paid,
        value: yesWins ? TICKS_PER_DOLLAR : 0,
        exchange_index: 0,
      };
      pos.position = 0;
      pos.market_exposure = 0;
      account.settlements.push(s);
      settlements.push(s);
      ev.push({ type: 'settlement', settlement: { ...s } });
    }
  }
  m.open_interest = 0;
  m.status = 'settled';
  m.settled_ms = now;
  ev.push(marketEvent(st, m, 'settled', now));
  return { market: marketView(m, st.bookOf(m)), settlements: settlements.map((s) => ({ ...s })) };
}

export function updateMarketFees(st: State, cmd: UpdateMarketFeesCommand, ev: EngineEvent[]): Reject | CommandOutputs['updateMarketFees'] {
  if (!FEE_TYPES.has(cmd.feeType)) return reject('invalid_parameters', `unknown fee type ${String(cmd.feeType)}`);
  if (!isFeeMultiplier(cmd.feeMultiplierE4)) return reject('invalid_parameters', 'fee multiplier must be an integer per 10,000 between 0 and 1,000,000');
  const m = findMarket(st, cmd, ['unopened', 'open', 'paused', 'closed', 'determined']);
  if ('ok' in m) return m;
  m.fee_type = cmd.feeType;
  m.fee_multiplier = cmd.feeMultiplierE4;
  const book = st.bookOf(m);
  const canceled: string[] = [];
  for (const slot of [...book.slotsInPriority(YES), ...book.slotsInPriority(NO)]) {
    const order = st.slotOrders[slot]!;
    if (refreshReserve(st, order.order_id, cmd.nowMs)) continue;
    canceled.push(order.order_id);
    cancelResting(st, order, ev, cmd.nowMs);
  }
  ev.push(marketEvent(st, m, 'fees_updated', cmd.nowMs));
  return { market: marketView(m, st.bookOf(m)), canceled };
}
