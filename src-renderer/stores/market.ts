// Public market data other than books: the latest ticker per market and a short tape of trades.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { MarketUpdate, TickerView, TradeView } from '../../src-shared/ipc/contract';

/** Trades kept per market (newest first). */
export const TAPE = 300;
/**
 * Markets with a tape kept: the most recently traded this many (the watch streams at most 100).
 * A market that falls out keeps its ladder volume (useLadderVolume) and reads its history again.
 */
export const MAX_TAPE_MARKETS = 200;

export interface MarketState {
  tickers: Record<string, TickerView>;
  trades: Record<string, TradeView[]>;
  lifecycle: MarketUpdate['lifecycle'];
  /** the last batch of trades, for live chart updates */
  lastTrades: TradeView[];
  version: number;
}

export const marketStore = createStore<MarketState>()(() => ({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 }));

export function applyMarketUpdate(u: MarketUpdate): void {
  const s = marketStore.getState();
  const tickers = u.tickers.length ? { ...s.tickers } : s.tickers;
  for (const t of u.tickers) tickers[t.ticker] = { ...tickers[t.ticker], ...t };
  const trades = u.trades.length ? { ...s.trades } : s.trades;
  for (const t of u.trades) {
    const list = [t, ...(trades[t.ticker] ?? [])];
    // moved to the end: the record's first keys are the markets traded longest ago
    delete trades[t.ticker];
    trades[t.ticker] = list.length > TAPE ? list.slice(0, TAPE) : list;
  }
  if (u.trades.length) {
    let over = Object.keys(trades).length - MAX_TAPE_MARKETS;
    for (const k in trades) {
      if (over-- <= 0) break;
      delete trades[k];
    }
  }
  const lifecycle = u.lifecycle.length ? [...u.lifecycle, ...s.lifecycle].slice(0, 200) : s.lifecycle;
  marketStore.setState({ tickers, trades, lifecycle, lastTrades: u.trades, version: s.version + 1 });
}

export function useMarket<T>(selector: (s: MarketState) => T): T {
  return useStore(marketStore, selector);
}
