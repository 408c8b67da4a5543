// Reading liberally without losing sight of what was tolerated. The real service adds message
// types, lifecycle event types and enum values over time and leaves out fields the spec calls
// required; the readers accept all of that and note each tolerance here as a "novelty". A caller
// that reads (the terminal) logs each new kind once; a caller that writes (the embedded exchange
// checking its own frames) treats any novelty but an extra field as a fault.
import { z } from 'zod';

export type NoveltyKind =
  /** a stream message `type` no schema knows */
  | 'type'
  /** a `market_lifecycle_v2` (or multivariate) `event_type` no schema knows */
  | 'event_type'
  /** a value outside an enum the spec or the SDK lists */
  | 'enum'
  /** a field the spec requires but the real service sometimes leaves out */
  | 'missing'
  /** a field no schema names (kept and passed on) */
  | 'extra';

export interface Novelty {
  readonly kind: NoveltyKind;
  /** What exactly, stable across frames: `fill.action=sell_partial`, `fill: no fee_cost`. */
  readonly key: string;
}

/** Novelties that a writer must never produce (an extra field is harmless; the rest mean the writer is off the spec). */
export function isDeviation(n: Novelty): boolean {
  return n.kind !== 'extra';
}

// The collector of the parse in progress. zod gives transforms no caller context, and parses are
// synchronous, so one slot that `collectNovelties` sets and restores is enough (and re-entrant).
let active: Novelty[] | null = null;

/** Note a tolerance; a no-op outside `collectNovelties` (a parse nobody asked about). */
export function noteNovelty(kind: NoveltyKind, key: string): void {
  active?.push({ kind, key });
}

/** Run a synchronous parse and return what it tolerated along with its result. */
export function collectNovelties<T>(parse: () => T): [T, Novelty[]] {
  const outer = active;
  const mine: Novelty[] = [];
  active = mine;
  try {
    return [parse(), mine];
  } finally {
    active = outer;
  }
}

/**
 * Remembers which novelties were already reported, so a log names each new kind once and not
 * once per frame (a field the service always leaves out would otherwise flood the log).
 */
export class NoveltyLog {
  private readonly seen = new Set<string>();

  /** Those of `novelties` not reported before (each at most once), now marked as reported. */
  fresh(novelties: readonly Novelty[]): Novelty[] {
    const out: Novelty[] = [];
    for (const n of novelties) {
      const id = `${n.kind}:${n.key}`;
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      out.push(n);
    }
    return out;
  }
}

/** One log for the whole process: a kind is reported once per process, whatever the session. */
export const processNoveltyLog = new NoveltyLog();

/** `sell_partial` -> `"sell_partial"`, bounded so a hostile value cannot flood a log line. */
function shown(v: string): string {
  return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v);
}

/**
 * An enum read liberally: the listed values and any other string (kept as sent, noted as an
 * `enum` novelty under `what`). `aliases` maps another spelling of a known value onto it (the
 * SDK's `cancelled` for the spec's `canceled`). The output type keeps the known values for narrowing.
 */
export function openEnum<const V extends readonly string[]>(what: string, values: V, aliases: Readonly<Record<string, V[number]>> = {}) {
  const known: ReadonlySet<string> = new Set(values);
  return z.string().transform((v): V[number] | (string & {}) => {
    const value = Object.prototype.hasOwnProperty.call(aliases, v) ? aliases[v]! : v;
    if (!known.has(value)) noteNovelty('enum', `${what}=${shown(value)}`);
    return value;
  });
}

/**
 * For an object transform: notes each of `fields` absent from `v` as a `missing` novelty and
 * returns `v`. Used on fields the spec calls required that the real service sometimes leaves
 * out (optional on read).
 */
export function noteMissing<T extends object>(what: string, v: T, fields: readonly (keyof T & string)[]): T {
  for (const f of fields) if (v[f] === undefined) noteNovelty('missing', `${what}: no ${f}`);
  return v;
}

/** Notes the keys of `value` outside `known` as `extra` novelties (top level only). */
export function noteExtraKeys(what: string, value: Record<string, unknown>, known: ReadonlySet<string>): void {
  if (active === null) return;
  for (const k in value) if (!known.has(k)) noteNovelty('extra', `${what}.${k}`);
}

/** The object keys a schema names (through optional, pipes, unions), for `noteExtraKeys`. */
export function namedKeys(schema: z.ZodType): Set<string> {
  const out = new Set<string>();
  const walk = (s: z.ZodType): void => {
    if (s instanceof z.ZodObject) for (const k of Object.keys(s.shape)) out.add(k);
    else if (s instanceof z.ZodPipe) walk(s.in as z.ZodType);
    else if (s instanceof z.ZodUnion) for (const o of s.options) walk(o as z.ZodType);
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) walk(s.unwrap() as z.ZodType);
  };
  walk(schema);
  return out;
}
