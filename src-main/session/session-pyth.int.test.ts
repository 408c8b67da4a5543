// Main reads the `pyth_value` channel (AsyncAPI 2.0.0) beside the cfbenchmarks values and hands
// both to the renderer in its 'market' stream; an exchange that refuses the channel (one that
// predates it, or an account that has not bought the feed) costs nothing but that feed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { startLoopbackProxy, type LoopbackProxy } from '../../test-support/main/loopback-proxy';
import { TradingSession } from './session';
import { resolveProfile } from '../api/profiles';
import type { MarketUpdate } from '../../src-shared/ipc/contract';

let t: TestExchange;
let proxy: LoopbackProxy;

beforeAll(async () => {
  t = await startTestExchange({ seed: 5 });
  proxy = await startLoopbackProxy(t.ex.port);
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});
afterEach(() => {
  proxy.hooks.onServerFrame = undefined;
  proxy.hooks.onClientFrame = undefined;
});

function startSession(updates: MarketUpdate[], logs: string[] = []): TradingSession {
  const a = t.account('trader');
  return new TradingSession({
    profile: resolveProfile({ kind: 'custom', name: 'proxy', baseUrl: proxy.baseUrl, wsUrl: proxy.wsUrl, headerPrefix: 'SVC-' }),
    credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem },
    emit: (stream, payload) => {
      if (stream === 'market') updates.push(structuredClone(payload as MarketUpdate));
    },
    frameMs: 5,
    log: (m) => logs.push(m),
  });
}

async function waitFor<T>(f: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('pyth values in the session', () => {
  it('streams every underlying the exchange offers, as exact 8-decimal strings, in the market updates', async () => {
    const updates: MarketUpdate[] = [];
    const s = startSession(updates);
    try {
      await s.start();
      const seen = await waitFor(() => {
        const names = new Set(updates.flatMap((u) => (u.pyth ?? []).map((p) => p.underlying_ticker)));
        return names.size >= 5 ? names : undefined;
      }, 'five underlyings');
      expect(seen.has('Metal.XAU/USD')).toBe(true);
      for (const p of updates.flatMap((u) => u.pyth ?? [])) {
        expect(p.value_usd).toMatch(/^\d+\.\d{8}$/);
        expect(Number.isSafeInteger(p.source_ts_ms) && Number.isSafeInteger(p.received_at)).toBe(true);
      }
      // at most one value per underlying per frame
      for (const u of updates) expect(new Set((u.pyth ?? []).map((p) => p.underlying_ticker)).size).toBe((u.pyth ?? []).length);
    } finally {
      await s.stop();
    }
  });

  it('a server that refuses pyth_value keeps the connection live and the other feeds flowing', async () => {
    let pythSubscribeId: number | undefined;
    proxy.hooks.onClientFrame = (text) => {
      const c = JSON.parse(text) as { id?: number; cmd?: string; params?: { channels?: string[] } };
      if (c.cmd === 'subscribe' && c.params?.channels?.includes('pyth_value')) pythSubscribeId = c.id;
    };
    // As an exchange without the channel answers: error 8, and no data.
    proxy.hooks.onServerFrame = (text) => {
      const f = JSON.parse(text) as { id?: number; type?: string };
      if (f.type === 'pyth_value') return null;
      if (f.type === 'subscribed' && f.id !== undefined && f.id === pythSubscribeId) {
        return JSON.stringify({ id: f.id, type: 'error', msg: { code: 8, msg: 'Unknown channel name: pyth_value' } });
      }
      return text;
    };
    const updates: MarketUpdate[] = [];
    const logs: string[] = [];
    const s = startSession(updates, logs);
    try {
      await s.start();
      await waitFor(() => (pythSubscribeId !== undefined && s.connectionView().phase === 'live' ? true : undefined), 'live');
      await waitFor(() => (updates.some((u) => u.indices.length > 0) ? true : undefined), 'a cfbenchmarks value');
      const reconnects = s.connectionView().reconnects;
      await waitFor(() => (updates.filter((u) => u.indices.length > 0).length >= 3 ? true : undefined), 'three cfbenchmarks values');
      expect(s.connectionView().phase).toBe('live');
      expect(s.connectionView().reconnects).toBe(reconnects);
      expect(updates.some((u) => (u.pyth ?? []).length > 0)).toBe(false);
      expect(logs.some((l) => /pyth_value refused \(8/.test(l))).toBe(true);
    } finally {
      await s.stop();
    }
  });
});
