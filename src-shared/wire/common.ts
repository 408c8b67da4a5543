// Primitive wire types shared by every family. Strings stay strings: decimals are checked
// for shape here and turned into decimal.js values or integer ticks only where used.
import { z } from 'zod';

/** A dollar decimal string as sent (`*_dollars`): up to 6 decimals, optionally signed. */
export const Dollars = z.string().regex(/^-?\d+(?:\.\d{1,6})?$/, 'expected a dollar decimal string');
/** A fixed-point count string (`*_fp`): up to 2 decimals, optionally signed. */
export const Count = z.string().regex(/^-?\d+(?:\.\d{1,2})?$/, 'expected a count decimal string with at most 2 decimals');
/** Lenient readers for what a remote exchange may send (more decimals than we emit). */
export const DollarsIn = z.string().regex(/^-?\d+(?:\.\d+)?$/, 'expected a decimal string');
export const CountIn = DollarsIn;

/** A request price: non-negative multiple of 0.0001 dollars, as a string. */
export const PriceRequest = z
  .string()
  .regex(/^\d+(?:\.\d{1,4})?$/, 'price must be a non-negative dollar amount with at most 4 decimals (tick 0.0001)');
/** A request count: positive, at most 2 decimals. */
export const CountRequest = z
  .string()
  .regex(/^\d+(?:\.\d{1,2})?$/, 'count must be a non-negative decimal with at most 2 decimals')
  .refine((s) => /[1-9]/.test(s), 'count must be positive');

export const UnixSeconds = z.number().int().nonnegative();
export const UnixMillis = z.number().int().nonnegative();
export const Rfc3339 = z.string().min(1);

export const Subaccount = z.number().int().min(0).max(63);
export const ExchangeIndex = z.number().int().min(-1);
/**
 * `exchange_index` where the spec requires it on an answer (market positions, fills,
 * settlements, indexed balances) and the terminal acts on it nowhere: absent reads as 0 (a
 * production positions answer of 2026-05-24 had none; every production shard is 0 today). A value
 * of the wrong type is still refused.
 */
export const ExchangeIndexRead = ExchangeIndex.default(0);

/** A list that may arrive as JSON null: read as empty. */
export const nullableArray = <T extends z.ZodTypeAny>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);

export const Cursor = z.string().optional();
/** The standard page envelope's tail. The array key differs per endpoint. */
export const PageTail = {
  cursor: z.string().nullish(),
  has_next: z.boolean().optional(),
};

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Ticker-ish identifiers: non-empty, no commas or whitespace. */
export const Ticker = z.string().min(1).max(200).regex(/^[^\s,]+$/, 'ticker must be non-empty with no commas or spaces');



// ---------------------------------------------------------------------------
// Helpers shared by the resource families (added with the endpoint table).

/**
 * A timestamp that the spec sends as integer Unix seconds but the SDK (and so a real
 * exchange) sometimes sends as an RFC 3339 string or numeric text. Read as integer seconds.
 */
export const UnixTs = z.union([UnixSeconds, z.string().min(1)]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  if (/^\d+$/.test(v)) return Number(v);
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: `expected Unix seconds or an RFC 3339 time, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return Math.floor(ms / 1000);
});

/** An exact decimal that one side sends as text and the other as a JSON number (e.g. `fee_multiplier`). Read as text. */
export const DecimalText = z.union([DollarsIn, z.number().finite().transform((n) => String(n))]);

/** A count that the SDK may send as a whole-contract integer (e.g. `contracts_limit`). Read as count text. */
export const CountText = z.union([CountIn, z.number().int().nonnegative().transform((n) => String(n))]);

/** A request count that may be zero (e.g. decrease `reduce_to`). */
export const CountRequestOrZero = z
  .string()
  .regex(/^\d+(?:\.\d{1,2})?$/, 'count must be a non-negative decimal with at most 2 decimals');

/** A request dollar amount (non-negative, at most 4 decimals), as a string. */
export const DollarsRequest = z
  .string()
  .regex(/^\d+(?:\.\d{1,4})?$/, 'expected a non-negative dollar amount with at most 4 decimals');

/**
 * An answer with no payload (a 204, or `{}`): whatever a remote exchange puts there is ignored.
 * The client hands `undefined` (or '') for an empty body.
 */
export const EmptyResponse = z
  .union([z.object({}).loose(), z.null(), z.undefined(), z.literal('')])
  .transform((): Record<string, never> => ({}));

/** A non-empty identifier (order ids, RFQ ids, user ids ...). */
export const Id = z.string().min(1, 'must be a non-empty id');

/** The exchange instances. */
export const ExchangeInstance = z.enum(['event_contract', 'margined']);

/** `{ error: {...} }` entry of a batch result; every field optional on a remote exchange. */
export const EntryError = z
  .object({ code: z.string().optional(), message: z.string().optional(), details: z.string().optional() })
  .loose();

/**
 * A page: `{ [key]: items, cursor, has_next }`. The items array may arrive as null (read as []).
 * Extra top-level fields are accepted and dropped (envelopes carry no index signature, so the
 * page item type stays precise); the items themselves are loose resources.
 */
export function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  const shape = { [key]: nullableArray(item), ...PageTail } as { [P in K]: ReturnType<typeof nullableArray<T>> } & typeof PageTail;
  return z.object(shape);
}

/**
 * Runs `pre` on the raw value, then `schema`, and types the result with the wire input `In`.
 * Used instead of `z.union` where both branches could fail: a union reports only
 * "Invalid input", this reports the failing field.
 */
export function withInput<In>() {
  return <S extends z.ZodType>(pre: (v: unknown) => unknown, schema: S): z.ZodType<z.output<S>, In> =>
    z.preprocess(pre, schema) as unknown as z.ZodType<z.output<S>, In>;
}

/**
 * A list the spec sends as a bare JSON array and the SDK wraps as `{ [key]: [...] }`.
 * Both are read; the output is always the envelope form so callers have one items key.
 */
export function listOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  const envelope = z.object({ [key]: nullableArray(item) } as { [P in K]: ReturnType<typeof nullableArray<T>> }).loose();
  const schema = envelope.transform((v) => ({ [key]: (v as unknown as Record<K, z.output<T>[]>)[key] }) as { [P in K]: z.output<T>[] });
  return withInput<z.input<T>[] | ({ [P in K]?: z.input<T>[] | null } & Record<string, unknown>)>()(
    (v) => (Array.isArray(v) ? { [key]: v } : v),
    schema,
  );
}

/** A request body that may be absent: no body (or JSON null) reads as `{}`. */
export function optionalBody<S extends z.ZodType>(schema: S) {
  return withInput<z.input<S> | null | undefined>()((v) => v ?? {}, schema);
}

/** A body-less write that tolerates `{}` (the SDK sends an empty object on some PUTs). */
export const EmptyBody = optionalBody(z.object({}).strict());

/** A status enum that also reads the SDK's `cancelled` as the spec's `canceled`. */
export function canceledSpelling<E extends z.ZodEnum>(values: E) {
  return withInput<z.output<E> | 'cancelled'>()((v) => (v === 'cancelled' ? 'canceled' : v), values);
}

/** First defined value among a spec name and its SDK alias; adds a readable issue when neither is present. */
export function pick<T>(ctx: z.RefinementCtx, what: string, ...values: (T | null | undefined)[]): T {
  for (const v of values) if (v !== undefined && v !== null) return v;
  ctx.addIssue({ code: 'custom', message: `missing ${what}` });
  return z.NEVER;
}

/** Two spellings of one request field: at most one value, and equal when both are given. */
export function oneOf<T extends string | number>(ctx: z.RefinementCtx, what: string, a: T | undefined, b: T | undefined): T | undefined {
  if (a !== undefined && b !== undefined && canonicalDecimal(String(a)) !== canonicalDecimal(String(b))) {
    ctx.addIssue({ code: 'custom', message: `${what}: both spellings given with different values` });
  }
  return a ?? b;
}

/** "010.500" -> "10.5", "3.00" -> "3": compares decimal texts by value without floats. */
export function canonicalDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return text;
  const int = (m[2] ?? '').replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const sign = int === '0' && frac === '' ? '' : (m[1] ?? '');
  return sign + int + (frac ? '.' + frac : '');
}
