// Pre-trade risk limits as the renderer edits them and main enforces them, the risk view main
// pushes, the order audit log's entries and filter. Limits are per profile and on by default;
// each default is far above what a new user sends by accident and well below a fat finger.
import { z } from 'zod';
import { Ticker } from '../wire/common';

const DollarLimit = z.string().regex(/^\d{1,9}(?:\.\d{1,2})?$/, 'a dollar amount like 5000 or 0.10 (at most 2 decimals)');
const ContractLimit = z.string().regex(/^\d{1,9}(?:\.\d{1,2})?$/, 'a contract count like 1000 (at most 2 decimals)');
const PriceLimit = z.string().regex(/^(?:0(?:\.\d{1,4})?|1(?:\.0{1,4})?)$/, 'a price distance from 0 to 1 dollar, like 0.10');

export const RiskLimits = z
  .object({
    /** largest count one order may carry */
    maxOrderContracts: ContractLimit,
    /** largest cost of one order: price x count for a YES bid, (1 - price) x count for an ask */
    maxOrderCost: DollarLimit,
    /** how far a limit price may go through the opposite best price */
    priceCollar: PriceLimit,
    /** largest position per market in contracts, either side, counting resting orders */
    maxPositionContracts: ContractLimit,
    maxOpenOrders: z.number().int().min(1).max(100_000),
    maxOpenOrdersPerMarket: z.number().int().min(1).max(100_000),
    /** past this loss today (UTC), only orders that reduce exposure go through */
    maxDailyLoss: DollarLimit,
    /** the same market, side, price and size again within this many ms needs a confirmation */
    duplicateWindowMs: z.number().int().min(0).max(60_000),
    /** orders above either threshold ask the trader first */
    confirmAboveContracts: ContractLimit,
    confirmAboveCost: DollarLimit,
  })
  .strict();
export type RiskLimits = z.infer<typeof RiskLimits>;

export const DEFAULT_RISK_LIMITS: RiskLimits = {
  maxOrderContracts: '1000',
  maxOrderCost: '5000',
  priceCollar: '0.10',
  maxPositionContracts: '5000',
  maxOpenOrders: 200,
  maxOpenOrdersPerMarket: 50,
  maxDailyLoss: '2500',
  duplicateWindowMs: 500,
  confirmAboveContracts: '500',
  confirmAboveCost: '2000',
};

/**
 * Where an order action came from, as the page says it (the door accepts only these): the ticket's
 * submit, a ladder click, a trading key ('hotkey'), a command palette entry, a button, the app
 * menu, a blotter row, the RFQ blotter, the chart, or a script on the door ('api'). Informational:
 * the gate and the audit journal record it, and no origin changes what the gate allows.
 */
export const OrderOrigin = z.enum(['ticket', 'ladder', 'hotkey', 'palette', 'button', 'menu', 'blotter', 'rfq', 'chart', 'api']);
export type OrderOrigin = z.infer<typeof OrderOrigin>;

/**
 * Where main itself sends from, never accepted from the page: a local order's trigger (with the
 * local order's id as `originId`), a strategy (with the strategy's id), a FIX session (with its
 * session or ClOrdID), the kill switch's own sweeps.
 */
export const MainOrigin = z.enum(['conditional', 'strategy', 'fix', 'kill_switch']);
export type MainOrigin = z.infer<typeof MainOrigin>;

/** Any origin an audit entry can carry. */
export type AnyOrderOrigin = OrderOrigin | MainOrigin;

/** An origin's detail (a strategy's id, a local order's id): short, printable, no spaces. */
export const OriginId = z.string().regex(/^[A-Za-z0-9._:@/-]{1,80}$/, 'an origin id: 1-80 letters, digits or ._:@/-');

/**
 * How main's own services say where an order action comes from when they call TradingService
 * directly (the page cannot: its calls go through the door's schemas, which take OrderOrigin only).
 * E.g. a strategy: `{ origin: 'strategy', originId: strategyId }`.
 */
export interface MainOriginMeta {
  origin?: AnyOrderOrigin | undefined;
  originId?: string | undefined;
}

/** A door input widened to carry main's own origins (for TradingService's callers inside main). */
export type FromMain<I> = Omit<I, 'origin'> & MainOriginMeta;

/** Fields every order-creating call may carry: who asked, and the trader's confirmation. */
export const OrderCallMeta = {
  origin: OrderOrigin.optional(),
  /** the trader confirmed a duplicate or an order above the confirm threshold */
  confirmed: z.boolean().optional(),
};

/** The one-time code the web host prints on its console for a loosening or a release (out of band). */
export const ConsoleCode = z.string().regex(/^\d{6}$/, 'the 6-digit code printed on the console that started the terminal');
/** What a loosening of the limits may carry beside them: the console's code (web host). */
export const OutOfBandInput = z.object({ consoleCode: ConsoleCode.optional() }).strict();

export const ReleaseKillSwitchInput = z
  .object({ confirm: z.literal(true, 'releasing the kill switch needs confirm: true'), consoleCode: ConsoleCode.optional() })
  .strict();

export interface KillSwitchView {
  engaged: boolean;
  /** ms since epoch when it was engaged */
  since: number | null;
  /** what engaging did, e.g. "canceled 12 orders in 2 subaccounts" */
  detail: string;
}

export interface RiskView {
  profileId: string | null;
  limits: RiskLimits;
  killSwitch: KillSwitchView;
  /** realized plus marked-to-market P&L of today's fills (UTC day), dollars; null before a session */
  dailyPnl: string | null;
}

export const AuditOutcome = z.enum(['sent', 'ok', 'error', 'refused']);
export type AuditOutcome = z.infer<typeof AuditOutcome>;

export interface AuditEntry {
  /** ms since epoch */
  ts: number;
  profileId: string;
  keyId: string | null;
  /** place, amend, decrease, cancel, batch_cancel, cancel_all, quote, accept_quote, ... */
  action: string;
  /** which surface asked (OrderOrigin from the page, MainOrigin from main's own services); null: not said */
  origin: AnyOrderOrigin | null;
  /** the origin's detail: the strategy's id, the local order's id; null when none */
  originId?: string | null;
  ticker: string | null;
  /** what was asked, as the door parsed it (never a key) */
  asked: Record<string, unknown>;
  /** the gate's word: 'passed', 'not gated' (cancels) or the refusal */
  gate: string;
  clientOrderId: string | null;
  outcome: AuditOutcome;
  /** the exchange's answer in short, or the error */
  answer: string;
  latencyMs: number | null;
}

export const AuditFilter = z
  .object({
    ticker: Ticker.optional(),
    action: z.string().regex(/^[a-z_]{1,30}$/).optional(),
    outcome: AuditOutcome.optional(),
    limit: z.number().int().min(1).max(5000).optional(),
  })
  .strict();
export type AuditFilter = z.infer<typeof AuditFilter>;
