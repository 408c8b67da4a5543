import { describe, expect, it } from 'vitest';
import type { StreamStatus } from '../stream/connection';
import { ConnectionFigures, type RestFigures } from './connection-figures';

const rest: RestFigures = {
  limits: { read: { available: 19.6, capacity: 20, refillRate: 20, queued: 0 }, write: { available: 9, capacity: 10, refillRate: 10, queued: 2 } },
  clock: { offsetMs: 0, measuredMs: 12.6, measuredAt: 1, refusal: null },
  userId: 'u1',
  isFcmMember: true,
};
const status = (s: Partial<StreamStatus>): StreamStatus => ({ phase: 'live', detail: 'live', reconnects: 0, latencyMs: null, ...s });

describe("the status bar's figures", () => {
  it('before anything: idle, no ack figures, no exchange status; the REST side as given', () => {
    const v = new ConnectionFigures().view(rest);
    expect(v).toEqual({
      phase: 'idle',
      detail: 'not started',
      latencyMs: null,
      latencyHistory: [],
      orderAck: null,
      reconnects: 0,
      limits: { read: { available: 19, capacity: 20 }, write: { available: 9, capacity: 10 } },
      exchange: null,
      userId: 'u1',
      isFcmMember: true,
      clockOffsetMs: 13,
    });
  });

  it('shows a closed stream as offline and says why the clock refuses to sign', () => {
    const f = new ConnectionFigures();
    f.onStatus(status({ phase: 'closed', detail: 'stopped', reconnects: 3 }));
    const v = f.view({ ...rest, clock: { offsetMs: 0, measuredMs: undefined, measuredAt: undefined, refusal: 'clock 40 s off' } });
    expect(v.phase).toBe('offline');
    expect(v.reconnects).toBe(3);
    expect(v.clockOffsetMs).toBeNull();
    expect(v.clockProblem).toBe('clock 40 s off');
  });

  it('adds a ping round trip to the history only when it changed, keeping the last 40', () => {
    const f = new ConnectionFigures();
    f.onStatus(status({ latencyMs: 5 }));
    f.onStatus(status({ latencyMs: 5 }));
    f.onStatus(status({ latencyMs: null }));
    f.onStatus(status({ latencyMs: 7 }));
    expect(f.view(rest).latencyHistory).toEqual([5, 7]);
    for (let i = 0; i < 50; i++) f.onStatus(status({ latencyMs: 100 + i }));
    const h = f.view(rest).latencyHistory!;
    expect(h.length).toBe(40);
    expect(h[39]).toBe(149);
  });

  it('gives the last ack round trip (rounded) and the median of the last 50', () => {
    const f = new ConnectionFigures();
    for (const ms of [10.4, 30, 20]) f.noteAck(ms);
    expect(f.view(rest).orderAck).toEqual({ lastMs: 20, p50Ms: 20, count: 3 });
    for (let i = 0; i < 60; i++) f.noteAck(1000);
    expect(f.view(rest).orderAck).toEqual({ lastMs: 1000, p50Ms: 1000, count: 50 });
  });

  it("reads the exchange's status and its shards", () => {
    const f = new ConnectionFigures();
    f.setExchangeStatus({ exchange_active: true, trading_active: false, exchange_index_statuses: [{ exchange_index: '2', description: 'west', trading_active: true }] });
    expect(f.view(rest).exchange).toEqual({ exchangeActive: true, tradingActive: false, shards: [{ index: 2, label: 'west', tradingActive: true }] });
  });
});
