// Reads a recording (the recorder's DuckDB file, its `events` table, or its Parquet export) into
// a replay tape. A DuckDB file is opened read-only, so a replay never changes a recording.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { decodeTape, type Tape } from './tape';

export async function readRecording(file: string): Promise<Tape> {
  if (!existsSync(file)) throw new Error(`no recording at ${file}`);
  const parquet = file.endsWith('.parquet');
  const inst = parquet ? await DuckDBInstance.create(':memory:') : await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const conn = await inst.connect();
    try {
      const r = await conn.runAndReadAll(
        `SELECT ts_us::DOUBLE AS ts, kind, market, side, price, size FROM ${parquet ? `read_parquet('${file.replace(/'/g, "''")}')` : 'events'} WHERE kind IN ('snapshot', 'book', 'level', 'delta', 'trade') ORDER BY n`,
      );
      const cols = r.getColumnsObjectJS() as unknown as { ts: number[]; kind: string[]; market: string[]; side: (string | null)[]; price: (string | null)[]; size: (string | null)[] };
      return decodeTape({ ts: cols.ts ?? [], kind: cols.kind ?? [], market: cols.market ?? [], side: cols.side ?? [], price: cols.price ?? [], size: cols.size ?? [] });
    } finally {
      conn.closeSync();
    }
  } finally {
    inst.closeSync();
  }
}
