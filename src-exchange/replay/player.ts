// Paces a replay: 1x to 1,000x the recorded time, or as fast as possible, with play, pause,
// speed and seek. Time is the recording's own (arrival µs); the player only decides how many
// rows to apply per step of wall time, so where orders meet the flow depends on the rows, never
// on the speed (replay.test.ts replays one recording at several speeds and compares every fill).
import { ReplayBooks } from './queue';
import type { Tape } from './tape';

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] as const;
export type Speed = number | 'max';

export interface PlayerState {
  playing: boolean;
  speed: Speed;
  /** replay time, µs since the epoch (the recording's clock) */
  positionUs: number;
  firstUs: number;
  lastUs: number;
  row: number;
  rows: number;
  done: boolean;
}

/** Rows applied per step when playing as fast as possible (the event loop breathes between steps). */
const MAX_CHUNK = 65_536;

export class ReplayPlayer {
  books: ReplayBooks;
  private playing = false;
  private speed: Speed = 1;
  private positionUs: number;
  private timer: NodeJS.Timeout | null = null;
  private lastWall = 0;
  /** a step stops before this row (a backtest's next decision point); Infinity: no stop */
  stopRow = Infinity;
  onStep: (s: PlayerState) => void = () => undefined;

  constructor(
    readonly tape: Tape,
    private readonly opts: { tickMs?: number; wallMs?: () => number; newBooks?: (t: Tape) => ReplayBooks; chunk?: number } = {},
  ) {
    if (opts.chunk !== undefined && !(Number.isInteger(opts.chunk) && opts.chunk >= 1)) throw new Error('chunk is a whole number of rows, at least 1');
    this.books = this.fresh();
    this.positionUs = tape.length ? tape.tsUs[0]! : 0;
  }

  private fresh(): ReplayBooks {
    return this.opts.newBooks ? this.opts.newBooks(this.tape) : new ReplayBooks(this.tape);
  }

  state(): PlayerState {
    const t = this.tape;
    return {
      playing: this.playing,
      speed: this.speed,
      positionUs: this.positionUs,
      firstUs: t.length ? t.tsUs[0]! : 0,
      lastUs: t.length ? t.tsUs[t.length - 1]! : 0,
      row: this.books.cursor,
      rows: t.length,
      done: this.books.cursor >= t.length,
    };
  }

  setSpeed(speed: Speed): void {
    if (speed !== 'max' && !(Number.isFinite(speed) && speed >= 1 && speed <= 1000)) throw new Error('speed is 1x to 1000x, or max');
    this.speed = speed;
  }

  /** Advance by `wallMs` of wall time at the current speed (the timer calls this; tests may too). */
  step(wallMs: number): number {
    if (this.speed === 'max') {
      const n = this.books.run(Math.min(this.books.cursor + (this.opts.chunk ?? MAX_CHUNK), this.stopRow));
      this.positionUs = this.books.nowUs;
      return n;
    }
    const target = this.positionUs + wallMs * 1000 * this.speed;
    const n = this.books.runUntil(target, this.stopRow);
    // held at a stop row, replay time waits there with it
    const held = this.books.cursor >= this.stopRow;
    this.positionUs = held ? this.books.nowUs : Math.max(this.positionUs, Math.min(target, this.state().lastUs));
    return n;
  }

  play(): void {
    if (this.playing) return;
    this.playing = true;
    const wall = this.opts.wallMs ?? (() => performance.now());
    this.lastWall = wall();
    const tick = () => {
      if (!this.playing) return;
      const now = wall();
      this.step(now - this.lastWall);
      this.lastWall = now;
      const s = this.state();
      this.onStep(s);
      if (s.done) {
        this.playing = false;
        this.onStep(this.state());
        return;
      }
      this.timer = this.speed === 'max' ? (setImmediate(tick) as unknown as NodeJS.Timeout) : setTimeout(tick, this.opts.tickMs ?? 10);
    };
    tick();
  }

  pause(): void {
    this.playing = false;
    if (this.timer) {
      clearTimeout(this.timer);
      clearImmediate(this.timer as unknown as NodeJS.Immediate);
    }
    this.timer = null;
  }

  /**
   * Jump to a time. Forward: the rows between are applied (resting orders meet them). Back: the
   * books are rebuilt from the start, and the trader's replay orders are dropped.
   */
  seek(tsUs: number): void {
    if (tsUs < this.books.nowUs) {
      const onFill = this.books.onFill;
      this.books = this.fresh();
      this.books.onFill = onFill;
    }
    this.books.runUntil(tsUs);
    this.positionUs = Math.max(this.state().firstUs, Math.min(tsUs, this.state().lastUs));
  }
}
