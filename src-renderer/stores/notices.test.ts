import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify, useNotices } from './notices';

beforeEach(() => {
  vi.useFakeTimers();
  useNotices.setState({ toasts: [] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('an error stays long enough to read, then goes by itself', () => {
    notify('error', 'Order failed', 'the exchange refused it');
    vi.advanceTimersByTime(10_000);
    expect(useNotices.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(15_000);
    expect(useNotices.getState().toasts).toHaveLength(0);
  });

  it('the same notice again is counted on the one shown, not stacked, and its clock starts over', () => {
    notify('error', 'Order refused', 'kill switch');
    vi.advanceTimersByTime(15_000);
    notify('error', 'Order refused', 'kill switch');
    notify('error', 'Order refused', 'kill switch');
    const toasts = useNotices.getState().toasts;
    expect(toasts).toHaveLength(1);
    expect(toasts[0]!.repeat).toBe(3);
    vi.advanceTimersByTime(15_000);
    expect(useNotices.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(10_000);
    expect(useNotices.getState().toasts).toHaveLength(0);
  });

  it('keeps at most three, the newest', () => {
    for (let i = 1; i <= 5; i++) notify('info', `n${i}`);
    expect(useNotices.getState().toasts.map((t) => t.title)).toEqual(['n3', 'n4', 'n5']);
  });
});
