// Messages between the recorder (main's event loop) and its store thread.
import type { RowBatch } from './batch';

export interface RecordingStats {
  rows: number;
  firstUs: number | null;
  lastUs: number | null;
  deltas: number;
  trades: number;
  markets: string[];
}

export type ToStore =
  | { type: 'open'; req: number; id: string; file: string }
  | { type: 'rows'; req: number; id: string; batch: RowBatch }
  | { type: 'close'; req: number; id: string }
  | { type: 'stats'; req: number; id: string; file: string }
  | { type: 'export'; req: number; id: string; file: string; format: 'parquet' | 'csv'; out: string }
  | { type: 'read'; req: number; id: string; file: string; fromN: number; limit: number };

export type FromStore =
  | { type: 'done'; req: number; result: unknown }
  | { type: 'error'; req: number; message: string; id?: string }
  | { type: 'committed'; id: string; rows: number; lastN: number }
  /** how far an export is: DuckDB's own progress of the COPY, 0..100 (posted about every 100 ms) */
  | { type: 'progress'; req: number; pct: number };
