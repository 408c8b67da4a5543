import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TAPE_MARKETS, TAPE, applyMarketUpdate, marketStore } from './market';
import type { TradeView } from '../../src-shared/ipc/contract';

let n = 0;
const trade = (ticker: string): TradeView => ({ trade_id: `t${n++}`, ticker, yes_price_dollars: '0.5000', no_price_dollars: '0.5000', count_fp: '1.00', taker_side: 'yes', ts: n });

beforeEach(() => marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 }));

describe('the market store’s tapes are capped for a session', () => {
  it(`keeps the newest ${TAPE} trades of a market`, () => {
    for (let i = 0; i < TAPE + 50; i++) applyMarketUpdate({ tickers: [], trades: [trade('KXA')], lifecycle: [], indices: [] });
    const tape = marketStore.getState().trades.KXA!;
    expect(tape.length).toBe(TAPE);
    expect(tape[0]!.trade_id).toBe(`t${n - 1}`);
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
