// WebSocket stream (`/trade-api/ws/v2`): every command the client sends, every reply and data
// message the server pushes, and the server-side command parser that yields the protocol's
// numbered error codes. Names follow the spec's Events table; where it is silent, the real
// exchange's names (see protocol-notes.md, "WebSocket").
import { z } from 'zod';
import { DollarsIn, CountIn, Ticker, UnixSeconds, UnixMillis } from './common';

// ---------------------------------------------------------------------------------------------
// Numbers and stamps
// ---------------------------------------------------------------------------------------------

const BOOK_PRICE_RE = /^(?:0(?:\.\d{1,4}0*)?|1(?:\.0+)?)$/;
const LEVEL_COUNT_RE = /^\d+(?:\.\d{1,2}0*)?$/;
const SIGNED_COUNT_RE = /^-?\d+(?:\.\d{1,2}0*)?$/;
const STREAM_TIME_RE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** A book price in dollars: 0..1 on the 0.0001 tick ("0.53", "0.5300"; zeros past 4 decimals tolerated). */
export const BookPrice = z.string().regex(BOOK_PRICE_RE, 'expected a price between 0 and 1 on the 0.0001 tick');
/** A non-negative level size (`_fp`, 0.01 granularity; trailing zeros past 2 decimals tolerated). */
export const LevelCount = z.string().regex(LEVEL_COUNT_RE, 'expected a non-negative count with at most 2 decimals');
/** A signed size change (`delta_fp`). */
export const SignedCount = z.string().regex(SIGNED_COUNT_RE, 'expected a signed count with at most 2 decimals');
/** An exact 8-decimal value (index values, windowed averages). */
export const Decimal8 = z.string().regex(/^-?\d+\.\d{8}$/, 'expected a decimal string with exactly 8 decimals');
/** An RFC 3339 date-time as the stream sends it (`2025-01-01T12:00:00.123Z`, or with an offset). */
export const StreamTime = z.string().regex(STREAM_TIME_RE, 'expected an RFC 3339 date-time');

export const Sid = z.number().int().positive();
export const Seq = z.number().int().positive();
export const CommandId = z.number().int().nonnegative();

// ---------------------------------------------------------------------------------------------
// Channels and message types: the two maps
// ---------------------------------------------------------------------------------------------

/**
 * What a subscription on a channel is scoped by:
 * - `markets_required`: `market_ticker`/`market_tickers` must be given (error 14 otherwise);
 * - `markets_optional`: tickers filter; none = every market;
 * - `none`: tickers are ignored (everything the caller may see);
 * - `indices`: scoped by `index_ids` (tickers ignored); `["all"]` = every index.
 */
export type ChannelScope = 'markets_required' | 'markets_optional' | 'none' | 'indices';

interface ChannelInfo {
  /** Private channels need a signed connection (error 9 otherwise). */
  readonly private: boolean;
  readonly scope: ChannelScope;
  /** The data message `type`s a subscription on this channel delivers. */
  readonly messageTypes: readonly string[];
}

/**
 * Channel name (what `subscribe` takes) -> what it carries. Names are the spec's where it names
 * them, else the real exchange's. The orderbook channel is `orderbook_delta`; it delivers
 * `orderbook_snapshot` then `orderbook_delta` messages, both with `seq`.
 */
export const CHANNELS = {
  orderbook_delta: { private: false, scope: 'markets_required', messageTypes: ['orderbook_snapshot', 'orderbook_delta'] },
  ticker: { private: false, scope: 'markets_optional', messageTypes: ['ticker'] },
  trade: { private: false, scope: 'markets_optional', messageTypes: ['trade'] },
  market_lifecycle_v2: { private: false, scope: 'none', messageTypes: ['market_lifecycle_v2', 'event_lifecycle', 'event_fee_update'] },
  multivariate_market_lifecycle: { private: false, scope: 'none', messageTypes: ['multivariate_market_lifecycle', 'event_lifecycle'] },
  fill: { private: true, scope: 'markets_optional', messageTypes: ['fill'] },
  user_orders: { private: true, scope: 'markets_optional', messageTypes: ['user_order'] },
  market_positions: { private: true, scope: 'markets_optional', messageTypes: ['market_position'] },
  communications: {
    private: true,
    scope: 'none',
    messageTypes: ['rfq_created', 'rfq_deleted', 'quote_created', 'quote_accepted', 'quote_executed'],
  },
  order_group_updates: { private: true, scope: 'none', messageTypes: ['order_group_updates'] },
  cfbenchmarks_value: { private: false, scope: 'indices', messageTypes: ['cfbenchmarks_value', 'cfbenchmarks_value_indexlist'] },
  cfbenchmarks_value_5hz: { private: false, scope: 'indices', messageTypes: ['cfbenchmarks_value_5hz', 'cfbenchmarks_value_5hz_indexlist'] },
} as const satisfies Record<string, ChannelInfo>;

export type Channel = keyof typeof CHANNELS;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as Channel[];
export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CHANNELS, name);
}

/**
 * Data message `type` -> the channel(s) that deliver it. Note the names that differ from their
 * channel: `user_order` (channel `user_orders`), `market_position` (`market_positions`),
 * `orderbook_snapshot` (`orderbook_delta`), the five communications sub-types, and the index
 * list replies `<channel>_indexlist`. `event_lifecycle` arrives on either lifecycle channel.
 */
export const MESSAGE_TYPES = {
  orderbook_snapshot: ['orderbook_delta'],
  orderbook_delta: ['orderbook_delta'],
  ticker: ['ticker'],
  trade: ['trade'],
  market_lifecycle_v2: ['market_lifecycle_v2'],
  event_lifecycle: ['market_lifecycle_v2', 'multivariate_market_lifecycle'],
  event_fee_update: ['market_lifecycle_v2'],
  multivariate_market_lifecycle: ['multivariate_market_lifecycle'],
  fill: ['fill'],
  user_order: ['user_orders'],
  market_position: ['market_positions'],
  rfq_created: ['communications'],
  rfq_deleted: ['communications'],
  quote_created: ['communications'],
  quote_accepted: ['communications'],
  quote_executed: ['communications'],
  order_group_updates: ['order_group_updates'],
  cfbenchmarks_value: ['cfbenchmarks_value'],
  cfbenchmarks_value_indexlist: ['cfbenchmarks_value'],
  cfbenchmarks_value_5hz: ['cfbenchmarks_value_5hz'],
  cfbenchmarks_value_5hz_indexlist: ['cfbenchmarks_value_5hz'],
} as const satisfies Record<string, readonly Channel[]>;
export type DataMessageType = keyof typeof MESSAGE_TYPES;

/** Reply `type`s (answers to commands). */
export const REPLY_TYPES = ['subscribed', 'unsubscribed', 'ok', 'error'] as const;

// ---------------------------------------------------------------------------------------------
// Error codes
// ---------------------------------------------------------------------------------------------

export const WS_ERROR = {
  UNABLE_TO_PROCESS: 1,
  PARAMS_REQUIRED: 2,
  CHANNELS_REQUIRED: 3,
  SIDS_REQUIRED: 4,
  UNKNOWN_COMMAND: 5,
  UNKNOWN_SID: 7,
  UNKNOWN_CHANNEL: 8,
  AUTH_REQUIRED: 9,
  CHANNEL_ERROR: 10,
  INVALID_PARAMETER: 11,
  EXACTLY_ONE_SID: 12,
  UNSUPPORTED_ACTION: 13,
  MARKET_TICKER_REQUIRED: 14,
  BUFFER_OVERFLOW: 25,
  MARKET_LIMIT: 26,
  TOO_MANY_REQUESTS: 27,
} as const;
export type WsErrorCode = (typeof WS_ERROR)[keyof typeof WS_ERROR];

export const WS_ERROR_TEXT: Record<WsErrorCode, string> = {
  1: 'Unable to process message',
  2: 'Params required',
  3: 'Channels required',
  4: 'Subscription IDs required',
  5: 'Unknown command',
  7: 'Unknown subscription ID',
  8: 'Unknown channel name',
  9: 'Authentication required',
  10: 'Channel error',
  11: 'Invalid parameter',
  12: 'Exactly one subscription ID is required',
  13: 'Unsupported action',
  14: 'Market Ticker required',
  25: 'Subscription buffer overflow',
  26: 'Market limit exceeded',
  27: 'Too many requests',
};

// ---------------------------------------------------------------------------------------------
// Commands (client -> server)
// ---------------------------------------------------------------------------------------------

export const TickerList = z.array(Ticker).min(1);
export const IndexIdList = z.array(z.string().min(1).max(100)).min(1);
export const SidList = z.array(Sid).min(1);

export const UPDATE_ACTIONS = ['add_markets', 'delete_markets', 'get_snapshot', 'subscribe_indices', 'unsubscribe_indices', 'indexlist'] as const;
export type UpdateAction = (typeof UPDATE_ACTIONS)[number];

/** Whether `update_subscription` with `action` makes sense on a subscription to `channel`. */
export function channelSupportsAction(channel: Channel, action: UpdateAction): boolean {
  const scope: ChannelScope = CHANNELS[channel].scope;
  switch (action) {
    case 'add_markets':
    case 'delete_markets':
      return scope === 'markets_required' || scope === 'markets_optional';
    case 'get_snapshot':
      return channel === 'orderbook_delta';
    case 'subscribe_indices':
    case 'unsubscribe_indices':
    case 'indexlist':
      return scope === 'indices';
  }
}

/** Wire shapes, for building and checking commands. The server parses with `parseCommand`. */
export const SubscribeCommand = z.object({
  id: CommandId,
  cmd: z.literal('subscribe'),
  params: z.object({
    channels: z.array(z.enum(CHANNEL_NAMES as [Channel, ...Channel[]])).min(1),
    market_ticker: Ticker.optional(),
    market_tickers: TickerList.optional(),
    index_ids: IndexIdList.optional(),
    send_initial_snapshot: z.boolean().optional(),
  }),
});
export const UnsubscribeCommand = z.object({
  id: CommandId,
  cmd: z.literal('unsubscribe'),
  params: z.object({ sids: SidList }),
});
export const ListSubscriptionsCommand = z.object({
  id: CommandId,
  cmd: z.literal('list_subscriptions'),
  params: z.object({}).optional(),
});
export const UpdateSubscriptionCommand = z.object({
  id: CommandId,
  cmd: z.literal('update_subscription'),
  params: z.object({
    sid: Sid.optional(),
    sids: z.array(Sid).length(1).optional(),
    market_ticker: Ticker.optional(),
    market_tickers: TickerList.optional(),
    index_ids: IndexIdList.optional(),
    action: z.enum(UPDATE_ACTIONS),
  }),
});
export const StreamCommand = z.discriminatedUnion('cmd', [SubscribeCommand, UnsubscribeCommand, ListSubscriptionsCommand, UpdateSubscriptionCommand]);
export type StreamCommandWire = z.infer<typeof StreamCommand>;

/** A command as the server acts on it: tickers merged into one list, the one sid made plain. */
export type ParsedCommand =
  | {
      id: number;
      cmd: 'subscribe';
      params: { channels: Channel[]; market_tickers?: string[]; index_ids?: string[]; send_initial_snapshot?: boolean };
    }
  | { id: number; cmd: 'unsubscribe'; params: { sids: number[] } }
  | { id: number; cmd: 'list_subscriptions' }
  | { id: number; cmd: 'update_subscription'; params: { sid: number; action: UpdateAction; market_tickers?: string[]; index_ids?: string[] } };

export type CommandParse = { ok: true; cmd: ParsedCommand } | { ok: false; id?: number; code: WsErrorCode; msg: string };

export interface ParseCommandOptions {
  /** False on an unsigned connection: private channels answer error 9. Default true. */
  authenticated?: boolean;
  /** Most market tickers one command may name (error 26 beyond). Default unlimited. */
  maxMarkets?: number;
}

function fail(id: number | undefined, code: WsErrorCode, detail?: string): CommandParse {
  const msg = detail ? `${WS_ERROR_TEXT[code]}: ${detail}` : WS_ERROR_TEXT[code];
  return id === undefined ? { ok: false, code, msg } : { ok: false, id, code, msg };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `market_ticker` and `market_tickers` merged; undefined when neither was given; a string on error. */
function readTickers(params: Record<string, unknown>): string[] | undefined | string {
  const out: string[] = [];
  if (params.market_ticker !== undefined) {
    const one = Ticker.safeParse(params.market_ticker);
    if (!one.success) return 'market_ticker must be a non-empty ticker';
    out.push(one.data);
  }
  if (params.market_tickers !== undefined) {
    const many = z.array(Ticker).safeParse(params.market_tickers);
    if (!many.success) return 'market_tickers must be an array of tickers';
    out.push(...many.data);
  }
  return params.market_ticker === undefined && params.market_tickers === undefined ? undefined : [...new Set(out)];
}

function readIndexIds(params: Record<string, unknown>): string[] | undefined | string {
  if (params.index_ids === undefined) return undefined;
  const ids = z.array(z.string().min(1).max(100)).safeParse(params.index_ids);
  return ids.success ? [...new Set(ids.data)] : 'index_ids must be an array of index ids';
}

/**
 * Validate one command frame as the server receives it. Yields the codes a parser can decide
 * alone (1, 2, 3, 4, 5, 8, 9, 11, 12, 13, 14, 26); codes that need server state (7 unknown sid,
 * 10, 25, 27, and an action the sid's channel does not support: see `channelSupportsAction`)
 * are the server's to send with `errorReply`.
 */
export function parseCommand(text: string, options: ParseCommandOptions = {}): CommandParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail(undefined, WS_ERROR.UNABLE_TO_PROCESS, 'not JSON');
  }
  if (!isRecord(raw)) return fail(undefined, WS_ERROR.UNABLE_TO_PROCESS, 'expected a JSON object');
  const idParse = CommandId.safeParse(raw.id);
  if (!idParse.success) return fail(undefined, WS_ERROR.UNABLE_TO_PROCESS, 'id must be a non-negative integer');
  const id = idParse.data;
  const cmd = raw.cmd;
  if (cmd === 'list_subscriptions') return { ok: true, cmd: { id, cmd } };
  if (cmd !== 'subscribe' && cmd !== 'unsubscribe' && cmd !== 'update_subscription') {
    return fail(id, WS_ERROR.UNKNOWN_COMMAND, typeof cmd === 'string' ? cmd : 'cmd missing');
  }
  const params = raw.params;
  if (params === undefined || params === null) return fail(id, WS_ERROR.PARAMS_REQUIRED);
  if (!isRecord(params)) return fail(id, WS_ERROR.INVALID_PARAMETER, 'params must be an object');

  if (cmd === 'unsubscribe') {
    if (params.sids === undefined || (Array.isArray(params.sids) && params.sids.length === 0)) return fail(id, WS_ERROR.SIDS_REQUIRED);
    const sids = SidList.safeParse(params.sids);
    if (!sids.success) return fail(id, WS_ERROR.INVALID_PARAMETER, 'sids must be an array of positive integers');
    return { ok: true, cmd: { id, cmd, params: { sids: [...new Set(sids.data)] } } };
  }

  const tickers = readTickers(params);
  if (typeof tickers === 'string') return fail(id, WS_ERROR.INVALID_PARAMETER, tickers);
  const indexIds = readIndexIds(params);
  if (typeof indexIds === 'string') return fail(id, WS_ERROR.INVALID_PARAMETER, indexIds);
  if (options.maxMarkets !== undefined && tickers && tickers.length > options.maxMarkets) {
    return fail(id, WS_ERROR.MARKET_LIMIT, `at most ${options.maxMarkets} markets`);
  }

  if (cmd === 'subscribe') {
    const channels = params.channels;
    if (channels === undefined || (Array.isArray(channels) && channels.length === 0)) return fail(id, WS_ERROR.CHANNELS_REQUIRED);
    if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) {
      return fail(id, WS_ERROR.INVALID_PARAMETER, 'channels must be an array of channel names');
    }
    const unknown = channels.find((c) => !isChannel(c));
    if (unknown !== undefined) return fail(id, WS_ERROR.UNKNOWN_CHANNEL, String(unknown));
    const names = [...new Set(channels as Channel[])];
    if (options.authenticated === false) {
      const priv = names.find((c) => CHANNELS[c].private);
      if (priv) return fail(id, WS_ERROR.AUTH_REQUIRED, priv);
    }
    const needsMarkets = names.find((c) => CHANNELS[c].scope === 'markets_required');
    if (needsMarkets && !tickers?.length) return fail(id, WS_ERROR.MARKET_TICKER_REQUIRED, needsMarkets);
    if (params.send_initial_snapshot !== undefined && typeof params.send_initial_snapshot !== 'boolean') {
      return fail(id, WS_ERROR.INVALID_PARAMETER, 'send_initial_snapshot must be a boolean');
    }
    const out: Extract<ParsedCommand, { cmd: 'subscribe' }>['params'] = { channels: names };
    if (tickers) out.market_tickers = tickers;
    if (indexIds) out.index_ids = indexIds;
    if (typeof params.send_initial_snapshot === 'boolean') out.send_initial_snapshot = params.send_initial_snapshot;
    return { ok: true, cmd: { id, cmd, params: out } };
  }

  // update_subscription
  const hasSid = params.sid !== undefined;
  const hasSids = params.sids !== undefined;
  if (!hasSid && !hasSids) return fail(id, WS_ERROR.SIDS_REQUIRED);
  let sid: number;
  if (hasSids) {
    if (!Array.isArray(params.sids)) return fail(id, WS_ERROR.INVALID_PARAMETER, 'sids must be an array');
    if (params.sids.length !== 1) return fail(id, WS_ERROR.EXACTLY_ONE_SID);
    const only = Sid.safeParse(params.sids[0]);
    if (!only.success) return fail(id, WS_ERROR.INVALID_PARAMETER, 'sids must hold a positive integer');
    if (hasSid && params.sid !== only.data) return fail(id, WS_ERROR.EXACTLY_ONE_SID);
    sid = only.data;
  } else {
    const one = Sid.safeParse(params.sid);
    if (!one.success) return fail(id, WS_ERROR.INVALID_PARAMETER, 'sid must be a positive integer');
    sid = one.data;
  }
  const action = params.action;
  if (action === undefined) return fail(id, WS_ERROR.UNSUPPORTED_ACTION, 'action required');
  if (!(UPDATE_ACTIONS as readonly unknown[]).includes(action)) return fail(id, WS_ERROR.UNSUPPORTED_ACTION, String(action));
  const act = action as UpdateAction;
  if ((act === 'add_markets' || act === 'delete_markets') && !tickers?.length) return fail(id, WS_ERROR.MARKET_TICKER_REQUIRED);
  if ((act === 'subscribe_indices' || act === 'unsubscribe_indices') && !indexIds?.length) {
    return fail(id, WS_ERROR.INVALID_PARAMETER, 'index_ids required');
  }
  const out: Extract<ParsedCommand, { cmd: 'update_subscription' }>['params'] = { sid, action: act };
  if (tickers) out.market_tickers = tickers;
  if (indexIds) out.index_ids = indexIds;
  return { ok: true, cmd: { id, cmd, params: out } };
}

// ---------------------------------------------------------------------------------------------
// Replies (server -> client)
// ---------------------------------------------------------------------------------------------

export const SubscriptionInfo = z.object({ channel: z.string(), sid: Sid });

/** `{"id":1,"type":"subscribed","msg":{"channel":"orderbook_delta","sid":1}}`, one per channel. */
export const SubscribedReply = z
  .object({
    type: z.literal('subscribed'),
    id: CommandId.optional(),
    sid: Sid.optional(),
    msg: SubscriptionInfo.optional(),
  })
  .refine((r) => r.msg !== undefined || r.sid !== undefined, { message: 'subscribed needs msg.sid or sid', path: ['msg'] });
/** `{"id":2,"sid":1,"seq":7,"type":"unsubscribed"}`, one per sid. */
export const UnsubscribedReply = z.object({
  type: z.literal('unsubscribed'),
  id: CommandId.optional(),
  sid: Sid,
  seq: Seq.optional(),
  msg: z.unknown().optional(),
});
/**
 * `ok` has two forms: the answer to `list_subscriptions` (`msg` an array of `{channel, sid}`) and
 * the answer to `update_subscription` (`sid`, `seq`, `msg` with the sid's markets or indices).
 */
export const OkReply = z.object({
  type: z.literal('ok'),
  id: CommandId.optional(),
  sid: Sid.optional(),
  seq: Seq.optional(),
  msg: z
    .union([
      z.array(SubscriptionInfo),
      z.object({ market_tickers: z.array(z.string()).optional(), index_ids: z.array(z.string()).optional() }),
    ])
    .optional(),
});
export const ErrorReply = z.object({
  type: z.literal('error'),
  id: CommandId.optional(),
  sid: Sid.optional(),
  msg: z.object({ code: z.number().int(), msg: z.string() }),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** The error frame for a failed command (`id` omitted when the command had none). */
export function errorReply(id: number | undefined, code: WsErrorCode, msg: string = WS_ERROR_TEXT[code]): ErrorReply {
  return id === undefined ? { type: 'error', msg: { code, msg } } : { type: 'error', id, msg: { code, msg } };
}

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
