// The catalog: what the exchange knows about its products that the matching engine does not.
// Series (fees, categories), events (titles, metadata, fee overrides, milestones), market
// metadata (titles, rules, times, multivariate legs), multivariate collections, structured
// targets and milestones. Plain JSON state changed only by the catalog module's commands
// (core/catalog-module.ts); the engine keeps prices, books, trades and lifecycle status.
//
// Historical cutoffs: data older than a cutoff is served only by /historical/*. The embedded
// exchange keeps 30 days live: every cutoff is the UTC midnight at or before (now - 30 days),
// so it advances once a day and is the same for every request within a day. See cutoffsAt.
import type { Engine } from '../engine/engine';
import type { FeeType, FillView, MarketView, OrderView, PositionView } from '../engine/types';
import type { PriceLevelStructure } from '../engine/price-levels';

export interface SettlementSourceRecord {
  name: string;
  url: string;
}

export interface SeriesRecord {
  ticker: string;
  title: string;
  category: string;
  categories: string[];
  tags: string[];
  frequency: string;
  settlement_sources: SettlementSourceRecord[];
  contract_url: string;
  contract_terms_url: string;
  product_metadata: Record<string, unknown> | null;
  additional_prohibitions: string[];
  fee_type: FeeType;
  /** Fee multiplier per 10,000 (1.0 = 10000): exact. */
  fee_multiplier_e4: number;
  created_ms: number;
  updated_ms: number;
}

export interface SeriesFeeChangeRecord {
  id: string;
  series_ticker: string;
  fee_type: FeeType;
  fee_multiplier_e4: number;
  effective_ms: number;
  /** Applied to the series and its markets (once effective). */
  applied: boolean;
  created_ms: number;
}

export interface MarketDetailRecord {
  market_ticker: string;
  image_url: string;
  color_code: string;
}

/** Numeric forecast of an event (percentile history): value = center + spread x z(percentile). */
export interface ForecastSpec {
  center: number;
  spread: number;
  /** Relative drift amplitude of the center over time (0.02 = 2%). */
  drift: number;
  decimals: number;
  unit: string;
}

export interface EventRecord {
  event_ticker: string;
  series_ticker: string;
  title: string;
  sub_title: string;
  category: string;
  mutually_exclusive: boolean;
  collateral_return_type: string;
  strike_date: string | null;
  strike_period: string | null;
  product_metadata: Record<string, unknown> | null;
  tags: string[];
  categories: string[];
  image_url: string;
  featured_image_url: string;
  /** null is kept (the wire sends null; readers treat it as []). */
  market_details: MarketDetailRecord[] | null;
  settlement_sources: SettlementSourceRecord[];
  competition: string | null;
  competition_scope: string | null;
  fee_type_override: FeeType | null;
  fee_multiplier_override_e4: number | null;
  /** Multivariate event: the collection it belongs to. */
  collection_ticker: string | null;
  /** Market tickers in creation order. */
  markets: string[];
  milestone_ids: string[];
  forecast: ForecastSpec | null;
  created_ms: number;
  updated_ms: number;
}

export interface EventFeeChangeRecord {
  id: string;
  event_ticker: string;
  series_ticker: string;
  fee_type_override: FeeType | null;
  fee_multiplier_override_e4: number | null;
  effective_ms: number;
}

export interface SelectedLegRecord {
  event_ticker: string;
  market_ticker: string;
  side: 'yes' | 'no';
}

export interface MarketMetaRecord {
  ticker: string;
  event_ticker: string;
  series_ticker: string;
  title: string;
  subtitle: string;
  yes_sub_title: string;
  no_sub_title: string;
  rules_primary: string;
  rules_secondary: string;
  open_ms: number;
  close_ms: number;
  expected_expiration_ms: number;
  latest_expiration_ms: number;
  can_close_early: boolean;
  settlement_timer_seconds: number;
  strike_type: string;
  floor_strike: number | null;
  cap_strike: number | null;
  image_url: string;
  color_code: string;
  /** The price grid the market was created with (the engine's market holds the same). */
  price_level_structure?: PriceLevelStructure;
  mve_collection_ticker: string | null;
  mve_selected_legs: SelectedLegRecord[] | null;
  created_ms: number;
  /** Non-trading changes only (metadata, lifecycle through the catalog). */
  updated_ms: number;
  /** set by a timed pause (the simulation's): resume at this time, even after a restart */
  resume_at_ms?: number | null;
}

export interface AssociatedEventRecord {
  ticker: string;
  is_yes_only: boolean;
  size_min: number | null;
  size_max: number | null;
}

export interface CollectionRecord {
  collection_ticker: string;
  series_ticker: string;
  title: string;
  description: string;
  open_ms: number;
  close_ms: number;
  associated_events: AssociatedEventRecord[];
  is_ordered: boolean;
  is_single_market_per_event: boolean;
  is_all_yes: boolean;
  size_min: number;
  size_max: number;
  functional_description: string;
  created_ms: number;
  updated_ms: number;
}

export interface StructuredTargetRecord {
  id: string;
  name: string;
  type: string;
  competition: string | null;
  details: Record<string, unknown>;
  source_id: string | null;
  source_ids: Record<string, string>;
  updated_ms: number;
}

export interface MilestoneRecord {
  id: string;
  category: string;
  type: string;
  title: string;
  notification_message: string;
  start_ms: number;
  end_ms: number | null;
  related_event_tickers: string[];
  primary_event_tickers: string[];
  details: Record<string, unknown>;
  source_id: string | null;
  updated_ms: number;
}

export interface CatalogState {
  series: Record<string, SeriesRecord>;
  seriesOrder: string[];
  seriesFeeChanges: SeriesFeeChangeRecord[];
  events: Record<string, EventRecord>;
  eventOrder: string[];
  eventFeeChanges: EventFeeChangeRecord[];
  markets: Record<string, MarketMetaRecord>;
  collections: Record<string, CollectionRecord>;
  collectionOrder: string[];
  structuredTargets: Record<string, StructuredTargetRecord>;
  structuredTargetOrder: string[];
  milestones: Record<string, MilestoneRecord>;
  milestoneOrder: string[];
}

export function emptyCatalog(): CatalogState {
  return {
    series: {},
    seriesOrder: [],
    seriesFeeChanges: [],
    events: {},
    eventOrder: [],
    eventFeeChanges: [],
    markets: {},
    collections: {},
    collectionOrder: [],
    structuredTargets: {},
    structuredTargetOrder: [],
    milestones: {},
    milestoneOrder: [],
  };
}

export const CATALOG = 'catalog';

// ---- fees ------------------------------------------------------------------------------------

export const FEE_TYPES: readonly FeeType[] = ['quadratic', 'quadratic_with_maker_fees'];
export const MAX_FEE_MULTIPLIER_E4 = 1_000_000;

/** Exact decimal text of an integer scaled by 10^-decimals, without trailing zeros ("1", "0.5"). */
export function scaledText(value: number, decimals: number): string {
  const neg = value < 0;
  const digits = String(Math.abs(value)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? '.' + frac : ''}`;
}

/** Fee multiplier text: 10000 -> "1", 5000 -> "0.5", 12500 -> "1.25". */
export function multiplierText(e4: number): string {
  return scaledText(e4, 4);
}

/**
 * A fee multiplier as the SDK types it (a JSON number) where the spec gives no type: series fee
 * changes and event overrides. At most 4 decimals, so the JSON text is the exact decimal
 * (12500 -> 1.25); readers take it as decimal text, never as a float to compute with.
 */
export function multiplierNumber(e4: number): number {
  return e4 / 10_000;
}

/** "1.25" -> 12500; undefined when malformed, finer than 0.0001 or above 100. */
export function parseMultiplier(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^\d{1,3}(?:\.\d{1,4})?$/.test(text)) return undefined;
  const [w, f = ''] = text.split('.');
  const e4 = Number(w) * 10_000 + Number((f + '0000').slice(0, 4));
  return e4 <= MAX_FEE_MULTIPLIER_E4 ? e4 : undefined;
}

/** Taker rate 0.07 x multiplier, exact ("0.07" at 1.0). */
export function takerFeeText(e4: number): string {
  return scaledText(7 * e4, 6);
}

/** Maker rate 0.0175 x multiplier when the fee type charges makers, else "0". */
export function makerFeeText(feeType: FeeType, e4: number): string {
  return feeType === 'quadratic_with_maker_fees' ? scaledText(175 * e4, 8) : '0';
}

/** The fee a market of this event pays: the event override while set, else the series'. */
export function effectiveFee(cat: CatalogState, eventTicker: string): { feeType: FeeType; feeMultiplierE4: number } | undefined {
  const ev = cat.events[eventTicker];
  if (!ev) return undefined;
  const series = cat.series[ev.series_ticker];
  if (!series) return undefined;
  if (ev.fee_type_override !== null && ev.fee_multiplier_override_e4 !== null) {
    return { feeType: ev.fee_type_override, feeMultiplierE4: ev.fee_multiplier_override_e4 };
  }
  return { feeType: series.fee_type, feeMultiplierE4: series.fee_multiplier_e4 };
}

// ---- historical cutoffs ------------------------------------------------------------------------

export const LIVE_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Cutoffs {
  /** Markets settled before this (ms) are archived. */
  marketSettledMs: number;
  /** Trades and fills created before this are archived. */
  tradesCreatedMs: number;
  /** Orders (not resting) last updated before this are archived. */
  ordersUpdatedMs: number;
  /** Settled positions of events archived before this are archived. */
  positionsUpdatedMs: number;
}

/** Every cutoff is UTC midnight at or before now - 30 days (it advances daily). */
export function cutoffsAt(nowMs: number): Cutoffs {
  const t = Math.floor((nowMs - LIVE_WINDOW_DAYS * DAY_MS) / DAY_MS) * DAY_MS;
  return { marketSettledMs: t, tradesCreatedMs: t, ordersUpdatedMs: t, positionsUpdatedMs: t };
}

/** A market settled before the cutoff lives only in the historical archive. */
export function isArchivedMarket(m: Pick<MarketView, 'status' | 'settled_ms'>, cut: Cutoffs): boolean {
  return m.status === 'settled' && m.settled_ms > 0 && m.settled_ms < cut.marketSettledMs;
}

/** Every market of an event, as the engine lists them (creation order). */
export function eventMarkets(engine: Engine, eventTicker: string): MarketView[] {
  return engine.listMarkets({ eventTicker });
}

/**
 * Positions move to the archive per whole event: once every market of the event settled,
 * the last of them before the cutoff.
 */
export function isArchivedPositionMarket(engine: Engine, ticker: string, cut: Cutoffs): boolean {
  const m = engine.getMarket(ticker);
  if (!m) return false;
  let last = 0;
  for (const mm of eventMarkets(engine, m.event_ticker)) {
    if (mm.status !== 'settled') return false;
    last = Math.max(last, mm.settled_ms);
  }
  return last > 0 && last < cut.positionsUpdatedMs;
}

/**
 * The live side of the split; the historical routes serve exactly the complement, so every
 * fill, order and settled position is on one side at a given request time.
 */
export function isLiveFill(f: Pick<FillView, 'ts'>, cut: Cutoffs): boolean {
  return f.ts >= cut.tradesCreatedMs;
}

/** A resting order is always live; a finished one until its last update falls behind the cutoff. */
export function isLiveOrder(o: Pick<OrderView, 'status' | 'last_update_time'>, cut: Cutoffs): boolean {
  return o.status === 'resting' || o.last_update_time >= cut.ordersUpdatedMs;
}

/** Unsettled positions stay live; a settled one leaves once its whole event is archived. */
export function isLivePosition(engine: Engine, p: Pick<PositionView, 'settled' | 'ticker'>, cut: Cutoffs): boolean {
  return !p.settled || !isArchivedPositionMarket(engine, p.ticker, cut);
}

// ---- derived reads ---------------------------------------------------------------------------------

export type EventStatus = 'unopened' | 'open' | 'closed' | 'settled';

/** Event status from its markets: all unopened -> unopened; all settled -> settled; none trading -> closed. */
export function eventStatusOf(statuses: readonly MarketView['status'][]): EventStatus {
  if (statuses.length === 0 || statuses.every((s) => s === 'unopened')) return 'unopened';
  if (statuses.every((s) => s === 'settled')) return 'settled';
  if (statuses.some((s) => s === 'open' || s === 'paused' || s === 'unopened')) return 'open';
  return 'closed';
}

/** Last non-trading change of a market: catalog edits and engine lifecycle times. */
export function marketUpdatedMs(m: MarketView, meta: MarketMetaRecord | undefined): number {
  return Math.max(m.created_ms, m.determined_ms, m.settled_ms, meta?.updated_ms ?? 0);
}

/** Close time of a market in ms (catalog first, then the engine's seconds). */
export function marketCloseMs(m: MarketView, meta: MarketMetaRecord | undefined): number {
  return meta?.close_ms ?? m.close_time * 1000;
}

export function collectionStatus(c: CollectionRecord, nowMs: number): 'unopened' | 'open' | 'closed' {
  if (nowMs < c.open_ms) return 'unopened';
  if (nowMs >= c.close_ms) return 'closed';
  return 'open';
}
