// @vitest-environment jsdom
// The page's start over the web bridge: the calls it makes while the socket connects are queued
// and go out once on the first open, which is not a reconnect (it sent each of them twice at every
// start); a real reconnect, and a first open after queued calls gave up, recover everything.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { createSocketApi } from '../lib/socket-api';
import { FakeSocket } from '../test/fake-socket';
import { installFakeTerminal, type FakeTerminal } from '../test/fake-terminal';
import { useSession } from '../stores/session';
import { loadAppState, startLive } from './live';

let fake: FakeTerminal;
let stop: (() => void) | null = null;

beforeAll(() => {
  // what the stores reseed and the watch list send through (getTerminalApi)
  fake = installFakeTerminal();
});
beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  useSession.setState({ app: null, loadError: null });
  fake.api.watchMarkets.mockClear();
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

/** the page's start as App.tsx makes it: live streams, then the app state asked for */
function startPage() {
  const api = createSocketApi({ url: 'ws://127.0.0.1:1/ipc?token=t', createSocket: (u) => new FakeSocket(u), random: () => 0, backoff: { initialMs: 100, maxMs: 1000 } });
  const qc = createQueryClient();
  const invalidated: unknown[] = [];
  const invalidate = qc.invalidateQueries.bind(qc);
  qc.invalidateQueries = ((filters?: unknown) => {
    invalidated.push(filters ?? 'all');
    return invalidate(filters as never);
  }) as typeof qc.invalidateQueries;
  stop = startLive(api, qc);
  void loadAppState(api);
  return { api, qc, invalidated };
}

const methods = (s: FakeSocket) => (s.sent as { method: string }[]).map((f) => f.method);
const APP = () => ({ profiles: [], activeProfileId: null, settings: useSession.getState().settings, connection: { phase: 'live' }, risk: null });
const ANSWERS: Record<string, () => unknown> = { getAppState: APP, getAlerts: () => ({ alerts: [], history: [] }), getLocalOrders: () => ({ orders: [], awaitingChoice: false, live: true }), getFix: () => null };

/** Answers every call the socket has carried (and those its answers lead to) as main would. */
async function answerAll(s: FakeSocket) {
  const done = new Set<number>();
  for (let round = 0; round < 5; round++) {
    for (const f of s.sent as { id: number; method: string }[]) {
      if (done.has(f.id)) continue;
      done.add(f.id);
      s.receive({ t: 'result', id: f.id, ok: true, value: ANSWERS[f.method]?.() ?? null });
    }
    await vi.advanceTimersByTimeAsync(0);
  }
}

describe("the page's start over the web bridge", () => {
  it('the first open sends the queued start once: one app state, no re-sent watch list, no cached read invalidated', async () => {
    const { invalidated } = startPage();
    expect(FakeSocket.last().sent).toEqual([]);
    FakeSocket.last().open();
    await vi.advanceTimersByTimeAsync(0);
    expect(methods(FakeSocket.last())).toEqual(['getAppState']);
    await answerAll(FakeSocket.last());
    expect(methods(FakeSocket.last())).toEqual(['getAppState', 'getAlerts', 'getLocalOrders', 'getFix']);
    expect(useSession.getState().app).not.toBeNull();
    expect(fake.api.watchMarkets).not.toHaveBeenCalled();
    expect(invalidated).toEqual([]);
  });

  it('a reconnect asks for the app state again, re-sends the watch list and invalidates every cached read', async () => {
    const { invalidated } = startPage();
    FakeSocket.last().open();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.last().drop(1006);
    await vi.advanceTimersByTimeAsync(100);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.last().open();
    await vi.advanceTimersByTimeAsync(0);
    // the start's own call failed with the drop (it was in flight); the reconnect asks again
    expect(methods(FakeSocket.last())).toEqual(['getAppState']);
    await answerAll(FakeSocket.last());
    expect(methods(FakeSocket.last())).toEqual(['getAppState', 'getAlerts', 'getLocalOrders', 'getFix']);
    expect(fake.api.watchMarkets).toHaveBeenCalledTimes(1);
    expect(invalidated).toEqual(['all']);
  });

  it('a first open after the queued start gave up (the host away past the queue timeout) recovers as a reconnect', async () => {
    const { invalidated } = startPage();
    // the socket never opens: the queued app state gives up, and the page says it could not load
    FakeSocket.last().drop(1006);
    await vi.advanceTimersByTimeAsync(15_001);
    expect(useSession.getState().loadError).not.toBeNull();
    FakeSocket.last().open();
    await vi.advanceTimersByTimeAsync(0);
    expect(methods(FakeSocket.last())).toEqual(['getAppState']);
    await answerAll(FakeSocket.last());
    expect(useSession.getState().loadError).toBeNull();
    expect(fake.api.watchMarkets).toHaveBeenCalledTimes(1);
    expect(invalidated).toEqual(['all']);
  });
});
