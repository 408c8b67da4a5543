// Driving a load: the sizes and targets, the keep-alive transports (undici Pool, node:http
// keepAlive Agent), a closed loop (a fixed number in flight) and an open loop (a fixed rate).
import http from 'node:http';
import { Pool } from 'undici';
import { scaled } from '../lib';
import type { Account } from './signing';
import { CREATE_PATH } from './market';

export const CONCURRENCY = 64;
export const CREATES_PER_RUN = Number(process.env.BENCH_CREATES ?? scaled(10_000, 3_000, 1_000));
export const RUNS = Number(process.env.BENCH_RUNS ?? scaled(5, 2, 1));
export const TARGET_RATE = 5_000;
export const TARGET_P99_MS = 10;

// ---- transports ------------------------------------------------------------------------------

/** Sends a signed create; resolves with the answer's status. */
export type Send = (account: Account, body: string) => Promise<number>;

const keepAlivePool = (origin: string) => new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 60_000 });

export function undiciTransport(origin: string): { send: Send; close(): Promise<void> } {
  const pool = keepAlivePool(origin);
  return {
    send: async (a, body) => {
      const res = await pool.request({ path: CREATE_PATH, method: 'POST', headers: a.headers, body });
      await res.body.dump();
      return res.statusCode;
    },
    close: () => pool.close(),
  };
}

export function nodeHttpTransport(port: number): { send: Send; close(): Promise<void> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  return {
    send: (a, body) =>
      new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: CREATE_PATH, method: 'POST', agent, headers: { ...a.headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      }),
    close: async () => agent.destroy(),
  };
}

export type Requester = (method: string, path: string, headers: Record<string, string>, body: string | null) => Promise<{ status: number; body: string }>;

/** Any request, answered with its status and body. */
export function undiciRequester(origin: string): { request: Requester; close(): Promise<void> } {
  const pool = keepAlivePool(origin);
  return {
    request: async (method, path, headers, body) => {
      const res = await pool.request({ path, method: method as 'POST', headers, body });
      return { status: res.statusCode, body: await res.body.text() };
    },
    close: () => pool.close(),
  };
}

// ---- loops -----------------------------------------------------------------------------------

export interface RunResult {
  opsPerSec: number;
  latenciesMs: number[];
  errors: number;
}

/** One request of a load: resolves true when answered as expected. */
export type Op = (i: number) => Promise<boolean>;

/** Closed loop: `concurrency` requests in flight, each sent when one is answered. */
export async function run(op: Op, count: number, concurrency = CONCURRENCY): Promise<RunResult> {
  const latenciesMs: number[] = new Array(count);
  let next = 0;
  let errors = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const t0 = performance.now();
      const ok = await op(i);
      latenciesMs[i] = performance.now() - t0;
      if (!ok) errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return { opsPerSec: count / seconds, latenciesMs, errors };
}

/**
 * Open loop: requests are scheduled at a fixed rate (whatever is in flight); each latency is
 * measured from its scheduled send time, so a stall is charged to every request it delayed.
 */
export async function paced(op: Op, rate: number, count: number): Promise<RunResult> {
  const latenciesMs: number[] = new Array(count);
  let sent = 0;
  let done = 0;
  let errors = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
      while (sent < due) {
        const i = sent++;
        const scheduled = t0 + (i * 1000) / rate;
        op(i).then((ok) => {
          latenciesMs[i] = performance.now() - scheduled;
          if (!ok) errors++;
          if (++done === count) resolve();
        }, reject);
      }
      if (sent < count) setTimeout(tick, 1);
    };
    tick();
  });
  return { opsPerSec: count / ((performance.now() - t0) / 1000), latenciesMs, errors };
}
