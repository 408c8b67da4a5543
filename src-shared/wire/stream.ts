// WebSocket stream (`/trade-api/ws/v2`): every data message the server pushes and the frame
// parser. Commands, replies, channel maps and error codes are in ./stream-commands, number
// formats in ./stream-primitives; both are re-exported here so one import serves a reader.
// Names follow the spec's Events table; where it is silent, the real exchange's names
// (see protocol-notes.md, "WebSocket").
import { z } from 'zod';
import { DollarsIn, CountIn, UnixSeconds, UnixMillis } from './common';
import { BOOK_PRICE_RE, BookPrice, CommandId, Decimal8, LevelCount, SIGNED_COUNT_RE, STREAM_TIME_RE, Seq, Sid, SignedCount, StreamTime } from './stream-primitives';
import { DataMessageType, ErrorReply, MESSAGE_TYPES, OkReply, REPLY_TYPES, SubscribedReply, UnsubscribedReply, isRecord } from './stream-commands';

export * from './stream-primitives';
export * from './stream-commands';

// ---------------------------------------------------------------------------------------------
// Data messages: envelope {type, sid, seq?, msg}
// ---------------------------------------------------------------------------------------------

function data<T extends DataMessageType, M extends z.ZodType>(type: T, msg: M) {
  return z.object({ type: z.literal(type), sid: Sid, seq: Seq.optional(), msg });
}
function sequenced<T extends DataMessageType, M extends z.ZodType>(type: T, msg: M) {
  return z.object({ type: z.literal(type), sid: Sid, seq: Seq, msg });
}

const PriceLevel = z.tuple([BookPrice, LevelCount]);
const Side = z.enum(['yes', 'no']);

/** Full book of one market. Both sides required: a missing side is a malformed frame. */
export const OrderbookSnapshotMsg = z.object({
  market_ticker: z.string().min(1),
  market_id: z.string().optional(),
  yes_dollars_fp: z.array(PriceLevel),
  no_dollars_fp: z.array(PriceLevel),
});
export const OrderbookDeltaMsg = z.object({
  market_ticker: z.string().min(1),
  market_id: z.string().optional(),
  price_dollars: BookPrice,
  delta_fp: SignedCount,
  side: Side,
  ts: StreamTime,
  client_order_id: z.string().optional(),
  subaccount: z.number().int().optional(),
});
/** Orderbook messages carry `seq` (1, 2, 3... per sid). */
export const OrderbookSnapshotFrame = sequenced('orderbook_snapshot', OrderbookSnapshotMsg);
export const OrderbookDeltaFrame = sequenced('orderbook_delta', OrderbookDeltaMsg);

export const TickerMsg = z.object({
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
});
export const TickerFrame = data('ticker', TickerMsg);

export const TradeMsg = z.object({
  trade_id: z.string().min(1),
  market_ticker: z.string().min(1),
  yes_price_dollars: DollarsIn,
  no_price_dollars: DollarsIn,
  count_fp: CountIn,
  taker_side: Side,
  ts: UnixSeconds,
  ts_ms: UnixMillis.optional(),
});
export const TradeFrame = data('trade', TradeMsg);

// Market lifecycle: `event_type` picks the fields.
const LifecycleBase = { market_ticker: z.string().min(1), exchange_index: z.number().int().optional() };
const LifecycleOpen = {
  ...LifecycleBase,
  open_ts: UnixSeconds.optional(),
  close_ts: UnixSeconds.optional(),
  title: z.string().optional(),
  subtitle: z.string().optional(),
  series_ticker: z.string().optional(),
  event_ticker: z.string().optional(),
  additional_metadata: z.record(z.string(), z.unknown()).optional(),
};
export const MarketLifecycleMsg = z.discriminatedUnion('event_type', [
  z.object({ event_type: z.literal('created'), ...LifecycleOpen }),
  z.object({ event_type: z.literal('activated'), ...LifecycleOpen }),
  z.object({ event_type: z.literal('deactivated'), ...LifecycleBase, is_deactivated: z.boolean() }),
  z.object({ event_type: z.literal('close_date_updated'), ...LifecycleBase, close_ts: UnixSeconds }),
  z.object({ event_type: z.literal('determined'), ...LifecycleBase, result: z.string(), determination_ts: UnixSeconds }),
  z.object({ event_type: z.literal('settled'), ...LifecycleBase, settlement_value: DollarsIn, settled_ts: UnixSeconds }),
]);
export const MarketLifecycleFrame = data('market_lifecycle_v2', MarketLifecycleMsg);
export const MultivariateLifecycleFrame = data('multivariate_market_lifecycle', MarketLifecycleMsg);

/** Both override keys always present; both null = override cleared (the series fee applies). */
export const EventFeeUpdateMsg = z.object({
  event_ticker: z.string().min(1),
  fee_type_override: z.string().nullable(),
  fee_multiplier_override: z.union([DollarsIn, z.number()]).nullable(),
});
export const EventFeeUpdateFrame = data('event_fee_update', EventFeeUpdateMsg);

export const EventLifecycleMsg = z.object({
  event_ticker: z.string().min(1),
  title: z.string().optional(),
  subtitle: z.string().optional(),
  series_ticker: z.string().optional(),
  collateral_return_type: z.string().optional(),
  strike_date: UnixSeconds.optional(),
  strike_period: z.string().optional(),
  exchange_index: z.number().int().optional(),
});
export const EventLifecycleFrame = data('event_lifecycle', EventLifecycleMsg);

export const FillMsg = z.object({
  trade_id: z.string().min(1),
  order_id: z.string().min(1),
  market_ticker: z.string().min(1),
  is_taker: z.boolean(),
  side: Side,
  action: z.enum(['buy', 'sell']),
  yes_price_dollars: DollarsIn,
  no_price_dollars: DollarsIn.optional(),
  count_fp: CountIn,
  post_position_fp: CountIn,
  fee_cost: DollarsIn,
  ts: UnixSeconds,
  ts_ms: UnixMillis.optional(),
  client_order_id: z.string().optional(),
  purchased_side: Side.optional(),
  subaccount: z.number().int().optional(),
  exchange_index: z.number().int().optional(),
});
export const FillFrame = data('fill', FillMsg);

/** `user_orders` channel, message type `user_order`. The SDK names the market `ticker`; read either. */
export const UserOrderMsg = z
  .object({
    order_id: z.string().min(1),
    client_order_id: z.string().optional(),
    user_id: z.string().optional(),
    ticker: z.string().min(1).optional(),
    market_ticker: z.string().min(1).optional(),
    status: z.string().min(1),
    side: z.enum(['bid', 'ask', 'yes', 'no']),
    is_yes: z.boolean().optional(),
    yes_price_dollars: DollarsIn,
    initial_count_fp: CountIn,
    fill_count_fp: CountIn,
    remaining_count_fp: CountIn,
    taker_fill_cost_dollars: DollarsIn,
    maker_fill_cost_dollars: DollarsIn,
    taker_fees_dollars: DollarsIn,
    maker_fees_dollars: DollarsIn,
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
  .refine((m) => m.ticker !== undefined || m.market_ticker !== undefined, { message: 'user_order needs ticker or market_ticker', path: ['ticker'] });
export const UserOrderFrame = data('user_order', UserOrderMsg);

/** `market_positions` channel, message type `market_position`. */
export const MarketPositionMsg = z.object({
  market_ticker: z.string().min(1),
  user_id: z.string().optional(),
  position_fp: CountIn,
  position_cost_dollars: DollarsIn,
  realized_pnl_dollars: DollarsIn,
  fees_paid_dollars: DollarsIn,
  volume_fp: CountIn,
  market_exposure_dollars: DollarsIn.optional(),
  subaccount: z.number().int().optional(),
  exchange_index: z.number().int().optional(),
});
export const MarketPositionFrame = data('market_position', MarketPositionMsg);

/** Order group changes. This message has a required `seq`. */
export const OrderGroupUpdateMsg = z.object({
  order_group_id: z.string().min(1),
  event_type: z.enum(['created', 'triggered', 'reset', 'deleted', 'limit_updated']).optional(),
  contracts_limit: z.union([z.number(), CountIn]).optional(),
  contracts_limit_fp: CountIn.optional(),
  contracts_used: z.union([z.number(), CountIn]).optional(),
  is_auto_cancel_enabled: z.boolean().optional(),
});
export const OrderGroupUpdatesFrame = sequenced('order_group_updates', OrderGroupUpdateMsg);

// Communications (RFQ and quote flow). The spec names ids `rfq_id` / `quote_id`; the SDK `id`.
const hasRfqId = (m: { rfq_id?: string; id?: string }) => m.rfq_id !== undefined || m.id !== undefined;
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
  .refine(hasRfqId, { message: 'rfq_created needs rfq_id', path: ['rfq_id'] });
export const RfqDeletedMsg = z
  .object({ ...RfqIds, creator_id: z.string().optional(), market_ticker: z.string().optional(), deleted_ts: StreamTime })
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
export const QuoteCreatedMsg = z.object({ ...QuoteBase, created_ts: StreamTime.optional() });
export const QuoteAcceptedMsg = z.object({ ...QuoteBase, accepted_side: Side.optional(), contracts_accepted_fp: CountIn.optional() });
export const QuoteExecutedMsg = z.object({
  ...QuoteBase,
  order_id: z.string().optional(),
  client_order_id: z.string().optional(),
  executed_ts: StreamTime.optional(),
});
export const RfqCreatedFrame = data('rfq_created', RfqCreatedMsg);
export const RfqDeletedFrame = data('rfq_deleted', RfqDeletedMsg);
export const QuoteCreatedFrame = data('quote_created', QuoteCreatedMsg);
export const QuoteAcceptedFrame = data('quote_accepted', QuoteAcceptedMsg);
export const QuoteExecutedFrame = data('quote_executed', QuoteExecutedMsg);

// CF Benchmarks index feeds.
export const WindowedAverage = z.object({
  value: Decimal8,
  window_size: z.number().int().nonnegative(),
  window_start_ts_ms: UnixMillis,
  window_end_ts_exclusive: UnixMillis,
});
/** Once a second. `last_60s_windowed_average_15min` only in the final minute before :00/:15/:30/:45. */
export const CfBenchmarksValueMsg = z.object({
  index_id: z.string().min(1),
  received_at: UnixMillis.optional(),
  data: z.string(),
  avg_60s_data: WindowedAverage,
  last_60s_windowed_average_15min: WindowedAverage.optional(),
});
export const CfBenchmarksValue5hzMsg = z.object({
  index_id: z.string().min(1),
  value_usd: Decimal8,
  source_ts_ms: UnixMillis,
  received_at: UnixMillis,
  data: z.string().optional(),
});
export const CfBenchmarksValueFrame = data('cfbenchmarks_value', CfBenchmarksValueMsg);
export const CfBenchmarksValue5hzFrame = data('cfbenchmarks_value_5hz', CfBenchmarksValue5hzMsg);

/** The available index ids. `id` echoes the `indexlist` command's id; absent when unsolicited. */
const indexList = <T extends 'cfbenchmarks_value_indexlist' | 'cfbenchmarks_value_5hz_indexlist'>(type: T) =>
  z.object({
    type: z.literal(type),
    id: CommandId.optional(),
    sid: Sid.optional(),
    seq: Seq.optional(),
    msg: z.object({ index_ids: z.array(z.string()) }),
  });
export const CfBenchmarksIndexListFrame = indexList('cfbenchmarks_value_indexlist');
export const CfBenchmarks5hzIndexListFrame = indexList('cfbenchmarks_value_5hz_indexlist');

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
]);
export type StreamMessage = z.infer<typeof StreamMessage>;
export type StreamMessageOf<T extends StreamMessage['type']> = Extract<StreamMessage, { type: T }>;
export type OrderbookSnapshotFrame = z.infer<typeof OrderbookSnapshotFrame>;
export type OrderbookDeltaFrame = z.infer<typeof OrderbookDeltaFrame>;

const isPositiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

/**
 * Exactly `OrderbookDeltaFrame.safeParse(v).success`, without building zod's output (the
 * orderbook delta is most of the stream, and zod allocates per field). The equivalence is
 * pinned by a property test; when this says no, parse with the schema for the reason.
 * Unknown keys are left on the value (the schema would strip them).
 */
export function isOrderbookDeltaFrame(v: unknown): v is OrderbookDeltaFrame {
  if (!isRecord(v) || v.type !== 'orderbook_delta' || !isPositiveInt(v.sid) || !isPositiveInt(v.seq)) return false;
  const m = v.msg;
  if (!isRecord(m)) return false;
  const t = m.market_ticker;
  const p = m.price_dollars;
  const d = m.delta_fp;
  const ts = m.ts;
  const sub = m.subaccount;
  return (
    typeof t === 'string' &&
    t.length > 0 &&
    typeof p === 'string' &&
    BOOK_PRICE_RE.test(p) &&
    typeof d === 'string' &&
    SIGNED_COUNT_RE.test(d) &&
    (m.side === 'yes' || m.side === 'no') &&
    typeof ts === 'string' &&
    STREAM_TIME_RE.test(ts) &&
    isOptionalString(m.market_id) &&
    isOptionalString(m.client_order_id) &&
    (sub === undefined || (typeof sub === 'number' && Number.isSafeInteger(sub)))
  );
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...REPLY_TYPES, ...Object.keys(MESSAGE_TYPES)]);

export type FrameParse = { ok: true; msg: StreamMessage } | { ok: false; reason: string };

/** One issue, said briefly: `msg.yes_dollars_fp: Invalid input: expected array, received undefined`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid frame';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Parse one text frame from the server. Never throws: malformed frames come back as `{ok: false}`. */
export function parseStreamFrame(text: string): FrameParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  return parseStreamValue(raw);
}

/** As `parseStreamFrame`, for a value already through JSON.parse. */
export function parseStreamValue(raw: unknown): FrameParse {
  if (!isRecord(raw)) return { ok: false, reason: 'expected a JSON object' };
  if (typeof raw.type !== 'string') return { ok: false, reason: 'type missing' };
  if (!KNOWN_TYPES.has(raw.type)) return { ok: false, reason: `unknown message type ${JSON.stringify(raw.type)}` };
  const parsed = StreamMessage.safeParse(raw);
  if (parsed.success) return { ok: true, msg: parsed.data };
  return { ok: false, reason: `${raw.type}: ${describeIssue(parsed.error)}` };
}
