// The files alerts and local conditional orders are kept in, one of each per profile: their
// schemas (a file is parsed before anything in it is armed), the local order's record form
// (decimal strings on disk, decimal.js in memory) and the read that moves an unreadable file
// aside instead of losing it.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { AlertCondition, LocalLimit, PriceSource, type LocalState } from '../../src-shared/ipc/tools';
import { Decimal } from '../../src-shared/money';
import type { LocalOrder } from '../conditional/engine';

const D = (s: string) => new Decimal(s);
const Dec = z.string().regex(/^-?\d+(?:\.\d+)?$/);

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

export const LocalFile = z.object({
  version: z.literal(1),
  orders: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['stop', 'take_profit', 'trailing_stop', 'bracket_target']),
      ticker: z.string(),
      side: z.enum(['bid', 'ask']),
      count: Dec,
      source: PriceSource,
      trigger: Dec.nullable(),
      trailTicks: z.number().int().nullable(),
      best: Dec.nullable(),
      limit: LocalLimit,
      tick: Dec,
      state: z.enum(['waiting_entry', 'armed', 'triggered', 'sent', 'canceled', 'failed', 'held', 'kill_held', 'missed', 'disarmed', 'filled']),
      heldFrom: z.enum(['armed', 'waiting_entry', 'held']).optional(),
      ocoGroup: z.string().nullable(),
      entryOrderId: z.string().nullable(),
      sentOrderIds: z.array(z.string()),
      filled: Dec,
      subaccount: z.number().int().optional(),
      confirmed: z.boolean().optional(),
      detail: z.string(),
      createdAt: z.number(),
      updatedAt: z.number(),
    }),
  ),
});
type LocalRecord = z.infer<typeof LocalFile>['orders'][number];

export function toRecord(o: LocalOrder): LocalRecord {
  return {
    id: o.id,
    kind: o.kind,
    ticker: o.ticker,
    side: o.side,
    count: o.count.toString(),
    source: o.source,
    trigger: o.trigger?.toString() ?? null,
    trailTicks: o.trailTicks,
    best: o.best?.toString() ?? null,
    limit: o.limit,
    tick: o.tick.toString(),
    state: o.state,
    ocoGroup: o.ocoGroup,
    entryOrderId: o.entryOrderId,
    sentOrderIds: o.sentOrderIds,
    filled: o.filled.toString(),
    ...(o.subaccount !== undefined ? { subaccount: o.subaccount } : {}),
    ...(o.confirmed ? { confirmed: true } : {}),
    ...(o.state === 'kill_held' && o.heldFrom ? { heldFrom: o.heldFrom } : {}),
    detail: o.detail,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function fromRecord(r: LocalRecord): LocalOrder {
  return {
    ...r,
    count: D(r.count),
    trigger: r.trigger === null ? null : D(r.trigger),
    best: r.best === null ? null : D(r.best),
    tick: D(r.tick),
    filled: D(r.filled),
    subaccount: r.subaccount,
    verify: false,
    cancelAfterSend: false,
    confirmed: r.confirmed === true,
    state: r.state as LocalState,
  };
}

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
