// The order audit journal: one append-only JSON-lines file per profile under <dataDir>/audit/,
// a line for every order action the terminal took or refused (what was asked, from where, what
// the risk gate said, what went to the exchange, the answer and its latency). A line is
// written and synced before the call returns (`append`), or right after it in one group commit
// (`appendSoon`, for answers on the order path); a torn last line (a crash mid-write) is skipped on
// read. Files rotate by size. Entries hold no key material: they are built from parsed order
// arguments and exchange answers only, and a line that would carry a PEM block is refused.
import { closeSync, existsSync, fdatasyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { AuditEntry, AuditFilter } from '../../src-shared/ipc/risk';

export interface AuditJournalOptions {
  /** rotate when the current file passes this many bytes */
  maxBytes?: number;
  /** rotated files kept besides the current one */
  keep?: number;
}

const KEY_MATERIAL = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** Journals with lines queued: written on an orderly exit even if the next turn never comes. */
const pendingJournals = new Set<AuditJournal>();
let exitHooked = false;

export class AuditJournal {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly queued = new Map<string, string[]>();
  private flushing = false;
  /** where a failed background write is reported */
  onError?: (e: Error) => void;

  constructor(
    private readonly dir: string,
    opts: AuditJournalOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
    this.keep = opts.keep ?? 4;
  }

  private file(profileId: string, n = 0): string {
    return path.join(this.dir, n === 0 ? `${profileId}.jsonl` : `${profileId}.${n}.jsonl`);
  }

  /** Writes and syncs the line before returning. */
  append(entry: AuditEntry): void {
    this.write(entry.profileId, [this.line(entry)]);
  }

  /**
   * Queues the line and writes it, with whatever else was queued in the same turn, in one write
   * and one sync right after the current turn (group commit): an order's answer reaches the
   * trader without waiting for the disk. A crash in that moment can lose those lines, never
   * tear an older one. `read` and `flush` write the queue first.
   */
  appendSoon(entry: AuditEntry): void {
    const q = this.queued.get(entry.profileId);
    if (q) q.push(this.line(entry));
    else this.queued.set(entry.profileId, [this.line(entry)]);
    if (!this.flushing) {
      this.flushing = true;
      pendingJournals.add(this);
      if (!exitHooked) {
        exitHooked = true;
        process.once('exit', () => {
          for (const j of pendingJournals) j.flush();
        });
      }
      setImmediate(() => {
        try {
          this.flush();
        } catch (e) {
          this.onError?.(e as Error);
        }
      });
    }
  }

  /** Writes every queued line now. */
  flush(): void {
    this.flushing = false;
    pendingJournals.delete(this);
    const queued = [...this.queued];
    this.queued.clear();
    for (const [profileId, lines] of queued) this.write(profileId, lines);
  }

  private line(entry: AuditEntry): string {
    const line = JSON.stringify(entry);
    return KEY_MATERIAL.test(line) ? JSON.stringify({ ...entry, asked: { redacted: 'key material' }, answer: 'redacted: key material' }) : line;
  }

  private write(profileId: string, lines: string[]): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(profileId);
    if (existsSync(file) && statSync(file).size >= this.maxBytes) this.rotate(profileId);
    const fd = openSync(file, 'a+', 0o600);
    try {
      // a torn previous line (a crash mid-write) must not swallow this one: start on a fresh line
      const size = statSync(file).size;
      const last = Buffer.alloc(1);
      const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
      writeSync(fd, `${torn ? '\n' : ''}${lines.join('\n')}\n`);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  private rotate(profileId: string): void {
    const oldest = this.file(profileId, this.keep);
    if (existsSync(oldest)) rmSync(oldest);
    for (let n = this.keep - 1; n >= 0; n--) {
      const from = this.file(profileId, n);
      if (existsSync(from)) renameSync(from, this.file(profileId, n + 1));
    }
  }

  /** Newest first, across rotated files, filtered. Lines that do not parse (a torn tail) are skipped. */
  read(profileId: string, filter: AuditFilter = {}): AuditEntry[] {
    this.flush();
    const limit = filter.limit ?? 1000;
    const out: AuditEntry[] = [];
    for (let n = 0; n <= this.keep && out.length < limit; n++) {
      const file = this.file(profileId, n);
      if (!existsSync(file)) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
        const text = lines[i]!.trim();
        if (!text) continue;
        let e: AuditEntry;
        try {
          e = JSON.parse(text) as AuditEntry;
        } catch {
          continue; // torn by a crash mid-write
        }
        if (typeof e !== 'object' || e === null || typeof e.ts !== 'number') continue;
        if (filter.ticker && e.ticker !== filter.ticker) continue;
        if (filter.action && e.action !== filter.action) continue;
        if (filter.outcome && e.outcome !== filter.outcome) continue;
        out.push(e);
      }
    }
    return out;
  }
}
