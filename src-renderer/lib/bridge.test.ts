// @vitest-environment jsdom
// The door picks its path once: the Electron preload's API when the page has one (always open,
// calls and streams straight through), else the socket client to the web host, which without a
// launch token says so instead of connecting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DoorResult, PreloadApi } from '../../src-shared/ipc/contract';

afterEach(() => {
  delete window.terminal;
  vi.resetModules();
});

describe('getTerminalApi', () => {
  it('derives the methods over the preload call channel: values come back, refusals arrive whole as TerminalCallError, streams go straight through', async () => {
    const call = vi.fn(async (method: string, args: unknown[]): Promise<DoorResult> =>
      method === 'placeOrder' ? { ok: true, value: { order_id: 'o-1', args } } : { ok: false, error: { kind: 'risk', code: 'confirm_required', message: 'confirm first', confirmable: true } },
    );
    const off = vi.fn();
    const on = vi.fn(() => off);
    window.terminal = { call, on } as unknown as PreloadApi;
    const { getTerminalApi, TerminalCallError } = await import('./bridge');
    const api = getTerminalApi();
    expect(getTerminalApi()).toBe(api);
    const draft = { ticker: 'KX', side: 'bid', price: '0.5000', count: '1.00' } as never;
    await expect(api.placeOrder(draft)).resolves.toEqual({ order_id: 'o-1', args: [draft] });
    expect(call).toHaveBeenCalledWith('placeOrder', [draft]);
    const refused = await api.placeOrders({ orders: [draft] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TerminalCallError);
    expect(refused).toMatchObject({ kind: 'risk', code: 'confirm_required', confirmable: true, message: 'confirm first', method: 'placeOrders' });
    const listener = () => undefined;
    expect(api.on('market', listener)).toBe(off);
    expect(on).toHaveBeenCalledWith('market', listener);
    expect(api.bridge.status()).toMatchObject({ phase: 'open', detail: 'Electron preload' });
    // not a thenable, and nothing can be written onto it
    expect((api as unknown as { then?: unknown }).then).toBeUndefined();
    expect(() => Object.assign(api, { placeOrder: () => null })).toThrow();
  });

  it('without a preload and without a launch token, the socket client says how to get one', async () => {
    vi.useFakeTimers();
    try {
      const { getTerminalApi } = await import('./bridge');
      const api = getTerminalApi();
      expect(api.bridge.status().phase).toBe('reconnecting');
      expect(api.bridge.status().detail).toMatch(/holds no launch token/);
      api.bridge.close();
      expect(api.bridge.status().phase).toBe('closed');
    } finally {
      vi.useRealTimers();
    }
  });
});
