// Stream primitives: the number and time formats that stream messages use.
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Numbers and stamps
// ---------------------------------------------------------------------------------------------

export const BOOK_PRICE_RE = /^(?:0(?:\.\d{1,4}0*)?|1(?:\.0+)?)$/;
const LEVEL_COUNT_RE = /^\d+(?:\.\d{1,2}0*)?$/;
export const SIGNED_COUNT_RE = /^-?\d+(?:\.\d{1,2}0*)?$/;
export const STREAM_TIME_RE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** A book price in dollars: 0..1 on the 0.0001 tick ("0.53", "0.5300"; zeros past 4 decimals tolerated). */
export const BookPrice = z.string().regex(BOOK_PRICE_RE, 'expected a price between 0 and 1 on the 0.0001 tick');
/** A non-negative level size (`_fp`, 0.01 granularity; trailing zeros past 2 decimals tolerated). */
export const LevelCount = z.string().regex(LEVEL_COUNT_RE, 'expected a non-negative count with at most 2 decimals');
/** A signed size change (`delta_fp`). */
export const SignedCount = z.string().regex(SIGNED_COUNT_RE, 'expected a signed count with at most 2 decimals');
/** An exact 8-decimal value (index values, windowed averages). */
export const Decimal8 = z.string().regex(/^-?\d+\.\d{8}$/, 'expected a decimal string with exactly 8 decimals');
/** An RFC 3339 date-time as the stream sends it (`2025-01-01T12:00:00.123Z`, or with an offset). */
export const StreamTime = z.string().regex(STREAM_TIME_RE, 'expected an RFC 3339 date-time');

export const Sid = z.number().int().positive();
export const Seq = z.number().int().positive();
export const CommandId = z.number().int().nonnegative();

