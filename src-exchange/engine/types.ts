// Public types of the engine: commands in, results and events out, read models.
// Every number is an integer: prices in ticks (0.0001 dollars), counts in centi-contracts,
// cash in micro-dollars, times in ms unless a field says seconds.

import type { FeeType } from './fees';
import type { PriceLevelStructure } from '../../src-shared/price-ranges';

export type { FeeType };
export type MarketStatus = 'unopened' | 'open' | 'paused' | 'closed' | 'determined' | 'settled';
export type MarketResult = 'yes' | 'no';
/** Order entry is on the YES leg: bid buys YES, ask sells YES (buys NO at 10000 - price). */
export type BookSide = 'bid' | 'ask';
export type OutcomeSide = 'yes' | 'no';
export type TimeInForce = 'good_till_canceled' | 'immediate_or_cancel' | 'fill_or_kill';
export type SelfTradePreventionType = 'taker_at_cross' | 'maker';
/** Every time in force the engine takes (order entry checks against it; order-columns codes by its position). */
export const TIMES_IN_FORCE: readonly TimeInForce[] = ['good_till_canceled', 'immediate_or_cancel', 'fill_or_kill'];
/** Every self-trade prevention type the engine takes. */
export const STP_TYPES: readonly SelfTradePreventionType[] = ['taker_at_cross', 'maker'];
export type OrderStatus = 'resting' | 'canceled' | 'executed';
export type ErrorCode = 'invalid_parameters' | 'invalid_order' | 'invalid_price' | 'not_found' | 'insufficient_balance';

// ---------------------------------------------------------------------------- commands

interface At {
  /** Time the command takes effect (Unix ms); the engine reads no clock. */
  nowMs: number;
}

export interface AddMarketCommand extends At {
  type: 'addMarket';
  ticker: string;
  eventTicker: string;
  seriesTicker: string;
  title?: string;
  feeType?: FeeType;
  /** Fee multiplier per 10,000 (1.0 = 10000). Default 10000. */
  feeMultiplierE4?: number;
  /** Unix seconds. */
  openTime?: number;
  closeTime?: number;
  /** The price grid orders must be on (price-levels.ts); default the engine's own 0.0001 grid. */
  priceLevelStructure?: PriceLevelStructure;
}
export interface MarketCommand<T extends string> extends At {
  type: T;
  ticker: string;
}
export type OpenMarketCommand = MarketCommand<'openMarket'>;
export type PauseMarketCommand = MarketCommand<'pauseMarket'>;
/** Ends trading and cancels resting orders. */
export type CloseMarketCommand = MarketCommand<'closeMarket'>;
export interface DetermineMarketCommand extends MarketCommand<'determineMarket'> {
  result: MarketResult;
}
/**
 * Pays 1 dollar per winning contract, closes positions, records settlements. From a
 * determined market; from open, paused or closed when `result` is given (it determines
 * first, cancelling resting orders).
 */
export interface SettleMarketCommand extends MarketCommand<'settleMarket'> {
  result?: MarketResult;
}
export interface UpdateMarketFeesCommand extends MarketCommand<'updateMarketFees'> {
  feeType: FeeType;
  feeMultiplierE4: number;
}

export interface DepositCommand extends At {
  type: 'deposit';
  userId: string;
  subaccount?: number;
  amountMicro: number;
}
export interface WithdrawCommand extends At {
  type: 'withdraw';
  userId: string;
  subaccount?: number;
  amountMicro: number;
}
/** Opens the next free subaccount number (1..63). */
export interface CreateSubaccountCommand extends At {
  type: 'createSubaccount';
  userId: string;
}
/** Cash transfer between two subaccounts of one account; idempotent by clientTransferId. */
export interface TransferCommand extends At {
  type: 'transfer';
  userId: string;
  clientTransferId: string;
  fromSubaccount: number;
  toSubaccount: number;
  amountMicro: number;
}

export interface CreateOrderCommand extends At {
  type: 'createOrder';
  userId: string;
  ticker: string;
  side: BookSide;
  priceTicks: number;
  countCenti: number;
  timeInForce?: TimeInForce;
  selfTradePreventionType?: SelfTradePreventionType;
  /** Idempotency key per account: reuse returns the original order and places nothing. */
  clientOrderId?: string;
  subaccount?: number;
  orderGroupId?: string;
  /** Unix seconds; the order is cancelled once a command at or past it arrives. */
  expirationTime?: number;
  postOnly?: boolean;
}
/**
 * A trade printed on the tape without a taker order (replays: a recorded trade). It takes the
 * book's queue at `priceTicks` and better in price-time order, as an immediate-or-cancel order of
 * `userId` would (one trade per resting order it meets), and moves cash and positions the same
 * way, but keeps no order or fill record for `userId`, nor fill records and order events for the
 * resting orders of `quietUserId` (the replay's book account); other accounts' orders it meets are
 * filled as by any order. The order and fill numbers such an order would use are taken, so later
 * ids are those the order path gives. Subaccount 0 of each.
 */
export interface PrintTradeCommand extends At {
  type: 'printTrade';
  userId: string;
  ticker: string;
  /** the taker's book side, as for an order: 'ask' hits the YES bids */
  side: BookSide;
  priceTicks: number;
  countCenti: number;
  quietUserId?: string;
}
export interface CancelOrderCommand extends At {
  type: 'cancelOrder';
  userId: string;
  orderId: string;
  /** When given, the order must belong to this subaccount. */
  subaccount?: number;
}
export interface CancelAllOrdersCommand extends At {
  type: 'cancelAllOrders';
  userId: string;
  /** Omitted: every subaccount. */
  subaccount?: number;
  ticker?: string;
}
export interface AmendOrderCommand extends At {
  type: 'amendOrder';
  userId: string;
  orderId: string;
  subaccount?: number;
  ticker: string;
  side: BookSide;
  priceTicks: number;
  /** New total count (filled + remaining). */
  countCenti: number;
  /** Unix seconds; 0 or null clears the expiry; omitted keeps it. */
  expirationTime?: number | null;
  updatedClientOrderId?: string;
}
export interface DecreaseOrderCommand extends At {
  type: 'decreaseOrder';
  userId: string;
  orderId: string;
  subaccount?: number;
  reduceBy?: number;
  reduceTo?: number;
}

export interface CreateOrderGroupCommand extends At {
  type: 'createOrderGroup';
  userId: string;
  subaccount?: number;
  contractsLimitCenti: number;
}
export interface OrderGroupCommand<T extends string> extends At {
  type: T;
  userId: string;
  orderGroupId: string;
  subaccount?: number;
}
export type ResetOrderGroupCommand = OrderGroupCommand<'resetOrderGroup'>;
export type TriggerOrderGroupCommand = OrderGroupCommand<'triggerOrderGroup'>;
export type DeleteOrderGroupCommand = OrderGroupCommand<'deleteOrderGroup'>;
export interface UpdateOrderGroupLimitCommand extends OrderGroupCommand<'updateOrderGroupLimit'> {
  contractsLimitCenti: number;
}

/** Off-book trade (RFQ confirm, block trade proposal): the buyer buys YES, the seller buys NO (block.ts). */
export interface ExecuteBlockTradeCommand extends At {
  type: 'executeBlockTrade';
  buyerUserId: string;
  buyerSubaccount?: number;
  sellerUserId: string;
  sellerSubaccount?: number;
  ticker: string;
  yesPriceTicks: number;
  countCenti: number;
  /** The side that provided liquidity: 'yes' = the buyer is the maker, 'no' = the seller. */
  makerSide: OutcomeSide;
}
/**
 * Drops the finished orders (canceled or executed) of these accounts last updated before
 * `olderThanMs`, and their fills before it (engine/prune.ts).
 */
export interface PruneOrdersCommand extends At {
  type: 'pruneOrders';
  userIds: string[];
  olderThanMs: number;
}
/** Cancels resting orders whose expiration_time has passed (every command does this first). */
export interface ExpireCommand extends At {
  type: 'expire';
}

export type Command =
  | AddMarketCommand
  | OpenMarketCommand
  | PauseMarketCommand
  | CloseMarketCommand
  | DetermineMarketCommand
  | SettleMarketCommand
  | UpdateMarketFeesCommand
  | DepositCommand
  | WithdrawCommand
  | CreateSubaccountCommand
  | TransferCommand
  | CreateOrderCommand
  | PrintTradeCommand
  | CancelOrderCommand
  | CancelAllOrdersCommand
  | AmendOrderCommand
  | DecreaseOrderCommand
  | CreateOrderGroupCommand
  | ResetOrderGroupCommand
  | TriggerOrderGroupCommand
  | UpdateOrderGroupLimitCommand
  | DeleteOrderGroupCommand
  | ExecuteBlockTradeCommand
  | PruneOrdersCommand
  | ExpireCommand;

export type CommandType = Command['type'];

// ---------------------------------------------------------------------------- read models

export interface MarketView {
  ticker: string;
  event_ticker: string;
  series_ticker: string;
  title: string;
  status: MarketStatus;
  fee_type: FeeType;
  /** Per 10,000. */
  fee_multiplier: number;
  result: MarketResult | '';
  /** Unix seconds (0 when unset). */
  open_time: number;
  close_time: number;
  created_ms: number;
  determined_ms: number;
  settled_ms: number;
  price_level_structure: PriceLevelStructure;
  /** Best prices in ticks, 0 when that side is empty (yes_ask 10000 when no NO bids). */
  yes_bid: number;
  yes_ask: number;
  no_bid: number;
  no_ask: number;
  last_price: number;
  /** Contracts traded (centi). */
  volume: number;
  /** Open YES/NO pairs (centi). */
  open_interest: number;
}

export interface OrderView {
  order_id: string;
  user_id: string;
  client_order_id: string;
  ticker: string;
  event_ticker: string;
  side: BookSide;
  outcome_side: OutcomeSide;
  action: 'buy';
  type: 'limit';
  status: OrderStatus;
  yes_price: number;
  no_price: number;
  fill_count: number;
  remaining_count: number;
  initial_count: number;
  taker_fill_cost: number;
  maker_fill_cost: number;
  taker_fees: number;
  maker_fees: number;
  created_time: number;
  last_update_time: number;
  /** Unix seconds, null = good till canceled. */
  expiration_time: number | null;
  time_in_force: TimeInForce;
  self_trade_prevention_type: SelfTradePreventionType;
  order_group_id: string | null;
  subaccount: number;
  post_only: boolean;
  exchange_index: 0;
}

export interface FillView {
  fill_id: string;
  trade_id: string;
  order_id: string;
  client_order_id: string;
  user_id: string;
  subaccount: number;
  ticker: string;
  /** Outcome bought. */
  side: OutcomeSide;
  book_side: BookSide;
  action: 'buy';
  yes_price: number;
  no_price: number;
  count: number;
  is_taker: boolean;
  /** Micro-dollars (a whole number of cents). */
  fee: number;
  ts: number;
  /** Signed position (centi) after this fill. */
  post_position: number;
  exchange_index: 0;
}

export interface TradeView {
  trade_id: string;
  ticker: string;
  taker_side: OutcomeSide;
  taker_book_side: BookSide;
  yes_price: number;
  no_price: number;
  count: number;
  created_time: number;
  is_block_trade: boolean;
}

export interface PositionView {
  user_id: string;
  subaccount: number;
  ticker: string;
  event_ticker: string;
  /** Signed: positive YES, negative NO (centi). */
  position: number;
  /** Cost of the open position (micro). */
  market_exposure: number;
  total_traded: number;
  realized_pnl: number;
  fees_paid: number;
  resting_orders_count: number;
  last_updated_ms: number;
  settled: boolean;
  exchange_index: 0;
}

export interface SettlementView {
  user_id: string;
  subaccount: number;
  ticker: string;
  event_ticker: string;
  market_result: MarketResult;
  /** Unix seconds. */
  settled_at: number;
  yes_count: number;
  no_count: number;
  yes_total_cost: number;
  no_total_cost: number;
  /** Payout in micro-dollars. */
  revenue: number;
  fee_cost: number;
  /** Value of one YES contract in ticks. */
  value: number;
  exchange_index: 0;
}

export interface BalanceView {
  user_id: string;
  subaccount: number;
  /** Cash including what resting orders hold (micro). */
  cash: number;
  /** Held by resting orders (price x count plus a fee reserve). */
  locked: number;
  available: number;
  updated_ms: number;
}

export interface TransferView {
  transfer_id: string;
  client_transfer_id: string;
  user_id: string;
  from_subaccount: number;
  to_subaccount: number;
  amount: number;
  created_ts: number;
}

export interface OrderGroupView {
  order_group_id: string;
  user_id: string;
  subaccount: number;
  contracts_limit: number;
  contracts_used: number;
  /** Tripped (by the limit or a trigger): new orders are rejected until reset. */
  tripped: boolean;
  is_auto_cancel_enabled: true;
  /** Resting orders in the group. */
  orders: string[];
  created_ms: number;
  exchange_index: 0;
}

export interface BookView {
  ticker: string;
  /** YES bids best first: [price ticks, count centi]. */
  yes: Array<[number, number]>;
  /** NO bids (at NO prices) best first. */
  no: Array<[number, number]>;
}

// ---------------------------------------------------------------------------- events

export interface BookEvent {
  type: 'book';
  ticker: string;
  side: OutcomeSide;
  /** Price on that side's leg (NO bids at NO prices), ticks. */
  price: number;
  /** Signed change of the level's count (centi). */
  delta: number;
  /** The order whose count changed, and its owner (for client_order_id on signed streams). */
  order_id: string;
  user_id: string;
  client_order_id: string;
  ts: number;
}
export interface OrderEvent {
  type: 'order';
  order: OrderView;
}
export interface FillEvent {
  type: 'fill';
  fill: FillView;
}
export interface TradeEvent {
  type: 'trade';
  trade: TradeView;
}
export interface PositionEvent {
  type: 'position';
  position: PositionView;
}
export interface BalanceEvent {
  type: 'balance';
  balance: BalanceView;
}
export interface MarketEvent {
  type: 'market';
  event: 'created' | 'activated' | 'paused' | 'closed' | 'determined' | 'settled' | 'fees_updated';
  market: MarketView;
  ts: number;
}
export interface OrderGroupEvent {
  type: 'orderGroup';
  event: 'created' | 'triggered' | 'reset' | 'limit_updated' | 'deleted';
  group: OrderGroupView;
  ts: number;
}
export interface SettlementEvent {
  type: 'settlement';
  settlement: SettlementView;
}
export interface TransferEvent {
  type: 'transfer';
  transfer: TransferView;
}
export type EngineEvent =
  | BookEvent
  | OrderEvent
  | FillEvent
  | TradeEvent
  | PositionEvent
  | BalanceEvent
  | MarketEvent
  | OrderGroupEvent
  | SettlementEvent
  | TransferEvent;

// ---------------------------------------------------------------------------- results

export interface CommandOutputs {
  addMarket: { market: MarketView };
  openMarket: { market: MarketView };
  pauseMarket: { market: MarketView };
  closeMarket: { market: MarketView; canceled: string[] };
  determineMarket: { market: MarketView; canceled: string[] };
  settleMarket: { market: MarketView; settlements: SettlementView[] };
  updateMarketFees: { market: MarketView; canceled: string[] };
  deposit: { balance: BalanceView };
  withdraw: { balance: BalanceView };
  createSubaccount: { subaccount: number };
  transfer: { transfer: TransferView; duplicate: boolean };
  createOrder: { order: OrderView; duplicate: boolean };
  /** contracts (centi) the print traded, and the trades it made */
  printTrade: { count: number; trades: number };
  cancelOrder: { order: OrderView; reducedBy: number };
  cancelAllOrders: { canceled: string[] };
  amendOrder: { oldOrder: OrderView; order: OrderView };
  decreaseOrder: { order: OrderView; reducedBy: number };
  createOrderGroup: { group: OrderGroupView };
  resetOrderGroup: { group: OrderGroupView };
  triggerOrderGroup: { group: OrderGroupView; canceled: string[] };
  updateOrderGroupLimit: { group: OrderGroupView; canceled: string[] };
  deleteOrderGroup: { orderGroupId: string; canceled: string[] };
  executeBlockTrade: { trade: TradeView; buyerOrder: OrderView; sellerOrder: OrderView; buyerFill: FillView; sellerFill: FillView };
  pruneOrders: { pruned: number };
  expire: { expired: string[] };
}

interface Outcome {
  /** What the command caused, in order. */
  events: EngineEvent[];
  /**
   * Whether state changed. A rejected command can still change state (orders past
   * their expiry are cancelled first), so a journal must keep every command with
   * `mutated` true, accepted or not, to replay to the same state.
   */
  mutated: boolean;
}
export interface Rejection extends Outcome {
  ok: false;
  code: ErrorCode;
  message: string;
  details?: string;
}
export type Accepted<T> = Outcome & { ok: true } & T;
export type ResultOf<C extends Command> = Accepted<CommandOutputs[C['type']]> | Rejection;
export type CommandResult = ResultOf<Command>;
