// Off-book (block) trades: an RFQ confirm or a block trade proposal settles here. Two
// participants trade at an agreed YES price without touching the book: the buyer buys YES
// at p, the seller (who sells YES) buys NO at 10000 - p. Cash, positions and fees move
// exactly as in a book fill between them; each side gets an executed order record (so a
// fill always names an order) and a fill, and the tape gets one trade with
// is_block_trade true. Fees per the protocol notes (docs/spec/protocol-notes.md): the taker rate on the taker, the maker
// rate (when the market's fee type charges makers) on the maker; `makerSide` says which
// side provided the liquidity.

import { isId, reject, type Reject } from './errors';
import { fillFeeCents, makerK, TAKER_K } from './fees';
import { applyBuy, available, isSubaccountNumber } from './ledger';
import { orderView, type AccountState, type MarketState, type State, type SubaccountState } from './engine-state';
import { newOrderState, type OrderState } from './order-state';
import { marketOpen } from './trading';
import type { BookSide, CommandOutputs, EngineEvent, ExecuteBlockTradeCommand, FillView, TradeView } from './types';
import { isOrderCount, isOrderPrice, MICRO_PER_CENT, TICKS_PER_DOLLAR } from './units';

interface Party {
  account: AccountState;
  sub: SubaccountState;
  side: BookSide;
  /** Price on the party's own leg (ticks). */
  own: number;
  isTaker: boolean;
  fee: number;
}

function partyAccount(st: State, userId: string, subN: number): { account: AccountState; sub: SubaccountState } | Reject {
  const account = st.accounts.get(userId);
  const sub = account?.subs[subN];
  if (!account || !sub) {
    return subN === 0 ? reject('insufficient_balance', `insufficient balance (${userId})`) : reject('not_found', `subaccount ${subN} of ${userId} not found`);
  }
  return { account, sub };
}

function blockOrder(st: State, market: MarketState, userId: string, p: Party, yesPrice: number, count: number, nowMs: number): OrderState {
  const order = newOrderState({
    order_id: st.nextOrderId(),
    user_id: userId,
    client_order_id: '',
    ticker: market.ticker,
    event_ticker: market.event_ticker,
    side: p.side,
    status: 'executed',
    yes_price: yesPrice,
    remaining_count: 0,
    initial_count: count,
    created_time: nowMs,
    expiration_time: null,
    time_in_force: 'fill_or_kill',
    self_trade_prevention_type: 'taker_at_cross',
    order_group_id: null,
    subaccount: p.sub.number,
    post_only: false,
    num: st.counters.order,
  });
  // a block trade's order is born executed: all of it filled, at this side's cost and fee
  order.fill_count = count;
  if (p.isTaker) {
    order.taker_fill_cost = p.own * count;
    order.taker_fees = p.fee;
  } else {
    order.maker_fill_cost = p.own * count;
    order.maker_fees = p.fee;
  }
  st.orders.set(order.order_id, order);
  st.orders.retire(order);
  p.account.orders.push(order.order_id);
  return order;
}

/** The block trade as the tape shows it. */
function blockTradeView(st: State, ticker: string, takerSide: BookSide, yesPrice: number, count: number, now: number): TradeView {
  return {
    trade_id: st.nextTradeId(),
    ticker,
    taker_side: takerSide === 'bid' ? 'yes' : 'no',
    taker_book_side: takerSide,
    yes_price: yesPrice,
    no_price: TICKS_PER_DOLLAR - yesPrice,
    count,
    created_time: now,
    is_block_trade: true,
  };
}

/** One party's fill of the block trade (both sides buy: yes for the buyer, no for the seller). */
function blockFill(st: State, trade: TradeView, p: Party, order: OrderState, post: number): FillView {
  return {
    fill_id: st.nextFillId(),
    trade_id: trade.trade_id,
    order_id: order.order_id,
    client_order_id: '',
    user_id: p.account.user_id,
    subaccount: p.sub.number,
    ticker: trade.ticker,
    side: p.side === 'bid' ? 'yes' : 'no',
    book_side: p.side,
    action: 'buy',
    yes_price: trade.yes_price,
    no_price: TICKS_PER_DOLLAR - trade.yes_price,
    count: trade.count,
    is_taker: p.isTaker,
    fee: p.fee,
    ts: trade.created_time,
    post_position: post,
    exchange_index: 0,
  };
}

export function executeBlockTrade(st: State, cmd: ExecuteBlockTradeCommand, ev: EngineEvent[]): Reject | CommandOutputs['executeBlockTrade'] {
  const now = cmd.nowMs;
  if (!isId(cmd.buyerUserId) || !isId(cmd.sellerUserId)) return reject('invalid_parameters', 'buyer and seller user ids are required');
  const buyerSubN = cmd.buyerSubaccount ?? 0;
  const sellerSubN = cmd.sellerSubaccount ?? 0;
  if (!isSubaccountNumber(buyerSubN) || !isSubaccountNumber(sellerSubN)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (cmd.buyerUserId === cmd.sellerUserId) return reject('invalid_order', 'buyer and seller are the same account', 'self trade');
  if (!isOrderPrice(cmd.yesPriceTicks)) return reject('invalid_parameters', 'price must be between 0.0001 and 0.9999 in steps of 0.0001');
  if (!isOrderCount(cmd.countCenti)) return reject('invalid_parameters', 'count must be a positive multiple of 0.01 contracts');
  if (cmd.makerSide !== 'yes' && cmd.makerSide !== 'no') return reject('invalid_parameters', "maker side must be 'yes' or 'no'");
  const market = marketOpen(st, cmd.ticker);
  if ('ok' in market) return market;
  const b = partyAccount(st, cmd.buyerUserId, buyerSubN);
  if ('ok' in b) return b;
  const s = partyAccount(st, cmd.sellerUserId, sellerSubN);
  if ('ok' in s) return s;

  const count = cmd.countCenti;
  const yesPrice = cmd.yesPriceTicks;
  const mult = market.fee_multiplier;
  const mk = makerK(market.fee_type);
  const buyerIsTaker = cmd.makerSide === 'no';
  const buyer: Party = { ...b, side: 'bid', own: yesPrice, isTaker: buyerIsTaker, fee: 0 };
  const seller: Party = { ...s, side: 'ask', own: TICKS_PER_DOLLAR - yesPrice, isTaker: !buyerIsTaker, fee: 0 };
  for (const p of [buyer, seller]) {
    p.fee = fillFeeCents(p.isTaker ? TAKER_K : mk, mult, count, yesPrice) * MICRO_PER_CENT;
    const need = p.own * count + p.fee;
    if (!Number.isSafeInteger(need)) return reject('invalid_parameters', 'trade value exceeds the largest supported amount');
    if (available(p.sub) < need) return reject('insufficient_balance', `insufficient balance (${p.account.user_id})`);
  }

  // ---- accepted: mutate from here on
  const buyerOrder = blockOrder(st, market, cmd.buyerUserId, buyer, yesPrice, count, now);
  const sellerOrder = blockOrder(st, market, cmd.sellerUserId, seller, yesPrice, count, now);
  const buyerPost = applyBuy(st, market, buyer.account, buyer.sub, true, buyer.own, count, buyer.fee, now);
  const sellerPost = applyBuy(st, market, seller.account, seller.sub, false, seller.own, count, seller.fee, now);
  st.totals.fees += buyer.fee + seller.fee;
  market.volume += count;

  const taker = buyerIsTaker ? buyer : seller;
  const tape = st.tapeOf(market.ticker);
  const trade = blockTradeView(st, market.ticker, taker.side, yesPrice, count, now);
  tape.add(st.counters.trade, trade);
  ev.push({ type: 'trade', trade });
  const buyerFill = blockFill(st, trade, buyer, buyerOrder, buyerPost);
  const sellerFill = blockFill(st, trade, seller, sellerOrder, sellerPost);
  buyer.account.fills.push(buyerFill);
  seller.account.fills.push(sellerFill);
  ev.push({ type: 'fill', fill: { ...buyerFill } }, { type: 'fill', fill: { ...sellerFill } });
  ev.push({ type: 'order', order: orderView(buyerOrder) }, { type: 'order', order: orderView(sellerOrder) });
  return {
    trade: { ...trade },
    buyerOrder: orderView(buyerOrder),
    sellerOrder: orderView(sellerOrder),
    buyerFill: { ...buyerFill },
    sellerFill: { ...sellerFill },
  };
}
