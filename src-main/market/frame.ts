// Raw frame text -> JSON.parse -> validate against the stream schemas -> the book machine.
// Orderbook deltas, most of the traffic, skip the union dispatch and zod's output objects: the
// schema's allocation-free twin `isOrderbookDeltaFrame` checks them (the schema still explains a
// rejection), and their decimals become integers without decimal.js.
import { OrderbookDeltaFrame, describeIssue, isOrderbookDeltaFrame, parseStreamValue, type StreamMessage } from '../../src-shared/wire/stream';
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
   * orderbook delta is the checked JSON itself (unknown keys kept, where the schema strips them).
   */
  message: StreamMessage | undefined;
}

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
      return { touched: stats.deltasApplied !== applied ? m.market_ticker : undefined, actions, message: obj };
    }

    const parsed = parseStreamValue(obj);
    if (!parsed.ok) return this.malformed(parsed.reason, obj);
    const msg = parsed.msg;
    const actions = this.machine.handle(msg);
    return { touched: msg.type === 'orderbook_snapshot' ? msg.msg.market_ticker : undefined, actions, message: msg };
  }

  private malformed(reason: string, obj: Record<string, unknown> | undefined): FrameResult {
    const type = typeof obj?.type === 'string' ? obj.type : undefined;
    const actions = this.machine.onMalformed(reason, intOrUndefined(obj?.sid), intOrUndefined(obj?.seq), type);
    return { touched: undefined, actions, message: undefined };
  }
}
