// WebSocket data messages: every `{type, sid, seq?, msg}` the server pushes, read liberally.
// Strict where the terminal's safety needs it: orderbook prices, sizes, sides and `seq`. Elsewhere
// enums are open (a new value is kept and noted), extra fields are kept, and fields the real
// service is known to leave out are optional on read but noted as missing, so the embedded
// exchange, which checks its own frames exactly, still has to send them (see ./novelty).
// Names follow the spec's Events table; where it is silent, the real exchange's AsyncAPI document.
import { z } from 'zod';
import { DollarsIn, CountIn, UnixSeconds, UnixMillis } from './common';
import { BookPrice, CommandId, Decimal8, LevelCount, Seq, Sid, SignedCount, StreamTime } from './stream-primitives';
import { ErrorReply, OkReply, SubscribedReply, UnsubscribedReply, type DataMessageType } from './stream-commands';
import { noteMissing, noteNovelty, openEnum } from './novelty';

function data<T extends DataMessageType, M extends z.ZodType>(type: T, msg: M) {
  return z.object({ type: z.literal(type), sid: Sid, seq: Seq.optional(), msg });
}
function sequenced<T extends DataMessageType, M extends z.ZodType>(type: T, msg: M) {
  return z.object({ type: z.literal(type), sid: Sid, seq: Seq, msg });
}

const YES_NO = ['yes', 'no'] as const;
const BID_ASK = ['bid', 'ask'] as const;
const yesNo = (what: string) => openEnum(what, YES_NO);
const bidAsk = (what: string) => openEnum(what, BID_ASK);

// ---------------------------------------------------------------------------------------------
// Orderbook: strict (prices, sizes, side and seq decide what the book shows)
// ---------------------------------------------------------------------------------------------

const PriceLevel = z.tuple([BookPrice, LevelCount]);
const Levels = z.array(PriceLevel).nullish();

/**
 * Full book of one market. The real service leaves out an empty side (and sends null for one),
 * so a missing side reads as an empty side; the spec still requires both, so the absence is
 * noted (the embedded exchange must send both). Levels themselves are strict.
 */
export const OrderbookSnapshotMsg = z
  .object({ market_ticker: z.string().min(1), market_id: z.string().optional(), yes_dollars_fp: Levels, no_dollars_fp: Levels })
  .loose()
  .transform(({ yes_dollars_fp, no_dollars_fp, ...m }) => {
    if (yes_dollars_fp === undefined || yes_dollars_fp === null) noteNovelty('missing', 'orderbook_snapshot: no yes_dollars_fp');
    if (no_dollars_fp === undefined || no_dollars_fp === null) noteNovelty('missing', 'orderbook_snapshot: no no_dollars_fp');
    return { ...m, yes_dollars_fp: yes_dollars_fp ?? [], no_dollars_fp: no_dollars_fp ?? [] };
  });

/**
 * One level change. `ts` is not needed to keep a book, and the real service sometimes leaves it
 * out: optional, any string or number. `isOrderbookDeltaFrame` (./stream) is this schema's
 * allocation-free twin: change both together (a property test pins their agreement).
 */
export const OrderbookDeltaMsg = z
  .object({
    market_ticker: z.string().min(1),
    market_id: z.string().optional(),
    price_dollars: BookPrice,
    delta_fp: SignedCount,
    side: z.enum(YES_NO),
    ts: z.union([z.string(), z.number()]).optional(),
    client_order_id: z.string().optional(),
    subaccount: z.number().int().optional(),
  })
  .loose()
  .transform((m) => noteMissing('orderbook_delta', m, ['ts']));
/** Orderbook messages carry `seq` (1, 2, 3... per sid). */
export const OrderbookSnapshotFrame = sequenced('orderbook_snapshot', OrderbookSnapshotMsg);
export const OrderbookDeltaFrame = sequenced('orderbook_delta', OrderbookDeltaMsg);

// ---------------------------------------------------------------------------------------------
// Public market data
// ---------------------------------------------------------------------------------------------

export const TickerMsg = z
  .object({
    market_ticker: z.string().min(1),
    market_id: z.string().optional(),
    price_dollars: DollarsIn,
    yes_bid_dollars: DollarsIn,
    yes_ask_dollars: DollarsIn,
    volume_fp: CountIn,
    open_interest_fp: CountIn,
    dollar_volume: z.number().optional(),
    dollar_open_interest: z.number().optional(),
    yes_bid_size_fp: CountIn.optional(),
    yes_ask_size_fp: CountIn.optional(),
    last_trade_size_fp: CountIn.optional(),
    ts: UnixSeconds,
    ts_ms: UnixMillis.optional(),
  })
  .loose();
export const TickerFrame = data('ticker', TickerMsg);

export const TradeMsg = z
  .object({
    trade_id: z.string().min(1),
    market_ticker: z.string().min(1),
    yes_price_dollars: DollarsIn,
    no_price_dollars: DollarsIn,
    count_fp: CountIn,
    taker_side: yesNo('trade.taker_side'),
    taker_outcome_side: yesNo('trade.taker_outcome_side').optional(),
    taker_book_side: bidAsk('trade.taker_book_side').optional(),
    is_block_trade: z.boolean().optional(),
    ts: UnixSeconds,
    ts_ms: UnixMillis.optional(),
  })
  .loose();
export const TradeFrame = data('trade', TradeMsg);

// ---------------------------------------------------------------------------------------------
// Lifecycle: `event_type` picks the fields; an event type no branch knows is kept as it came
// ---------------------------------------------------------------------------------------------

const LifecycleBase = { market_ticker: z.string().min(1), exchange_index: z.number().int().optional() };
const PriceRange = z.object({ start: DollarsIn, end: DollarsIn, step: DollarsIn }).loose();
const PriceStructure = { price_level_structure: z.string().optional(), price_ranges: z.array(PriceRange).optional() };
const LifecycleOpen = {
  ...LifecycleBase,
  ...PriceStructure,
  open_ts: UnixSeconds.optional(),
  close_ts: UnixSeconds.optional(),
  title: z.string().optional(),
  subtitle: z.string().optional(),
  series_ticker: z.string().optional(),
  event_ticker: z.string().optional(),
  additional_metadata: z.record(z.string(), z.unknown()).optional(),
};

/** The event types the spec and the published AsyncAPI document list. */
export const LIFECYCLE_EVENT_TYPES = [
  'created',
  'activated',
  'deactivated',
  'close_date_updated',
  'determined',
  'settled',
  'price_level_structure_updated',
  'metadata_updated',
] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];

const branch = <T extends LifecycleEventType, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.object({ event_type: z.literal(type), ...shape }).loose();

/**
 * The known event types. The AsyncAPI document requires only `event_type` and `market_ticker`;
 * the fields the spec names per event type are optional on read and noted when absent.
 */
export const KnownLifecycleMsg = z.discriminatedUnion('event_type', [
  branch('created', LifecycleOpen),
  branch('activated', LifecycleOpen),
  branch('deactivated', { ...LifecycleBase, is_deactivated: z.boolean().optional() }).transform((m) => noteMissing('lifecycle deactivated', m, ['is_deactivated'])),
  branch('close_date_updated', { ...LifecycleBase, close_ts: UnixSeconds.optional() }).transform((m) => noteMissing('lifecycle close_date_updated', m, ['close_ts'])),
  branch('determined', { ...LifecycleBase, result: z.string().optional(), determination_ts: UnixSeconds.optional(), settlement_value: DollarsIn.optional() }).transform(
    (m) => noteMissing('lifecycle determined', m, ['result', 'determination_ts']),
  ),
  branch('settled', { ...LifecycleBase, result: z.string().optional(), settlement_value: DollarsIn.optional(), settled_ts: UnixSeconds.optional() }).transform((m) =>
    noteMissing('lifecycle settled', m, ['settlement_value', 'settled_ts']),
  ),
  branch('price_level_structure_updated', { ...LifecycleBase, ...PriceStructure }),
  branch('metadata_updated', {
    ...LifecycleBase,
    strike_type: z.string().optional(),
    floor_strike: z.number().optional(),
    cap_strike: z.number().optional(),
    custom_strike: z.unknown().optional(),
    yes_sub_title: z.string().optional(),
  }),
]);
type KnownLifecycle = z.output<typeof KnownLifecycleMsg>;

/** A lifecycle event of a type no branch knows: what every lifecycle event has, and the rest as sent. */
export interface UnknownLifecycleEvent {
  event_type: string & {};
  market_ticker?: string;
  [field: string]: unknown;
}

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(LIFECYCLE_EVENT_TYPES);
const lifecycleIssue = { code: 'custom' as const };

/**
 * `market_lifecycle_v2` (and multivariate) message. A known `event_type` is checked against its
 * branch; an unknown one (the service adds them over time) is passed on as it came and noted.
 */
export const MarketLifecycleMsg = z
  .object({ event_type: z.string().min(1), market_ticker: z.string().min(1).optional() })
  .loose()
  .transform((m, ctx): KnownLifecycle | UnknownLifecycleEvent => {
    if (!KNOWN_EVENT_TYPES.has(m.event_type)) {
      noteNovelty('event_type', `lifecycle.event_type=${JSON.stringify(m.event_type.slice(0, 60))}`);
      return m as UnknownLifecycleEvent;
    }
    const r = KnownLifecycleMsg.safeParse(m);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue({ ...lifecycleIssue, message: issue.message, path: issue.path });
    return z.NEVER;
  });
export const MarketLifecycleFrame = data('market_lifecycle_v2', MarketLifecycleMsg);
export const MultivariateLifecycleFrame = data('multivariate_market_lifecycle', MarketLifecycleMsg);

/** Both override keys always present; both null = override cleared (the series fee applies). */
export const EventFeeUpdateMsg = z
  .object({
    event_ticker: z.string().min(1),
    fee_type_override: z.string().nullable(),
    fee_multiplier_override: z.union([DollarsIn, z.number()]).nullable(),
  })
  .loose();
export const EventFeeUpdateFrame = data('event_fee_update', EventFeeUpdateMsg);

export const EventLifecycleMsg = z
  .object({
    event_ticker: z.string().min(1),
    title: z.string().optional(),
    subtitle: z.string().optional(),
    series_ticker: z.string().optional(),
    collateral_return_type: z.string().optional(),
    strike_date: UnixSeconds.optional(),
    strike_period: z.string().optional(),
    exchange_index: z.number().int().optional(),
  })
  .loose();
export const EventLifecycleFrame = data('event_lifecycle', EventLifecycleMsg);

// ---------------------------------------------------------------------------------------------
// Private channels
// ---------------------------------------------------------------------------------------------

/** `fee_cost` is left out by the real service (its own published example has none). */
export const FillMsg = z
  .object({
    trade_id: z.string().min(1),
    order_id: z.string().min(1),
    market_ticker: z.string().min(1),
    is_taker: z.boolean(),
    side: yesNo('fill.side'),
    action: openEnum('fill.action', ['buy', 'sell']),
    yes_price_dollars: DollarsIn,
    no_price_dollars: DollarsIn.optional(),
    count_fp: CountIn,
    post_position_fp: CountIn,
    fee_cost: DollarsIn.optional(),
    ts: UnixSeconds,
    ts_ms: UnixMillis.optional(),
    client_order_id: z.string().optional(),
    purchased_side: yesNo('fill.purchased_side').optional(),
    outcome_side: yesNo('fill.outcome_side').optional(),
    book_side: bidAsk('fill.book_side').optional(),
    subaccount: z.number().int().optional(),
    exchange_index: z.number().int().optional(),
  })
  .loose()
  .transform((m) => noteMissing('fill', m, ['fee_cost']));
export const FillFrame = data('fill', FillMsg);

/**
 * `user_orders` channel, message type `user_order`. The SDK names the market `ticker`; read
 * either. The fee fields are left out by the real service (its published example has none).
 */
export const UserOrderMsg = z
  .object({
    order_id: z.string().min(1),
    client_order_id: z.string().optional(),
    user_id: z.string().optional(),
    ticker: z.string().min(1).optional(),
    market_ticker: z.string().min(1).optional(),
    status: openEnum('user_order.status', ['resting', 'canceled', 'executed']),
    side: openEnum('user_order.side', ['bid', 'ask', 'yes', 'no']),
    is_yes: z.boolean().optional(),
    outcome_side: yesNo('user_order.outcome_side').optional(),
    book_side: bidAsk('user_order.book_side').optional(),
    yes_price_dollars: DollarsIn,
    initial_count_fp: CountIn,
    fill_count_fp: CountIn,
    remaining_count_fp: CountIn,
    taker_fill_cost_dollars: DollarsIn,
    maker_fill_cost_dollars: DollarsIn,
    taker_fees_dollars: DollarsIn.optional(),
    maker_fees_dollars: DollarsIn.optional(),
    time_in_force: z.string().optional(),
    self_trade_prevention_type: z.string().optional(),
    order_group_id: z.string().nullish(),
    created_time: z.string().optional(),
    created_ts_ms: UnixMillis.optional(),
    last_update_time: z.string().optional(),
    expiration_time: z.string().nullish(),
    subaccount: z.number().int().optional(),
    subaccount_number: z.number().int().optional(),
    exchange_index: z.number().int().optional(),
  })
  .loose()
  .refine((m) => m.ticker !== undefined || m.market_ticker !== undefined, { message: 'user_order needs ticker or market_ticker', path: ['ticker'] })
  .transform((m) => noteMissing('user_order', m, ['taker_fees_dollars', 'maker_fees_dollars']));
export const UserOrderFrame = data('user_order', UserOrderMsg);

/** `market_positions` channel, message type `market_position`. */
export const MarketPositionMsg = z
  .object({
    market_ticker: z.string().min(1),
    user_id: z.string().optional(),
    position_fp: CountIn,
    position_cost_dollars: DollarsIn,
    realized_pnl_dollars: DollarsIn,
    fees_paid_dollars: DollarsIn,
    position_fee_cost_dollars: DollarsIn.optional(),
    volume_fp: CountIn,
    market_exposure_dollars: DollarsIn.optional(),
    subaccount: z.number().int().optional(),
    exchange_index: z.number().int().optional(),
  })
  .loose();
export const MarketPositionFrame = data('market_position', MarketPositionMsg);

/** Order group changes. This message has a required `seq`. */
export const OrderGroupUpdateMsg = z
  .object({
    order_group_id: z.string().min(1),
    event_type: openEnum('order_group_updates.event_type', ['created', 'triggered', 'reset', 'deleted', 'limit_updated']).optional(),
    contracts_limit: z.union([z.number(), CountIn]).optional(),
    contracts_limit_fp: CountIn.optional(),
    contracts_used: z.union([z.number(), CountIn]).optional(),
    is_auto_cancel_enabled: z.boolean().optional(),
    ts_ms: UnixMillis.optional(),
  })
  .loose();
export const OrderGroupUpdatesFrame = sequenced('order_group_updates', OrderGroupUpdateMsg);

// Communications (RFQ and quote flow). The spec names ids `rfq_id` / `quote_id`; the SDK `id`.
const hasRfqId = (m: { rfq_id?: string | undefined; id?: string | undefined }) => m.rfq_id !== undefined || m.id !== undefined;
const RfqIds = { rfq_id: z.string().min(1).optional(), id: z.string().min(1).optional() };
export const RfqCreatedMsg = z
  .object({
    ...RfqIds,
    creator_id: z.string().optional(),
    market_ticker: z.string().min(1),
    event_ticker: z.string().optional(),
    contracts_fp: CountIn.optional(),
    target_cost_dollars: DollarsIn.optional(),
    created_ts: StreamTime,
    mve_collection_ticker: z.string().optional(),
    mve_selected_legs: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .loose()
  .refine(hasRfqId, { message: 'rfq_created needs rfq_id', path: ['rfq_id'] });
export const RfqDeletedMsg = z
  .object({ ...RfqIds, creator_id: z.string().optional(), market_ticker: z.string().optional(), deleted_ts: StreamTime })
  .loose()
  .refine(hasRfqId, { message: 'rfq_deleted needs rfq_id', path: ['rfq_id'] });
const QuoteBase = {
  quote_id: z.string().min(1),
  rfq_id: z.string().min(1),
  market_ticker: z.string().optional(),
  quote_creator_id: z.string().optional(),
  rfq_creator_id: z.string().optional(),
  yes_bid_dollars: DollarsIn.optional(),
  no_bid_dollars: DollarsIn.optional(),
};
export const QuoteCreatedMsg = z.object({ ...QuoteBase, created_ts: StreamTime.optional() }).loose();
export const QuoteAcceptedMsg = z
  .object({ ...QuoteBase, accepted_side: yesNo('quote_accepted.accepted_side').optional(), contracts_accepted_fp: CountIn.optional() })
  .loose();
export const QuoteExecutedMsg = z
  .object({
    ...QuoteBase,
    order_id: z.string().optional(),
    client_order_id: z.string().optional(),
    executed_ts: StreamTime.optional(),
  })
  .loose();
export const RfqCreatedFrame = data('rfq_created', RfqCreatedMsg);
export const RfqDeletedFrame = data('rfq_deleted', RfqDeletedMsg);
export const QuoteCreatedFrame = data('quote_created', QuoteCreatedMsg);
export const QuoteAcceptedFrame = data('quote_accepted', QuoteAcceptedMsg);
export const QuoteExecutedFrame = data('quote_executed', QuoteExecutedMsg);

// ---------------------------------------------------------------------------------------------
// CF Benchmarks index feeds
// ---------------------------------------------------------------------------------------------

export const WindowedAverage = z.object({
  value: Decimal8,
  window_size: z.number().int().nonnegative(),
  window_start_ts_ms: UnixMillis,
  window_end_ts_exclusive: UnixMillis,
});
/** Once a second. `last_60s_windowed_average_15min` only in the final minute before :00/:15/:30/:45. */
export const CfBenchmarksValueMsg = z
  .object({
    index_id: z.string().min(1),
    received_at: UnixMillis.optional(),
    data: z.string(),
    avg_60s_data: WindowedAverage,
    last_60s_windowed_average_15min: WindowedAverage.optional(),
  })
  .loose();
export const CfBenchmarksValue5hzMsg = z
  .object({
    index_id: z.string().min(1),
    value_usd: Decimal8,
    source_ts_ms: UnixMillis,
    received_at: UnixMillis,
    data: z.string().optional(),
  })
  .loose();
export const CfBenchmarksValueFrame = data('cfbenchmarks_value', CfBenchmarksValueMsg);
export const CfBenchmarksValue5hzFrame = data('cfbenchmarks_value_5hz', CfBenchmarksValue5hzMsg);

/** The available index ids. `id` echoes the `indexlist` command's id; absent when unsolicited. */
const indexList = <T extends 'cfbenchmarks_value_indexlist' | 'cfbenchmarks_value_5hz_indexlist'>(type: T) =>
  z.object({
    type: z.literal(type),
    id: CommandId.optional(),
    sid: Sid.optional(),
    seq: Seq.optional(),
    msg: z.object({ index_ids: z.array(z.string()) }).loose(),
  });
export const CfBenchmarksIndexListFrame = indexList('cfbenchmarks_value_indexlist');
export const CfBenchmarks5hzIndexListFrame = indexList('cfbenchmarks_value_5hz_indexlist');

// ---------------------------------------------------------------------------------------------
// Pyth values (AsyncAPI 2.0.0 `pyth_value`, docs.kalshi.com/websockets/pyth-value)
// ---------------------------------------------------------------------------------------------

/** One deduplicated Pyth price: `value_usd` exactly 8 decimals, times in Unix ms. Sequenced. */
export const PythValueMsg = z
  .object({
    underlying_ticker: z.string().min(1),
    value_usd: Decimal8,
    source_ts_ms: UnixMillis,
    received_at: UnixMillis,
  })
  .loose();
export const PythValueFrame = z.object({
  type: z.literal('pyth_value'),
  sid: Sid,
  seq: Seq,
  sending_ts_ms: UnixMillis.optional(),
  msg: PythValueMsg,
});
/** The underlyings seen on the stream in the last two hours; the answer to `underlying_list`. */
export const PythUnderlyingListFrame = z.object({
  type: z.literal('pyth_value_underlying_list'),
  id: CommandId.optional(),
  sid: Sid,
  seq: Seq,
  sending_ts_ms: UnixMillis.optional(),
  msg: z.object({ underlying_tickers: z.array(z.string()) }).loose(),
});

// ---------------------------------------------------------------------------------------------
// Every frame the server sends
// ---------------------------------------------------------------------------------------------

export const StreamMessage = z.discriminatedUnion('type', [
  SubscribedReply,
  UnsubscribedReply,
  OkReply,
  ErrorReply,
  OrderbookSnapshotFrame,
  OrderbookDeltaFrame,
  TickerFrame,
  TradeFrame,
  MarketLifecycleFrame,
  MultivariateLifecycleFrame,
  EventLifecycleFrame,
  EventFeeUpdateFrame,
  FillFrame,
  UserOrderFrame,
  MarketPositionFrame,
  OrderGroupUpdatesFrame,
  RfqCreatedFrame,
  RfqDeletedFrame,
  QuoteCreatedFrame,
  QuoteAcceptedFrame,
  QuoteExecutedFrame,
  CfBenchmarksValueFrame,
  CfBenchmarksValue5hzFrame,
  CfBenchmarksIndexListFrame,
  CfBenchmarks5hzIndexListFrame,
  PythValueFrame,
  PythUnderlyingListFrame,
]);
export type StreamMessage = z.infer<typeof StreamMessage>;
export type StreamMessageOf<T extends StreamMessage['type']> = Extract<StreamMessage, { type: T }>;
export type OrderbookSnapshotFrame = z.infer<typeof OrderbookSnapshotFrame>;
export type OrderbookDeltaFrame = z.infer<typeof OrderbookDeltaFrame>;
