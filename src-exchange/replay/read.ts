// Reads a recording (the recorder's DuckDB file, its `events` table) into a replay tape. The file
// is opened read-only, so a replay never changes a recording.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { decodeTape, type Tape } from './tape';

export async function readRecording(file: string): Promise<Tape> {
  if (!existsSync(file)) throw new Error(`no recording at ${file}`);
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const conn = await inst.connect();
    try {
      const r = await conn.runAndReadAll(
        "SELECT ts_us::DOUBLE AS ts, kind, market, side, price, size FROM events WHERE kind IN ('snapshot', 'level', 'delta', 'trade') ORDER BY n",
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
