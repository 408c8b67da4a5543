// Main pushes at most one view update per market per frame: changes accumulate between
// flushes and a flush runs once per frame interval (Node has no animation frames; 16 ms).
export class FrameCoalescer {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly flush: () => void,
    private readonly frameMs = 16,
  ) {}

  /** Something changed: make sure a flush is scheduled for the next frame. */
  poke(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.frameMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
