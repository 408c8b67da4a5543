// The replay's IPC: a recording replayed into the embedded exchange (src-exchange/replay), and
// the bar's controls. Main parses every argument here before it reaches the exchange's admin route.
import { z } from 'zod';
import { RecordingId } from './recordings';

export const ReplaySpeed = z.union([z.number().int().min(1).max(1000), z.literal('max')]);
export type ReplaySpeed = z.infer<typeof ReplaySpeed>;

export const StartReplayInput = z.object({ id: RecordingId, speed: ReplaySpeed.optional() }).strict();

export const ReplayControlInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('play') }).strict(),
  z.object({ action: z.literal('pause') }).strict(),
  z.object({ action: z.literal('speed'), speed: ReplaySpeed }).strict(),
  /** ms since the epoch on the recording's clock */
  z.object({ action: z.literal('seek'), tsMs: z.number().int().nonnegative() }).strict(),
]);
export type ReplayControlInput = z.infer<typeof ReplayControlInput>;

export type ReplayView =
  | { active: false }
  | {
      active: true;
      recordingId: string | null;
      playing: boolean;
      speed: ReplaySpeed;
      /** replay time and the recording's span, ms since the epoch */
      positionMs: number;
      firstMs: number;
      lastMs: number;
      row: number;
      rows: number;
      done: boolean;
      /** recorded markets the exchange does not have open (skipped) */
      skippedMarkets: string[];
      /** the replay's own account (a subaccount): orders placed while it is loaded go there, never to the live one; null when none */
      subaccount: number | null;
    };
