// Inputs of the catalog commands and their checks. A command is checked completely before the
// module touches state, so a bad one is rejected with nothing changed. Each `read*` returns the
// record to store or a message saying what is wrong.
import type { FeeType } from '../engine/types';
import { isPriceLevelStructure, PRICE_LEVEL_STRUCTURES, type PriceLevelStructure } from '../../src-shared/price-ranges';
import {
  FEE_TYPES,
  parseMultiplier,
  type AssociatedEventRecord,
  type CollectionRecord,
  type EventRecord,
  type ForecastSpec,
  type MarketDetailRecord,
  type MarketMetaRecord,
  type MilestoneRecord,
  type SeriesRecord,
  type SettlementSourceRecord,
  type StructuredTargetRecord,
} from './catalog';

export class InputError extends Error {}

type Obj = Record<string, unknown>;

function fail(message: string): never {
  throw new InputError(message);
}

function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} must be an object`);
  return v as Obj;
}

export function ticker(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 128 || /[\s,]/.test(v)) fail(`${what} must be a ticker (1-128 characters, no spaces or commas)`);
  return v;
}

function str(v: unknown, what: string, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || v.length > 4000) fail(`${what} must be a string`);
  return v;
}

function strOrNull(v: unknown, what: string): string | null {
  return v === undefined || v === null ? null : str(v, what);
}

function strList(v: unknown, what: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 1000 || !v.every((x) => typeof x === 'string')) fail(`${what} must be a list of strings`);
  return [...(v as string[])];
}

function bool(v: unknown, what: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') fail(`${what} must be a boolean`);
  return v;
}

export function ms(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(`${what} must be a non-negative integer (ms)`);
  return v;
}

function intOrNull(v: unknown, what: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(`${what} must be a non-negative integer`);
  return v;
}

function numOrNull(v: unknown, what: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${what} must be a number`);
  return v;
}

function json(v: unknown, what: string): Record<string, unknown> {
  if (v === undefined) return {};
  const o = obj(v, what);
  // plain JSON only: a snapshot must round-trip it
  return JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
}

function jsonOrNull(v: unknown, what: string): Record<string, unknown> | null {
  return v === undefined || v === null ? null : json(v, what);
}

export function feeType(v: unknown, what: string): FeeType {
  if (!FEE_TYPES.includes(v as FeeType)) fail(`${what} must be one of ${FEE_TYPES.join(', ')}`);
  return v as FeeType;
}

export function multiplier(v: unknown, what: string): number {
  const e4 = parseMultiplier(v);
  if (e4 === undefined) fail(`${what} must be a decimal string 0-100 with at most 4 decimals`);
  return e4;
}

function sources(v: unknown, what: string): SettlementSourceRecord[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(`${what} must be a list`);
  return v.map((s, i) => {
    const o = obj(s, `${what}[${i}]`);
    return { name: str(o.name, `${what}[${i}].name`), url: str(o.url, `${what}[${i}].url`, '') };
  });
}

export type SeriesInput = Omit<SeriesRecord, 'fee_multiplier_e4' | 'created_ms' | 'updated_ms'> & { fee_multiplier: string };

export function readSeries(v: unknown, nowMs: number, prior: SeriesRecord | undefined): SeriesRecord {
  const o = obj(v, 'series');
  return {
    ticker: ticker(o.ticker, 'series.ticker'),
    title: str(o.title, 'series.title'),
    category: str(o.category, 'series.category'),
    categories: strList(o.categories, 'series.categories'),
    tags: strList(o.tags, 'series.tags'),
    frequency: str(o.frequency, 'series.frequency', 'custom'),
    settlement_sources: sources(o.settlement_sources, 'series.settlement_sources'),
    contract_url: str(o.contract_url, 'series.contract_url', ''),
    contract_terms_url: str(o.contract_terms_url, 'series.contract_terms_url', ''),
    product_metadata: jsonOrNull(o.product_metadata, 'series.product_metadata'),
    additional_prohibitions: strList(o.additional_prohibitions, 'series.additional_prohibitions'),
    fee_type: feeType(o.fee_type, 'series.fee_type'),
    fee_multiplier_e4: multiplier(o.fee_multiplier, 'series.fee_multiplier'),
    created_ms: prior?.created_ms ?? nowMs,
    updated_ms: nowMs,
  };
}

export type EventInput = Partial<Omit<EventRecord, 'markets' | 'fee_type_override' | 'fee_multiplier_override_e4' | 'created_ms' | 'updated_ms'>> &
  Pick<EventRecord, 'event_ticker' | 'series_ticker' | 'title'>;

function forecast(v: unknown): ForecastSpec | null {
  if (v === undefined || v === null) return null;
  const o = obj(v, 'event.forecast');
  const n = (x: unknown, what: string) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(`event.forecast.${what} must be a number`);
    return x;
  };
  const decimals = n(o.decimals, 'decimals');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 8) fail('event.forecast.decimals must be 0-8');
  return { center: n(o.center, 'center'), spread: n(o.spread, 'spread'), drift: n(o.drift, 'drift'), decimals, unit: str(o.unit, 'event.forecast.unit', '') };
}

function marketDetails(v: unknown): MarketDetailRecord[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) fail('event.market_details must be a list or null');
  return v.map((d, i) => {
    const o = obj(d, `event.market_details[${i}]`);
    return {
      market_ticker: ticker(o.market_ticker, `event.market_details[${i}].market_ticker`),
      image_url: str(o.image_url, 'image_url', ''),
      color_code: str(o.color_code, 'color_code', ''),
    };
  });
}

export function readEvent(v: unknown, nowMs: number, prior: EventRecord | undefined): EventRecord {
  const o = obj(v, 'event');
  const milestoneIds = strList(o.milestone_ids, 'event.milestone_ids');
  return {
    event_ticker: ticker(o.event_ticker, 'event.event_ticker'),
    series_ticker: ticker(o.series_ticker, 'event.series_ticker'),
    title: str(o.title, 'event.title'),
    sub_title: str(o.sub_title, 'event.sub_title', ''),
    category: str(o.category, 'event.category', ''),
    mutually_exclusive: bool(o.mutually_exclusive, 'event.mutually_exclusive', false),
    collateral_return_type: str(o.collateral_return_type, 'event.collateral_return_type', ''),
    strike_date: strOrNull(o.strike_date, 'event.strike_date'),
    strike_period: strOrNull(o.strike_period, 'event.strike_period'),
    product_metadata: jsonOrNull(o.product_metadata, 'event.product_metadata'),
    tags: strList(o.tags, 'event.tags'),
    categories: strList(o.categories, 'event.categories'),
    image_url: str(o.image_url, 'event.image_url', ''),
    featured_image_url: str(o.featured_image_url, 'event.featured_image_url', ''),
    market_details: marketDetails(o.market_details),
    settlement_sources: sources(o.settlement_sources, 'event.settlement_sources'),
    competition: strOrNull(o.competition, 'event.competition'),
    competition_scope: strOrNull(o.competition_scope, 'event.competition_scope'),
    fee_type_override: prior?.fee_type_override ?? null,
    fee_multiplier_override_e4: prior?.fee_multiplier_override_e4 ?? null,
    collection_ticker: o.collection_ticker === undefined || o.collection_ticker === null ? (prior?.collection_ticker ?? null) : ticker(o.collection_ticker, 'event.collection_ticker'),
    markets: prior ? [...prior.markets] : [],
    milestone_ids: milestoneIds.length > 0 || !prior ? milestoneIds : [...prior.milestone_ids],
    forecast: o.forecast === undefined && prior ? prior.forecast : forecast(o.forecast),
    created_ms: prior?.created_ms ?? nowMs,
    updated_ms: nowMs,
  };
}

export type MarketInput = Partial<Omit<MarketMetaRecord, 'series_ticker' | 'created_ms' | 'updated_ms' | 'mve_collection_ticker' | 'mve_selected_legs'>> &
  Pick<MarketMetaRecord, 'ticker' | 'event_ticker' | 'open_ms' | 'close_ms'>;

/** A market's price level structure; whole cents (the service's usual) when not given. */
function priceLevels(v: unknown): PriceLevelStructure {
  if (v === undefined || v === null) return 'linear_cent';
  if (!isPriceLevelStructure(v)) fail(`market.price_level_structure must be one of ${Object.keys(PRICE_LEVEL_STRUCTURES).join(', ')}`);
  return v;
}

export function readMarket(v: unknown, seriesTicker: string, nowMs: number): MarketMetaRecord {
  const o = obj(v, 'market');
  const open = ms(o.open_ms, 'market.open_ms');
  const close = ms(o.close_ms, 'market.close_ms');
  if (close < open) fail('market.close_ms must not be before open_ms');
  const expected = o.expected_expiration_ms === undefined ? close : ms(o.expected_expiration_ms, 'market.expected_expiration_ms');
  const title = str(o.title, 'market.title', '');
  return {
    ticker: ticker(o.ticker, 'market.ticker'),
    event_ticker: ticker(o.event_ticker, 'market.event_ticker'),
    series_ticker: seriesTicker,
    title,
    subtitle: str(o.subtitle, 'market.subtitle', ''),
    yes_sub_title: str(o.yes_sub_title, 'market.yes_sub_title', title),
    no_sub_title: str(o.no_sub_title, 'market.no_sub_title', title),
    rules_primary: str(o.rules_primary, 'market.rules_primary', ''),
    rules_secondary: str(o.rules_secondary, 'market.rules_secondary', ''),
    open_ms: open,
    close_ms: close,
    expected_expiration_ms: expected,
    latest_expiration_ms: o.latest_expiration_ms === undefined ? expected + 7 * 86_400_000 : ms(o.latest_expiration_ms, 'market.latest_expiration_ms'),
    can_close_early: bool(o.can_close_early, 'market.can_close_early', false),
    settlement_timer_seconds: intOrNull(o.settlement_timer_seconds, 'market.settlement_timer_seconds') ?? 3600,
    strike_type: str(o.strike_type, 'market.strike_type', 'custom'),
    floor_strike: numOrNull(o.floor_strike, 'market.floor_strike'),
    cap_strike: numOrNull(o.cap_strike, 'market.cap_strike'),
    image_url: str(o.image_url, 'market.image_url', ''),
    color_code: str(o.color_code, 'market.color_code', ''),
    price_level_structure: priceLevels(o.price_level_structure),
    mve_collection_ticker: null,
    mve_selected_legs: null,
    created_ms: nowMs,
    updated_ms: nowMs,
  };
}

/** Text fields a metadata update may change. */
export const MARKET_TEXT_FIELDS = ['title', 'subtitle', 'yes_sub_title', 'no_sub_title', 'rules_primary', 'rules_secondary', 'image_url', 'color_code'] as const;

export function readMarketPatch(v: unknown): Partial<Pick<MarketMetaRecord, (typeof MARKET_TEXT_FIELDS)[number] | 'close_ms' | 'can_close_early'>> {
  const o = obj(v, 'patch');
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(o)) {
    if ((MARKET_TEXT_FIELDS as readonly string[]).includes(k)) out[k] = str(val, `patch.${k}`);
    else if (k === 'close_ms') out[k] = ms(val, 'patch.close_ms');
    else if (k === 'can_close_early') out[k] = bool(val, 'patch.can_close_early', false);
    else fail(`patch.${k} cannot be changed`);
  }
  if (Object.keys(out).length === 0) fail('patch changes nothing');
  return out;
}

export function readCollection(v: unknown, nowMs: number, prior: CollectionRecord | undefined): CollectionRecord {
  const o = obj(v, 'collection');
  if (!Array.isArray(o.associated_events) || o.associated_events.length === 0) fail('collection.associated_events must be a non-empty list');
  const associated: AssociatedEventRecord[] = o.associated_events.map((a, i) => {
    const e = obj(a, `collection.associated_events[${i}]`);
    return {
      ticker: ticker(e.ticker, `collection.associated_events[${i}].ticker`),
      is_yes_only: bool(e.is_yes_only, 'is_yes_only', false),
      size_min: intOrNull(e.size_min, 'size_min'),
      size_max: intOrNull(e.size_max, 'size_max'),
    };
  });
  const sizeMin = intOrNull(o.size_min, 'collection.size_min') ?? 2;
  const sizeMax = intOrNull(o.size_max, 'collection.size_max') ?? associated.length;
  if (sizeMin < 1 || sizeMax < sizeMin || sizeMax > associated.length) fail('collection sizes must satisfy 1 <= size_min <= size_max <= number of associated events');
  const open = ms(o.open_ms, 'collection.open_ms');
  const close = ms(o.close_ms, 'collection.close_ms');
  if (close <= open) fail('collection.close_ms must be after open_ms');
  return {
    collection_ticker: ticker(o.collection_ticker, 'collection.collection_ticker'),
    series_ticker: ticker(o.series_ticker, 'collection.series_ticker'),
    title: str(o.title, 'collection.title'),
    description: str(o.description, 'collection.description', ''),
    open_ms: open,
    close_ms: close,
    associated_events: associated,
    is_ordered: bool(o.is_ordered, 'collection.is_ordered', false),
    is_single_market_per_event: bool(o.is_single_market_per_event, 'collection.is_single_market_per_event', true),
    is_all_yes: bool(o.is_all_yes, 'collection.is_all_yes', false),
    size_min: sizeMin,
    size_max: sizeMax,
    functional_description: str(o.functional_description, 'collection.functional_description', ''),
    created_ms: prior?.created_ms ?? nowMs,
    updated_ms: nowMs,
  };
}

export function readLegs(v: unknown): { event_ticker: string; market_ticker: string; side: 'yes' | 'no' }[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > 100) fail('selected_markets must list 1-100 legs');
  return v.map((l, i) => {
    const o = obj(l, `selected_markets[${i}]`);
    const side = o.side === undefined ? 'yes' : o.side;
    if (side !== 'yes' && side !== 'no') fail(`selected_markets[${i}].side must be yes or no`);
    return { event_ticker: ticker(o.event_ticker, `selected_markets[${i}].event_ticker`), market_ticker: ticker(o.market_ticker, `selected_markets[${i}].market_ticker`), side };
  });
}

export function readStructuredTarget(v: unknown, nowMs: number): StructuredTargetRecord {
  const o = obj(v, 'structured_target');
  const sourceIds = json(o.source_ids, 'structured_target.source_ids');
  if (!Object.values(sourceIds).every((x) => typeof x === 'string')) fail('structured_target.source_ids values must be strings');
  return {
    id: ticker(o.id, 'structured_target.id'),
    name: str(o.name, 'structured_target.name'),
    type: str(o.type, 'structured_target.type'),
    competition: strOrNull(o.competition, 'structured_target.competition'),
    details: json(o.details, 'structured_target.details'),
    source_id: strOrNull(o.source_id, 'structured_target.source_id'),
    source_ids: sourceIds as Record<string, string>,
    updated_ms: nowMs,
  };
}

export function readMilestone(v: unknown, nowMs: number): MilestoneRecord {
  const o = obj(v, 'milestone');
  return {
    id: ticker(o.id, 'milestone.id'),
    category: str(o.category, 'milestone.category'),
    type: ticker(o.type, 'milestone.type'),
    title: str(o.title, 'milestone.title'),
    notification_message: str(o.notification_message, 'milestone.notification_message', ''),
    start_ms: ms(o.start_ms, 'milestone.start_ms'),
    end_ms: o.end_ms === undefined || o.end_ms === null ? null : ms(o.end_ms, 'milestone.end_ms'),
    related_event_tickers: strList(o.related_event_tickers, 'milestone.related_event_tickers'),
    primary_event_tickers: strList(o.primary_event_tickers, 'milestone.primary_event_tickers'),
    details: json(o.details, 'milestone.details'),
    source_id: strOrNull(o.source_id, 'milestone.source_id'),
    updated_ms: nowMs,
  };
}
