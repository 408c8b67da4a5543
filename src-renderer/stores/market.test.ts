import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAPE_MARKETS, TAPE, TAPE_UNSHOWN, applyMarketUpdate, marketStore, showTape } from './market';
import type { TradeView } from '../../src-shared/ipc/contract';

let n = 0;
const trade = (ticker: string): TradeView => ({ trade_id: `t${n++}`, ticker, yes_price_dollars: '0.5000', no_price_dollars: '0.5000', count_fp: '1.00', taker_side: 'yes', ts: n });

beforeEach(() => marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 }));

describe('the market store’s tapes are capped for a session', () => {
  const trades = (ticker: string, k: number) => {
    for (let i = 0; i < k; i++) applyMarketUpdate({ tickers: [], trades: [trade(ticker)], lifecycle: [], indices: [] });
  };

  it(`keeps the newest ${TAPE} trades of a market a panel shows`, () => {
    const release = showTape('KXA');
    trades('KXA', TAPE + 50);
    const tape = marketStore.getState().trades.KXA!;
    expect(tape.length).toBe(TAPE);
    expect(tape[0]!.trade_id).toBe(`t${n - 1}`);
    release();
  });

  it(`keeps only the newest ${TAPE_UNSHOWN} of a market no panel shows, and cuts a tape to them when its last panel lets go`, () => {
    trades('KXB', TAPE_UNSHOWN + 30);
    expect(marketStore.getState().trades.KXB!.length).toBe(TAPE_UNSHOWN);
    expect(marketStore.getState().trades.KXB![0]!.trade_id).toBe(`t${n - 1}`);

    // two panels on it: the tape grows to TAPE; one lets go (twice: counted once), the other keeps it
    const first = showTape('KXB');
    const second = showTape('KXB');
    trades('KXB', TAPE);
    expect(marketStore.getState().trades.KXB!.length).toBe(TAPE);
    first();
    first();
    trades('KXB', 1);
    expect(marketStore.getState().trades.KXB!.length).toBe(TAPE);
    const newest = marketStore.getState().trades.KXB![0];
    second();
    const cut = marketStore.getState().trades.KXB!;
    expect(cut.length).toBe(TAPE_UNSHOWN);
    expect(cut[0]).toBe(newest);
    trades('KXB', 5);
    expect(marketStore.getState().trades.KXB!.length).toBe(TAPE_UNSHOWN);
  });

  it(`keeps the tapes of the ${MAX_TAPE_MARKETS} markets traded last, whatever number of markets traded`, () => {
    const markets = Array.from({ length: MAX_TAPE_MARKETS * 3 }, (_, i) => `KX-${i}`);
    for (const m of markets) applyMarketUpdate({ tickers: [], trades: [trade(m)], lifecycle: [], indices: [] });
    // the first market trades again: it is among the latest
    applyMarketUpdate({ tickers: [], trades: [trade('KX-0')], lifecycle: [], indices: [] });
    const kept = Object.keys(marketStore.getState().trades);
    expect(kept.length).toBe(MAX_TAPE_MARKETS);
    expect(kept).toContain('KX-0');
    expect(kept).toContain(markets.at(-1));
    expect(kept).not.toContain('KX-1');
  });
});
