// The trading tools main holds so they work with their panels closed: alerts, and local
// conditional orders (stops, trailing stops, take-profit / stop-loss pairs, brackets). Prices are
// YES prices in dollars as decimal strings (tick 0.0001), counts as decimal strings; the schemas
// here are what main's door parses before a tool changes.
import { z } from 'zod';
import { CountRequest, PriceRequest, Subaccount, Ticker } from '../wire/common';

/** A YES price strictly between 0 and 1 dollar. */
const Price = PriceRequest.refine((s) => Number(s) > 0 && Number(s) < 1, 'a price above 0 and below 1 dollar, like 0.45');
const Amount = z.string().regex(/^\d{1,9}(?:\.\d{1,4})?$/, 'a decimal like 0.05');
const Id = z.string().min(1).max(80);

// ------------------------------------------------------------------ alerts

/** What a market value is read from: the last trade, or the inside market. */
export const PriceSource = z.enum(['last', 'bid', 'ask']);
export type PriceSource = z.infer<typeof PriceSource>;

export const LifecycleWhen = z.enum(['opened', 'closed', 'determined', 'settled']);

export const AlertCondition = z.discriminatedUnion('kind', [
  /** the value reaches the level from the other side: rises to it or above (`above`), falls to it or below (`below`); exactly at the level counts */
  z.object({ kind: z.literal('price'), ticker: Ticker, source: PriceSource, direction: z.enum(['above', 'below']), level: Price }).strict(),
  /** the spread (ask - bid) becomes wider or narrower than a value */
  z.object({ kind: z.literal('spread'), ticker: Ticker, direction: z.enum(['wider', 'narrower']), value: Amount }).strict(),
  /** traded contracts over the last `windowSec` reach `contracts` */
  z.object({ kind: z.literal('volume'), ticker: Ticker, contracts: CountRequest, windowSec: z.number().int().min(5).max(86_400) }).strict(),
  /** the market opens, closes, is determined or settles */
  z.object({ kind: z.literal('lifecycle'), ticker: Ticker, when: LifecycleWhen }).strict(),
  /** one of my orders fills (any fill) or is canceled; any market unless a ticker is given */
  z.object({ kind: z.literal('order'), ticker: Ticker.optional(), when: z.enum(['filled', 'canceled']) }).strict(),
]);
export type AlertCondition = z.infer<typeof AlertCondition>;

export const AlertInput = z
  .object({
    /** absent: a new alert; present: edit that alert (its state starts over) */
    id: Id.optional(),
    condition: AlertCondition,
    note: z.string().trim().max(120).optional(),
    /** fire again on the next crossing after the value went back; otherwise once, until re-armed */
    rearm: z.boolean(),
    sound: z.boolean(),
  })
  .strict();
export type AlertInput = z.infer<typeof AlertInput>;

export const AlertActionInput = z.object({ id: Id, action: z.enum(['silence', 'arm', 'delete']) }).strict();

export interface AlertView {
  id: string;
  condition: AlertCondition;
  note: string;
  rearm: boolean;
  sound: boolean;
  /** armed: waiting for a crossing; fired: went off and waits for re-arming; silenced: off */
  state: 'armed' | 'fired' | 'silenced';
  createdAt: number;
  firedAt: number | null;
  fireCount: number;
  /** plain words, e.g. "KX-1 last trade rises to 0.55 or above" */
  summary: string;
}

export interface AlertFiring {
  id: string;
  alertId: string;
  ts: number;
  title: string;
  body: string;
}

export interface AlertsView {
  alerts: AlertView[];
  /** newest first, at most 200 */
  history: AlertFiring[];
}

// ------------------------------------------------------------------ local conditional orders

/** The order a trigger sends: a limit at a price, or a number of ticks through the market. */
export const LocalLimit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('price'), price: Price }).strict(),
  z.object({ kind: z.literal('through'), ticks: z.number().int().min(0).max(100) }).strict(),
]);
export type LocalLimit = z.infer<typeof LocalLimit>;

const LocalCommon = {
  ticker: Ticker,
  /** bid = buy YES, ask = sell YES (as the ticket and the ladder) */
  side: z.enum(['bid', 'ask']),
  count: CountRequest,
  limit: LocalLimit,
  source: PriceSource,
  subaccount: Subaccount.optional(),
};

/**
 * One local order. A stop fires when the source reaches the trigger: a sell (ask) when it falls
 * to it or below, a buy (bid) when it rises to it or above. A trailing stop's trigger follows the
 * best price seen by `trailTicks`. A take-profit fires the other way (a sell when the price rises).
 */
export const LocalOrderSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stop'), trigger: Price, ...LocalCommon }).strict(),
  z.object({ kind: z.literal('take_profit'), trigger: Price, ...LocalCommon }).strict(),
  z.object({ kind: z.literal('trailing_stop'), trailTicks: z.number().int().min(1).max(5000), ...LocalCommon }).strict(),
]);
export type LocalOrderSpec = z.infer<typeof LocalOrderSpec>;

/** One local order, or two or three joined as one-cancels-the-others (a take-profit and stop-loss on a position). */
export const LocalOrdersInput = z
  .object({ orders: z.array(LocalOrderSpec).min(1).max(3), oco: z.boolean(), confirmed: z.boolean().optional() })
  .strict()
  .refine((x) => x.orders.length === 1 || x.oco, 'several local orders at once are an OCO group: set oco')
  .refine((x) => new Set(x.orders.map((o) => o.ticker)).size === 1, 'an OCO group is in one market');
export type LocalOrdersInput = z.infer<typeof LocalOrdersInput>;

/** An entry order with a bracket: when the entry fills, a resting target and a local stop (OCO) follow its filled count. */
export const BracketInput = z
  .object({
    ticker: Ticker,
    side: z.enum(['bid', 'ask']),
    price: Price,
    count: CountRequest,
    subaccount: Subaccount.optional(),
    /** target distance from the entry price, in ticks of the market */
    targetTicks: z.number().int().min(1).max(5000),
    /** stop distance from the entry price, in ticks */
    stopTicks: z.number().int().min(1).max(5000),
    /** how far through the market the stop's order goes, in ticks */
    stopThroughTicks: z.number().int().min(0).max(100),
    stopSource: PriceSource,
    confirmed: z.boolean().optional(),
  })
  .strict();
export type BracketInput = z.infer<typeof BracketInput>;

export const LocalActionInput = z
  .object({
    id: Id,
    /** cancel: never fires; fire: send a missed trigger's order now (the trader's consent); arm: watch again */
    action: z.enum(['cancel', 'fire', 'arm']),
    confirmed: z.boolean().optional(),
  })
  .strict();

export const LocalMoveInput = z.object({ id: Id, trigger: Price }).strict();

/** After a restart with armed local orders: keep them armed, or disarm them all. */
export const LocalResumeInput = z.object({ keep: z.boolean() }).strict();

export const LocalKind = z.enum(['stop', 'take_profit', 'trailing_stop', 'bracket_target']);
export type LocalKind = z.infer<typeof LocalKind>;
/**
 * After the kill switch is released: the kinds of local orders it held that are armed again (a
 * trigger passed meanwhile turns `missed` and asks); every other held one is disarmed.
 */
export const LocalKillReleaseInput = z.object({ rearm: z.array(LocalKind).max(4) }).strict();

export type LocalState =
  /** waiting for its bracket's entry to fill */
  | 'waiting_entry'
  | 'armed'
  /** the trigger was reached; its order is being sent */
  | 'triggered'
  /** its order went to the exchange (order id in `sentOrderId`) */
  | 'sent'
  | 'canceled'
  /** the risk gate or the exchange refused its order */
  | 'failed'
  /** restored after a restart and not yet confirmed by the trader */
  | 'held'
  /** held by the kill switch: never fires while it is engaged; on release the trader re-arms it or it is disarmed */
  | 'kill_held'
  /** its trigger was already reached when it was restored: fires only when the trader says so */
  | 'missed'
  | 'disarmed'
  /** a bracket's target: every contract it was given has filled */
  | 'filled';

export interface LocalOrderView {
  id: string;
  kind: LocalOrderSpec['kind'] | 'bracket_target';
  ticker: string;
  side: 'bid' | 'ask';
  count: string;
  source: PriceSource;
  /** the current trigger price (a trailing stop's moves) */
  trigger: string | null;
  trailTicks: number | null;
  limit: LocalLimit;
  /** the market's price step at the trigger, for ticks through the market */
  tick: string;
  state: LocalState;
  ocoGroup: string | null;
  /** the bracket's entry order, while waiting for it */
  entryOrderId: string | null;
  sentOrderId: string | null;
  detail: string;
  createdAt: number;
  updatedAt: number;
}

export interface LocalOrdersView {
  orders: LocalOrderView[];
  /** restored orders wait for the trader's choice: keep armed or disarm */
  awaitingChoice: boolean;
  /** local orders only work while this terminal runs and is connected */
  live: boolean;
}
