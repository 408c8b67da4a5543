import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../endpoints';
import { HistoricalCutoff } from './historical';
import { GameStats, LiveData, LiveDataBatchResponse, WeatherCalibrations, WeatherIndex } from './live-data';
import { responseSamples, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('live data', () => {
  it('reads milestone live data with free-form details', () => {
    expect(LiveData.parse({ type: 'golf', milestone_id: 'm', details: { leader: 'x' } }).details).toEqual({ leader: 'x' });
    rejects(LiveData, { milestone_id: 'm', details: {} });
  });
  it('batch: bare array (spec) and { live_datas } (SDK) read to { live_datas }', () => {
    expect(LiveDataBatchResponse.parse(responseSamples.getLiveDataBatch).live_datas).toHaveLength(1);
    expect(LiveDataBatchResponse.parse(sdkResponseSamples.getLiveDataBatch).live_datas).toHaveLength(1);
  });
  it('batch query: milestone_ids repeated, 1-100, required', () => {
    const q = endpoints.getLiveDataBatch.query;
    expect(q.parse({ milestone_ids: ['a', 'b'], include_player_stats: 'true' })).toEqual({ milestone_ids: ['a', 'b'], include_player_stats: true });
    expect(rejects(q, {})).toMatch(/milestone_ids/);
    expect(rejects(q, { milestone_ids: [] })).toMatch(/at least 1/);
    expect(rejects(q, { milestone_ids: Array.from({ length: 101 }, (_, i) => `m${i}`) })).toMatch(/at most 100/);
  });
  it('game stats: pbp null or periods of free-form events', () => {
    expect(GameStats.parse({ pbp: null }).pbp).toBeNull();
    expect(GameStats.parse({}).pbp).toBeNull();
    expect(GameStats.parse({ pbp: { periods: [{ events: [{ t: 1 }] }] } }).pbp?.periods[0]?.events).toEqual([{ t: 1 }]);
    rejects(GameStats, { pbp: { periods: [{ events: 'x' }] } });
  });
  it('event live data', () => {
    expect(endpoints.getEventLiveData.response.parse(responseSamples.getEventLiveData).live_data).toMatchObject({ type: 'crypto', is_historical: false });
  });
});

describe('weather', () => {
  it('last_sec is mutually exclusive with from/to', () => {
    const q = endpoints.getWeatherIndex.query;
    expect(q.parse({ from: '1735689600000', to: '1735693200000', detailed: 'true' })).toEqual({ from: 1_735_689_600_000, to: 1_735_693_200_000, detailed: true });
    expect(q.parse({ last_sec: 3600 })).toEqual({ last_sec: 3600 });
    expect(rejects(q, { last_sec: 3600, from: 1 })).toMatch(/mutually exclusive/);
    expect(rejects(q, { last_sec: 60, to: 2 })).toMatch(/mutually exclusive/);
  });
  it('reads the index and its calibrations', () => {
    expect(WeatherIndex.parse(responseSamples.getWeatherIndex).timeseries[0]).toMatchObject({ status: 'normal', v: 81.23 });
    expect(WeatherIndex.parse({ city: 'miami', units: 'fahrenheit', timeseries: [{ t: 1, status: 'incomplete' }] }).timeseries[0]?.v).toBeUndefined();
    rejects(WeatherIndex, { city: 'miami', units: 'fahrenheit', timeseries: [{ status: 'normal' }] });
    expect(WeatherCalibrations.parse(responseSamples.getWeatherCalibrations).calibrations[0]?.city_reference_c).toBe(0.12);
  });
});

describe('historical', () => {
  it('reads the cutoff as Unix seconds, from integers or the SDK strings', () => {
    expect(HistoricalCutoff.parse(responseSamples.getHistoricalCutoff).market_settled_ts).toBe(1_735_689_600);
    const sdk = HistoricalCutoff.parse(sdkResponseSamples.getHistoricalCutoff);
    expect(sdk.orders_updated_ts).toBe(1_735_689_600);
    expect(sdk.market_positions_last_updated_ts).toBeUndefined();
    expect(rejects(HistoricalCutoff, { ...(responseSamples.getHistoricalCutoff as object), trades_created_ts: 'soon' })).toMatch(/RFC 3339/);
  });
  it('archive queries: subaccount 0-63, no count_filter on positions', () => {
    expect(endpoints.getHistoricalFills.query.parse({ subaccount: '0', ticker: 'T' })).toEqual({ subaccount: 0, ticker: 'T' });
    rejects(endpoints.getHistoricalFills.query, { subaccount: 64 });
    expect(rejects(endpoints.getHistoricalPositions.query, { count_filter: 'position' })).toMatch(/count_filter/);
  });
  it('reads archived orders, fills and positions with the live schemas', () => {
    expect(endpoints.getHistoricalOrders.response.parse(responseSamples.getHistoricalOrders).orders[0]?.status).toBe('executed');
    expect(endpoints.getHistoricalPositions.response.parse(responseSamples.getHistoricalPositions).event_positions).toEqual([]);
  });
});
