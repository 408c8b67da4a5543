// Live data keyed by milestone or event, game stats, and the weather index.
import { z } from 'zod';
import { listOf, nullableArray, UnixMillis } from './common';

const FreeForm = z.record(z.string(), z.unknown());

/** Milestone live data: `details` is free-form and its shape depends on `type`. */
export const LiveData = z
  .object({ type: z.string(), milestone_id: z.string().optional(), details: FreeForm.nullish().transform((d) => d ?? {}) })
  .loose();
export type LiveData = z.output<typeof LiveData>;

export const LiveDataResponse = z.object({ live_data: LiveData });
export type LiveDataResponse = z.output<typeof LiveDataResponse>;

/** GET /live_data/batch: spec a bare array, SDK `{ live_datas }`. Output the envelope. */
export const LiveDataBatchResponse = listOf('live_datas', LiveData);
export type LiveDataBatchResponse = z.output<typeof LiveDataBatchResponse>;

/** Event live data; `is_historical` is true for matured crypto snapshots. */
export const EventLiveData = z
  .object({
    type: z.string(),
    details: FreeForm.nullish().transform((d) => d ?? {}),
    default_range: z.string().optional(),
    range_options: nullableArray(z.string()).optional(),
    is_historical: z.boolean().optional(),
  })
  .loose();
export type EventLiveData = z.output<typeof EventLiveData>;
export const EventLiveDataResponse = z.object({ live_data: EventLiveData });

/** `pbp` is null for milestone types without play-by-play. */
export const GameStats = z
  .object({
    pbp: z
      .object({ periods: nullableArray(z.object({ events: nullableArray(FreeForm) }).loose()) })
      .loose()
      .nullish()
      .transform((p) => p ?? null),
  })
  .loose();
export type GameStats = z.output<typeof GameStats>;

export const WeatherStationReading = z
  .object({
    station_id: z.string(),
    code: z.string(),
    source: z.string().optional(),
    temp_f: z.number().optional(),
    obs_time_ms: UnixMillis.optional(),
    received_at_ms: UnixMillis.optional(),
    primary_code: z.string().optional(),
  })
  .loose();

/** One index minute: `t` (ms), `status`, `v` (Fahrenheit; absent while incomplete). */
export const WeatherIndexPoint = z
  .object({
    t: UnixMillis,
    status: z.string(),
    v: z.number().optional(),
    contributors: z.number().int().optional(),
    receipt_basis: z.string().optional(),
    stations: nullableArray(WeatherStationReading).optional(),
  })
  .loose();
export type WeatherIndexPoint = z.output<typeof WeatherIndexPoint>;

export const WeatherIndex = z
  .object({
    city: z.string(),
    units: z.string(),
    config_version: z.string().optional(),
    timeseries: nullableArray(WeatherIndexPoint),
  })
  .loose();
export type WeatherIndex = z.output<typeof WeatherIndex>;

/** Calibration record: always Celsius. */
export const WeatherCalibration = z
  .object({
    config_version: z.string(),
    effective_at_ms: UnixMillis,
    city_reference_c: z.number(),
    published_at_ms: UnixMillis.optional(),
    change_reason: z.string().optional(),
    stations: nullableArray(z.object({ station_id: z.string(), weight: z.number(), offset_c: z.number() }).loose()).optional(),
  })
  .loose();
export type WeatherCalibration = z.output<typeof WeatherCalibration>;

/** Calibrations ascend by effective time. */
export const WeatherCalibrations = z
  .object({ city: z.string().optional(), units: z.string().optional(), calibrations: nullableArray(WeatherCalibration) })
  .loose();
export type WeatherCalibrations = z.output<typeof WeatherCalibrations>;
