import { describe, expect, it } from 'vitest';
import { collectNovelties } from './novelty';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import {
  CreateMarketInCollectionRequest,
  Event,
  EventFeeChange,
  EventMetadata,
  ForecastHistoryResponse,
  Series,
  SeriesFeeChangesResponse,
  SeriesListResponse,
  StructuredTarget,
  StructuredTargetResponse,
} from './events';
import { responseSamples, sampleEvent, sampleSeries, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('series', () => {
  it('reads the plain array (spec) and { series } (SDK) to { series }', () => {
    expect(SeriesListResponse.parse(responseSamples.getSeriesList).series[0]?.ticker).toBe('KXTEST');
    expect(SeriesListResponse.parse(sdkResponseSamples.getSeriesList).series[0]?.ticker).toBe('KXTEST');
  });
  it('reads fee_multiplier exactly as text, from a string or a JSON number', () => {
    expect(Series.parse(sampleSeries).fee_multiplier).toBe('1');
    expect(Series.parse({ ...sampleSeries, fee_multiplier: 0.35 }).fee_multiplier).toBe('0.35');
    rejects(Series, { ...sampleSeries, fee_multiplier: 'one' });
  });
  it('reads null tags / categories as empty', () => {
    expect(Series.parse({ ...sampleSeries, tags: null, categories: null })).toMatchObject({ tags: [], categories: [] });
    rejects(Series, { ...sampleSeries, ticker: undefined });
  });
  it('fee changes: spec array and SDK { series_fee_change_arr } read alike; scheduled_ts -> effective_ts', () => {
    const spec = SeriesFeeChangesResponse.parse(responseSamples.getSeriesFeeChanges);
    expect(spec.series_fee_change_arr[0]).toMatchObject({ effective_ts: 1_735_689_600, maker_fee: '0.0175', taker_fee: '0.07' });
    const sdk = SeriesFeeChangesResponse.parse(sdkResponseSamples.getSeriesFeeChanges);
    expect(sdk.series_fee_change_arr[0]).toMatchObject({ effective_ts: 1_735_689_600, fee_multiplier: '1.5' });
    expect(rejects(SeriesFeeChangesResponse, [{ series_ticker: 'X' }])).toMatch(/effective_ts/);
  });
});

describe('events', () => {
  it('reads an event; a status the spec does not list (events have no paused) is kept and noted', () => {
    expect(Event.parse(sampleEvent).status).toBe('open');
    const [e, novelties] = collectNovelties(() => Event.parse({ ...sampleEvent, status: 'paused' }));
    expect(e.status).toBe('paused');
    expect(novelties.map((n) => n.key)).toEqual(['event.status="paused"']);
    rejects(Event, { ...sampleEvent, title: 7 });
  });
  it('product_metadata may be an object, null or absent', () => {
    expect(Event.parse({ ...sampleEvent, product_metadata: { k: 1 } }).product_metadata).toEqual({ k: 1 });
    const { product_metadata: _p, ...without } = sampleEvent;
    expect(Event.parse(without).product_metadata).toBeUndefined();
  });
  it('GET /events/{t}: markets may be absent', () => {
    expect(endpoints.getEvent.response.parse({ event: sampleEvent }).markets).toEqual([]);
  });
  it('metadata market_details null reads as []', () => {
    const m = EventMetadata.parse(responseSamples.getEventMetadata);
    expect(m.market_details).toEqual([]);
    expect(EventMetadata.parse({}).tags).toEqual([]);
    rejects(EventMetadata, { market_details: [{ image_url: 'x' }] });
  });
  it('fee change: both override keys present, both null = cleared', () => {
    expect(EventFeeChange.parse({ event_ticker: 'E', fee_type_override: null, fee_multiplier_override: null })).toMatchObject({ fee_multiplier_override: null });
    expect(EventFeeChange.parse({ event_ticker: 'E', fee_type_override: 'flat', fee_multiplier_override: 0.5 }).fee_multiplier_override).toBe('0.5');
    rejects(EventFeeChange, { event_ticker: 'E', fee_type_override: null });
  });
  it('list filter: tickers comma-joined, each non-empty with no commas', () => {
    const q = endpoints.getEvents.query;
    expect(q.parse({ tickers: 'E1,E2', with_nested_markets: 'true', status: 'settled' })).toEqual({ tickers: ['E1', 'E2'], with_nested_markets: true, status: 'settled' });
    expect(rejects(q, { tickers: 'E1,,E2' })).toBeTruthy();
    rejects(q, { status: 'paused' });
  });
});

describe('forecast percentile history', () => {
  it('reads the spec points and the SDK nested history to flat points', () => {
    expect(ForecastHistoryResponse.parse(responseSamples.getForecastPercentileHistory).percentile_points).toEqual([{ ts: 1_735_689_600, percentile: 5000, value: 71.5 }]);
    const sdk = ForecastHistoryResponse.parse(sdkResponseSamples.getForecastPercentileHistory).percentile_points[0];
    expect(sdk).toMatchObject({ ts: 1_735_689_600, percentile: 5000, value: 71.5, formatted_value: '71.5°F' });
    rejects(ForecastHistoryResponse, [{ ts: 1, percentile: 'p50', value: 1 }]);
  });
  it('takes repeated percentiles (at least one) and normalises period_interval', () => {
    const q = endpoints.getForecastPercentileHistory.query;
    expect(q.parse({ percentiles: ['10', '90'], start_ts: 1, end_ts: 2, period_interval: 1440 })).toEqual({ percentiles: [10, 90], start_ts: 1, end_ts: 2, period_interval: 86400 });
    expect(q.parse({ percentiles: 50, start_ts: 1, end_ts: 2, period_interval: 0 }).percentiles).toEqual([50]);
    rejects(q, { percentiles: [], start_ts: 1, end_ts: 2, period_interval: 60 });
    rejects(q, { percentiles: [10000], start_ts: 1, end_ts: 2, period_interval: 60 });
  });
});

describe('multivariate collections', () => {
  it('create takes selected_markets legs and with_market_payload; strict', () => {
    const body = { selected_markets: [{ event_ticker: 'E', market_ticker: 'M', side: 'yes' }], with_market_payload: true };
    expect(CreateMarketInCollectionRequest.parse(body)).toEqual(body);
    rejects(CreateMarketInCollectionRequest, { selected_markets: [] });
    rejects(CreateMarketInCollectionRequest, { selected_markets: [{ event_ticker: 'E' }] });
    rejects(CreateMarketInCollectionRequest, { ...body, lookup: true });
  });
  it('reads collections', () => {
    expect(endpoints.getMultivariateCollection.response.parse(responseSamples.getMultivariateCollection).multivariate_contract.collection_ticker).toBe('KXMVE');
    rejects(endpoints.getMultivariateCollection.response, { multivariate_contract: { title: 'x' } });
  });
});

describe('structured targets', () => {
  it('reads structured_target_id (spec) and id (SDK) as structured_target_id; type stays the wire name', () => {
    expect(StructuredTarget.parse({ id: 'st-1', type: 'team' })).toMatchObject({ structured_target_id: 'st-1', type: 'team' });
    const sdk = endpoints.getStructuredTargets.response.parse(sdkResponseSamples.getStructuredTargets);
    expect(sdk.structured_targets[0]?.structured_target_id).toBe('st-1');
    expect(rejects(StructuredTarget, { name: 'x' })).toMatch(/structured_target_id/);
  });
  it('a null structured_target is a soft not-found', () => {
    expect(StructuredTargetResponse.parse({ structured_target: null }).structured_target).toBeNull();
    expect(StructuredTargetResponse.parse({}).structured_target).toBeNull();
  });
  it('page_size is 1-2000 and ids repeat; there is no limit', () => {
    const q = endpoints.getStructuredTargets.query;
    expect(q.parse({ page_size: '2000', ids: ['a', 'b'] })).toEqual({ page_size: 2000, ids: ['a', 'b'] });
    expect(rejects(q, { page_size: 2001 })).toBeTruthy();
    rejects(q, { page_size: 0 });
    expect(rejects(q, { limit: 10 })).toMatch(/limit/);
  });
});
