// Raw frame text -> JSON.parse -> read liberally against the stream schemas -> the book machine.
// Orderbook deltas, most of the traffic, skip the union dispatch and zod's output objects: the
// schema's allocation-free twin `isOrderbookDeltaFrame` checks them (the schema still explains a
// rejection), and their decimals become integers without decimal.js. Every other frame is read
// with `readStreamValue`: a type no schema knows comes back as an `unknown` message, not as a
// malformed frame, and what was tolerated comes back as novelties for the log.
import { OrderbookDeltaFrame, describeIssue, isOrderbookDeltaFrame, readStreamValue, type StreamRead } from '../../src-shared/wire/stream';
import type { Novelty } from '../../src-shared/wire/novelty';
import type { BookAction, BookMachine } from './books';
import { NO, YES } from './book';
import { countToCentiFast, priceToTicks } from './fixed';

export interface FrameResult {
  /** The market whose book this frame changed, if one did (every change also lands in `takeDirty`). */
  touched: string | undefined;
  /** What the connection layer must do (resync) or log (malformed). Usually empty. */
  actions: readonly BookAction[];
  /**
   * The validated message, for routing frames of other channels; undefined when malformed. An
   * orderbook delta is the checked JSON itself. A frame of a type no schema knows is an
   * `unknown` message (passed on as it came).
   */
  message: StreamRead | undefined;
  /** What reading this frame tolerated (unknown type, event type or enum value, missing or extra field). */
  novelties: readonly Novelty[];
}

const NONE: readonly Novelty[] = Object.freeze([]);

function intOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

export class FrameIngest {
  constructor(readonly machine: BookMachine) {}

  /** One text frame. Never throws. */
  ingest(text: string): FrameResult {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.malformed('not JSON', undefined);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return this.malformed('expected a JSON object', undefined);
    const obj = raw as Record<string, unknown>;

    if (obj.type === 'orderbook_delta') {
      if (!isOrderbookDeltaFrame(obj)) {
        const parsed = OrderbookDeltaFrame.safeParse(obj);
        return this.malformed(parsed.success ? 'orderbook_delta: rejected' : `orderbook_delta: ${describeIssue(parsed.error)}`, obj);
      }
      const m = obj.msg;
      const stats = this.machine.stats;
      const applied = stats.deltasApplied;
      const actions = this.machine.onDelta(obj.sid, obj.seq, m.market_ticker, m.side === 'yes' ? YES : NO, priceToTicks(m.price_dollars), countToCentiFast(m.delta_fp));
      return { touched: stats.deltasApplied !== applied ? m.market_ticker : undefined, actions, message: obj, novelties: NONE };
    }

    const read = readStreamValue(obj);
    if (!read.ok) return this.malformed(read.reason, obj, read.novelties);
    const msg = read.msg;
    const actions = this.machine.handle(msg);
    return { touched: msg.type === 'orderbook_snapshot' ? msg.msg.market_ticker : undefined, actions, message: msg, novelties: read.novelties };
  }

  private malformed(reason: string, obj: Record<string, unknown> | undefined, novelties: readonly Novelty[] = NONE): FrameResult {
    const type = typeof obj?.type === 'string' ? obj.type : undefined;
    const actions = this.machine.onMalformed(reason, intOrUndefined(obj?.sid), intOrUndefined(obj?.seq), type);
    return { touched: undefined, actions, message: undefined, novelties };
  }
}
