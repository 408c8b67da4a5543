// @vitest-environment jsdom
// The markets main streams for the page: a market the trader selects is asked for at once (its
// ladder waits for that book); watchlist, order and position changes go out together.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeTerminal, type FakeTerminal } from '../test/fake-terminal';
import { useTrading } from '../stores/trading';
import { startWatching } from './watch';

let fake: FakeTerminal;
let stop: (() => void) | null = null;

beforeAll(() => {
  fake = installFakeTerminal();
});
beforeEach(() => {
  vi.useFakeTimers();
  useTrading.setState({ ticker: null, watchlist: [], groups: {}, pins: {} } as never);
  fake.api.watchMarkets.mockClear();
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

const sent = () => fake.api.watchMarkets.mock.calls.map((c) => c[0] as string[]);

describe('which markets main streams', () => {
  it('a selected market is asked for in the same turn, not after the 200 ms that gathers other changes', () => {
    stop = startWatching();
    // the start's own list has gone out, and its 200 ms are over
    vi.advanceTimersByTime(450);
    fake.api.watchMarkets.mockClear();
    useTrading.getState().selectMarket('KXA-1');
    expect(sent()).toEqual([['KXA-1']]);
    // another market 250 ms later: asked for at once too
    vi.advanceTimersByTime(250);
    useTrading.getState().selectMarket('KXB-2');
    expect(sent()).toEqual([['KXA-1'], ['KXB-2']]);
    vi.advanceTimersByTime(500);
    expect(sent()).toHaveLength(2);
  });

  it('arrow keys held down a list of markets: at most one list every 200 ms, the last selection always sent', () => {
    stop = startWatching();
    // the start's own list has gone out, and its 200 ms are over
    vi.advanceTimersByTime(450);
    fake.api.watchMarkets.mockClear();
    for (let i = 0; i < 10; i++) {
      useTrading.getState().selectMarket(`KXK-${i}`);
      vi.advanceTimersByTime(30);
    }
    // 10 selections over 300 ms: the first at once, one when its 200 ms were up
    expect(sent()).toEqual([['KXK-0'], ['KXK-6']]);
    vi.advanceTimersByTime(200);
    expect(sent().at(-1)).toEqual(['KXK-9']);
    expect(sent()).toHaveLength(3);
  });

  it('watchlist changes in a burst go out once, 200 ms after the last, and a selection meanwhile carries them', () => {
    stop = startWatching();
    // the start's own list has gone out, and its 200 ms are over
    vi.advanceTimersByTime(450);
    fake.api.watchMarkets.mockClear();
    useTrading.getState().toggleWatch('KXW-1');
    useTrading.getState().toggleWatch('KXW-2');
    vi.advanceTimersByTime(150);
    expect(sent()).toEqual([]);
    vi.advanceTimersByTime(60);
    expect(sent()).toEqual([['KXW-1', 'KXW-2']]);
    vi.advanceTimersByTime(200);
    useTrading.getState().toggleWatch('KXW-3');
    useTrading.getState().selectMarket('KXS-1');
    // the selection went at once with the pending watchlist change; the timer has nothing left to send
    expect(sent()).toEqual([['KXW-1', 'KXW-2'], ['KXS-1', 'KXW-1', 'KXW-2', 'KXW-3']]);
    vi.advanceTimersByTime(500);
    expect(sent()).toHaveLength(2);
  });
});
