// The files alerts and local conditional orders are kept in, one of each per profile: their
// schemas (a file is parsed before anything in it is armed), the local order's record form
// (decimal strings on disk, decimal.js in memory) and the read that moves an unreadable file
// aside instead of losing it.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { AlertCondition } from '../../src-shared/ipc/tools';
import { fromRecord, LocalRecord, toRecord } from '../conditional/local-record';

export const AlertsFile = z.object({
  version: z.literal(1),
  alerts: z.array(
    z.object({
      id: z.string(),
      condition: AlertCondition,
      note: z.string(),
      rearm: z.boolean(),
      sound: z.boolean(),
      state: z.enum(['armed', 'fired', 'silenced']),
      createdAt: z.number(),
      firedAt: z.number().nullable(),
      fireCount: z.number(),
    }),
  ),
  history: z.array(z.object({ id: z.string(), alertId: z.string(), ts: z.number(), title: z.string(), body: z.string() })),
});

export const LocalFile = z.object({ version: z.literal(1), orders: z.array(LocalRecord) });
export { toRecord, fromRecord };

/** Reads a profile's file; one that cannot be read is moved aside (never lost) and reported. */
export function readOrMoveAside<T>(file: string, schema: z.ZodType<T>, empty: T, problem: (m: string) => void): T {
  if (!existsSync(file)) return empty;
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  } catch (e) {
    const aside = `${file}.unreadable-${Date.now()}`;
    try {
      renameSync(file, aside);
    } catch {
      /* left in place */
    }
    problem(`${file} could not be read (${(e as Error).message.slice(0, 300)}); it was moved to ${aside} and nothing from it is armed`);
    return empty;
  }
}
