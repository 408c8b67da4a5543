// Live data of the simulated world: games, races, releases, index prices, weather and
// forecasts. Every value is a pure function of (exchange seed, what is asked, time), so two
// requests for the same instant agree and nothing needs storing. These are figures shown to
// people, not money: plain numbers are fine here.
import type { ForecastSpec, MilestoneRecord } from '../state/catalog';

// ---- deterministic noise ---------------------------------------------------------------------

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1) from the seed and any parts. */
export function unit(seed: number, ...parts: (string | number)[]): number {
  return mix(fnv(`${seed}|${parts.join('|')}`)) / 0x1_0000_0000;
}

/** Smooth noise in [-1, 1]: cosine-interpolated value noise with knots every `periodMs`. */
export function smooth(seed: number, key: string, tMs: number, periodMs: number): number {
  const k = Math.floor(tMs / periodMs);
  const f = (tMs - k * periodMs) / periodMs;
  const a = unit(seed, key, k) * 2 - 1;
  const b = unit(seed, key, k + 1) * 2 - 1;
  const w = (1 - Math.cos(f * Math.PI)) / 2;
  return a * (1 - w) + b * w;
}

const round = (v: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/** Inverse of the standard normal CDF (Acklam's rational approximation). */
export function normalInv(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  const poly = (k: number[], x: number) => k.reduce((acc, v) => acc * x + v, 0);
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

// ---- forecasts -------------------------------------------------------------------------------

/** Forecast value of an event at `tMs` for a percentile 0-9999 (hundredths of a percent). */
export function forecastValue(seed: number, eventTicker: string, spec: ForecastSpec, percentile: number, tMs: number): number {
  const center = spec.center * (1 + spec.drift * smooth(seed, `${eventTicker}/center`, tMs, 6 * 3_600_000));
  const spread = spec.spread * (1 + 0.3 * smooth(seed, `${eventTicker}/spread`, tMs, 12 * 3_600_000));
  const p = Math.min(Math.max(percentile, 0.5), 9999.5) / 10_000;
  return round(center + spread * normalInv(p), spec.decimals);
}

// ---- sports, races, releases -----------------------------------------------------------------

const GAME_MINUTES = 48;
const GAME_REAL_MS = 150 * 60_000;

interface Play {
  period: number;
  clock: string;
  team: string;
  points: number;
  home_score: number;
  away_score: number;
  description: string;
}

function clockOf(gameMinute: number): { period: number; clock: string } {
  const period = Math.min(4, Math.floor(gameMinute / 12) + 1);
  const left = Math.max(0, period * 12 - gameMinute);
  const m = Math.floor(left);
  const s = Math.floor((left - m) * 60);
  return { period, clock: `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` };
}

/** Game minutes played at `nowMs` (0 before tip-off, 48 at the end). */
function gameMinute(m: MilestoneRecord, nowMs: number): number {
  if (nowMs <= m.start_ms) return 0;
  return Math.min(GAME_MINUTES, ((nowMs - m.start_ms) / GAME_REAL_MS) * GAME_MINUTES);
}

/** The scoring plays up to `nowMs`. */
function plays(seed: number, m: MilestoneRecord, nowMs: number): Play[] {
  const home = String(m.details.home_team ?? 'Home');
  const away = String(m.details.away_team ?? 'Away');
  const upTo = gameMinute(m, nowMs);
  const out: Play[] = [];
  let hs = 0;
  let as = 0;
  for (let minute = 0; minute < Math.floor(upTo * 4) / 4; minute += 0.25) {
    for (const [team, side] of [[home, 'h'], [away, 'a']] as const) {
      const u = unit(seed, m.id, 'play', minute, side);
      if (u > 0.52) continue;
      const points = u < 0.1 ? 3 : u < 0.12 ? 1 : 2;
      if (side === 'h') hs += points;
      else as += points;
      const c = clockOf(minute + unit(seed, m.id, 'sec', minute, side) * 0.25);
      out.push({ ...c, team, points, home_score: hs, away_score: as, description: `${team} ${points === 3 ? 'three-pointer' : points === 1 ? 'free throw' : 'field goal'}` });
    }
  }
  return out;
}

const PBP_TYPES = new Set(['basketball_game', 'football_game']);

export function milestoneDetails(seed: number, m: MilestoneRecord, nowMs: number, includePlayerStats = false): Record<string, unknown> {
  if (PBP_TYPES.has(m.type)) {
    const ps = plays(seed, m, nowMs);
    const last = ps[ps.length - 1];
    const minute = gameMinute(m, nowMs);
    const status = nowMs < m.start_ms ? 'scheduled' : minute >= GAME_MINUTES ? 'final' : 'in_progress';
    const c = clockOf(minute);
    const details: Record<string, unknown> = {
      status,
      home_team: m.details.home_team ?? 'Home',
      away_team: m.details.away_team ?? 'Away',
      home_points: last?.home_score ?? 0,
      away_points: last?.away_score ?? 0,
      period: status === 'scheduled' ? 0 : c.period,
      clock: status === 'final' ? '00:00' : status === 'scheduled' ? '12:00' : c.clock,
      last_play: last ? last.description : null,
      start_ts: Math.floor(m.start_ms / 1000),
    };
    if (includePlayerStats) {
      const roster = (m.details.players as string[] | undefined) ?? [];
      details.player_stats = roster.map((name, i) => ({ name, points: Math.floor(unit(seed, m.id, 'player', i) * (minute + 1) * 0.6) }));
    }
    return details;
  }
  if (m.type === 'political_race') {
    const end = m.end_ms ?? m.start_ms + 6 * 3_600_000;
    const frac = nowMs <= m.start_ms ? 0 : Math.min(1, (nowMs - m.start_ms) / Math.max(1, end - m.start_ms));
    const candidates = (m.details.candidates as string[] | undefined) ?? [];
    const weights = candidates.map((_, i) => 0.5 + unit(seed, m.id, 'cand', i));
    const sum = weights.reduce((a, b) => a + b, 0) || 1;
    const total = Math.floor(frac * Number(m.details.expected_votes ?? 1_000_000));
    return {
      status: frac === 0 ? 'upcoming' : frac >= 1 ? 'final' : 'counting',
      reporting_pct: round(frac * 100, 1),
      candidates: candidates.map((name, i) => ({ name, votes: Math.floor((total * weights[i]!) / sum), pct: round((100 * weights[i]!) / sum, 1) })),
    };
  }
  if (m.type === 'economic_release') {
    const released = nowMs >= m.start_ms;
    const consensus = Number(m.details.consensus ?? 0);
    return {
      status: released ? 'released' : 'scheduled',
      indicator: m.details.indicator ?? m.title,
      release_ts: Math.floor(m.start_ms / 1000),
      consensus,
      prior: m.details.prior ?? null,
      actual: released ? round(consensus + (unit(seed, m.id, 'actual') - 0.5) * 0.4, 1) : null,
    };
  }
  return { status: nowMs < m.start_ms ? 'scheduled' : 'live' };
}

/** Play-by-play for game types; null for types without it. */
export function gameStats(seed: number, m: MilestoneRecord, nowMs: number): { pbp: { periods: { events: Record<string, unknown>[] }[] } | null } {
  if (!PBP_TYPES.has(m.type)) return { pbp: null };
  const ps = plays(seed, m, nowMs);
  const periods = Math.max(...ps.map((p) => p.period), nowMs > m.start_ms ? clockOf(gameMinute(m, nowMs)).period : 0);
  return {
    pbp: { periods: Array.from({ length: periods }, (_, i) => ({ events: ps.filter((p) => p.period === i + 1).map((p) => ({ ...p })) })) },
  };
}

// ---- index prices (crypto) -------------------------------------------------------------------

export const RANGE_STEPS: Record<string, { spanMs: number; stepMs: number }> = {
  '15min': { spanMs: 15 * 60_000, stepMs: 5_000 },
  '1h': { spanMs: 3_600_000, stepMs: 30_000 },
  '1d': { spanMs: 86_400_000, stepMs: 300_000 },
  '1w': { spanMs: 7 * 86_400_000, stepMs: 3_600_000 },
};
export const RANGE_OPTIONS = Object.keys(RANGE_STEPS);
export const DEFAULT_RANGE = '1d';

export function indexPrice(seed: number, index: string, base: number, tMs: number): number {
  const slow = smooth(seed, `${index}/slow`, tMs, 7 * 86_400_000) * 0.08;
  const mid = smooth(seed, `${index}/mid`, tMs, 6 * 3_600_000) * 0.02;
  const fast = smooth(seed, `${index}/fast`, tMs, 60_000) * 0.002;
  return round(base * (1 + slow + mid + fast), 2);
}

export function series(range: string, endMs: number, f: (t: number) => number): { ts: number; value: number }[] {
  const r = RANGE_STEPS[range]!;
  const last = Math.floor(endMs / r.stepMs) * r.stepMs;
  const out: { ts: number; value: number }[] = [];
  for (let t = last - r.spanMs + r.stepMs; t <= last; t += r.stepMs) out.push({ ts: Math.floor(t / 1000), value: f(t) });
  return out;
}

// ---- weather ---------------------------------------------------------------------------------

export interface City {
  name: string;
  /** hours behind UTC (for the daily cycle) */
  utcOffset: number;
  baseF: number;
  stations: string[];
}

export const CITIES: Record<string, City> = {
  nyc: { name: 'New York City', utcOffset: -5, baseF: 56, stations: ['KNYC', 'KLGA', 'KJFK'] },
  chicago: { name: 'Chicago', utcOffset: -6, baseF: 51, stations: ['KMDW', 'KORD'] },
  miami: { name: 'Miami', utcOffset: -5, baseF: 78, stations: ['KMIA', 'KFLL'] },
  austin: { name: 'Austin', utcOffset: -6, baseF: 70, stations: ['KAUS', 'KATT'] },
  los_angeles: { name: 'Los Angeles', utcOffset: -8, baseF: 65, stations: ['KLAX', 'KCQT'] },
  denver: { name: 'Denver', utcOffset: -7, baseF: 52, stations: ['KDEN', 'KAPA'] },
  philadelphia: { name: 'Philadelphia', utcOffset: -5, baseF: 57, stations: ['KPHL', 'KPNE'] },
};

export interface Calibration {
  config_version: string;
  effective_at_ms: number;
  published_at_ms: number;
  change_reason: string;
  city_reference_c: number;
  stations: { station_id: string; weight: number; offset_c: number }[];
}

const CALIBRATION_EPOCHS = [Date.UTC(2024, 0, 1), Date.UTC(2024, 6, 1), Date.UTC(2025, 0, 1), Date.UTC(2025, 6, 1)];

/** The city's calibration records, ascending by effective time (Celsius). */
export function calibrations(seed: number, cityId: string): Calibration[] {
  const city = CITIES[cityId]!;
  return CALIBRATION_EPOCHS.map((epoch, v) => {
    const effective = epoch + Math.floor(unit(seed, cityId, 'cal', v) * 14) * 86_400_000;
    const raw = city.stations.map((_, i) => 1 + unit(seed, cityId, 'w', v, i));
    const sum = raw.reduce((a, b) => a + b, 0);
    return {
      config_version: `v${v + 1}`,
      effective_at_ms: effective,
      published_at_ms: effective - 3 * 86_400_000,
      change_reason: v === 0 ? 'initial calibration' : 'seasonal recalibration',
      city_reference_c: round(((city.baseF - 32) * 5) / 9 + (unit(seed, cityId, 'ref', v) - 0.5), 2),
      stations: city.stations.map((station_id, i) => ({ station_id, weight: round(raw[i]! / sum, 4), offset_c: round((unit(seed, cityId, 'off', v, i) - 0.5) * 0.6, 2) })),
    };
  });
}

export function calibrationAt(seed: number, cityId: string, tMs: number): Calibration {
  const all = calibrations(seed, cityId);
  let pick = all[0]!;
  for (const c of all) if (c.effective_at_ms <= tMs) pick = c;
  return pick;
}

/** Air temperature (F) of a city at `tMs`: season, daily cycle and weather. */
export function temperatureF(seed: number, cityId: string, tMs: number): number {
  const city = CITIES[cityId]!;
  const day = tMs / 86_400_000;
  const season = -14 * Math.cos(((day - 15) / 365.25) * 2 * Math.PI);
  const localHour = ((tMs / 3_600_000 + city.utcOffset) % 24 + 24) % 24;
  const daily = -8 * Math.cos(((localHour - 3) / 24) * 2 * Math.PI);
  const weather = 6 * smooth(seed, `${cityId}/wx`, tMs, 2 * 86_400_000) + 1.5 * smooth(seed, `${cityId}/gust`, tMs, 2 * 3_600_000);
  return city.baseF + season + daily + weather;
}

export interface WeatherPoint {
  t: number;
  status: string;
  v?: number;
  contributors?: number;
  receipt_basis?: string;
  stations?: Record<string, unknown>[];
}

/** One index point per minute in [fromMs, toMs] (not after now); the newest minute is incomplete. */
export function weatherPoints(seed: number, cityId: string, fromMs: number, toMs: number, nowMs: number, detailed: boolean): WeatherPoint[] {
  const city = CITIES[cityId]!;
  const out: WeatherPoint[] = [];
  const first = Math.ceil(fromMs / 60_000) * 60_000;
  const last = Math.min(toMs, nowMs);
  for (let t = first; t <= last; t += 60_000) {
    const age = nowMs - t;
    const status = age < 60_000 ? 'incomplete' : age < 5 * 60_000 ? 'preliminary' : 'final';
    const cal = calibrationAt(seed, cityId, t);
    const air = temperatureF(seed, cityId, t);
    const readings = city.stations.map((station_id, i) => {
      const temp = round(air + (cal.stations[i]?.offset_c ?? 0) * 1.8 + (unit(seed, cityId, station_id, t) - 0.5) * 0.8, 1);
      return { station_id, code: station_id.slice(1), source: 'asos', temp_f: temp, obs_time_ms: t, received_at_ms: t + 20_000 + Math.floor(unit(seed, station_id, 'rx', t) * 30_000), primary_code: city.stations[0]!.slice(1) };
    });
    const v = round(readings.reduce((acc, r, i) => acc + r.temp_f * (cal.stations[i]?.weight ?? 1 / readings.length), 0), 1);
    const p: WeatherPoint = { t, status };
    if (status !== 'incomplete') p.v = v;
    if (detailed) {
      p.contributors = readings.length;
      p.receipt_basis = 'received_at';
      p.stations = readings;
    }
    out.push(p);
  }
  return out;
}
