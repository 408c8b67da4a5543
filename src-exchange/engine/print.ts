// A trade printed without a taker order (types.ts PrintTradeCommand): how a replay sends a
// recorded trade. It matches like an immediate-or-cancel order of its account (the same matcher
// and fill path, applyMatch), so the tape, the book's queue, volume, open interest and the other
// accounts' fills are what that order would have made; what it skips is the bookkeeping no one
// reads: the taker's order record, lock and fills, and the quiet account's fills and order events
// (the replay's book account has no keys). Their order and fill numbers are taken all the same,
// so every later id is the one the order path gives.
import { NIL } from './book';
import { isId, reject, type Reject } from './errors';
import { checkTick } from './price-levels';
import { STP_TAKER_AT_CROSS } from './matching';
import { applyMatch, processTrips, type Owner } from './orders';
import type { State } from './engine-state';
import { newOrderState } from './order-state';
import { checkOrderTerms, marketOpen } from './trading';
import type { Accepted, CommandOutputs, EngineEvent, PrintTradeCommand } from './types';
import { TICKS_PER_DOLLAR } from './units';

export function printTrade(st: State, cmd: PrintTradeCommand, ev: EngineEvent[]): Reject | Accepted<CommandOutputs['printTrade']> {
  const now = cmd.nowMs;
  const terms = checkOrderTerms(cmd);
  if (terms) return terms;
  if (cmd.quietUserId !== undefined && !isId(cmd.quietUserId)) return reject('invalid_parameters', 'quietUserId must be a user id');
  // its own resting orders would stop it (self-trade prevention), not print
  if (cmd.quietUserId === cmd.userId) return reject('invalid_parameters', 'quietUserId must be another account than the taker');
  const account = st.accounts.get(cmd.userId);
  const sub = account?.subs[0];
  if (!account || !sub) return reject('not_found', `account ${cmd.userId} not found`);
  const quiet = cmd.quietUserId === undefined ? undefined : st.accounts.get(cmd.quietUserId);
  if (cmd.quietUserId !== undefined && !quiet) return reject('not_found', `account ${cmd.quietUserId} not found`);
  const market = marketOpen(st, cmd.ticker);
  if ('ok' in market) return market;
  const offTick = checkTick(market.price_level_structure, cmd.priceTicks);
  if (offTick) return offTick;

  // ---- accepted: mutate from here on. The taker is matched but never kept: it takes the order
  // number it would have had, and holds no lock (its cash moves by the fills alone, as the lock an
  // order takes and releases nets to nothing)
  const taker = newOrderState({
    order_id: '',
    user_id: cmd.userId,
    client_order_id: '',
    ticker: market.ticker,
    event_ticker: market.event_ticker,
    side: cmd.side,
    status: 'executed',
    yes_price: cmd.priceTicks,
    remaining_count: cmd.countCenti,
    initial_count: cmd.countCenti,
    created_time: now,
    expiration_time: null,
    time_in_force: 'immediate_or_cancel',
    self_trade_prevention_type: 'taker_at_cross',
    order_group_id: null,
    subaccount: 0,
    post_only: false,
    num: ++st.counters.order,
  });
  const own = cmd.side === 'bid' ? cmd.priceTicks : TICKS_PER_DOLLAR - cmd.priceTicks;
  const o: Owner = { market, account, sub };
  const trades0 = st.counters.trade;
  st.matcher.match(st.bookOf(market), cmd.side === 'bid' ? 0 : 1, own, cmd.countCenti, account.index, STP_TAKER_AT_CROSS, NIL);
  applyMatch(st, o, taker, ev, now, quiet ? quiet.index : NIL, true);
  processTrips(st, ev, now);
  st.untouch(account);
  if (quiet) st.untouch(quiet);
  return { count: taker.fill_count, trades: st.counters.trade - trades0, ok: true, events: ev, mutated: true };
}
