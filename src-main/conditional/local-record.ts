// A local conditional order, declared once: the record a profile's file keeps (decimal strings
// on disk, checked with zod before anything is armed), and from it the engine's in-memory form
// (the same fields, decimal.js where the record has a decimal string, plus what only a running
// engine knows). toRecord / fromRecord convert field by field from the declared lists.
import { z } from 'zod';
import { LocalLimit, PriceSource, type LocalState } from '../../src-shared/ipc/tools';
import { Decimal } from '../../src-shared/money';

const Dec = z.string().regex(/^-?\d+(?:\.\d+)?$/);
const LOCAL_STATES = ['waiting_entry', 'armed', 'triggered', 'sent', 'canceled', 'failed', 'held', 'kill_held', 'missed', 'disarmed', 'filled'] as const satisfies readonly LocalState[];

export const LocalRecord = z.object({
  id: z.string(),
  kind: z.enum(['stop', 'take_profit', 'trailing_stop', 'bracket_target']),
  ticker: z.string(),
  side: z.enum(['bid', 'ask']),
  /** contracts the order will send (a bracket's stop grows with its entry's fills) */
  count: Dec,
  source: PriceSource,
  trigger: Dec.nullable(),
  trailTicks: z.number().int().nullable(),
  /** a trailing stop's best price seen */
  best: Dec.nullable(),
  limit: LocalLimit,
  tick: Dec,
  state: z.enum(LOCAL_STATES),
  /** while `kill_held`: the state the kill switch took it from */
  heldFrom: z.enum(['armed', 'waiting_entry', 'held']).optional(),
  ocoGroup: z.string().nullable(),
  entryOrderId: z.string().nullable(),
  /** a bracket's target orders at the exchange, and what has filled of them */
  sentOrderIds: z.array(z.string()),
  filled: Dec,
  subaccount: z.number().int().optional(),
  /** the trader confirmed it past the gate's confirmation thresholds when setting it up (or firing it) */
  confirmed: z.boolean().optional(),
  detail: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type LocalRecord = z.infer<typeof LocalRecord>;

/** The record's fields that are decimal strings on disk and decimal.js in memory. */
const DECIMAL_KEYS = ['count', 'trigger', 'best', 'tick', 'filled'] as const;
type DecimalKey = (typeof DECIMAL_KEYS)[number];
const RECORD_KEYS = Object.keys(LocalRecord.shape) as (keyof LocalRecord)[];

export type LocalOrder = Omit<LocalRecord, DecimalKey | 'subaccount' | 'confirmed' | 'heldFrom'> & { [K in DecimalKey]: null extends LocalRecord[K] ? Decimal | null : Decimal } & {
  subaccount: number | undefined;
  confirmed: boolean;
  heldFrom?: LocalRecord['heldFrom'] | undefined;
  /** set by a restore: the first quote decides whether the trigger was passed while the terminal was down */
  verify: boolean;
  /** a cancel that arrived while the trigger's order was on its way: cancel what was sent */
  cancelAfterSend: boolean;
};

export function toRecord(o: LocalOrder): LocalRecord {
  const r: Record<string, unknown> = {};
  for (const k of RECORD_KEYS) {
    const v = o[k];
    if (v !== undefined) r[k] = v instanceof Decimal ? v.toString() : v;
  }
  // kept only where they say something: a confirmation given, the state a kill hold came from
  if (!o.confirmed) delete r.confirmed;
  if (o.state !== 'kill_held' || !o.heldFrom) delete r.heldFrom;
  return r as LocalRecord;
}

export function fromRecord(r: LocalRecord): LocalOrder {
  const o: Record<string, unknown> = { ...r, subaccount: r.subaccount, verify: false, cancelAfterSend: false, confirmed: r.confirmed === true };
  for (const k of DECIMAL_KEYS) {
    const v = r[k];
    o[k] = v === null ? null : new Decimal(v);
  }
  return o as LocalOrder;
}
