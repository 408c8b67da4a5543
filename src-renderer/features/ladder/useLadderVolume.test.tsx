// @vitest-environment jsdom
// The ladder's session volume: every trade counted once, and the de-duplication memory bounded
// however long the session (it used to keep every trade id of the day).
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TradeView } from '../../../src-shared/ipc/contract';
import { TAPE, TAPE_UNSHOWN, applyMarketUpdate, marketStore } from '../../stores/market';
import { KEEP_TRADE_IDS, useLadderTrades } from './useLadderVolume';

const T = 'KXTEST-1';
let seq = 0;
function trade(cents: number, count = 1): TradeView {
  seq += 1;
  return { trade_id: `t${seq}`, ticker: T, yes_price_dollars: `0.${String(cents).padStart(2, '0')}`, no_price_dollars: `0.${String(100 - cents).padStart(2, '0')}`, count_fp: `${count}.00`, taker_side: 'yes', ts: seq };
}
const publish = (trades: TradeView[]) => act(() => applyMarketUpdate({ tickers: [], trades, lifecycle: [], indices: [] }));

afterEach(() => {
  cleanup();
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
});

describe('useLadderTrades', () => {
  it('counts each trade once, also when the store presents it again', () => {
    const onChange = vi.fn();
    const { result } = renderHook(() => useLadderTrades(T, onChange));
    const a = trade(45, 3);
    publish([a, trade(45, 2), trade(46, 1)]);
    // the same trade again (a tape re-seed): not counted twice
    publish([a]);
    expect(result.current.current.byPrice.get(4500)?.centi).toBe(500);
    expect(result.current.current.byPrice.get(4600)?.centi).toBe(100);
  });

  it('keeps the volume of a long session but only the newest trade ids', () => {
    const { result } = renderHook(() => useLadderTrades(T, () => undefined));
    // batches of 500: more than the tape holds, as a busy second can bring
    const total = Math.ceil((KEEP_TRADE_IDS * 3) / 500) * 500;
    for (let i = 0; i < total; i += 500) publish(Array.from({ length: 500 }, () => trade(50)));
    const acc = result.current.current;
    expect(acc.byPrice.get(5000)?.centi).toBe(total * 100);
    expect(acc.byId.size).toBeLessThanOrEqual(KEEP_TRADE_IDS);
    // the newest trade is still known: the last-trade mark reads it
    expect(acc.last).not.toBeNull();
    // a trade still on the tape presented again is not counted twice
    publish([marketStore.getState().trades[T]![5]!]);
    expect(result.current.current.byPrice.get(5000)?.centi).toBe(total * 100);
  });

  it('keeps its market’s whole tape while a ladder shows it, and lets it go when the ladder goes', () => {
    const { unmount } = renderHook(() => useLadderTrades(T, () => undefined));
    publish(Array.from({ length: TAPE + 10 }, () => trade(50)));
    expect(marketStore.getState().trades[T]!.length).toBe(TAPE);
    unmount();
    expect(marketStore.getState().trades[T]!.length).toBe(TAPE_UNSHOWN);
  });
});
