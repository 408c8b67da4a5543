// Main's own consumers of the session's stream (alerts, local orders, the recorder), and the one
// way the session calls them: a tool that throws is logged and never breaks the stream.
import type { TickerView, TradeView } from '../../src-shared/ipc/contract';
import type { StreamRead } from '../../src-shared/wire/stream';

/** Main's own consumers of the stream (alerts, local orders): called as messages arrive, books once per frame. */
export interface SessionObserver {
  trade?(t: TradeView): void;
  ticker?(t: TickerView): void;
  lifecycle?(ticker: string, eventType: string): void;
  fill?(f: Record<string, unknown>): void;
  order?(o: Record<string, unknown>): void;
  /** markets whose books changed in this frame */
  books?(tickers: string[]): void;
  /** every validated stream message as it arrives, book deltas and snapshots included (the recorder) */
  message?(m: StreamRead): void;
}

export type Observe = (call: (o: SessionObserver) => void) => void;

/** Calls main's observer (none: nothing); a tool that throws is logged and never breaks the stream. */
export function observing(observer: SessionObserver | undefined, log: (m: string) => void): Observe {
  return (call) => {
    if (!observer) return;
    try {
      call(observer);
    } catch (e) {
      log(`observer failed: ${(e as Error).stack ?? String(e)}`);
    }
  };
}
