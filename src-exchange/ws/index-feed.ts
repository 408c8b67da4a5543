// A seeded stand-in for the CF Benchmarks reference-rate feeds. A value is a pure function of
// (seed, index id, tick number), so two exchanges with one seed stream the same numbers and a
// test can recompute any of them. Values are integers of 1e-8 dollars (exactly 8 decimals on
// the wire), computed with BigInt: no float touches them.

import { fmix32 } from '../engine/hash';

/** The indices offered (two USD reference rates, as the spec's examples). */
export const INDEX_IDS = ['BRTI', 'ETHUSD_RTI'] as const;
export type IndexId = (typeof INDEX_IDS)[number];

/**
 * The Pyth underlyings offered on `pyth_value` (a few of the symbols the service lists on
 * docs.kalshi.com/websockets/pyth-value). Any other symbol may be subscribed, as on the service
 * ("a successful subscribe response alone does not confirm that a requested ticker is streaming");
 * it simply never streams.
 */
export const PYTH_UNDERLYINGS = ['Metal.XAU/USD', 'Metal.XAG/USD', 'Metal.XPT/USD', 'Commodities.Index.PYTHOIL/USD', 'Commodities.Index.NATGAS/USD'] as const;
export type PythUnderlying = (typeof PYTH_UNDERLYINGS)[number];

export function isPythUnderlying(id: string): id is PythUnderlying {
  return (PYTH_UNDERLYINGS as readonly string[]).includes(id);
}

/** Starting level of each series, in 1e-8 dollars. */
const BASE: Record<IndexId | PythUnderlying, bigint> = {
  BRTI: 95_000n * 100_000_000n,
  ETHUSD_RTI: 3_300n * 100_000_000n,
  'Metal.XAU/USD': 2_650n * 100_000_000n,
  'Metal.XAG/USD': 31n * 100_000_000n,
  'Metal.XPT/USD': 950n * 100_000_000n,
  'Commodities.Index.PYTHOIL/USD': 70n * 100_000_000n,
  'Commodities.Index.NATGAS/USD': 320_000_000n,
};

/** Anchors every this many ticks (60 s at 5 Hz); values between them move linearly plus jitter. */
const ANCHOR_TICKS = 300n;
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export function isIndexId(id: string): id is IndexId {
  return (INDEX_IDS as readonly string[]).includes(id);
}

function hashString(s: string): number {
  let h = 0x811c_9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x0100_0193);
  return h >>> 0;
}

/** Exactly 8 decimals: 9500012345678n -> "95000.12345678". */
export function formatE8(units: bigint): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(9, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -8)}.${digits.slice(-8)}`;
}

export interface WindowedAverage {
  value: string;
  window_size: number;
  window_start_ts_ms: number;
  window_end_ts_exclusive: number;
}

export class IndexGenerator {
  private readonly salt: number;

  constructor(
    seed: number,
    /** tick length in ms (200 = 5 Hz) */
    readonly tickMs = 200,
  ) {
    this.salt = fmix32((seed | 0) ^ 0x5eed_1dc5);
  }

  /** A uniform integer in [-span, span] for (index, stream, n). */
  private noise(index: IndexId | PythUnderlying, stream: number, n: bigint, span: number): bigint {
    const lo = Number(BigInt.asUintN(32, n));
    const hi = Number(BigInt.asUintN(32, n >> 32n));
    const h = fmix32(this.salt ^ hashString(index) ^ fmix32(stream ^ fmix32(lo ^ fmix32(hi + 0x9e37_79b9))));
    return BigInt((h % (2 * span + 1)) - span);
  }

  /** Anchor k: within +-0.5% of the base. */
  private anchor(index: IndexId | PythUnderlying, k: bigint): bigint {
    const base = BASE[index];
    return base + (base / 1_000_000n) * this.noise(index, 1, k, 5_000);
  }

  /** The index value at tick `n` (time n * tickMs), in 1e-8 dollars. */
  valueAt(index: IndexId | PythUnderlying, n: number): bigint {
    const t = BigInt(n);
    const k = t >= 0n ? t / ANCHOR_TICKS : (t - ANCHOR_TICKS + 1n) / ANCHOR_TICKS;
    const pos = t - k * ANCHOR_TICKS;
    const a = this.anchor(index, k);
    const b = this.anchor(index, k + 1n);
    const jitter = (BASE[index] / 100_000_000n) * this.noise(index, 2, t, 1_000);
    return a + ((b - a) * pos) / ANCHOR_TICKS + jitter;
  }

  /** The tick a moment falls in. */
  tickOf(ms: number): number {
    return Math.floor(ms / this.tickMs);
  }

  /** Mean of the ticks in [firstTick, lastTick] (floor division: exact 8-decimal units). */
  average(index: IndexId, firstTick: number, lastTick: number): WindowedAverage {
    let sum = 0n;
    for (let n = firstTick; n <= lastTick; n++) sum += this.valueAt(index, n);
    const size = lastTick - firstTick + 1;
    return {
      value: formatE8(sum / BigInt(size)),
      window_size: size,
      window_start_ts_ms: firstTick * this.tickMs,
      window_end_ts_exclusive: (lastTick + 1) * this.tickMs,
    };
  }

  /** The 5 Hz message for the tick containing `nowMs`. */
  fastMsg(index: IndexId, nowMs: number) {
    const n = this.tickOf(nowMs);
    return { index_id: index, value_usd: formatE8(this.valueAt(index, n)), source_ts_ms: n * this.tickMs, received_at: nowMs };
  }

  /** The `pyth_value` msg for the tick containing `nowMs`. */
  pythMsg(underlying: PythUnderlying, nowMs: number) {
    const n = this.tickOf(nowMs);
    return { underlying_ticker: underlying, value_usd: formatE8(this.valueAt(underlying, n)), source_ts_ms: n * this.tickMs, received_at: nowMs };
  }

  /**
   * The once-a-second message at `nowMs`: the raw upstream frame, the average of the last 60 s of
   * ticks, and, only in the final minute before a quarter-hour close (:00, :15, :30, :45), the
   * running average of that closing minute so far.
   */
  valueMsg(index: IndexId, nowMs: number) {
    const n = this.tickOf(nowMs);
    const perMinute = Math.round(MINUTE_MS / this.tickMs);
    const value = formatE8(this.valueAt(index, n));
    const msg: {
      index_id: IndexId;
      received_at: number;
      data: string;
      avg_60s_data: WindowedAverage;
      last_60s_windowed_average_15min?: WindowedAverage;
    } = {
      index_id: index,
      received_at: nowMs,
      data: JSON.stringify({ type: 'value', id: index, value, time: n * this.tickMs }),
      avg_60s_data: this.average(index, n - perMinute + 1, n),
    };
    const close = (Math.floor(nowMs / QUARTER_HOUR_MS) + 1) * QUARTER_HOUR_MS;
    if (close - nowMs <= MINUTE_MS) {
      msg.last_60s_windowed_average_15min = this.average(index, this.tickOf(close - MINUTE_MS), n);
    }
    return msg;
  }
}
