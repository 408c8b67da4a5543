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

export const EmptyBody = z.union([z.object({}).strict(), z.null(), z.undefined()]).transform(() => ({}));
