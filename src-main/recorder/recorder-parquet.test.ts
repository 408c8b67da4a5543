// A recording exported to Parquet through the recorder (its store thread's DuckDB COPY) reads
// back with DuckDB: every row, the documented columns and types (README "Recordings as Parquet"),
// the wire's decimal strings unchanged; the export tells its progress and ends at 100.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import type { StreamRead } from '../../src-shared/wire/stream';
import { Recorder } from './recorder';

let dir = '';
let rec: Recorder | null = null;
afterAll(async () => {
  await rec?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const delta = (t: string, seq: number, price: string, d: string) => ({ type: 'orderbook_delta', sid: 1, seq, msg: { market_ticker: t, side: 'no', price_dollars: price, delta_fp: d } }) as unknown as StreamRead;

test('a recording exports to Parquet that DuckDB reads back whole, with its schema', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rec-pq-'));
  rec = new Recorder({ dir, flushMs: 20 });
  const meta = await rec.start({ markets: ['KX-PQ'] });
  const N = 3000;
  for (let i = 0; i < N; i++) rec.onMessage(delta('KX-PQ', i + 1, '0.4200', i % 2 ? '-1.00' : '2.50'), 50_000 + i);
  await rec.stop();
  const seen: number[] = [];
  const out = await rec.export(meta.id, 'parquet', (pct) => seen.push(pct));
  expect(out.endsWith(`${meta.id}.parquet`)).toBe(true);
  expect(seen[seen.length - 1]).toBe(100);
  expect([...seen].sort((a, b) => a - b)).toEqual(seen);

  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  try {
    const src = `read_parquet('${out.replaceAll("'", "''")}')`;
    const count = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n, min(n)::INTEGER AS lo, max(n)::INTEGER AS hi FROM ${src}`)).getRowObjectsJS()[0];
    expect(count).toEqual({ n: N, lo: 0, hi: N - 1 });
    const cols = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowObjectsJS().map((r) => [r.column_name, r.column_type]);
    expect(cols).toEqual([
      ['n', 'BIGINT'],
      ['ts_us', 'BIGINT'],
      ['kind', 'VARCHAR'],
      ['market', 'VARCHAR'],
      ['sid', 'INTEGER'],
      ['seq', 'BIGINT'],
      ['side', 'VARCHAR'],
      ['price', 'VARCHAR'],
      ['size', 'VARCHAR'],
      ['extra', 'VARCHAR'],
    ]);
    const first = (await c.runAndReadAll(`SELECT kind, market, side, price, size FROM ${src} ORDER BY n LIMIT 2`)).getRowObjectsJS();
    expect(first).toEqual([
      { kind: 'delta', market: 'KX-PQ', side: 'no', price: '0.4200', size: '2.50' },
      { kind: 'delta', market: 'KX-PQ', side: 'no', price: '0.4200', size: '-1.00' },
    ]);
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}, 120_000);
