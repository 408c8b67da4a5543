// Main pushes at most one view update per market per frame. An update that arrives when nothing
// has gone out for a frame goes out at once (after the current turn of the event loop, so what
// arrives in the same batch of socket reads rides along); what arrives within the frame after a
// flush waits for that frame's end and goes out together. Node has no animation frames: 16 ms.
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
