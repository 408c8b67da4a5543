// Which orders in flight the page is told of (the blotter's pending list): those in flight for
// `showMs` and more. One answered sooner is never announced: its row would appear and leave within
// the ack and cost the page a render, a layout and a paint while the trader waits for it. The list
// goes out only when what the page shows changes.
import type { InFlightOrder, InFlightOrders } from '../api/orders';
import type { PendingOrderView } from '../../src-shared/ipc/contract';
import { pendingView } from './views';

/** How long an order is in flight before the page is told of it. */
export const PENDING_SHOW_MS = 100;

export class PendingAnnouncer {
  /** the list as last given to the page (JSON) */
  private shown = '[]';
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly inflight: InFlightOrders,
    /** the list to push with the next flush */
    private readonly out: (views: PendingOrderView[]) => void,
    private readonly showMs = PENDING_SHOW_MS,
  ) {
    inflight.subscribe((list) => this.update(list));
  }

  private update(list: InFlightOrder[]): void {
    if (this.stopped) return;
    const now = Date.now();
    const due = list.filter((o) => now - o.startedAt >= this.showMs);
    const early = list.filter((o) => now - o.startedAt < this.showMs);
    if (early.length && !this.timer) {
      const wait = Math.min(...early.map((o) => o.startedAt)) + this.showMs - now;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.update(this.inflight.list());
      }, Math.max(1, wait));
    }
    const views = due.map(pendingView);
    const text = JSON.stringify(views);
    if (text === this.shown) return;
    this.shown = text;
    this.out(views);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
