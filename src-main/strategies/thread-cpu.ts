// A strategy's CPU budget counts the time its thread ran, not the time a busy machine kept it
// waiting: on a loaded two-core machine a thread can sit descheduled for 100 ms and more, and a
// wall-clock budget stopped strategies for time they never had. Linux says a thread's own CPU
// time in /proc/thread-self/schedstat (its first field, in ns); elsewhere the budget stays a
// wall-clock one. The wall clock is checked first and the thread's CPU only once it is past; a
// call's starting figure is a reading at most STALE_MS old (one read costs some 5 us, and a
// backtest makes tens of thousands of calls), so what a call is charged may include up to
// STALE_MS of the thread's work just before it: never less than it used.
import { openSync, readSync } from 'node:fs';

/** Wall time a call may take, as a multiple of its CPU budget, however little CPU it was given. */
export const WALL_CEILING = 10;

let fd: number | null | undefined;
const buf = Buffer.alloc(128);

/** How old a call's starting reading may be, ms of wall time. */
export const STALE_MS = 10;
const last = { at: -Infinity, cpu: null as number | null };

/** This thread's CPU time in ms, or null where the OS does not say it. */
export function threadCpuMs(): number | null {
  if (fd === undefined) {
    try {
      // opened once per thread (each worker has its own copy of this module): thread-self is
      // resolved when it is opened, and a read at offset 0 gives the current figures
      fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      fd = null;
    }
  }
  if (fd === null) return null;
  try {
    const n = readSync(fd, buf, 0, buf.length, 0);
    const ns = Number(buf.toString('latin1', 0, n).split(' ', 1)[0]);
    last.at = performance.now();
    last.cpu = Number.isFinite(ns) ? ns / 1e6 : null;
    return last.cpu;
  } catch {
    return null;
  }
}

/** This thread's CPU time as read at most STALE_MS ago (it can only have grown since). */
export function recentThreadCpuMs(): number | null {
  return performance.now() - last.at <= STALE_MS ? last.cpu : threadCpuMs();
}

/** One call's budget of CPU time: armed before the call, asked by QuickJS's interrupt handler. */
export class CpuBudget {
  private ms = 0;
  private checkAt = 0;
  private hardEnd = 0;
  private cpuAt: number | null = null;

  arm(ms: number): void {
    const now = performance.now();
    this.ms = ms;
    this.checkAt = now + ms;
    this.hardEnd = now + ms * WALL_CEILING;
    this.cpuAt = recentThreadCpuMs();
  }

  disarm(): void {
    this.checkAt = 0;
  }

  /** true once the armed call has used its budget of CPU (or WALL_CEILING times it in wall time) */
  spent(): boolean {
    if (this.checkAt === 0) return false;
    const now = performance.now();
    if (now <= this.checkAt) return false;
    if (now >= this.hardEnd || this.cpuAt === null) return true;
    const cpu = threadCpuMs();
    if (cpu === null) return true;
    const used = cpu - this.cpuAt;
    if (used >= this.ms) return true;
    // it was kept waiting: it cannot have used the rest before this much more wall time
    this.checkAt = now + (this.ms - used);
    return false;
  }
}
