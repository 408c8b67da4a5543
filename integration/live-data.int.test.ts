// Live data against the real embedded exchange: milestones of the seeded events (a game in
// progress, races, releases), event live data per category, play-by-play, the weather index and
// its calibrations. Values are generated from the seed and the time, so a repeat agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { apiError } from '../test-support/exchange/trading-fixtures';
import type { ApiClient } from '../src-main/api/client';
import type { Milestone } from '../src-shared/wire/events';

let t: TestExchange;
let pub: ApiClient;
let milestones: Milestone[];
const byType = (type: string) => milestones.filter((m) => m.type === type);
/** the game that tipped off an hour ago */
let liveGame: Milestone;

beforeAll(async () => {
  t = await startTestExchange();
  pub = t.publicClient();
  const r = await pub.getEvents({ query: { with_milestones: true, limit: 100 } });
  milestones = r.milestones ?? [];
  liveGame = byType('basketball_game').find((m) => {
    const start = Date.parse(m.start_date!);
    return start < Date.now() && Date.now() < start + 2 * 3_600_000;
  })!;
});
afterAll(async () => {
  await t?.close();
});

describe('milestones', () => {
  it('seeds games, races and releases tied to events', () => {
    expect(byType('basketball_game')).toHaveLength(4);
    expect(byType('political_race')).toHaveLength(3);
    expect(byType('economic_release')).toHaveLength(4);
    for (const m of milestones) expect(m.related_event_tickers.length).toBe(1);
    expect(liveGame).toBeDefined();
  });

  it('answers a game in progress with its score, and player stats on request', async () => {
    const { live_data: d } = await pub.getMilestoneLiveData({ params: { milestone_id: liveGame.id } });
    expect(d).toMatchObject({ type: 'basketball_game', milestone_id: liveGame.id });
    expect(d.details).toMatchObject({ status: 'in_progress', home_team: expect.any(String), away_team: expect.any(String) });
    expect(Number(d.details.home_points) + Number(d.details.away_points)).toBeGreaterThan(0);
    expect(d.details.player_stats).toBeUndefined();
    const withPlayers = await pub.getMilestoneLiveData({ params: { milestone_id: liveGame.id }, query: { include_player_stats: true } });
    expect(withPlayers.live_data.details.player_stats).toHaveLength(3);
    const old = byType('basketball_game').find((m) => Date.parse(m.start_date!) < Date.now() - 86_400_000)!;
    expect((await pub.getMilestoneLiveData({ params: { milestone_id: old.id } })).live_data.details.status).toBe('final');
  });

  it('answers races and releases with their own details', async () => {
    for (const m of byType('political_race')) {
      const d = (await pub.getMilestoneLiveData({ params: { milestone_id: m.id } })).live_data;
      expect(d.type).toBe('political_race');
      expect(d.details.candidates).toHaveLength(4);
      expect(['upcoming', 'counting', 'final']).toContain(d.details.status);
    }
    const released = byType('economic_release').find((m) => Date.parse(m.start_date!) < Date.now())!;
    const d = (await pub.getMilestoneLiveData({ params: { milestone_id: released.id } })).live_data;
    expect(d.details).toMatchObject({ status: 'released', indicator: 'CPI YoY', actual: expect.any(Number) });
    expect((await apiError(pub.getMilestoneLiveData({ params: { milestone_id: 'nope' } }))).status).toBe(404);
  });

  it('serves the legacy typed path for the matching type only', async () => {
    const legacy = await pub.getLegacyMilestoneLiveData({ params: { type: 'basketball_game', milestone_id: liveGame.id } });
    const plain = await pub.getMilestoneLiveData({ params: { milestone_id: liveGame.id } });
    expect(legacy.live_data.type).toBe(plain.live_data.type);
    expect(legacy.live_data.details.home_team).toBe(plain.live_data.details.home_team);
    expect((await apiError(pub.getLegacyMilestoneLiveData({ params: { type: 'political_race', milestone_id: liveGame.id } }))).status).toBe(404);
    expect((await apiError(pub.getLegacyMilestoneLiveData({ params: { type: 'basketball_game', milestone_id: 'nope' } }))).status).toBe(404);
  });

  it('batches 1-100 ids (a plain array on the wire); 101 is a 400, an unknown id a 404', async () => {
    const ids = [liveGame.id, byType('political_race')[0]!.id];
    const { live_datas } = await pub.getLiveDataBatch({ query: { milestone_ids: ids } });
    expect(live_datas.map((d) => d.milestone_id)).toEqual(ids);
    const raw = await (await fetch(`${t.ex.baseUrl}/live_data/batch?milestone_ids=${ids[0]}&milestone_ids=${ids[1]}`)).json();
    expect(Array.isArray(raw)).toBe(true);
    const many = Array.from({ length: 101 }, () => `milestone_ids=${ids[0]}`).join('&');
    expect((await fetch(`${t.ex.baseUrl}/live_data/batch?${many}`)).status).toBe(400);
    expect((await fetch(`${t.ex.baseUrl}/live_data/batch`)).status).toBe(400);
    expect((await apiError(pub.getLiveDataBatch({ query: { milestone_ids: [ids[0]!, 'nope'] } }))).status).toBe(404);
  });

  it('gives play-by-play for games and null pbp for types without it', async () => {
    const { pbp } = await pub.getGameStats({ params: { milestone_id: liveGame.id } });
    expect(pbp?.periods.length).toBeGreaterThanOrEqual(1);
    const events = pbp!.periods.flatMap((p) => p.events);
    expect(events.length).toBeGreaterThan(0);
    const last = events[events.length - 1]!;
    const live = (await pub.getMilestoneLiveData({ params: { milestone_id: liveGame.id } })).live_data.details;
    expect(last.home_score).toBe(live.home_points);
    expect((await pub.getGameStats({ params: { milestone_id: byType('economic_release')[0]!.id } })).pbp).toBeNull();
    const raw = (await (await fetch(`${t.ex.baseUrl}/live_data/milestone/${byType('political_race')[0]!.id}/game_stats`)).json()) as { pbp: unknown };
    expect(raw.pbp).toBeNull();
    expect((await apiError(pub.getGameStats({ params: { milestone_id: 'nope' } }))).status).toBe(404);
  });
});

describe('event live data', () => {
  it('crypto: the index over the requested range; matured events are historical', async () => {
    const btc = (await pub.getEvents({ query: { series_ticker: 'KXBTC', limit: 10 } })).events;
    const open = btc.find((e) => e.status === 'open')!;
    const { live_data: d } = await pub.getEventLiveData({ params: { event_ticker: open.event_ticker } });
    expect(d).toMatchObject({ type: 'crypto_price', default_range: '1d', is_historical: false });
    expect(d.range_options).toEqual(['15min', '1h', '1d', '1w']);
    expect((d.details.timeseries as unknown[]).length).toBe(288);
    const hour = await pub.getEventLiveData({ params: { event_ticker: open.event_ticker }, query: { range: '1h' } });
    expect((hour.live_data.details.timeseries as unknown[]).length).toBe(120);
    const settled = btc.find((e) => e.status === 'settled')!;
    expect((await pub.getEventLiveData({ params: { event_ticker: settled.event_ticker } })).live_data.is_historical).toBe(true);
    expect((await apiError(pub.getEventLiveData({ params: { event_ticker: open.event_ticker }, query: { range: '2y' } }))).status).toBe(400);
    expect((await apiError(pub.getEventLiveData({ params: { event_ticker: 'NOPE-1' } }))).status).toBe(404);
  });

  it('weather and sports events carry their own live data', async () => {
    const wx = (await pub.getEvents({ query: { series_ticker: 'KXHIGHNY', status: 'open' } })).events[0]!;
    const w = (await pub.getEventLiveData({ params: { event_ticker: wx.event_ticker } })).live_data;
    expect(w).toMatchObject({ type: 'weather_index', details: { city: 'nyc', units: 'fahrenheit' } });
    const game = (await pub.getEventLiveData({ params: { event_ticker: liveGame.related_event_tickers[0]! } })).live_data;
    expect(game).toMatchObject({ type: 'basketball_game', details: { milestone_id: liveGame.id, status: 'in_progress' } });
  });
});

describe('weather index', () => {
  it('answers one point a minute (Fahrenheit), the newest incomplete, with per-station readings when detailed', async () => {
    const r = await pub.getWeatherIndex({ params: { city: 'nyc' }, query: { last_sec: 600 } });
    expect(r).toMatchObject({ city: 'nyc', units: 'fahrenheit' });
    expect(r.timeseries.length).toBeGreaterThanOrEqual(9);
    expect(r.timeseries.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < r.timeseries.length; i++) expect(r.timeseries[i]!.t - r.timeseries[i - 1]!.t).toBe(60_000);
    const final = r.timeseries.filter((p) => p.status === 'final');
    expect(final.length).toBeGreaterThan(0);
    for (const p of final) expect(p.v).toBeTypeOf('number');
    const newest = r.timeseries[r.timeseries.length - 1]!;
    expect(newest.status).toBe('incomplete');
    expect(newest.v).toBeUndefined();
    expect(r.config_version).toMatch(/^v\d$/);
    const d = await pub.getWeatherIndex({ params: { city: 'nyc' }, query: { last_sec: 300, detailed: true } });
    const stations = d.timeseries[0]!.stations!;
    expect(stations.map((s) => s.station_id)).toEqual(['KNYC', 'KLGA', 'KJFK']);
    expect(d.timeseries[0]!.contributors).toBe(3);
  });

  it('takes an explicit from/to window (ms, inclusive) and refuses bad windows', async () => {
    const to = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
    const from = to - 30 * 60_000;
    const r = await pub.getWeatherIndex({ params: { city: 'miami' }, query: { from, to } });
    expect(r.timeseries).toHaveLength(31);
    expect(r.timeseries[0]!.t).toBe(from);
    expect(r.timeseries[30]!.t).toBe(to);
    const again = await pub.getWeatherIndex({ params: { city: 'miami' }, query: { from, to } });
    expect(again.timeseries).toEqual(r.timeseries);
    expect((await fetch(`${t.ex.baseUrl}/live_data/weather/nyc?last_sec=60&from=${from}`)).status).toBe(400);
    expect((await apiError(pub.getWeatherIndex({ params: { city: 'nyc' }, query: { from: to, to: from } }))).status).toBe(400);
    expect((await apiError(pub.getWeatherIndex({ params: { city: 'nyc' }, query: { from: to - 8 * 86_400_000, to } }))).status).toBe(400);
    expect((await apiError(pub.getWeatherIndex({ params: { city: 'atlantis' } }))).status).toBe(404);
  });

  it('lists calibrations ascending, in Celsius', async () => {
    const r = await pub.getWeatherCalibrations({ params: { city: 'nyc' } });
    expect(r.calibrations.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < r.calibrations.length; i++) expect(r.calibrations[i]!.effective_at_ms).toBeGreaterThan(r.calibrations[i - 1]!.effective_at_ms);
    for (const c of r.calibrations) {
      expect(c.city_reference_c).toBeGreaterThan(-30);
      expect(c.city_reference_c).toBeLessThan(45);
      expect(c.stations?.reduce((a, s) => a + s.weight, 0)).toBeCloseTo(1, 3);
    }
    expect(r.units).toBe('celsius');
    expect((await apiError(pub.getWeatherCalibrations({ params: { city: 'atlantis' } }))).status).toBe(404);
  });
});
