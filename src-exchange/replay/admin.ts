// The replay's control surface: `/admin/replay` on the exchange's own port. Not part of the real
// service (docs/protocol-notes-extra.md): the terminal's main process drives it. Every request
// carries the replay token from credentials.json (`x-replay-token`), so a web page on the same
// machine cannot drive it.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ExchangeError } from '../core/errors';
import type { ExchangeReplay, ReplayState } from './exchange-replay';
import type { ReplayHost } from './host';

export const REPLAY_PATH = '/admin/replay';

export const ReplayAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('play') }).strict(),
  z.object({ action: z.literal('pause') }).strict(),
  z.object({ action: z.literal('speed'), speed: z.union([z.number().min(1).max(1000), z.literal('max')]) }).strict(),
  /** µs since the epoch, on the recording's clock */
  z.object({ action: z.literal('seek'), tsUs: z.number().finite().nonnegative() }).strict(),
  /** a recording file (the recorder's .duckdb, or its Parquet export) on this machine */
  /** `account`: the trader's user id; the replay opens (and funds) a subaccount of it that the trader's orders go to while it plays */
  z.object({ action: z.literal('load'), file: z.string().min(1).max(4096), speed: z.union([z.number().min(1).max(1000), z.literal('max')]).optional(), account: z.string().min(1).max(200).optional() }).strict(),
  z.object({ action: z.literal('unload') }).strict(),
]);
export type ReplayAction = z.infer<typeof ReplayAction>;

export type ReplayAnswer = ({ active: true } & ReplayState) | { active: false };

const view = (r: ExchangeReplay | null): ReplayAnswer => (r ? { active: true, ...r.state() } : { active: false });

export async function applyReplayAction(host: ReplayHost, a: ReplayAction): Promise<ReplayAnswer> {
  if (a.action === 'load') {
    // DuckDB is loaded on the first load asked for, not on every start of the exchange
    const { readRecording } = await import('./read');
    const tape = await readRecording(a.file).catch((e: unknown) => {
      throw new ExchangeError(400, 'invalid_parameters', `replay control: ${(e as Error).message}`);
    });
    return view(await host.load(tape, a.speed, a.account));
  }
  if (a.action === 'unload') {
    await host.unload();
    return view(null);
  }
  const r = host.current;
  if (!r) throw new ExchangeError(409, 'conflict', 'replay control: no recording is loaded');
  await control(r, a);
  return view(r);
}

async function control(r: ExchangeReplay, a: Exclude<ReplayAction, { action: 'load' } | { action: 'unload' }>): Promise<ReplayState> {
  if (a.action === 'play') r.play();
  else if (a.action === 'pause') await r.pause();
  else if (a.action === 'speed') r.setSpeed(a.speed);
  else await r.seek(a.tsUs);
  return r.state();
}

export function replayRoutes(app: FastifyInstance, host: ReplayHost, token: string): void {
  const check = (req: FastifyRequest) => {
    const got = Buffer.from(String(req.headers['x-replay-token'] ?? ''));
    const want = Buffer.from(token);
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw new ExchangeError(401, 'unauthorized', 'the replay control needs the x-replay-token from credentials.json');
  };
  app.get(REPLAY_PATH, async (req, reply) => {
    check(req);
    return reply.send(view(host.current));
  });
  app.post(REPLAY_PATH, async (req, reply) => {
    check(req);
    const parsed = ReplayAction.safeParse(req.body);
    if (!parsed.success) throw new ExchangeError(400, 'invalid_parameters', `replay control: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return reply.send(await applyReplayAction(host, parsed.data));
  });
}
