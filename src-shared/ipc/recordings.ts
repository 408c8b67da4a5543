// The recorder's IPC: what main's door parses before a recording starts, stops, exports or is
// deleted, and the view it answers with. A recording is one DuckDB file of stream messages in
// arrival order (see src-main/recorder/).
import { z } from 'zod';
import { Ticker } from '../wire/common';

export const RecordingId = z.string().regex(/^rec-[0-9a-z-]{1,60}$/, 'a recording id like rec-20261126t231500-ab12');

export const StartRecordingInput = z
  .object({
    name: z.string().trim().max(80).optional(),
    /** absent or empty: every market the terminal watches (ladders, charts, tapes, alerts) */
    markets: z.array(Ticker).max(100).optional(),
  })
  .strict();
export type StartRecordingInput = z.infer<typeof StartRecordingInput>;

export const ExportRecordingInput = z.object({ id: RecordingId, format: z.enum(['parquet', 'csv']) }).strict();
export const RecordingRef = z.object({ id: RecordingId }).strict();
export const RecorderSettingsInput = z.object({ retentionDays: z.number().int().min(0).max(3650) }).strict();
export type RecorderSettingsInput = z.infer<typeof RecorderSettingsInput>;

export interface RecordingView {
  id: string;
  name: string;
  /** null: every watched market */
  markets: string[] | null;
  startedAt: number;
  stoppedAt: number | null;
  active: boolean;
  /** the file and its write-ahead log */
  bytes: number;
  rows: number;
  deltas: number;
  trades: number;
  /** the markets whose books or trades are in it */
  recordedMarkets: string[];
  /** first and last arrival, ms since the epoch */
  firstMs: number | null;
  lastMs: number | null;
  problem: string | null;
}

/** An export under way: DuckDB's progress of its COPY, 0..100. */
export interface ExportProgress {
  id: string;
  format: 'parquet' | 'csv';
  pct: number;
}

export interface RecordingsView {
  recordings: RecordingView[];
  /** exports under way (absent: none) */
  exports?: ExportProgress[];
  settings: RecorderSettingsInput;
}
