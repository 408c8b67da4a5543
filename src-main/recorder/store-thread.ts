// The recorder's DuckDB, on its own thread: main's event loop only copies rows into arrays and
// posts them here every flush interval, so nothing on the hot path waits for a disk or for
// DuckDB. Each batch is appended and committed at once (an auto-commit appender flush; DuckDB
// makes a commit durable in its write-ahead log), so a process killed at any moment keeps every
// batch it had committed and the file opens afterwards (the WAL is replayed on open).
import { chmodSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { EVENTS_DDL, type RowBatch } from './batch';
import type { FromStore, RecordingStats, ToStore } from './store-protocol';

interface Open {
  file: string;
  instance: DuckDBInstance;
  conn: DuckDBConnection;
  appender: DuckDBAppender;
  rows: number;
}

const open = new Map<string, Open>();

/** What the recorder leaves on disk is its owner's alone (0600), like the rest of the data directory. */
function ownerOnly(file: string): void {
  if (process.platform === 'win32') return;
  try {
    chmodSync(file, 0o600);
  } catch {
    // not there (yet)
  }
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/**
 * One DuckDB thread, and this thread at a lower priority where the system allows it: recording
 * must never take the core main's event loop needs (DuckDB's default is a thread per core, and a
 * checkpoint then bursts on every one of them).
 */
const OPTIONS = { threads: '1' };
try {
  const tid = Number(/task\/(\d+)/.exec(readlinkSync('/proc/thread-self'))?.[1]);
  if (tid) setPriority(tid, 10);
} catch {
  // not Linux, or not allowed: the default priority
}

async function openRecording(id: string, file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file, OPTIONS);
  const conn = await instance.connect();
  await conn.run(EVENTS_DDL);
  const count = await conn.runAndReadAll('SELECT count(*)::BIGINT AS n FROM events');
  const appender = await conn.createAppender('events');
  ownerOnly(file);
  open.set(id, { file, instance, conn, appender, rows: Number(count.getRowObjects()[0]!.n) });
}

function append(o: Open, b: RowBatch): void {
  const a = o.appender;
  const rows = b.n.length;
  for (let i = 0; i < rows; i++) {
    a.appendBigInt(BigInt(b.n[i]!));
    a.appendBigInt(BigInt(b.ts[i]!));
    a.appendVarchar(b.kind[i]!);
    a.appendVarchar(b.market[i]!);
    const sid = b.sid[i];
    if (sid === null || sid === undefined) a.appendNull();
    else a.appendInteger(sid);
    const seq = b.seq[i];
    if (seq === null || seq === undefined) a.appendNull();
    else a.appendBigInt(BigInt(seq));
    for (const col of [b.side, b.price, b.size, b.extra]) {
      const v = col[i];
      if (v === null || v === undefined) a.appendNull();
      else a.appendVarchar(v);
    }
    a.endRow();
  }
  a.flushSync(); // commits: durable from here
  o.rows += rows;
  ownerOnly(`${o.file}.wal`); // made anew after each checkpoint
}

function close(id: string): void {
  const o = open.get(id);
  if (!o) return;
  open.delete(id);
  o.appender.closeSync();
  o.conn.closeSync();
  o.instance.closeSync();
}

/** A connection to a recording: the open one's, or the file opened read-only for the call. */
async function withConn<T>(id: string, file: string, f: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const o = open.get(id);
  if (o) return f(o.conn);
  const instance = await DuckDBInstance.create(file, { ...OPTIONS, access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return await f(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function stats(id: string, file: string): Promise<RecordingStats> {
  return withConn(id, file, async (c) => {
    const r = await c.runAndReadAll(
      `SELECT count(*)::BIGINT AS rows, min(ts_us)::BIGINT AS first, max(ts_us)::BIGINT AS last,
        count(*) FILTER (WHERE kind = 'delta')::BIGINT AS deltas, count(*) FILTER (WHERE kind = 'trade')::BIGINT AS trades,
        list(DISTINCT market ORDER BY market) FILTER (WHERE kind IN ('delta', 'snapshot', 'book', 'trade')) AS markets FROM events`,
    );
    const row = r.getRowObjectsJS()[0] as Record<string, unknown>;
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v as bigint));
    return {
      rows: num(row.rows) ?? 0,
      firstUs: num(row.first),
      lastUs: num(row.last),
      deltas: num(row.deltas) ?? 0,
      trades: num(row.trades) ?? 0,
      markets: ((row.markets as string[] | null) ?? []).slice(0, 500),
    };
  });
}

/**
 * COPY to Parquet (zstd) or CSV; DuckDB's progress of the statement is read every 100 ms while
 * it runs (the call is asynchronous, so this thread's loop is free) and told to `progress`.
 */
async function exportTo(id: string, file: string, format: 'parquet' | 'csv', out: string, progress: (pct: number) => void): Promise<void> {
  await withConn(id, file, async (c) => {
    await c.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0');
    let last = -1;
    const poll = setInterval(() => {
      const pct = Math.floor(c.progress.percentage);
      if (pct >= 0 && pct !== last) progress((last = Math.min(99, pct)));
    }, 100);
    try {
      await c.run(`COPY (SELECT * FROM events ORDER BY n) TO ${sqlString(out)} (${format === 'parquet' ? 'FORMAT parquet, COMPRESSION zstd' : 'FORMAT csv, HEADER'})`);
    } finally {
      clearInterval(poll);
    }
  });
  ownerOnly(out);
  progress(100);
}

async function read(id: string, file: string, fromN: number, limit: number): Promise<RowBatch> {
  return withConn(id, file, async (c) => {
    const r = await c.runAndReadAll(`SELECT * FROM events WHERE n >= ${Math.floor(fromN)} ORDER BY n LIMIT ${Math.floor(limit)}`);
    const cols = r.getColumnsObjectJS() as Record<string, unknown[]>;
    const nums = (v: unknown[]) => v.map((x) => (x === null ? null : Number(x as bigint)));
    return {
      n: nums(cols.n!) as number[],
      ts: nums(cols.ts_us!) as number[],
      kind: cols.kind as string[],
      market: cols.market as string[],
      sid: nums(cols.sid!),
      seq: nums(cols.seq!),
      side: cols.side as (string | null)[],
      price: cols.price as (string | null)[],
      size: cols.size as (string | null)[],
      extra: cols.extra as (string | null)[],
    };
  });
}

async function handle(m: ToStore): Promise<FromStore | null> {
  switch (m.type) {
    case 'open':
      await openRecording(m.id, m.file);
      return { type: 'done', req: m.req, result: null };
    case 'rows': {
      const o = open.get(m.id);
      if (!o) return { type: 'error', req: m.req, message: `recording ${m.id} is not open` };
      append(o, m.batch);
      return { type: 'committed', id: m.id, rows: o.rows, lastN: m.batch.n[m.batch.n.length - 1] ?? -1 };
    }
    case 'close':
      close(m.id);
      return { type: 'done', req: m.req, result: null };
    case 'stats':
      return { type: 'done', req: m.req, result: await stats(m.id, m.file) };
    case 'export':
      await exportTo(m.id, m.file, m.format, m.out, (pct) => parentPort!.postMessage({ type: 'progress', req: m.req, pct } satisfies FromStore));
      return { type: 'done', req: m.req, result: null };
    case 'read':
      return { type: 'done', req: m.req, result: await read(m.id, m.file, m.fromN, m.limit) };
  }
}

// One message at a time, in order: a batch is never appended while another call reads.
let chain: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: ToStore) => {
  chain = chain.then(async () => {
    let reply: FromStore | null;
    try {
      reply = await handle(m);
    } catch (e) {
      reply = { type: 'error', req: 'req' in m ? m.req : -1, message: (e as Error).message, ...(m.type === 'rows' ? { id: m.id } : {}) };
    }
    if (reply) parentPort!.postMessage(reply);
  });
});
