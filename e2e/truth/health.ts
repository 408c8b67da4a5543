// How the run is going, for a log that must say why when a run falls short: every 30 s (and in
// the failure's message) the page's long tasks and frames, how long the page took to read, the
// exchange's read, and which step the trader is on and for how long. A page starved by a busy
// machine, a host that stopped answering, and a step stuck on one key are told apart by these.
import type { Page } from '@playwright/test';

/** What the trader is doing now (session.ts's trade() keeps it). */
export interface Doing {
  step: string;
  since: number;
}

/** Installs a long-task counter in the page (the frame counter is screen.ts's). */
export async function installLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __truthLong?: { n: number; ms: number; max: number } };
    if (w.__truthLong) return;
    const long = (w.__truthLong = { n: 0, ms: 0, max: 0 });
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          long.n++;
          long.ms += e.duration;
          long.max = Math.max(long.max, e.duration);
        }
      }).observe({ type: 'longtask', buffered: false });
    } catch {
      // no long-task timing in this browser: the counts stay 0 and the line says "n/a"
      long.n = -1;
    }
  });
}

interface PageTimes {
  frames: number;
  long: { n: number; ms: number; max: number };
}

/** One window's figures: taken at each sample, a line every `everyMs`. */
export class Health {
  private last: { at: number; frames: number; longMs: number; longN: number } | null = null;
  private readMs: number[] = [];
  private exchangeMs: number[] = [];
  readonly lines: string[] = [];

  constructor(
    private readonly doing: Doing,
    private readonly everyMs = 30_000,
  ) {}

  /** a sample's times: reading the page, reading the exchange */
  note(readMs: number, exchangeMs: number): void {
    this.readMs.push(readMs);
    this.exchangeMs.push(exchangeMs);
  }

  /** A line when the window is over (or `force`); null otherwise. */
  async line(page: Page, samples: number, wrong: number, force = false): Promise<string | null> {
    const now = Date.now();
    if (!force && this.last && now - this.last.at < this.everyMs) return null;
    const t0 = Date.now();
    const answer = page
      .evaluate(() => {
        const w = window as unknown as { __truthFrames?: number; __truthLong?: { n: number; ms: number; max: number } };
        const long = w.__truthLong ?? { n: -1, ms: 0, max: 0 };
        const out = { frames: w.__truthFrames ?? 0, long: { ...long } };
        long.max = 0;
        return out;
      })
      .catch(() => null as PageTimes | null);
    // a page that does not answer at all is told in 10 s, not waited on
    let timer: ReturnType<typeof setTimeout> | undefined;
    const p = await Promise.race([answer, new Promise<null>((r) => (timer = setTimeout(() => r(null), 10_000)))]).finally(() => clearTimeout(timer));
    const answerMs = Date.now() - t0;
    const prev = this.last;
    const secs = prev ? (now - prev.at) / 1000 : 0;
    const q = (xs: number[], f: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))]! : 0);
    const page$ = !p
      ? `page did not answer (${answerMs} ms)`
      : `page answered in ${answerMs} ms; ${prev && secs > 0 ? `${((p.frames - prev.frames) / secs).toFixed(0)} frames/s, ` : ''}${p.long.n < 0 ? 'long tasks n/a' : `long tasks ${prev ? p.long.n - prev.longN : p.long.n} (${Math.round(prev ? p.long.ms - prev.longMs : p.long.ms)} ms, longest ${Math.round(p.long.max)} ms)`}`;
    const text = `${samples} samples, ${wrong} wrong; step "${this.doing.step}" for ${((now - this.doing.since) / 1000).toFixed(0)} s; ${page$}; reading the page p50 ${q(this.readMs, 0.5)} ms max ${q(this.readMs, 1)} ms, the exchange p50 ${q(this.exchangeMs, 0.5)} ms max ${q(this.exchangeMs, 1)} ms`;
    if (p) this.last = { at: now, frames: p.frames, longMs: p.long.ms, longN: p.long.n };
    this.readMs = [];
    this.exchangeMs = [];
    this.lines.push(text);
    if (this.lines.length > 40) this.lines.shift();
    return text;
  }
}
