// The replay's control surface: `/admin/replay` on the exchange's own port. Not part of the real
// service (docs/protocol-notes-extra.md): the terminal's main process drives it. Every request
// carries the replay token from credentials.json (`x-replay-token`), so a web page on the same
// machine cannot drive it.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ExchangeError } from '../http/errors';
import type { ExchangeReplay, ReplayState } from './exchange-replay';

export const REPLAY_PATH = '/admin/replay';

export const ReplayAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('play') }).strict(),
  z.object({ action: z.literal('pause') }).strict(),
  z.object({ action: z.literal('speed'), speed: z.union([z.number().min(1).max(1000), z.literal('max')]) }).strict(),
  /** µs since the epoch, on the recording's clock */
  z.object({ action: z.literal('seek'), tsUs: z.number().finite().nonnegative() }).strict(),
]);
export type ReplayAction = z.infer<typeof ReplayAction>;

export async function applyReplayAction(r: ExchangeReplay, a: ReplayAction): Promise<ReplayState> {
  if (a.action === 'play') r.play();
  else if (a.action === 'pause') await r.pause();
  else if (a.action === 'speed') r.setSpeed(a.speed);
  else await r.seek(a.tsUs);
  return r.state();
}

export function replayRoutes(app: FastifyInstance, replay: ExchangeReplay, token: string): void {
  const check = (req: FastifyRequest) => {
    const got = Buffer.from(String(req.headers['x-replay-token'] ?? ''));
    const want = Buffer.from(token);
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new ExchangeError(401, 'unauthorized', 'the replay control needs the x-replay-token from credentials.json');
  };
  app.get(REPLAY_PATH, async (req, reply) => {
    check(req);
    return reply.send(replay.state());
  });
  app.post(REPLAY_PATH, async (req, reply) => {
    check(req);
    const parsed = ReplayAction.safeParse(req.body);
    if (!parsed.success) throw new ExchangeError(400, 'invalid_parameters', `replay control: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return reply.send(await applyReplayAction(replay, parsed.data));
  });
}
