// Where the spec overrides the official SDK, and so where the embedded exchange knowingly
// answers other than the SDK's models say. Everything else must match the SDK exactly; the
// contract test fails on any mismatch not listed here, and on any entry here that no answer
// needs any more. Each entry quotes the line of docs/spec/service-interface.md (spec) or
// docs/spec/protocol-notes.md (notes) that decides it.
import type { Mismatch, MismatchKind } from './validate';

export interface FieldOverride {
  model: string;
  field: string;
  kind: MismatchKind;
  /** for `enum`: the values the spec adds to the SDK's enum */
  values?: readonly string[];
  why: string;
}

/** Answers the spec gives as a plain array (or bare value) where the SDK has an envelope object. */
export interface EnvelopeOverride {
  op: string;
  /** the SDK's envelope key; the spec's bare answer is validated as `{ [key]: answer }` */
  key: string;
  why: string;
}

const PLAIN_ARRAYS =
  'notes, "Where the spec and the official SDK disagree": "Plain arrays in the spec, envelopes in the SDK: GET /series ({series}), GET /series/fee_changes ({series_fee_change_arr}), GET /portfolio/order_groups ({order_groups}), GET /markets/candlesticks ({markets}), GET /live_data/batch ({live_datas}), GET /portfolio/orders/queue_positions ({queue_positions})"';

export const ENVELOPE_OVERRIDES: readonly EnvelopeOverride[] = [
  { op: 'getSeriesList', key: 'series', why: PLAIN_ARRAYS },
  { op: 'getSeriesFeeChanges', key: 'series_fee_change_arr', why: PLAIN_ARRAYS },
  { op: 'getOrderGroups', key: 'order_groups', why: PLAIN_ARRAYS },
  { op: 'batchGetMarketCandlesticks', key: 'markets', why: PLAIN_ARRAYS },
  { op: 'getLiveDatas', key: 'live_datas', why: PLAIN_ARRAYS },
  { op: 'getOrderQueuePositions', key: 'queue_positions', why: PLAIN_ARRAYS },
  { op: 'getOrderQueuePosition', key: 'queue_position_fp', why: 'notes: "single queue position: spec a bare decimal, SDK {queue_position_fp}"; spec: "GET /portfolio/orders/{order_id}/queue_position | none | bare decimal"' },
  {
    op: 'getEventForecastPercentilesHistory',
    key: 'forecast_history',
    // each point also carries the SDK's ForecastPercentilesPoint fields (one percentile per point)
    why: 'spec: "GET /series/{series_ticker}/events/{ticker}/forecast_percentile_history ... | array of percentile points" and "Forecast percentile point: ts, percentile, value"',
  },
];

const INTEGER_TIMESTAMPS =
  'notes: "Timestamps: integer Unix seconds unless the spec states otherwise (the SDK has strings for historical cutoff and RFQ created_ts)"; spec, Value conventions: "Timestamp | Integer Unix seconds unless stated"';

export const FIELD_OVERRIDES: readonly FieldOverride[] = [
  // -- timestamps: every *_ts the SDK types as a string travels as integer Unix seconds
  ...(
    [
      ['EventData', 'last_updated_ts'],
      ['EventFeeChange', 'scheduled_ts'],
      ['SeriesFeeChange', 'scheduled_ts'],
      ['Series', 'last_updated_ts'],
      ['Milestone', 'last_updated_ts'],
      ['StructuredTarget', 'last_updated_ts'],
      ['MarketPosition', 'last_updated_ts'],
      ['GetHistoricalCutoffResponse', 'market_settled_ts'],
      ['GetHistoricalCutoffResponse', 'trades_created_ts'],
      ['GetHistoricalCutoffResponse', 'orders_updated_ts'],
      ['GetHistoricalCutoffResponse', 'market_positions_last_updated_ts'],
      ['RFQ', 'created_ts'],
      ['RFQ', 'updated_ts'],
      ['RFQ', 'cancelled_ts'],
      ['Quote', 'created_ts'],
      ['Quote', 'updated_ts'],
      ['Quote', 'accepted_ts'],
      ['Quote', 'confirmed_ts'],
      ['Quote', 'executed_ts'],
      ['Quote', 'cancelled_ts'],
      ['BlockTradeProposal', 'created_ts'],
      ['BlockTradeProposal', 'updated_ts'],
      ['BlockTradeProposal', 'buyer_accepted_ts'],
      ['BlockTradeProposal', 'seller_accepted_ts'],
      ['BlockTradeProposal', 'executed_ts'],
    ] as const
  ).map(([model, field]): FieldOverride => ({ model, field, kind: 'type', why: INTEGER_TIMESTAMPS })),

  // -- status sets the spec gives otherwise
  {
    model: 'Market',
    field: 'status',
    kind: 'enum',
    values: ['unopened', 'open', 'paused', 'settled'],
    why: 'notes: "market status includes open and paused (SDK active, closed, determined, finalized, ...)"; spec: "MarketStatus values: open, settled, paused and others" (unopened as the market filter and the event status name it)',
  },
  { model: 'RFQ', field: 'status', kind: 'enum', values: ['accepted', 'confirmed', 'canceled'], why: 'notes: "Statuses: RFQ open, accepted, confirmed, canceled (SDK open, closed)"; spec: "RFQ statuses: open, accepted, confirmed, canceled"' },
  { model: 'Quote', field: 'status', kind: 'enum', values: ['canceled'], why: 'notes: "quotes spelled canceled (SDK cancelled)"' },

  // -- values the spec states exactly
  { model: 'Series', field: 'fee_multiplier', kind: 'type', why: 'spec, Market data: "Series: ... fee_multiplier (decimal, exact)": a decimal string, never a binary float' },
  ...(['order_id', 'fill_count', 'remaining_count', 'average_fill_price', 'average_fee_paid'] as const).map(
    (field): FieldOverride => ({
      model: 'BatchCreateOrdersV2ResponseOrdersInner',
      field,
      kind: 'null',
      why: 'spec, Order: "Batch create ... Each entry has order_id, fill_count on success, or an error object with the other fields null"',
    }),
  ),
  { model: 'GetGameStatsResponse', field: 'pbp', kind: 'null', why: 'spec, Market data: "Game stats: pbp is null for milestone types without play-by-play"' },
  { model: 'GetEventMetadataResponse', field: 'market_details', kind: 'null', why: 'spec, Value conventions: "Nullable arrays | A list field may arrive as JSON null ... (seen on market_details of event metadata)"' },
];

export function overrideFor(m: Mismatch, value: unknown): FieldOverride | undefined {
  return FIELD_OVERRIDES.find(
    (o) => o.model === m.model && o.field === m.field && o.kind === m.kind && (o.kind !== 'enum' || (o.values ?? []).includes(value as string)),
  );
}
