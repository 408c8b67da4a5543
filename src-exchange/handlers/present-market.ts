// Markets, trades, orderbooks, series and events as wire objects: the engine's live state
// (prices, book, volume, status) merged with the catalog's metadata, under the SDK's field
// names (`*_dollars` prices, `*_fp` counts, RFC 3339 times) as docs/spec/protocol-notes.md asks.
import type { z } from 'zod';
import type { Engine } from '../engine/engine';
import type { BookView, MarketView, TradeView } from '../engine/types';
import { centiToCount, microToDollars, ticksToDollars, TICKS_PER_DOLLAR } from '../engine/units';
import type { Market, Trade, Orderbook } from '../../src-shared/wire/markets';
import type { Event, Series } from '../../src-shared/wire/events';
import {
  makerFeeText,
  marketUpdatedMs,
  multiplierNumber,
  multiplierText,
  takerFeeText,
  type CatalogState,
  type EventRecord,
  type EventStatus,
  type SeriesRecord,
} from '../state/catalog';
import { indexAfter, type Tape } from './tape';
import { rangesOf } from '../../src-shared/price-ranges';

export type WireMarket = z.input<typeof Market>;
export type WireTrade = z.input<typeof Trade>;
export type WireSeries = z.input<typeof Series>;
export type WireEvent = z.input<typeof Event>;

const DAY_MS = 86_400_000;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const sec = (ms: number): number => Math.floor(ms / 1000);

/** Money of a book side: sum of price x count, in micro-dollars (ticks x centi = micro). */
function sideValue(levels: readonly [number, number][]): number {
  let v = 0;
  for (const [p, c] of levels) v += p * c;
  return v;
}

/**
 * What the tape says about a market 24 hours ago: last trade price, and the bid/ask seen
 * through the trades (a taker selling YES hit the best bid, a taker buying YES lifted the ask).
 */
function dayAgo(tape: Tape, nowMs: number): { volume24h: number; prevPrice: number; prevBid: number; prevAsk: number } {
  const cut = indexAfter(tape.trades, nowMs - DAY_MS);
  let prevBid = 0;
  let prevAsk = 0;
  const trades = tape.trades;
  for (let i = cut - 1; i >= 0 && (prevBid === 0 || prevAsk === 0); i--) {
    const ask = trades.takerAskAt(i);
    if (ask && prevBid === 0) prevBid = trades.yesPriceAt(i);
    if (!ask && prevAsk === 0) prevAsk = trades.yesPriceAt(i);
  }
  return {
    volume24h: tape.cum[tape.cum.length - 1]! - tape.cum[cut]!,
    prevPrice: cut > 0 ? trades.yesPriceAt(cut - 1) : 0,
    prevBid,
    prevAsk,
  };
}

export function presentMarket(engine: Engine, cat: CatalogState, m: MarketView, tape: Tape, nowMs: number): WireMarket {
  const meta = cat.markets[m.ticker];
  const book = engine.getBook(m.ticker, 0) ?? { ticker: m.ticker, yes: [], no: [] };
  const day = dayAgo(tape, nowMs);
  const settled = m.status === 'settled';
  const determined = settled || m.status === 'determined';
  const openMs = meta?.open_ms ?? m.open_time * 1000;
  const closeMs = meta?.close_ms ?? m.close_time * 1000;
  const expectedMs = meta?.expected_expiration_ms ?? closeMs;
  const title = meta?.title ?? m.title;
  const out: WireMarket = {
    ticker: m.ticker,
    event_ticker: m.event_ticker,
    series_ticker: m.series_ticker,
    market_type: 'binary',
    title,
    subtitle: meta?.subtitle ?? '',
    yes_sub_title: meta?.yes_sub_title ?? title,
    no_sub_title: meta?.no_sub_title ?? title,
    status: m.status,
    yes_bid_dollars: ticksToDollars(m.yes_bid),
    yes_ask_dollars: ticksToDollars(m.yes_ask),
    no_bid_dollars: ticksToDollars(m.no_bid),
    no_ask_dollars: ticksToDollars(m.no_ask),
    yes_bid_size_fp: centiToCount(book.yes[0]?.[1] ?? 0),
    yes_ask_size_fp: centiToCount(book.no[0]?.[1] ?? 0),
    last_price_dollars: ticksToDollars(m.last_price),
    previous_yes_bid_dollars: ticksToDollars(day.prevBid),
    previous_yes_ask_dollars: ticksToDollars(day.prevAsk),
    previous_price_dollars: ticksToDollars(day.prevPrice),
    volume_fp: centiToCount(m.volume),
    volume_24h_fp: centiToCount(day.volume24h),
    open_interest_fp: centiToCount(m.open_interest),
    notional_value_dollars: ticksToDollars(TICKS_PER_DOLLAR),
    liquidity_dollars: microToDollars(sideValue(book.yes) + sideValue(book.no)),
    // optional and not nullable in the SDK's Market: left out until there is a value
    ...(settled ? { settlement_value_dollars: ticksToDollars(m.result === 'yes' ? TICKS_PER_DOLLAR : 0) } : {}),
    result: m.result,
    can_close_early: meta?.can_close_early ?? false,
    created_time: iso(m.created_ms),
    updated_time: iso(marketUpdatedMs(m, meta)),
    open_time: iso(openMs),
    close_time: iso(closeMs),
    expected_expiration_time: iso(expectedMs),
    ...(determined ? { expiration_time: iso(m.determined_ms || expectedMs) } : {}),
    latest_expiration_time: iso(meta?.latest_expiration_ms ?? expectedMs + 7 * DAY_MS),
    settlement_ts: settled ? iso(m.settled_ms) : null,
    settlement_timer_seconds: meta?.settlement_timer_seconds ?? 3600,
    expiration_value: determined ? m.result : '',
    strike_type: meta?.strike_type ?? 'custom',
    floor_strike: meta?.floor_strike ?? null,
    cap_strike: meta?.cap_strike ?? null,
    rules_primary: meta?.rules_primary ?? '',
    rules_secondary: meta?.rules_secondary ?? '',
    price_level_structure: m.price_level_structure,
    price_ranges: rangesOf(m.price_level_structure).map((r) => ({ ...r })),
    is_provisional: false,
    fee_type: m.fee_type,
    fee_multiplier: multiplierText(m.fee_multiplier),
    exchange_index: 0,
  };
  if (meta?.mve_collection_ticker) {
    out.mve_collection_ticker = meta.mve_collection_ticker;
    out.mve_selected_legs = (meta.mve_selected_legs ?? []).map((l) => ({ ...l }));
  }
  return out;
}

export function presentTrade(t: TradeView): WireTrade {
  return {
    trade_id: t.trade_id,
    ticker: t.ticker,
    yes_price_dollars: ticksToDollars(t.yes_price),
    no_price_dollars: ticksToDollars(t.no_price),
    count_fp: centiToCount(t.count),
    taker_side: t.taker_side,
    taker_outcome_side: t.taker_side,
    taker_book_side: t.taker_book_side,
    is_block_trade: t.is_block_trade,
    created_time: iso(t.created_time),
    ts: sec(t.created_time),
  };
}

/** The REST book: YES bids and NO bids, best first, `[price_dollars, count_fp]`. */
export function presentBook(b: BookView): z.input<typeof Orderbook> {
  return {
    yes_dollars: b.yes.map(([p, c]) => [ticksToDollars(p), centiToCount(c)]),
    no_dollars: b.no.map(([p, c]) => [ticksToDollars(p), centiToCount(c)]),
  };
}

export function presentSeries(s: SeriesRecord, opts: { productMetadata?: boolean; volumeCenti?: number }): WireSeries {
  return {
    ticker: s.ticker,
    title: s.title,
    category: s.category,
    categories: [...s.categories],
    tags: [...s.tags],
    frequency: s.frequency,
    settlement_sources: s.settlement_sources.map((x) => ({ ...x })),
    contract_url: s.contract_url,
    contract_terms_url: s.contract_terms_url,
    ...(opts.productMetadata ? { product_metadata: s.product_metadata } : {}),
    fee_type: s.fee_type,
    fee_multiplier: multiplierText(s.fee_multiplier_e4),
    taker_fee: takerFeeText(s.fee_multiplier_e4),
    maker_fee: makerFeeText(s.fee_type, s.fee_multiplier_e4),
    additional_prohibitions: [...s.additional_prohibitions],
    ...(opts.volumeCenti !== undefined ? { volume_fp: centiToCount(opts.volumeCenti) } : {}),
    last_updated_ts: sec(s.updated_ms),
    exchange_index: 0,
  };
}

export function presentEvent(ev: EventRecord, status: EventStatus, markets?: WireMarket[]): WireEvent {
  return {
    event_ticker: ev.event_ticker,
    series_ticker: ev.series_ticker,
    title: ev.title,
    sub_title: ev.sub_title,
    status,
    category: ev.category,
    mutually_exclusive: ev.mutually_exclusive,
    collateral_return_type: ev.collateral_return_type,
    strike_date: ev.strike_date,
    strike_period: ev.strike_period,
    product_metadata: ev.product_metadata,
    settlement_sources: ev.settlement_sources.map((x) => ({ ...x })),
    last_updated_ts: sec(ev.updated_ms),
    // both keys always present; both null = no override (the series fee applies)
    fee_type_override: ev.fee_type_override,
    fee_multiplier_override: ev.fee_multiplier_override_e4 === null ? null : multiplierNumber(ev.fee_multiplier_override_e4),
    ...(ev.collection_ticker ? { collection_ticker: ev.collection_ticker } : {}),
    exchange_index: 0,
    ...(markets ? { markets } : {}),
  };
}
