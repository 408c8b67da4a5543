// Main pushes at most one view update per market per interval. An update that arrives when
// nothing has gone out for an interval goes out at once (after the current turn of the event
// loop, so what arrives in the same batch of socket reads rides along); what arrives within the
// interval after a flush waits for its end and goes out together. The session's interval is 4 ms
// (the renderer paints in its own animation frames; main only bounds how often it pushes).
/** The session's least time between two pushes to the renderer, ms. */
export const PUSH_INTERVAL_MS = 4;

export class FrameCoalescer {
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private lastFlush = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly flush: () => void,
    private readonly frameMs = 16,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Something changed: make sure it goes out, at once if the last flush is a frame old. */
  poke(): void {
    if (this.timer || this.immediate || this.stopped) return;
    const wait = this.lastFlush + this.frameMs - this.now();
    if (wait <= 0) {
      this.immediate = setImmediate(() => this.run());
    } else {
      this.timer = setTimeout(() => this.run(), Math.ceil(wait));
    }
  }

  /** Out now, whatever is pending (an order's own answer: the page paints it before it reads the ack). */
  flushNow(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.run();
  }

  private run(): void {
    this.timer = null;
    this.immediate = null;
    if (this.stopped) return;
    this.lastFlush = this.now();
    this.flush();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }
}
