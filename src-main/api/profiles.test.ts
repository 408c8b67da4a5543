import { describe, expect, it } from 'vitest';
import { isLoopbackHost, ProfileError, resolveProfile } from './profiles';
import { ClockSkewError, ClockSync } from './clock';

describe('resolveProfile', () => {
  it('fills in the real exchange hosts and KALSHI- prefix for demo and production', () => {
    expect(resolveProfile({ kind: 'demo' })).toEqual({
      kind: 'demo',
      name: 'demo',
      baseUrl: 'https://demo-api.kalshi.co/trade-api/v2',
      wsUrl: 'wss://demo-api.kalshi.co/trade-api/ws/v2',
      headerPrefix: 'KALSHI-',
    });
    expect(resolveProfile({ kind: 'production', name: 'live' })).toMatchObject({
      name: 'live',
      baseUrl: 'https://api.elections.kalshi.com/trade-api/v2',
      wsUrl: 'wss://api.elections.kalshi.com/trade-api/ws/v2',
      headerPrefix: 'KALSHI-',
    });
  });

  it('normalises an embedded base URL given without the API prefix and derives the WS URL', () => {
    expect(resolveProfile({ kind: 'embedded', baseUrl: 'http://127.0.0.1:4567/' })).toEqual({
      kind: 'embedded',
      name: 'embedded',
      baseUrl: 'http://127.0.0.1:4567/trade-api/v2',
      wsUrl: 'ws://127.0.0.1:4567/trade-api/ws/v2',
      headerPrefix: 'SVC-',
    });
    expect(resolveProfile({ kind: 'embedded', baseUrl: 'http://127.0.0.1:1/trade-api/v2/', wsUrl: 'ws://127.0.0.1:2' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:1/trade-api/v2',
      wsUrl: 'ws://127.0.0.1:2/trade-api/ws/v2',
    });
  });

  it('takes a custom base URL, WS URL and header prefix', () => {
    expect(resolveProfile({ kind: 'custom', baseUrl: 'https://proxy.example/x/trade-api/v2', wsUrl: 'wss://proxy.example/x/trade-api/ws/v2', headerPrefix: 'KALSHI-' })).toMatchObject({
      name: 'proxy.example',
      baseUrl: 'https://proxy.example/x/trade-api/v2',
      wsUrl: 'wss://proxy.example/x/trade-api/ws/v2',
      headerPrefix: 'KALSHI-',
    });
  });

  it('rejects bad profiles with a clear error', () => {
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'ftp://x', headerPrefix: 'SVC-' })).toThrow(/invalid environment profile: baseUrl: must be an http/);
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'https://x.example' })).toThrow(ProfileError);
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'https://x.example', headerPrefix: 'SVC' })).toThrow(/header prefix must be/);
    expect(() => resolveProfile({ kind: 'embedded', baseUrl: 'http://h:1', wsUrl: 'http://h:1' })).toThrow(/wsUrl: must be a ws/);
    expect(() => resolveProfile({ kind: 'staging' })).toThrow(ProfileError);
    expect(() => resolveProfile({ kind: 'demo', baseUrl: 'https://x' })).toThrow(/invalid environment profile/);
    expect(() => resolveProfile({ kind: 'embedded', baseUrl: 'http://h:1/?a=1' })).toThrow(/query or fragment/);
  });
});

describe('resolveProfile: keys travel encrypted', () => {
  it('refuses plain http/ws to any host but this computer, and says which field', () => {
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'http://proxy.example/trade-api/v2', headerPrefix: 'KALSHI-' })).toThrow(/baseUrl must use https:\/\//);
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'https://proxy.example', wsUrl: 'ws://proxy.example', headerPrefix: 'KALSHI-' })).toThrow(/wsUrl must use wss:\/\//);
    expect(() => resolveProfile({ kind: 'embedded', baseUrl: 'http://10.0.0.5:4000' })).toThrow(ProfileError);
    // a look-alike of a loopback name is not loopback
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'http://127.0.0.1.evil.example', headerPrefix: 'KALSHI-' })).toThrow(ProfileError);
    expect(() => resolveProfile({ kind: 'custom', baseUrl: 'http://localhost.evil.example', headerPrefix: 'KALSHI-' })).toThrow(ProfileError);
  });

  it('allows plain http/ws on loopback only', () => {
    for (const host of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000', '127.1.2.3']) {
      expect(resolveProfile({ kind: 'custom', baseUrl: `http://${host}`, headerPrefix: 'KALSHI-' }).wsUrl).toMatch(/^ws:\/\//);
    }
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('ClockSync', () => {
  it('applies the offset only when it exceeds 1 s and estimates the server time at Date + 500 ms', () => {
    let local = 1_700_000_000_000;
    const clock = new ClockSync(() => local);
    const date = (ms: number) => new Date(ms).toUTCString();
    expect(clock.observe(date(local), local - 50, local + 50)).toBe(false);
    expect(clock.offsetMs).toBe(0);
    expect(clock.observe(date(local + 20_000), local - 100, local + 100)).toBe(true);
    expect(clock.offsetMs).toBe(20_500);
    expect(clock.now()).toBe(local + 20_500);
    // a new reading within the noise keeps the applied offset
    local += 10;
    expect(clock.observe(date(local + 20_000), local, local)).toBe(false);
    expect(clock.offsetMs).toBe(20_500);
    // the clocks came back together
    expect(clock.observe(date(local), local, local)).toBe(true);
    expect(clock.offsetMs).toBe(0);
    expect(clock.observe('not a date', local, local)).toBe(false);
    expect(clock.observe(null, local, local)).toBe(false);
  });

  it('refuses to sign beyond 30 s of offset, and signs again once the clocks agree', () => {
    const local = 1_700_000_000_000;
    const clock = new ClockSync(() => local);
    const date = (ms: number) => new Date(ms).toUTCString();
    clock.observe(date(local + 29_000), local, local);
    expect(() => clock.assertSignable()).not.toThrow();
    clock.observe(date(local - 45_000), local, local);
    expect(() => clock.assertSignable()).toThrow(ClockSkewError);
    expect(clock.snapshot().refusal).toMatch(/45 s off/);
    clock.observe(date(local), local, local);
    expect(() => clock.assertSignable()).not.toThrow();
    expect(clock.snapshot().refusal).toBeNull();
  });
});
