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
