// WebSocket stream (`/trade-api/ws/v2`): the two ways to read a server frame. The terminal reads
// liberally (`readStreamValue`): a frame of a type no schema knows comes back as an `unknown`
// message, other tolerances as novelties. The embedded exchange checks what it sends exactly
// (`parseStreamValue`): any novelty but an extra field fails. Data messages are in
// ./stream-messages, commands and replies in ./stream-commands, number formats in
// ./stream-primitives; all are re-exported here so one import serves a reader.
import { z } from 'zod';
import { BOOK_PRICE_RE, SIGNED_COUNT_RE } from './stream-primitives';
import { MESSAGE_TYPES, REPLY_TYPES, isRecord, type DataMessageType } from './stream-commands';
import { KnownLifecycleMsg, StreamMessage, type OrderbookDeltaFrame } from './stream-messages';
import { collectNovelties, isDeviation, namedKeys, noteExtraKeys, type Novelty } from './novelty';

export * from './stream-primitives';
export * from './stream-commands';
export * from './stream-messages';

const isPositiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

/**
 * Exactly `OrderbookDeltaFrame.safeParse(v).success`, without building zod's output (the
 * orderbook delta is most of the stream, and zod allocates per field). The equivalence is
 * pinned by a property test; when this says no, parse with the schema for the reason.
 * Unknown keys are left on the value (the schema keeps them too).
 */
export function isOrderbookDeltaFrame(v: unknown): v is OrderbookDeltaFrame {
  if (!isRecord(v) || v.type !== 'orderbook_delta' || !isPositiveInt(v.sid) || !isPositiveInt(v.seq)) return false;
  const m = v.msg;
  if (!isRecord(m)) return false;
  const t = m.market_ticker;
  const p = m.price_dollars;
  const d = m.delta_fp;
  const ts = m.ts;
  const sub = m.subaccount;
  return (
    typeof t === 'string' &&
    t.length > 0 &&
    typeof p === 'string' &&
    BOOK_PRICE_RE.test(p) &&
    typeof d === 'string' &&
    SIGNED_COUNT_RE.test(d) &&
    (m.side === 'yes' || m.side === 'no') &&
    (ts === undefined || typeof ts === 'string' || (typeof ts === 'number' && Number.isFinite(ts))) &&
    isOptionalString(m.market_id) &&
    isOptionalString(m.client_order_id) &&
    (sub === undefined || (typeof sub === 'number' && Number.isSafeInteger(sub)))
  );
}

/**
 * A frame whose `type` no schema knows (the service adds types over time). Passed on as it
 * came; `sid` and `seq` are lifted out when they are plain positive integers, because a frame on
 * an orderbook subscription still takes a place in its sequence.
 */
export interface UnknownMessage {
  readonly type: 'unknown';
  /** The frame's own `type`. */
  readonly unknownType: string;
  readonly sid?: number;
  readonly seq?: number;
  readonly frame: Readonly<Record<string, unknown>>;
}

/** What the terminal reads from a frame: a known message or the unknown stand-in. */
export type StreamRead = StreamMessage | UnknownMessage;

export type FrameRead =
  | { ok: true; msg: StreamRead; novelties: Novelty[] }
  | { ok: false; reason: string; novelties: Novelty[] };

export type FrameParse = { ok: true; msg: StreamMessage } | { ok: false; reason: string };

/** One issue, said briefly: `msg.yes_dollars_fp: Invalid input: expected array, received undefined`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid frame';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...REPLY_TYPES, ...Object.keys(MESSAGE_TYPES)]);

/** Per data message type, the `msg` fields its schema names (the rest are noted as extra). */
const MSG_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const out = new Map<string, ReadonlySet<string>>();
  for (const option of StreamMessage.options) {
    const type = option.shape.type.value;
    if (!(type in MESSAGE_TYPES)) continue;
    const lifecycle = type === 'market_lifecycle_v2' || type === 'multivariate_market_lifecycle';
    out.set(type, namedKeys(lifecycle ? KnownLifecycleMsg : (option.shape.msg as z.ZodType)));
  }
  return out;
})();

const optionalPositiveInt = (v: unknown): number | undefined => (isPositiveInt(v) ? (v as number) : undefined);

function unknownMessage(raw: Record<string, unknown>, type: string): UnknownMessage {
  const sid = optionalPositiveInt(raw.sid);
  const seq = optionalPositiveInt(raw.seq);
  return { type: 'unknown', unknownType: type, ...(sid !== undefined ? { sid } : {}), ...(seq !== undefined ? { seq } : {}), frame: raw };
}

/**
 * Read one server frame (already through JSON.parse) as the terminal does: liberally. Never
 * throws. `ok: false` only when what the terminal relies on is broken (not an object, no type,
 * a known type whose required fields or orderbook numbers are wrong).
 */
export function readStreamValue(raw: unknown): FrameRead {
  if (!isRecord(raw)) return { ok: false, reason: 'expected a JSON object', novelties: [] };
  const type = raw.type;
  if (typeof type !== 'string') return { ok: false, reason: 'type missing', novelties: [] };
  if (!KNOWN_TYPES.has(type)) {
    return { ok: true, msg: unknownMessage(raw, type), novelties: [{ kind: 'type', key: JSON.stringify(type.slice(0, 60)) }] };
  }
  const [parsed, novelties] = collectNovelties(() => {
    const r = StreamMessage.safeParse(raw);
    const fields = MSG_FIELDS.get(type);
    if (r.success && fields !== undefined && isRecord(raw.msg)) noteExtraKeys(type, raw.msg, fields);
    return r;
  });
  if (parsed.success) return { ok: true, msg: parsed.data, novelties };
  return { ok: false, reason: `${type}: ${describeIssue(parsed.error)}`, novelties };
}

/** As `readStreamValue`, for frame text. */
export function readStreamFrame(text: string): FrameRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON', novelties: [] };
  }
  return readStreamValue(raw);
}

/**
 * Check a frame exactly, as a writer must send it: an unknown type, an unknown enum value or
 * event type, or a spec-required field left out all fail (extra fields pass). The embedded
 * exchange checks its own frames with this; its tests read with it. Never throws.
 */
export function parseStreamValue(raw: unknown): FrameParse {
  const r = readStreamValue(raw);
  if (!r.ok) return { ok: false, reason: r.reason };
  if (r.msg.type === 'unknown') return { ok: false, reason: `unknown message type ${JSON.stringify(r.msg.unknownType)}` };
  const off = r.novelties.filter(isDeviation);
  if (off.length > 0) return { ok: false, reason: `${r.msg.type}: ${off.map((n) => `${n.kind} ${n.key}`).join('; ')}` };
  return { ok: true, msg: r.msg };
}

/** As `parseStreamValue`, for frame text. Never throws: malformed frames come back as `{ok: false}`. */
export function parseStreamFrame(text: string): FrameParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  return parseStreamValue(raw);
}

/** Whether a data message type is one the maps know (for callers holding a raw `type`). */
export function isDataMessageType(type: string): type is DataMessageType {
  return Object.prototype.hasOwnProperty.call(MESSAGE_TYPES, type);
}
