// Markets, orderbooks, candlesticks and trades. Field names are the wire names (`*_dollars`,
// `*_fp`); where the spec and the SDK disagree the output uses the spec's form (see protocol notes).
import { z } from 'zod';
import { CountIn, CountText, DollarsIn, ExchangeIndex, listOf, nullableArray, pageOf, pick, UnixTs } from './common';
import { openEnum } from './novelty';

/**
 * Market status: the spec's `open`, `paused`, `settled` (and the list filter's `unopened`, `closed`)
 * plus the SDK's lifecycle values. The set is open on the real exchange; these are all values seen.
 */
export const MarketStatus = z.enum([
  'unopened',
  'initialized',
  'inactive',
  'active',
  'open',
  'paused',
  'closed',
  'determined',
  'disputed',
  'amended',
  'finalized',
  'settled',
]);
export type MarketStatus = z.output<typeof MarketStatus>;

/** The `status` filter of GET /markets. */
export const MarketStatusFilter = z.enum(['unopened', 'open', 'paused', 'closed', 'settled']);

export const PriceRange = z.object({ start: DollarsIn, end: DollarsIn, step: DollarsIn }).loose();

export const MveSelectedLeg = z
  .object({
    event_ticker: z.string().optional(),
    market_ticker: z.string().optional(),
    side: z.string().optional(),
    yes_settlement_value_dollars: DollarsIn.optional(),
  })
  .loose();

/** A market. Spec names `ticker`, `status`, `yes_bid`, `yes_ask`, `volume`; the rest is the SDK's model. */
export const Market = z
  .object({
    ticker: z.string().min(1),
    event_ticker: z.string(),
    market_type: openEnum('market.market_type', ['binary', 'scalar']).optional(),
    title: z.string().optional(),
    subtitle: z.string().optional(),
    yes_sub_title: z.string().optional(),
    no_sub_title: z.string().optional(),
    status: openEnum('market.status', MarketStatus.options),
    yes_bid_dollars: DollarsIn,
    yes_ask_dollars: DollarsIn,
    no_bid_dollars: DollarsIn.optional(),
    no_ask_dollars: DollarsIn.optional(),
    yes_bid_size_fp: CountIn.optional(),
    yes_ask_size_fp: CountIn.optional(),
    last_price_dollars: DollarsIn.optional(),
    previous_yes_bid_dollars: DollarsIn.optional(),
    previous_yes_ask_dollars: DollarsIn.optional(),
    previous_price_dollars: DollarsIn.optional(),
    volume_fp: CountIn,
    volume_24h_fp: CountIn.optional(),
    open_interest_fp: CountIn.optional(),
    notional_value_dollars: DollarsIn.optional(),
    liquidity_dollars: DollarsIn.optional(),
    settlement_value_dollars: DollarsIn.nullish(),
    result: openEnum('market.result', ['yes', 'no', 'scalar', '']).optional(),
    can_close_early: z.boolean().optional(),
    created_time: z.string().optional(),
    updated_time: z.string().optional(),
    open_time: z.string().optional(),
    close_time: z.string().optional(),
    expected_expiration_time: z.string().nullish(),
    expiration_time: z.string().nullish(),
    latest_expiration_time: z.string().optional(),
    settlement_ts: z.string().nullish(),
    settlement_timer_seconds: z.number().int().optional(),
    expiration_value: z.string().optional(),
    occurrence_datetime: z.string().nullish(),
    fee_waiver_expiration_time: z.string().nullish(),
    early_close_condition: z.string().nullish(),
    strike_type: z.string().optional(),
    floor_strike: z.number().nullish(),
    cap_strike: z.number().nullish(),
    functional_strike: z.string().nullish(),
    custom_strike: z.record(z.string(), z.unknown()).nullish(),
    rules_primary: z.string().optional(),
    rules_secondary: z.string().optional(),
    mve_collection_ticker: z.string().optional(),
    mve_selected_legs: nullableArray(MveSelectedLeg).optional(),
    primary_participant_key: z.string().nullish(),
    price_level_structure: z.string().optional(),
    price_ranges: nullableArray(PriceRange).optional(),
    is_provisional: z.boolean().optional(),
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type Market = z.output<typeof Market>;

export const MarketResponse = z.object({ market: Market });
export const MarketsPage = pageOf('markets', Market);
export type MarketsPage = z.output<typeof MarketsPage>;

/** One level: `[price_dollars, count_fp]` as strings. */
export const OrderbookLevel = z.tuple([DollarsIn, CountIn]);
export type OrderbookLevel = z.output<typeof OrderbookLevel>;

/**
 * The book as sent: YES bids in `yes_dollars`, NO bids in `no_dollars` (a NO bid at p is a YES ask
 * at 1 - p). A missing or null side reads as empty. Sort defensively: the real exchange lists levels
 * ascending while the spec says best first.
 */
export const Orderbook = z
  .object({
    yes_dollars: nullableArray(OrderbookLevel),
    no_dollars: nullableArray(OrderbookLevel),
  })
  .loose();
export type Orderbook = z.output<typeof Orderbook>;

export const OrderbookResponse = z.object({ orderbook_fp: Orderbook });
export type OrderbookResponse = z.output<typeof OrderbookResponse>;

/** Bulk entry: spec `market_ticker`, SDK `ticker`; the output always has `market_ticker`. */
export const MarketOrderbook = z
  .object({ market_ticker: z.string().optional(), ticker: z.string().optional(), orderbook_fp: Orderbook })
  .loose()
  .transform((e, ctx) => ({ ...e, market_ticker: pick(ctx, 'market_ticker (or the SDK ticker)', e.market_ticker, e.ticker) }));
export type MarketOrderbook = z.output<typeof MarketOrderbook>;

/** GET /markets/orderbooks: `{ orderbooks: [...] }` (a bare array is read too). */
export const OrderbooksResponse = listOf('orderbooks', MarketOrderbook);
export type OrderbooksResponse = z.output<typeof OrderbooksResponse>;

/**
 * OHLC of a bid or ask over a candle. Live candles name the fields `open_dollars`...; historical
 * candles `open`...; both read to the `_dollars` names.
 */
const Ohlc = z
  .object({
    open_dollars: DollarsIn.nullish(),
    low_dollars: DollarsIn.nullish(),
    high_dollars: DollarsIn.nullish(),
    close_dollars: DollarsIn.nullish(),
    open: DollarsIn.nullish(),
    low: DollarsIn.nullish(),
    high: DollarsIn.nullish(),
    close: DollarsIn.nullish(),
  })
  .loose()
  .transform(({ open, low, high, close, open_dollars, low_dollars, high_dollars, close_dollars, ...rest }) => ({
    ...rest,
    open_dollars: open_dollars ?? open ?? null,
    low_dollars: low_dollars ?? low ?? null,
    high_dollars: high_dollars ?? high ?? null,
    close_dollars: close_dollars ?? close ?? null,
  }));

/** Trade prices over a candle; every field null when nothing traded. */
const PriceOhlc = z
  .object({
    open_dollars: DollarsIn.nullish(),
    low_dollars: DollarsIn.nullish(),
    high_dollars: DollarsIn.nullish(),
    close_dollars: DollarsIn.nullish(),
    mean_dollars: DollarsIn.nullish(),
    previous_dollars: DollarsIn.nullish(),
    min_dollars: DollarsIn.nullish(),
    max_dollars: DollarsIn.nullish(),
    open: DollarsIn.nullish(),
    low: DollarsIn.nullish(),
    high: DollarsIn.nullish(),
    close: DollarsIn.nullish(),
    mean: DollarsIn.nullish(),
    previous: DollarsIn.nullish(),
  })
  .loose()
  .transform(({ open, low, high, close, mean, previous, ...r }) => ({
    ...r,
    open_dollars: r.open_dollars ?? open ?? null,
    low_dollars: r.low_dollars ?? low ?? null,
    high_dollars: r.high_dollars ?? high ?? null,
    close_dollars: r.close_dollars ?? close ?? null,
    mean_dollars: r.mean_dollars ?? mean ?? null,
    previous_dollars: r.previous_dollars ?? previous ?? null,
  }));

/** One candle. Historical candles say `volume` / `open_interest`; output `volume_fp` / `open_interest_fp`. */
export const Candlestick = z
  .object({
    end_period_ts: UnixTs,
    yes_bid: Ohlc,
    yes_ask: Ohlc,
    price: PriceOhlc.optional(),
    volume_fp: CountIn.optional(),
    open_interest_fp: CountIn.optional(),
    volume: CountText.optional(),
    open_interest: CountText.optional(),
  })
  .loose()
  .transform(({ volume, open_interest, ...c }) => ({
    ...c,
    volume_fp: c.volume_fp ?? volume ?? '0',
    open_interest_fp: c.open_interest_fp ?? open_interest ?? '0',
  }));
export type Candlestick = z.output<typeof Candlestick>;

/** GET /series/{s}/markets/{t}/candlesticks and the historical form: `{ ticker, candlesticks }`. */
export const CandlesticksResponse = z.object({ ticker: z.string().optional(), candlesticks: nullableArray(Candlestick) });
export type CandlesticksResponse = z.output<typeof CandlesticksResponse>;

export const MarketCandlesticks = z
  .object({ market_ticker: z.string().optional(), ticker: z.string().optional(), candlesticks: nullableArray(Candlestick) })
  .loose()
  .transform((e, ctx) => ({ ...e, market_ticker: pick(ctx, 'market_ticker', e.market_ticker, e.ticker) }));
export type MarketCandlesticks = z.output<typeof MarketCandlesticks>;

/**
 * GET /markets/candlesticks: spec a bare array of `{market_ticker, candlesticks}`, SDK `{ markets: [...] }`.
 * Output: `{ markets: [...] }`.
 */
export const BulkCandlesticksResponse = listOf('markets', MarketCandlesticks);
export type BulkCandlesticksResponse = z.output<typeof BulkCandlesticksResponse>;

/** A public trade. Spec names `trade_id`, `taker_side`, `yes_price`, `count`, `is_block_trade`. */
export const Trade = z
  .object({
    trade_id: z.string().min(1),
    ticker: z.string().min(1),
    yes_price_dollars: DollarsIn,
    no_price_dollars: DollarsIn.optional(),
    count_fp: CountIn,
    taker_side: openEnum('trade.taker_side', ['yes', 'no', 'bid', 'ask']).optional(),
    taker_outcome_side: openEnum('trade.taker_outcome_side', ['yes', 'no']).optional(),
    taker_book_side: openEnum('trade.taker_book_side', ['bid', 'ask']).optional(),
    is_block_trade: z.boolean().optional(),
    created_time: z.string().optional(),
    ts: UnixTs.optional(),
  })
  .loose();
export type Trade = z.output<typeof Trade>;

export const TradesPage = pageOf('trades', Trade);
export type TradesPage = z.output<typeof TradesPage>;
