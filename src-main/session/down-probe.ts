// While the stream waits to reconnect, a cheap public REST read every couple of seconds: its
// answer says the exchange is back, and the client's answer hook nudges the stream to reconnect now
// (StreamConnection.nudge, which bounds how often). Without it a terminal nobody trades on would
// wait out its backoff (up to 15 s) after an exchange restart or a network blip, its books stale.
import type { StreamPhase } from '../stream/connection';

export const PROBE_EVERY_MS = 2_000;

export class DownProbe<T> {
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    /** the read (its answer nudges the stream through the client's hook); its failure is ignored */
    private readonly read: () => Promise<T>,
    /** what it answered, while still probing (not after the stream is back or the session stopped) */
    private readonly onRead: (answer: T) => void,
    private readonly everyMs = PROBE_EVERY_MS,
  ) {}

  /** The stream's phase: probing runs only while it is reconnecting. */
  phase(p: StreamPhase): void {
    if (p === 'reconnecting') {
      if (this.timer) return;
      this.timer = setInterval(() => {
        // one read at a time: a read that hangs (the exchange half up) is not piled on
        if (this.reading) return;
        this.reading = true;
        this.read()
          .then((answer) => {
            if (this.timer) this.onRead(answer);
          })
          .catch(() => undefined)
          .finally(() => (this.reading = false));
      }, this.everyMs);
      this.timer.unref();
    } else this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
