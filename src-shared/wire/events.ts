// Series, events, event metadata, fee changes, multivariate collections, structured targets and
// forecast percentile history.
import { z } from 'zod';
import { CountIn, DecimalText, ExchangeIndex, listOf, nullableArray, pageOf, pick, Ticker, UnixTs, withInput } from './common';
import { openEnum } from './novelty';
import { Candlestick, Market } from './markets';

export const FeeType = z.enum(['quadratic', 'quadratic_with_maker_fees', 'quadratic_with_combo_maker_fees', 'flat']);
export type FeeType = z.output<typeof FeeType>;

export const SettlementSource = z.object({ name: z.string().optional(), url: z.string().optional() }).loose();

/** A series. `fee_multiplier` is exact: read as decimal text whether sent as a string or a JSON number. */
export const Series = z
  .object({
    ticker: z.string().min(1),
    title: z.string(),
    category: z.string(),
    categories: nullableArray(z.string()),
    tags: nullableArray(z.string()),
    frequency: z.string().optional(),
    settlement_sources: nullableArray(SettlementSource),
    contract_url: z.string().optional(),
    contract_terms_url: z.string().optional(),
    product_metadata: z.record(z.string(), z.unknown()).nullish(),
    fee_type: openEnum('fee_type', FeeType.options).optional(),
    fee_multiplier: DecimalText,
    additional_prohibitions: nullableArray(z.string()),
    volume_fp: CountIn.optional(),
    last_updated_ts: UnixTs.optional(),
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type Series = z.output<typeof Series>;

export const SeriesResponse = z.object({ series: Series });

/** GET /series: spec a bare array, SDK `{ series: [...] }`. Output `{ series: [...] }`. */
export const SeriesListResponse = listOf('series', Series);
export type SeriesListResponse = z.output<typeof SeriesListResponse>;

/**
 * A scheduled series fee change. Spec: `effective_ts`, `maker_fee`, `taker_fee`; the SDK:
 * `id`, `series_ticker`, `fee_type`, `fee_multiplier`, `scheduled_ts`. Output carries `effective_ts`
 * (from either) and whatever else was sent.
 */
export const SeriesFeeChange = z
  .object({
    id: z.string().optional(),
    series_ticker: z.string().optional(),
    effective_ts: UnixTs.optional(),
    scheduled_ts: UnixTs.optional(),
    maker_fee: DecimalText.nullish(),
    taker_fee: DecimalText.nullish(),
    fee_type: openEnum('fee_type', FeeType.options).optional(),
    fee_multiplier: DecimalText.optional(),
  })
  .loose()
  .transform((f, ctx) => ({ ...f, effective_ts: pick(ctx, 'effective_ts (or the SDK scheduled_ts)', f.effective_ts, f.scheduled_ts) }));
export type SeriesFeeChange = z.output<typeof SeriesFeeChange>;

/** GET /series/fee_changes: spec a bare array, SDK `{ series_fee_change_arr }`. Output the SDK envelope. */
export const SeriesFeeChangesResponse = listOf('series_fee_change_arr', SeriesFeeChange);
export type SeriesFeeChangesResponse = z.output<typeof SeriesFeeChangesResponse>;

/** Event status: no `paused` (that is a market status). */
export const EventStatus = z.enum(['unopened', 'open', 'closed', 'settled']);
export type EventStatus = z.output<typeof EventStatus>;

export const Event = z
  .object({
    event_ticker: z.string().min(1),
    series_ticker: z.string().optional(),
    title: z.string(),
    sub_title: z.string().optional(),
    status: openEnum('event.status', EventStatus.options).optional(),
    collateral_return_type: z.string().optional(),
    mutually_exclusive: z.boolean().optional(),
    category: z.string().optional(),
    strike_date: z.string().nullish(),
    strike_period: z.string().nullish(),
    /** only with `with_nested_markets=true` */
    markets: z.array(Market).nullish(),
    product_metadata: z.record(z.string(), z.unknown()).nullish(),
    settlement_sources: nullableArray(SettlementSource),
    last_updated_ts: UnixTs.optional(),
    fee_type_override: z.string().nullish(),
    fee_multiplier_override: DecimalText.nullish(),
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type Event = z.output<typeof Event>;

export const Milestone = z
  .object({
    id: z.string(),
    category: z.string().optional(),
    type: z.string().optional(),
    title: z.string().optional(),
    start_date: z.string().optional(),
    end_date: z.string().nullish(),
    related_event_tickers: nullableArray(z.string()),
    primary_event_tickers: nullableArray(z.string()),
    details: z.record(z.string(), z.unknown()).nullish(),
    last_updated_ts: UnixTs.optional(),
  })
  .loose();
export type Milestone = z.output<typeof Milestone>;

export const EventsPage = pageOf('events', Event).extend({ milestones: nullableArray(Milestone).optional() });
export type EventsPage = z.output<typeof EventsPage>;

/** GET /events/{event_ticker}: `{ event, markets }` (`markets` is the SDK's deprecated copy; may be absent). */
export const EventResponse = z.object({ event: Event, markets: nullableArray(Market) });
export type EventResponse = z.output<typeof EventResponse>;

export const MarketMetadata = z
  .object({ market_ticker: z.string(), image_url: z.string().optional(), color_code: z.string().optional() })
  .loose();

/** Event metadata. `market_details` (and the other lists) may arrive as null: read as []. */
export const EventMetadata = z
  .object({
    image_url: z.string().optional(),
    featured_image_url: z.string().optional(),
    market_details: nullableArray(MarketMetadata),
    settlement_sources: nullableArray(SettlementSource),
    tags: nullableArray(z.string()),
    categories: nullableArray(z.string()),
    competition: z.string().nullish(),
    competition_scope: z.string().nullish(),
  })
  .loose();
export type EventMetadata = z.output<typeof EventMetadata>;

/** Both override keys are always present; both null = override cleared (the series fee applies). */
export const EventFeeChange = z
  .object({
    id: z.string().optional(),
    event_ticker: z.string().min(1),
    series_ticker: z.string().optional(),
    fee_type_override: z.string().nullable(),
    fee_multiplier_override: DecimalText.nullable(),
    scheduled_ts: UnixTs.optional(),
    effective_ts: UnixTs.optional(),
  })
  .loose();
export type EventFeeChange = z.output<typeof EventFeeChange>;

export const EventFeeChangesPage = pageOf('event_fee_changes', EventFeeChange);

/** GET /series/{s}/events/{t}/candlesticks (SDK shape). */
export const EventCandlesticksResponse = z
  .object({
    market_tickers: nullableArray(z.string()),
    market_candlesticks: nullableArray(nullableArray(Candlestick)),
    adjusted_end_ts: UnixTs.optional(),
  });
export type EventCandlesticksResponse = z.output<typeof EventCandlesticksResponse>;

/** Spec point: `{ ts, percentile, value }` (value is a forecast number, not money). */
export const ForecastPercentilePoint = z
  .object({
    ts: UnixTs,
    percentile: z.number().int(),
    value: z.number(),
    formatted_value: z.string().optional(),
    event_ticker: z.string().optional(),
  })
  .loose();
export type ForecastPercentilePoint = z.output<typeof ForecastPercentilePoint>;

const SdkPercentilePoint = z
  .object({
    percentile: z.number().int(),
    numerical_forecast: z.number(),
    raw_numerical_forecast: z.number().optional(),
    formatted_forecast: z.string().optional(),
  })
  .loose();
const SdkForecastPoint = z
  .object({
    event_ticker: z.string().optional(),
    end_period_ts: UnixTs,
    period_interval: z.number().optional(),
    percentile_points: nullableArray(SdkPercentilePoint),
  })
  .loose();

/**
 * GET .../forecast_percentile_history: spec a bare array of `{ts, percentile, value}`; the SDK
 * `{ forecast_history: [{end_period_ts, percentile_points: [...]}] }`. Output: flat spec points
 * in `{ percentile_points: [...] }` (SDK `numerical_forecast` -> `value`, `end_period_ts` -> `ts`).
 */
export const ForecastHistoryResponse = withInput<
  z.input<typeof ForecastPercentilePoint>[] | { forecast_history: z.input<typeof SdkForecastPoint>[] | null }
>()(
  (v) => (Array.isArray(v) ? { percentile_points: v } : v),
  z
    .object({
      percentile_points: nullableArray(ForecastPercentilePoint).optional(),
      forecast_history: nullableArray(SdkForecastPoint).optional(),
    })
    .loose()
    .transform((v, ctx) => {
      if (v.percentile_points === undefined && v.forecast_history === undefined) {
        ctx.addIssue({ code: 'custom', message: 'expected an array of percentile points (or the SDK forecast_history)' });
        return z.NEVER;
      }
      return {
        percentile_points: (v.percentile_points ?? []).concat(
          (v.forecast_history ?? []).flatMap((h) =>
            h.percentile_points.map((p) => ({
              ts: h.end_period_ts,
              percentile: p.percentile,
              value: p.numerical_forecast,
              ...(p.formatted_forecast !== undefined ? { formatted_value: p.formatted_forecast } : {}),
              ...(h.event_ticker !== undefined ? { event_ticker: h.event_ticker } : {}),
            })),
          ),
        ),
      };
    }),
);
export type ForecastHistoryResponse = z.output<typeof ForecastHistoryResponse>;

export const AssociatedEvent = z
  .object({
    ticker: z.string(),
    is_yes_only: z.boolean().optional(),
    size_max: z.number().int().nullish(),
    size_min: z.number().int().nullish(),
    active_quoters: nullableArray(z.string()),
  })
  .loose();

export const MultivariateCollection = z
  .object({
    collection_ticker: z.string().min(1),
    series_ticker: z.string().optional(),
    title: z.string(),
    description: z.string().optional(),
    exchange_index: ExchangeIndex.optional(),
    open_date: z.string().optional(),
    close_date: z.string().optional(),
    associated_events: nullableArray(AssociatedEvent),
    associated_event_tickers: nullableArray(z.string()),
    is_ordered: z.boolean().optional(),
    is_single_market_per_event: z.boolean().optional(),
    is_all_yes: z.boolean().optional(),
    size_min: z.number().int().optional(),
    size_max: z.number().int().optional(),
    functional_description: z.string().optional(),
  })
  .loose();
export type MultivariateCollection = z.output<typeof MultivariateCollection>;

export const MultivariateCollectionsPage = pageOf('multivariate_contracts', MultivariateCollection);
export const MultivariateCollectionResponse = z.object({ multivariate_contract: MultivariateCollection });

/** Leg selection of a multivariate create: `{event_ticker, market_ticker}` (+ the SDK's `side`). */
export const TickerPair = z
  .object({ event_ticker: Ticker, market_ticker: Ticker, side: z.enum(['yes', 'no']).optional() })
  .strict();

export const CreateMarketInCollectionRequest = z
  .object({
    selected_markets: z.array(TickerPair).min(1, 'selected_markets needs at least one leg'),
    with_market_payload: z.boolean().optional(),
  })
  .strict();

export const CreateMarketInCollectionResponse = z
  .object({ market_ticker: z.string().min(1), event_ticker: z.string().min(1), market: Market.optional() })
  .loose();
export type CreateMarketInCollectionResponse = z.output<typeof CreateMarketInCollectionResponse>;

/**
 * Structured target: spec `structured_target_id` (SDK `id`); `target_type` travels as `type`.
 * Output has `structured_target_id`.
 */
export const StructuredTarget = z
  .object({
    structured_target_id: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    type: z.string().optional(),
    competition: z.string().nullish(),
    details: z.record(z.string(), z.unknown()).nullish(),
    source_id: z.string().nullish(),
    source_ids: z.record(z.string(), z.string()).nullish(),
    last_updated_ts: UnixTs.optional(),
  })
  .loose()
  .transform((t, ctx) => ({ ...t, structured_target_id: pick(ctx, 'structured_target_id (or the SDK id)', t.structured_target_id, t.id) }));
export type StructuredTarget = z.output<typeof StructuredTarget>;

export const StructuredTargetsPage = pageOf('structured_targets', StructuredTarget);

/** `structured_target: null` (or absent) is a soft not-found; output null then. */
export const StructuredTargetResponse = z
  .object({ structured_target: StructuredTarget.nullish() })
  .transform((r) => ({ ...r, structured_target: r.structured_target ?? null }));
export type StructuredTargetResponse = z.output<typeof StructuredTargetResponse>;
