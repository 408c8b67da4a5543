// TerminalApi: the one contract between the renderer and main, written once. Every method is
// declared once in `channels` (one record per main-side service): its arguments' zod schemas, which
// main's door parses before dispatch (the renderer is untrusted), and its result type. `on(stream)`
// subscribes to a view stream; every method returns a promise.
// Money and counts cross as decimal strings; book levels cross as exact integers (price
// ticks of 0.0001 $ and centi-contracts), never floats.
import { z } from 'zod';
import { CountRequest, Subaccount, Ticker } from '../wire/common';
import { AmendOrderRequest, CreateOrderRequest } from '../wire/orders';
import { STREAM_NAMES, type StreamName } from './names';
import { flatten, method, type ChannelsShape, type DuplicateNames, type NamesOf, type ResultOf, type SpecIn } from './method';
import { AuditFilter, ConsoleCode, OrderCallMeta, OrderOrigin, OutOfBandInput, ReleaseKillSwitchInput, RiskLimits, type AuditEntry, type RiskView } from './risk';

import { FixSettingsInput, type FixView } from './fix';
import { BacktestInput, SavedBacktestRef, StartStrategyInput, StrategyRef, SweepInput, type BacktestView, type ReproducedBacktest, type StrategiesView, type SweepView } from './strategies';
import { ExportRecordingInput, RecorderSettingsInput, RecordingRef, StartRecordingInput, type RecordingsView } from './recordings';
import { ReplayControlInput, StartReplayInput, type ReplayView } from './replay';
import { AlertActionInput, AlertInput, BracketInput, LocalActionInput, LocalMoveInput, LocalOrdersInput, LocalResumeInput, LocalKillReleaseInput, type AlertsView, type LocalOrdersView } from './tools';
import type { BatchCancelResult } from './batch-cancel';
import type { BookPush } from './book-stream';
import { LayoutName } from './layout-name';
export type { BookPush } from './book-stream';

export { STREAM_NAMES, type StreamName };
export * from './risk';
export * from './tools';
export * from './recordings';
export * from './replay';
export * from './strategies';

export const ProfileKind = z.enum(['embedded', 'demo', 'production', 'custom']);
export type ProfileKind = z.infer<typeof ProfileKind>;

export const ProfileId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'profile id: lower-case letters, digits and dashes');

export const ProfileInput = z
  .object({
    id: ProfileId.optional(),
    name: z.string().trim().min(1, 'name the profile').max(60),
    kind: ProfileKind,
    baseUrl: z.string().url('base URL must be a URL like https://host/trade-api/v2').optional(),
    wsUrl: z.string().regex(/^wss?:\/\//, 'WebSocket URL must start with ws:// or wss://').optional(),
    headerPrefix: z.string().regex(/^[A-Z0-9]{1,20}-$/, 'header prefix like KALSHI- (capitals, ending in a dash)').optional(),
  })
  .strict()
  .refine((p) => p.kind !== 'custom' || (p.baseUrl && p.wsUrl), 'a custom profile needs a base URL and a WebSocket URL');
export type ProfileInput = z.infer<typeof ProfileInput>;

export const KeyRef = z.object({ profileId: ProfileId, apiKeyId: z.string().min(1).max(200) }).strict();
export type KeyRef = z.infer<typeof KeyRef>;

/**
 * Switching the profile's key: to one that sees less of the account (scoped to one subaccount)
 * is a loosening, confirmed as one (the web host's console code rides here).
 */
export const UseKeyInput = KeyRef.extend({ consoleCode: ConsoleCode.optional() }).strict();
export type UseKeyInput = z.infer<typeof UseKeyInput>;

/**
 * Deleting a key: `revoke` true revokes it at the exchange first (nothing is forgotten if that
 * fails), false forgets it here only; absent, a key still valid at the exchange is refused with
 * code `key_still_valid` so the trader is asked.
 */
export const DeleteKeyInput = KeyRef.extend({ revoke: z.boolean().optional() }).strict();
export type DeleteKeyInput = z.infer<typeof DeleteKeyInput>;

/** Whether a stored key still signs at its profile's exchange (null: could not tell). */
export interface KeyStatus {
  apiKeyId: string;
  validAtExchange: boolean | null;
  detail: string;
}

export const ImportKeyInput = z
  .object({
    profileId: ProfileId,
    apiKeyId: z.string().trim().min(1, 'the API key id is required').max(200),
    name: z.string().trim().max(60).optional(),
    privateKeyPem: z
      .string()
      .max(20_000)
      .regex(/-----BEGIN (?:RSA )?PRIVATE KEY-----[\s\S]+-----END (?:RSA )?PRIVATE KEY-----/, 'paste or choose a PEM private key file'),
  })
  .strict();

export const GenerateKeyInput = z
  .object({
    profileId: ProfileId,
    name: z.string().trim().min(1).max(60),
    scopes: z.array(z.enum(['read', 'write'])).min(1).optional(),
    subaccount: Subaccount.optional(),
  })
  .strict();

/**
 * What the order ticket sends: the endpoint table's create request without `client_order_id`
 * (main assigns it, once, for the order's whole life) and without `exchange_index` (main
 * routes), plus who asked and whether the trader confirmed.
 */
export const OrderDraft = CreateOrderRequest.omit({ client_order_id: true, exchange_index: true }).extend(OrderCallMeta).strict();
export type OrderDraft = z.infer<typeof OrderDraft>;

/**
 * Several orders at once: each is gated on its own (and counts against the limits while the
 * others are in flight), the ones that pass go in the exchange's batch create (POST
 * /portfolio/events/orders/batched), as many per request as the write bucket holds, each with its
 * own client_order_id (a lost answer is looked up by it, never resent blind).
 */
export const BatchPlaceInput = z.object({ orders: z.array(OrderDraft).min(1).max(20) }).strict();

/** An amend: the table's amend request for one order (main keeps its client ids), where it rests, and the call's meta. */
export const AmendInput = AmendOrderRequest.omit({ client_order_id: true, updated_client_order_id: true, exchange_index: true })
  .extend({ order_id: z.string().min(1), subaccount: Subaccount.optional(), ...OrderCallMeta })
  .strict();

export const DecreaseInput = z
  .object({
    order_id: z.string().min(1),
    ticker: Ticker,
    reduce_by: CountRequest.optional(),
    reduce_to: z.string().regex(/^\d+(?:\.\d{1,2})?$/).optional(),
    subaccount: Subaccount.optional(),
    origin: OrderOrigin.optional(),
  })
  .strict()
  .refine((d) => (d.reduce_by === undefined) !== (d.reduce_to === undefined), 'give exactly one of reduce_by or reduce_to');

export const CancelInput = z.object({ order_id: z.string().min(1), ticker: Ticker.optional(), subaccount: Subaccount.optional(), origin: OrderOrigin.optional() }).strict();
export const BatchCancelInput = z.object({ orders: z.array(CancelInput).min(1).max(1000), origin: OrderOrigin.optional() }).strict();
/** With a ticker: every resting order of mine in that market; without: the exchange's cancel-all. */
export const CancelAllInput = z.object({ ticker: Ticker.optional(), subaccount: Subaccount.optional(), origin: OrderOrigin.optional() }).strict();

/** Any row of the endpoint table, by id; main validates the parts with that row's schemas. */
export const RestCallInput = z
  .object({
    id: z.string().regex(/^[a-zA-Z]+$/).max(60),
    params: z.record(z.string(), z.string()).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    body: z.unknown().optional(),
    ...OrderCallMeta,
  })
  .strict();

export const WatchInput = z.array(Ticker).max(100);

export const Settings = z
  .object({
    theme: z.enum(['dark', 'light']),
    keymap: z.record(z.string().max(60), z.string().max(60)),
    sizePresets: z.array(CountRequest).min(1).max(9),
    confirmCancelAll: z.boolean(),
    notifyOnFill: z.boolean(),
    /** the depth heatmap's history per market, in minutes (default 10) */
    heatmapMinutes: z.number().int().min(1).max(60).optional(),
    /** the UI's text size in px (default 12): every panel's text, and the ladder's rows with it */
    fontPx: z.union([z.literal(12), z.literal(13), z.literal(14), z.literal(16)]).optional(),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;

export const LayoutInput = z.object({ profileId: ProfileId, layout: z.unknown() }).strict();

export const NamedLayoutRef = z.object({ profileId: ProfileId, name: LayoutName }).strict();
export const NamedLayoutInput = z.object({ profileId: ProfileId, name: LayoutName, layout: z.unknown() }).strict();
/** A profile's named layouts, newest first (the layouts themselves are fetched one at a time). */
export interface NamedLayoutsView {
  layouts: { name: string; savedAt: number }[];
}

/**
 * Every IPC method, declared once: one record per main-side service (its channel), each method
 * its argument schemas (zod; the door parses every argument with them and refuses any method not
 * listed here) and its result type. The names, the door's tables, what each service implements
 * (`ChannelImpl`) and the renderer's clients are derived from this.
 */
export const channels = {
  /** answered by services.ts itself: they span several services */
  app: {
    getAppState: method().returns<AppState>(),
    activateProfile: method(ProfileId).returns<AppState>(),
    deleteProfile: method(ProfileId).returns(),
  },
  profiles: {
    saveProfile: method(ProfileInput).returns<ProfileView>(),
    importKey: method(ImportKeyInput).returns<KeyView>(),
    generateKey: method(GenerateKeyInput).returns<KeyView>(),
    rotateKey: method(KeyRef).returns<KeyView>(),
    deleteKey: method(DeleteKeyInput).returns<{ revoked: boolean }>(),
    keyStatus: method(KeyRef).returns<KeyStatus>(),
    useKey: method(UseKeyInput).returns(),
    revokeExchangeKey: method(z.string().trim().min(1).max(200)).returns(),
  },
  trading: {
    request: method(RestCallInput).returns<unknown>(),
    placeOrder: method(OrderDraft).returns<OrderAck>(),
    placeOrders: method(BatchPlaceInput).returns<{ results: ({ ok: true; ack: OrderAck } | { ok: false; error: TerminalError })[] }>(),
    amendOrder: method(AmendInput).returns<unknown>(),
    decreaseOrder: method(DecreaseInput).returns<unknown>(),
    cancelOrder: method(CancelInput).returns<{ reduced_by: string; ts_ms: number }>(),
    batchCancel: method(BatchCancelInput).returns<BatchCancelResult>(),
    cancelAll: method(CancelAllInput).returns<{ canceled: number }>(),
    watchMarkets: method(WatchInput).returns(),
    /** full views of these books as last pushed (after a gap in the `books` stream's seq) */
    bookSnapshots: method(WatchInput).returns<BookPush[]>(),
    getRisk: method().returns<RiskView>(),
    saveRiskLimits: method(RiskLimits, OutOfBandInput.optional()).returns<RiskView>(),
    engageKillSwitch: method().returns<RiskView>(),
    releaseKillSwitch: method(ReleaseKillSwitchInput).returns<RiskView>(),
    getAuditLog: method(AuditFilter).returns<AuditEntry[]>(),
  },
  preferences: {
    getSettings: method().returns<Settings>(),
    saveSettings: method(Settings).returns(),
    getLayout: method(ProfileId).returns<unknown>(),
    saveLayout: method(LayoutInput).returns(),
    listNamedLayouts: method(ProfileId).returns<NamedLayoutsView>(),
    saveNamedLayout: method(NamedLayoutInput).returns<NamedLayoutsView>(),
    getNamedLayout: method(NamedLayoutRef).returns<unknown>(),
    deleteNamedLayout: method(NamedLayoutRef).returns<NamedLayoutsView>(),
  },
  tools: {
    getAlerts: method().returns<AlertsView>(),
    saveAlert: method(AlertInput).returns<AlertsView>(),
    alertAction: method(AlertActionInput).returns<AlertsView>(),
    getLocalOrders: method().returns<LocalOrdersView>(),
    placeLocalOrders: method(LocalOrdersInput).returns<LocalOrdersView>(),
    placeBracket: method(BracketInput).returns<LocalOrdersView>(),
    localOrderAction: method(LocalActionInput).returns<LocalOrdersView>(),
    moveLocalOrder: method(LocalMoveInput).returns<LocalOrdersView>(),
    resumeLocalOrders: method(LocalResumeInput).returns<LocalOrdersView>(),
    releaseKillHeldLocal: method(LocalKillReleaseInput).returns<LocalOrdersView>(),
  },
  recorder: {
    getRecordings: method().returns<RecordingsView>(),
    startRecording: method(StartRecordingInput).returns<RecordingsView>(),
    stopRecording: method().returns<RecordingsView>(),
    exportRecording: method(ExportRecordingInput).returns<{ path: string }>(),
    deleteRecording: method(RecordingRef).returns<RecordingsView>(),
    saveRecorderSettings: method(RecorderSettingsInput).returns<RecordingsView>(),
  },
  strategies: {
    getStrategies: method().returns<StrategiesView>(),
    startStrategy: method(StartStrategyInput).returns<StrategiesView>(),
    stopStrategy: method(StrategyRef).returns<StrategiesView>(),
    backtestStrategy: method(BacktestInput).returns<BacktestView>(),
    sweepStrategy: method(SweepInput).returns<SweepView>(),
    reproduceBacktest: method(SavedBacktestRef).returns<ReproducedBacktest>(),
  },
  fix: {
    getFix: method().returns<FixView>(),
    saveFixSettings: method(FixSettingsInput).returns<FixView>(),
  },
  replay: {
    getReplay: method().returns<ReplayView>(),
    startReplay: method(StartReplayInput).returns<ReplayView>(),
    replayControl: method(ReplayControlInput).returns<ReplayView>(),
    stopReplay: method().returns<ReplayView>(),
  },
} satisfies ChannelsShape;

type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type MethodName = NamesOf<Channels>;
// a name in two channels would have two homes: refused here and by flatten at load
const _oneChannelPerName: [DuplicateNames<Channels>] extends [never] ? true : DuplicateNames<Channels> = true;
void _oneChannelPerName;

const flat = flatten(channels);
/** Each method's argument schema (a tuple), by name: the door's table. */
export const methodArgs = flat.args;
/** Each method's channel, by name: where the door's dispatch finds its service. */
export const methodChannel = flat.channelOf;
export const METHOD_NAMES: readonly MethodName[] = Object.freeze(Object.keys(methodArgs) as MethodName[]);

// ---- views main pushes -----------------------------------------------------------------

export interface KeyView {
  apiKeyId: string;
  name: string;
  source: 'provisioned' | 'imported' | 'generated';
  createdAt: number;
  active: boolean;
}

export interface ProfileView {
  id: string;
  name: string;
  kind: ProfileKind;
  baseUrl: string;
  wsUrl: string;
  headerPrefix: string;
  active: boolean;
  keys: KeyView[];
}

export type ConnectionPhase = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'offline';

export interface ConnectionView {
  phase: ConnectionPhase;
  detail: string;
  /** round trip of the last ping or request, ms */
  latencyMs: number | null;
  /** the last ping round trips, oldest first (at most 40), for a sparkline */
  latencyHistory?: number[];
  /** order acknowledgements: the last round trip and the median of the last 50, ms */
  orderAck?: { lastMs: number; p50Ms: number; count: number } | null;
  reconnects: number;
  /** token headroom of the REST limiter */
  limits: { read: { available: number; capacity: number }; write: { available: number; capacity: number } } | null;
  exchange: { exchangeActive: boolean; tradingActive: boolean; shards: { index: number; label: string; tradingActive: boolean }[] } | null;
  userId: string | null;
  isFcmMember: boolean;
  /** the exchange's clock minus ours, from its Date header (ms); null before any answer */
  clockOffsetMs: number | null;
  /** set when the offset is beyond the bound and the terminal refuses to sign */
  clockProblem?: string;
}

export interface AppState {
  profiles: ProfileView[];
  activeProfileId: string | null;
  connection: ConnectionView;
  settings: Settings;
  risk: RiskView;
  /** the host tells the UI whether it runs in Electron (popouts, native notifications) or a browser */
  shell: 'electron' | 'web';
  /** how private keys are sealed on this machine, and what is weak about it (null: nothing) */
  keysAtRest?: { kind: string; warning: string | null };
}

export type { BookView } from './book-stream';

export interface TickerView {
  ticker: string;
  yes_bid_dollars?: string;
  yes_ask_dollars?: string;
  price_dollars?: string;
  volume_fp?: string;
  open_interest_fp?: string;
  ts: number;
}

export interface TradeView {
  trade_id: string;
  ticker: string;
  yes_price_dollars: string;
  no_price_dollars: string;
  count_fp: string;
  /** `yes` or `no`; a value the service adds later is passed on as sent. */
  taker_side: 'yes' | 'no' | (string & {});
  ts: number;
  /** the exchange's time of the trade to the millisecond (the stream's ts_ms), when it sent one */
  ts_ms?: number;
  /** matched off book as a block trade */
  is_block_trade?: boolean;
}

/** A windowed average of a reference index: exact 8-decimal dollars, times in ms (end exclusive). */
export interface WindowedAverageView {
  value: string;
  window_size: number;
  window_start_ts_ms: number;
  window_end_ts_exclusive: number;
}

/** A reference index value from the cfbenchmarks_value channel. */
export interface IndexValueView {
  index_id: string;
  received_at?: number;
  /** the upstream raw frame, as text */
  data: string;
  avg_60s_data: WindowedAverageView;
  /** only in the final minute before a quarter-hour close */
  last_60s_windowed_average_15min?: WindowedAverageView;
}

/** A Pyth reference price from the pyth_value channel: exact 8-decimal dollars, times in Unix ms. */
export interface PythValueView {
  underlying_ticker: string;
  value_usd: string;
  source_ts_ms: number;
  received_at: number;
}

/** Public market data other than books, coalesced per frame. */
export interface MarketUpdate {
  tickers: TickerView[];
  trades: TradeView[];
  lifecycle: { ticker: string; event_type: string; ts: number }[];
  /** latest value per index id since the last frame */
  indices: IndexValueView[];
  /** latest Pyth value per underlying since the last frame (absent from hosts that do not stream them) */
  pyth?: PythValueView[];
}

/** Private stores as upserts; `reset` means replace everything (after a reconnect reconcile). */
/** An order main is still placing: sent without an answer yet, or being looked up after a lost answer. */
export interface PendingOrderView {
  clientOrderId: string;
  ticker: string;
  side: 'bid' | 'ask';
  price: string;
  count: string;
  /** sending: a create is on the wire; checking: looking it up by client_order_id; waiting: backing off before the next try */
  state: 'sending' | 'checking' | 'waiting';
  sends: number;
  lookups: number;
  lastError: string | null;
  startedAt: number;
}

export interface PrivateUpdate {
  reset?: boolean;
  /** every order still being placed (the whole list each time; empty when none) */
  pending?: PendingOrderView[];
  orders?: Record<string, unknown>[];
  positions?: Record<string, unknown>[];
  fills?: Record<string, unknown>[];
  balance?: { balance_dollars: string; portfolio_value_dollars?: string; updated_ts: number };
  rfqs?: Record<string, unknown>[];
  quotes?: Record<string, unknown>[];
  orderGroups?: Record<string, unknown>[];
}

export interface Notice {
  level: 'info' | 'success' | 'warning' | 'error';
  title: string;
  body: string;
  ts: number;
  /** what raised it: a fill, an alert, a local order (Electron shows alerts natively whatever the fill setting) */
  source?: 'fill' | 'alert' | 'local';
  /** the alert asked for a sound */
  sound?: boolean;
}

export interface OrderAck {
  client_order_id: string;
  order_id: string;
  fill_count: string;
  remaining_count: string;
}

/** An error crossing the door: the ApiError's parts, or a validation message. */
export interface TerminalError {
  kind: 'api' | 'validation' | 'network' | 'state' | 'risk';
  message: string;
  status?: number;
  /** for kind 'risk': the limit that refused (e.g. max_order_contracts, kill_switch, confirm_required); for kind 'state', a reason the UI acts on (key_still_valid) */
  code?: string;
  details?: string;
  /** for kind 'risk': the trader may confirm and send again (a duplicate, an order above the confirm threshold) */
  confirmable?: boolean;
}

export type Unsubscribe = () => void;

/** What the door answers a call: the value, or what went wrong (plain data: it crosses any channel intact). */
export type DoorResult = { ok: true; value: unknown } | { ok: false; error: TerminalError };

/**
 * What the Electron preload exposes on window.terminal: one call channel to the door and the view
 * streams. The renderer derives the methods over `call` (lib/client-proxy.ts), as it does over the
 * web host's socket; main's door refuses a name the contract does not declare.
 */
export interface PreloadApi {
  call(method: string, args: unknown[]): Promise<DoorResult>;
  on<S extends StreamName>(stream: S, listener: (payload: StreamPayloads[S]) => void): Unsubscribe;
}

export interface StreamPayloads {
  /** per market, the levels changed since its last push, or a full view (book-stream.ts) */
  books: BookPush[];
  market: MarketUpdate;
  private: PrivateUpdate;
  connection: ConnectionView;
  notices: Notice;
  /** app-menu accelerators in Electron: the renderer runs the named action (e.g. `palette`) */
  commands: { command: string };
  /** limits, kill switch and today's P&L of the active profile */
  risk: RiskView;
  /** the active profile's alerts and what fired */
  alerts: AlertsView;
  /** the active profile's local conditional orders */
  local: LocalOrdersView;
  /** the active profile's FIX sessions and drop-copy disagreements */
  fix: FixView;
}

type ArgsOf<M extends MethodName> = z.input<(typeof methodArgs)[M]>;
/** A method's arguments as main's door hands them over: parsed by the method's schema. */
export type ParsedArgs<M extends MethodName> = z.output<(typeof methodArgs)[M]>;
/** What main implements behind the door: every method, with parsed arguments. */
export type ServiceMethods = { [M in MethodName]: (...args: ParsedArgs<M>) => Promise<MethodResults[M]> };

/** Results of each method (main is trusted, so these are types, not schemas). */
export type MethodResults = { [M in MethodName]: ResultOf<SpecIn<Channels, M>> };

/** What one service implements for its channel: exactly its methods, with parsed arguments. */
export type ChannelImpl<C extends ChannelName> = Pick<ServiceMethods, keyof Channels[C] & MethodName>;
/** Every channel's implementation: what the door's dispatch is derived from. */
export type ChannelImpls = { [C in ChannelName]: ChannelImpl<C> };

export type TerminalMethods = { [M in MethodName]: (...args: ArgsOf<M>) => Promise<MethodResults[M]> };

export type TerminalApi = TerminalMethods & {
  on<S extends StreamName>(stream: S, listener: (payload: StreamPayloads[S]) => void): Unsubscribe;
};

// DEFAULT_SETTINGS lives in ./defaults (free of runtime dependencies for the renderer).
