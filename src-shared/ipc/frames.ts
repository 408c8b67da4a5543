// Frames carrying TerminalApi over a message channel (the web host's WebSocket, or an
// Electron MessagePort). Main parses every incoming frame with CallFrame before anything else.
import { z } from 'zod';
import type { StreamName, StreamPayloads, TerminalError } from './contract';

export const CallFrame = z
  .object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    method: z.string().min(1).max(60),
    args: z.array(z.unknown()).max(8),
  })
  .strict();
export type CallFrame = z.infer<typeof CallFrame>;

export type ResultFrame = { t: 'result'; id: number; ok: true; value: unknown } | { t: 'result'; id: number; ok: false; error: TerminalError };

export type EventFrame<S extends StreamName = StreamName> = { t: 'event'; stream: S; payload: StreamPayloads[S] };

export type ServerFrame = ResultFrame | EventFrame;
