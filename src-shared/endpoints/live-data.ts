// Live data keyed by milestone or event, game stats and the weather index (all public).
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery, qBool, qInt, qRepeat } from './query';
import { Id, Ticker } from '../wire/common';
import {
  EventLiveDataResponse,
  GameStats,
  LiveDataBatchResponse,
  LiveDataResponse,
  WeatherCalibrations,
  WeatherIndex,
} from '../wire/live-data';

const playerStatsQuery = z.object({ include_player_stats: qBool.optional() }).strict();
const milestoneParams = z.object({ milestone_id: Id }).strict();
const cityParams = z.object({ city: Id }).strict();

/** 1-100 milestone ids, repeated, required. */
export const LiveDataBatchQuery = z
  .object({
    milestone_ids: qRepeat(z.string().min(1), 100, 1, 'milestone_ids'),
    include_player_stats: qBool.optional(),
  })
  .strict();

/** `from` / `to` are Unix ms; `last_sec` is mutually exclusive with them. */
export const WeatherQuery = z
  .object({
    from: qInt(0).optional(),
    to: qInt(0).optional(),
    last_sec: qInt(1).optional(),
    detailed: qBool.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.last_sec !== undefined && (q.from !== undefined || q.to !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['last_sec'], message: 'last_sec is mutually exclusive with from/to' });
    }
  });

export const liveDataEndpoints = {
  getMilestoneLiveData: endpoint({
    id: 'getMilestoneLiveData',
    method: 'GET',
    path: '/live_data/milestone/{milestone_id}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: milestoneParams,
    query: playerStatsQuery,
    body: null,
    response: LiveDataResponse,
    status: 200,
    summary: 'Live data of one milestone',
  }),
  getEventLiveData: endpoint({
    id: 'getEventLiveData',
    method: 'GET',
    path: '/live_data/events/{event_ticker}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ event_ticker: Ticker }).strict(),
    query: z.object({ range: z.string().min(1).optional() }).strict(),
    body: null,
    response: EventLiveDataResponse,
    status: 200,
    summary: 'Live data of one event (range is a chart window hint: 15min, 1h, 1d)',
  }),
  getLiveDataBatch: endpoint({
    id: 'getLiveDataBatch',
    method: 'GET',
    path: '/live_data/batch',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: LiveDataBatchQuery,
    arrays: { milestone_ids: 'repeat' },
    body: null,
    response: LiveDataBatchResponse,
    status: 200,
    summary: 'Live data of 1-100 milestones (normalised to { live_datas: [...] })',
  }),
  getGameStats: endpoint({
    id: 'getGameStats',
    method: 'GET',
    path: '/live_data/milestone/{milestone_id}/game_stats',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: milestoneParams,
    query: noQuery,
    body: null,
    response: GameStats,
    status: 200,
    summary: 'Play-by-play of a game (pbp null without play-by-play)',
  }),
  getWeatherIndex: endpoint({
    id: 'getWeatherIndex',
    method: 'GET',
    path: '/live_data/weather/{city}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: cityParams,
    query: WeatherQuery,
    body: null,
    response: WeatherIndex,
    status: 200,
    summary: 'Weather index points (Fahrenheit); detailed adds per-station readings',
  }),
  getWeatherCalibrations: endpoint({
    id: 'getWeatherCalibrations',
    method: 'GET',
    path: '/live_data/weather/{city}/calibrations',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: cityParams,
    query: noQuery,
    body: null,
    response: WeatherCalibrations,
    status: 200,
    summary: 'Weather index calibration records (Celsius), ascending',
  }),
  getLegacyMilestoneLiveData: endpoint({
    id: 'getLegacyMilestoneLiveData',
    method: 'GET',
    path: '/live_data/{type}/milestone/{milestone_id}',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: z.object({ type: Id, milestone_id: Id }).strict(),
    query: playerStatsQuery,
    body: null,
    response: LiveDataResponse,
    status: 200,
    summary: 'Legacy form of milestone live data',
  }),
} as const;
