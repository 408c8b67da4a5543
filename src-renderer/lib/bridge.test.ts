// @vitest-environment jsdom
// The door picks its path once: the Electron preload's API when the page has one (always open,
// calls and streams straight through), else the socket client to the web host, which without a
// launch token says so instead of connecting.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TerminalApi } from '../../src-shared/ipc/contract';

afterEach(() => {
  delete window.terminal;
  vi.resetModules();
});

describe('getTerminalApi', () => {
  it('wraps the preload API: calls and streams go straight through, the bridge is always open', async () => {
    const placeOrder = vi.fn(async () => ({ order_id: 'o-1' }));
    const off = vi.fn();
    const on = vi.fn(() => off);
    window.terminal = { placeOrder, on } as unknown as TerminalApi;
    const { getTerminalApi } = await import('./bridge');
    const api = getTerminalApi();
    expect(getTerminalApi()).toBe(api);
    await expect(api.placeOrder({ ticker: 'KX', side: 'bid', price: '0.5000', count: '1.00' } as never)).resolves.toEqual({ order_id: 'o-1' });
    expect(placeOrder).toHaveBeenCalledTimes(1);
    const listener = () => undefined;
    expect(api.on('market', listener)).toBe(off);
    expect(on).toHaveBeenCalledWith('market', listener);
    expect(api.bridge.status()).toMatchObject({ phase: 'open', detail: 'Electron preload' });
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
