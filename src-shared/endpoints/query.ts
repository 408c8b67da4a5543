// Query-string primitives: accept typed values from our client and strings from a URL.
import { z } from 'zod';

/** Integer from a number or its decimal text. */
export const qInt = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z.union([z.number(), z.string().regex(/^-?\d+$/, 'expected an integer').transform(Number)]).pipe(z.number().int().min(min).max(max));

/** Boolean from true/false or "true"/"false" (z.coerce.boolean would read "false" as true). */
export const qBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** A list parameter; the server hands the schema an array whatever the encoding (see EndpointDef.arrays). */
export const qList = (item: z.ZodType<string> = z.string().min(1, 'list entries must be non-empty'), max = 10_000, min = 0) =>
  z.union([item.transform((v) => [v]), z.array(item)]).pipe(z.array(z.string()).min(min).max(max));

/** Standard page parameters. */
export const pageQuery = {
  limit: qInt(1, 1000).optional(),
  cursor: z.string().optional(),
};

export const noParams = z.object({}).strict();
export const noQuery = z.object({}).strict();

/**
 * A comma-joined list parameter (`?tickers=a,b`). Accepts the joined text, one value, or an array
 * (of values or joined texts) and reads it as an array of entries.
 */
export const qCsv = (item: z.ZodType<string, string> = z.string().min(1, 'list entries must be non-empty'), max = 10_000, min = 0, what = 'list') =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')))
    .pipe(
      z
        .array(item)
        .min(min, `${what} needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`)
        .max(max, `${what} takes at most ${max} entries`),
    );

/** A repeated list parameter (`?ids=a&ids=b`) with readable bounds; entries may not contain commas when `item` says so. */
export const qRepeat = (item: z.ZodType<string, string> = z.string().min(1, 'list entries must be non-empty'), max = 10_000, min = 0, what = 'list') =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z
        .array(item)
        .min(min, `${what} needs at least ${min} entr${min === 1 ? 'y' : 'ies'}`)
        .max(max, `${what} takes at most ${max} entries`),
    );

/** A repeated integer list parameter (`?percentiles=10&percentiles=90`). */
export const qIntList = (min: number, max: number, maxItems = 10_000, minItems = 0, what = 'list') =>
  z
    .union([z.number(), z.string(), z.array(z.union([z.number(), z.string()]))])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z
        .array(qInt(min, max))
        .min(minItems, `${what} needs at least ${minItems} entr${minItems === 1 ? 'y' : 'ies'}`)
        .max(maxItems, `${what} takes at most ${maxItems} entries`),
    );

/** `subaccount` in a query: 0 (primary) to 63. */
export const qSubaccount = qInt(0, 63);
/** `exchange_index` in a query: a shard number, or -1 to auto-route by ticker. */
export const qExchangeIndex = qInt(-1, 1_000_000);
/** A Unix-seconds bound in a query. */
export const qTs = qInt(0);

/**
 * Candlestick `period_interval`. The spec's values are seconds (60, 3600, 86400); the SDK sends
 * minutes (1, 60, 1440). 60 means one minute as the spec says; 1 and 1440 are read as the SDK's
 * minute and day. The output is always seconds: 60, 3600 or 86400.
 */
export const qPeriodInterval = qInt().pipe(
  z
    .number()
    .refine((n) => [1, 60, 1440, 3600, 86400].includes(n), 'period_interval must be 60, 3600 or 86400 seconds (or the SDK minutes 1, 60, 1440)')
    .transform((n) => (n === 1 ? 60 : n === 1440 ? 86400 : n)),
);
