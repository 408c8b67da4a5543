// Stream commands (client -> server), their replies, the channel and message-type maps and the
// numbered error codes, with the server-side command parser. Data messages are in ./stream.
import { z } from 'zod';
import { Ticker } from './common';
import { CommandId, Seq, Sid } from './stream-primitives';

// ---------------------------------------------------------------------------------------------
// Channels and message types: the two maps
// ---------------------------------------------------------------------------------------------

/**
 * What a subscription on a channel is scoped by:
 * - `markets_required`: `market_ticker`/`market_tickers` must be given (error 14 otherwise);
 * - `markets_optional`: tickers filter; none = every market;
 * - `none`: tickers are ignored (everything the caller may see);
 * - `indices`: scoped by `index_ids` (tickers ignored); `["all"]` = every index;
 * - `underlyings`: scoped by `underlying_tickers` (Pyth symbols); `["all"]` = every underlying.
 */
export type ChannelScope = 'markets_required' | 'markets_optional' | 'none' | 'indices' | 'underlyings';

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
  // AsyncAPI 2.0.0 `pyth_value` (docs.kalshi.com/websockets/pyth-value): authenticated, by Pyth symbol.
  pyth_value: { private: true, scope: 'underlyings', messageTypes: ['pyth_value', 'pyth_value_underlying_list'] },
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
  pyth_value: ['pyth_value'],
  pyth_value_underlying_list: ['pyth_value'],
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
  UNDERLYING_TICKERS_REQUIRED: 28,
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
  28: 'Underlying tickers required',
};

// ---------------------------------------------------------------------------------------------
// Commands (client -> server)
// ---------------------------------------------------------------------------------------------

export const TickerList = z.array(Ticker).min(1);
export const IndexIdList = z.array(z.string().min(1).max(100)).min(1);
export const SidList = z.array(Sid).min(1);

export const UPDATE_ACTIONS = [
  'add_markets',
  'delete_markets',
  'get_snapshot',
  'subscribe_indices',
  'unsubscribe_indices',
  'indexlist',
  'subscribe_underlyings',
  'unsubscribe_underlyings',
  'underlying_list',
] as const;
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
    case 'subscribe_underlyings':
    case 'unsubscribe_underlyings':
    case 'underlying_list':
      return scope === 'underlyings';
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
    underlying_tickers: IndexIdList.optional(),
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
    underlying_tickers: IndexIdList.optional(),
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
      params: { channels: Channel[]; market_tickers?: string[]; index_ids?: string[]; underlying_tickers?: string[]; send_initial_snapshot?: boolean };
    }
  | { id: number; cmd: 'unsubscribe'; params: { sids: number[] } }
  | { id: number; cmd: 'list_subscriptions' }
  | {
      id: number;
      cmd: 'update_subscription';
      params: { sid: number; action: UpdateAction; market_tickers?: string[]; index_ids?: string[]; underlying_tickers?: string[] };
    };

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

export function isRecord(v: unknown): v is Record<string, unknown> {
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

function readIndexIds(params: Record<string, unknown>, field: 'index_ids' | 'underlying_tickers' = 'index_ids'): string[] | undefined | string {
  if (params[field] === undefined) return undefined;
  const ids = z.array(z.string().min(1).max(100)).safeParse(params[field]);
  return ids.success ? [...new Set(ids.data)] : `${field} must be an array of ${field === 'index_ids' ? 'index ids' : 'underlying tickers'}`;
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
  const underlyings = readIndexIds(params, 'underlying_tickers');
  if (typeof underlyings === 'string') return fail(id, WS_ERROR.INVALID_PARAMETER, underlyings);
  if (options.maxMarkets !== undefined && tickers && tickers.length > options.maxMarkets) {
    return fail(id, WS_ERROR.MARKET_LIMIT, `at most ${options.maxMarkets} markets`);
  }

  const lists: CommandLists = { tickers, indexIds, underlyings };
  if (cmd === 'subscribe') return parseSubscribe(id, params, lists, options);
  return parseUpdate(id, params, lists);
}

/** The market tickers, index ids and underlying tickers a subscribe or update names (each checked). */
interface CommandLists {
  tickers: string[] | undefined;
  indexIds: string[] | undefined;
  underlyings: string[] | undefined;
}

/** subscribe: known channels, private ones only when authenticated, markets where a channel needs them. */
function parseSubscribe(id: number, params: Record<string, unknown>, { tickers, indexIds, underlyings }: CommandLists, options: ParseCommandOptions): CommandParse {
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
  if (underlyings) out.underlying_tickers = underlyings;
  if (typeof params.send_initial_snapshot === 'boolean') out.send_initial_snapshot = params.send_initial_snapshot;
  return { ok: true, cmd: { id, cmd: 'subscribe', params: out } };
}

/** update_subscription: exactly one sid, a known action, and the list that action needs. */
function parseUpdate(id: number, params: Record<string, unknown>, { tickers, indexIds, underlyings }: CommandLists): CommandParse {
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
  if ((act === 'subscribe_underlyings' || act === 'unsubscribe_underlyings') && !underlyings?.length) {
    return fail(id, WS_ERROR.UNDERLYING_TICKERS_REQUIRED);
  }
  const out: Extract<ParsedCommand, { cmd: 'update_subscription' }>['params'] = { sid, action: act };
  if (tickers) out.market_tickers = tickers;
  if (indexIds) out.index_ids = indexIds;
  if (underlyings) out.underlying_tickers = underlyings;
  return { ok: true, cmd: { id, cmd: 'update_subscription', params: out } };
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
      z.object({
        market_tickers: z.array(z.string()).optional(),
        index_ids: z.array(z.string()).optional(),
        underlying_tickers: z.array(z.string()).optional(),
      }),
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
