// Timing marks on an order's way through main (the door, the gate, the send, the answer, the
// push to the page), for bench/keypress-ack.bench.ts. Off unless a bench turns it on: a mark is
// then one boolean test. Times are wall-clock milliseconds with a fraction (the time origin plus
// performance.now()), so the bench can line them up with the page's own marks.

export interface AckMark {
  name: string;
  at: number;
}

class AckTrace {
  on = false;
  private marks: AckMark[] = [];

  mark(name: string): void {
    if (!this.on) return;
    this.marks.push({ name, at: performance.timeOrigin + performance.now() });
    if (this.marks.length > 1000) this.marks.splice(0, 500);
  }

  /** The marks since the last take, oldest first. */
  take(): AckMark[] {
    const out = this.marks;
    this.marks = [];
    return out;
  }
}

export const ackTrace = new AckTrace();
