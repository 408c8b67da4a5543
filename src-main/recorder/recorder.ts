// The recorder: what main receives for the markets being recorded, time-stamped on arrival, into
// one DuckDB file per recording (`<dir>/<id>.duckdb`, its description beside it in `<id>.json`).
// On the hot path a message costs a few array pushes; every `flushMs` (100 ms) the rows are
// posted to the store thread, which appends and commits them. A kill -9 therefore loses what
// arrived in the last flush interval plus the batch being committed, well under a second.
import { mkdir, readdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StreamRead } from '../../src-shared/wire/stream';
import { BatchWriter, marketOf, nowUs, type RowBatch } from './batch';
import { RecorderStore } from './store';
import type { RecordingStats } from './store-protocol';
import { StateError } from '../base/errors';

export interface RecordingMeta {
  id: string;
  name: string;
  /** the markets named; null: every market the terminal watches */
  markets: string[] | null;
  startedAt: number;
  stoppedAt: number | null;
  /** what a stopped recording holds, read once at its stop: listing it opens nothing */
  finalStats?: RecordingStats;
}

export interface RecordingInfo extends RecordingMeta {
  active: boolean;
  bytes: number;
  stats: RecordingStats | null;
  /** why the stats could not be read */
  problem: string | null;
}

export interface RecorderSettings {
  /** recordings that ended longer ago than this are deleted (0: kept for ever) */
  retentionDays: number;
}

export const DEFAULT_RECORDER_SETTINGS: RecorderSettings = { retentionDays: 30 };
export const RECORDING_ID = /^rec-[0-9a-z-]{1,60}$/;
/** Recordings kept at once: one past it is refused at start (delete one, or shorten the retention). */
export const MAX_RECORDINGS = 100;

export interface RecorderOptions {
  dir: string;
  flushMs?: number;
  log?: (m: string) => void;
  /** default MAX_RECORDINGS */
  maxRecordings?: number;
  /** how often the recorder writes its own snapshot of each recorded market's book (default 10 s; 0: only at start and first sight) */
  snapshotEveryMs?: number;
}

/** Main's books, as the recorder reads them for its own snapshots (`book` rows). */
export interface BookSource {
  /** the markets main holds a live book of */
  markets(): Iterable<string>;
  /** a market's levels per side as flat `[tick, centi, ...]`; undefined when main holds no live book of it */
  levels(market: string): { yes: ArrayLike<number>; no: ArrayLike<number> } | undefined;
}

interface Active {
  meta: RecordingMeta;
  file: string;
  writer: BatchWriter;
  named: Set<string> | null;
  /** in watched mode: markets whose book or trades arrived (their tickers and lifecycle are kept too) */
  booked: Set<string>;
  /** markets whose book is in the recording (an exchange snapshot or the recorder's own): a replay starts each with its book */
  seen: Set<string>;
  timer: NodeJS.Timeout;
  snapTimer: NodeJS.Timeout | null;
  committedRows: number;
  failure: string | null;
}

export class Recorder {
  private readonly store = new RecorderStore();
  private active: Active | null = null;
  private readonly flushMs: number;
  /** main's books: read for the recorder's own snapshots (none: only the exchange's snapshots are recorded) */
  bookSource: BookSource | null = null;
  /** stats of stopped recordings stored without them (before finalStats), by id, with the bytes they were read at */
  private readonly statsMemo = new Map<string, { bytes: number; stats: RecordingStats }>();
  /** rows committed per recording id, as the store reports */
  onCommitted: (id: string, rows: number, lastN: number) => void = () => undefined;

  constructor(private readonly opts: RecorderOptions) {
    this.flushMs = opts.flushMs ?? 100;
    this.store.onCommitted = (id, rows, lastN) => {
      if (this.active?.meta.id === id) this.active.committedRows = rows;
      this.onCommitted(id, rows, lastN);
    };
    this.store.onError = (message) => {
      if (this.active) this.active.failure = message;
      this.opts.log?.(`[recorder] ${message}`);
    };
  }

  get dir(): string {
    return this.opts.dir;
  }

  get current(): RecordingMeta | null {
    return this.active?.meta ?? null;
  }

  fileOf(id: string): string {
    if (!RECORDING_ID.test(id)) throw new Error(`not a recording id: ${id}`);
    return path.join(this.opts.dir, `${id}.duckdb`);
  }

  async start(input: { name?: string; markets?: string[] }): Promise<RecordingMeta> {
    if (this.active) throw new Error(`already recording (${this.active.meta.name}); stop it first`);
    const max = this.opts.maxRecordings ?? MAX_RECORDINGS;
    const kept = (await this.readMetas()).length;
    if (kept >= max) throw new StateError(`${kept} recordings are kept, at most ${max}: delete one (or shorten the retention) before starting another; nothing started`, 'too_many_recordings');
    await mkdir(this.opts.dir, { recursive: true, mode: 0o700 });
    const now = Date.now();
    const id = `rec-${new Date(now).toISOString().slice(0, 19).replace(/[-:T]/g, '').toLowerCase()}-${Math.random().toString(36).slice(2, 6)}`;
    const markets = input.markets && input.markets.length ? [...new Set(input.markets)] : null;
    const meta: RecordingMeta = { id, name: input.name?.trim() || new Date(now).toISOString().slice(0, 19).replace('T', ' '), markets, startedAt: now, stoppedAt: null };
    const file = this.fileOf(id);
    await this.writeMeta(meta);
    await this.store.open(id, file);
    const timer = setInterval(() => this.flush(), this.flushMs);
    timer.unref();
    const every = this.opts.snapshotEveryMs ?? 10_000;
    const a: Active = { meta, file, writer: new BatchWriter(), named: markets ? new Set(markets) : null, booked: new Set(), seen: new Set(), timer, snapTimer: null, committedRows: 0, failure: null };
    this.active = a;
    // every recorded market starts with its book: a market main already streams sends no snapshot when recording starts
    const ts = nowUs();
    for (const market of a.named ?? [...(this.bookSource?.markets() ?? [])]) this.writeBook(a, market, ts);
    if (every > 0) {
      // and at intervals, so a replay can start (or seek) from a recent book
      a.snapTimer = setInterval(() => {
        const at = nowUs();
        for (const market of a.seen) this.writeBook(a, market, at);
      }, every);
      a.snapTimer.unref();
    }
    return meta;
  }

  /** Hot path: one message as it arrived. Never throws, never waits. */
  onMessage(m: StreamRead, ts = nowUs()): void {
    const a = this.active;
    if (!a) return;
    const market = marketOf(m);
    if (market === undefined) return;
    const own = m.type === 'fill' || m.type === 'user_order';
    if (!own) {
      if (a.named) {
        if (!a.named.has(market)) return;
      } else if (m.type === 'orderbook_delta' || m.type === 'orderbook_snapshot' || m.type === 'trade') {
        a.booked.add(market);
      } else if (!a.booked.has(market)) return;
    }
    if (!own && !a.seen.has(market)) {
      // a market first seen: its book first (main applied this message to its book before the recorder sees it)
      if (m.type === 'orderbook_snapshot') a.seen.add(market);
      else if (m.type === 'orderbook_delta') {
        if (this.writeBook(a, market, ts)) {
          if (a.writer.size >= 20_000) this.flush();
          return; // the book written holds this delta already
        }
      } else if (m.type === 'trade') this.writeBook(a, market, ts);
    }
    a.writer.add(m, ts, market);
    if (a.writer.size >= 20_000) this.flush();
  }

  /** The recorder's snapshot of a market's book as main holds it; false when main holds no live book of it. */
  private writeBook(a: Active, market: string, ts: number): boolean {
    const levels = this.bookSource?.levels(market);
    if (!levels) return false;
    a.writer.addBook(ts, market, levels.yes, levels.no);
    a.seen.add(market);
    if (!a.named) a.booked.add(market);
    return true;
  }

  /** Post what was gathered to the store thread (it commits it there). */
  flush(): void {
    const a = this.active;
    if (!a || a.writer.size === 0) return;
    this.store.append(a.meta.id, a.writer.take());
  }

  async stop(): Promise<RecordingMeta | null> {
    const a = this.active;
    if (!a) return null;
    // and every recorded market ends with its book, at the stop: the recording then runs to when
    // it was stopped, so a replay of a quiet stretch lasts as long as it did (with only its
    // opening book, every row had one time and a replay loaded already at its end, Play off)
    const at = nowUs();
    for (const market of a.seen) this.writeBook(a, market, at);
    this.flush();
    clearInterval(a.timer);
    if (a.snapTimer) clearInterval(a.snapTimer);
    this.active = null;
    await this.store.close(a.meta.id);
    // read once now, so that listing it later opens nothing
    const finalStats = await this.store.stats(a.meta.id, a.file).catch(() => undefined);
    const meta = { ...a.meta, stoppedAt: Date.now(), ...(finalStats ? { finalStats } : {}) };
    await this.writeMeta(meta);
    return meta;
  }

  async list(): Promise<RecordingInfo[]> {
    const metas = await this.readMetas();
    const sizes = await Promise.all(metas.map((m) => fileBytes(this.fileOf(m.id))));
    const out: RecordingInfo[] = [];
    for (const [i, meta] of metas.entries()) {
      const file = this.fileOf(meta.id);
      const bytes = sizes[i]!;
      let stats: RecordingStats | null = null;
      let problem: string | null = null;
      const active = this.active?.meta.id === meta.id;
      const memo = this.statsMemo.get(meta.id);
      if (!active && meta.finalStats) stats = meta.finalStats;
      else if (!active && memo && memo.bytes === bytes) stats = memo.stats;
      else {
        try {
          stats = await this.store.stats(meta.id, file);
          // measured again: opening the file may have folded its write-ahead log in
          if (!active) this.statsMemo.set(meta.id, { bytes: await fileBytes(file), stats });
        } catch (e) {
          problem = (e as Error).message;
        }
      }
      out.push({ ...meta, active: this.active?.meta.id === meta.id, bytes, stats, problem: problem ?? (this.active?.meta.id === meta.id ? this.active.failure : null) });
    }
    return out.sort((x, y) => y.startedAt - x.startedAt);
  }

  /** Writes `<dir>/exports/<id>.<parquet|csv>` and returns its path; `progress` hears how far it is (0..100). */
  async export(id: string, format: 'parquet' | 'csv', progress?: (pct: number) => void): Promise<string> {
    const file = this.fileOf(id);
    if (!(await this.readMetas()).some((m) => m.id === id)) throw new Error(`no recording ${id}`);
    if (this.active?.meta.id === id) this.flush();
    const outDir = path.join(this.opts.dir, 'exports');
    await mkdir(outDir, { recursive: true, mode: 0o700 });
    const out = path.join(outDir, `${id}.${format}`);
    await this.store.export(id, file, format, out, progress);
    return out;
  }

  /** Rows from row number `fromN` on, in arrival order (replay and backtests read with this). */
  read(id: string, fromN: number, limit: number): Promise<RowBatch> {
    return this.store.read(id, this.fileOf(id), fromN, limit);
  }

  async remove(id: string): Promise<void> {
    if (this.active?.meta.id === id) throw new Error('stop the recording before deleting it');
    const file = this.fileOf(id);
    this.statsMemo.delete(id);
    await rm(file, { force: true });
    await rm(`${file}.wal`, { force: true });
    await rm(path.join(this.opts.dir, `${id}.json`), { force: true });
  }

  /** Deletes recordings that ended more than `retentionDays` ago; returns their ids. */
  async applyRetention(settings: RecorderSettings, now = Date.now()): Promise<string[]> {
    if (settings.retentionDays <= 0) return [];
    const cutoff = now - settings.retentionDays * 86_400_000;
    const gone: string[] = [];
    for (const m of await this.readMetas()) {
      if (this.active?.meta.id === m.id) continue;
      const end = m.stoppedAt ?? m.startedAt;
      if (end < cutoff) {
        await this.remove(m.id);
        gone.push(m.id);
      }
    }
    return gone;
  }

  async close(): Promise<void> {
    await this.stop();
    await this.store.stop();
  }

  private async writeMeta(meta: RecordingMeta): Promise<void> {
    const p = path.join(this.opts.dir, `${meta.id}.json`);
    await writeFile(`${p}.tmp`, JSON.stringify(meta), { mode: 0o600 });
    await rename(`${p}.tmp`, p);
  }

  private async readMetas(): Promise<RecordingMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.opts.dir);
    } catch {
      return [];
    }
    // read at once, not one after another: a hundred of them are one wait
    const read = await Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map(async (n) => {
          try {
            const m = JSON.parse(await readFile(path.join(this.opts.dir, n), 'utf8')) as RecordingMeta;
            return typeof m.id === 'string' && RECORDING_ID.test(m.id) && `${m.id}.json` === n ? m : null;
          } catch {
            return null; // a torn description: its recording is still on disk, listed once it is readable
          }
        }),
    );
    return read.filter((m): m is RecordingMeta => m !== null);
  }
}

async function fileBytes(file: string): Promise<number> {
  let total = 0;
  for (const f of [file, `${file}.wal`]) {
    try {
      total += (await stat(f)).size;
    } catch {
      // absent
    }
  }
  return total;
}
