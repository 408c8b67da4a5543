// Public market data other than books: the latest ticker per market and a short tape of trades.
import { useEffect } from 'react';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { MarketUpdate, TickerView, TradeView } from '../../src-shared/ipc/contract';

/** Trades kept per market a panel shows (a tape or a ladder on it; newest first). */
export const TAPE = 300;
/**
 * Trades kept per market no panel shows: the newest few, so a panel opened on it starts with
 * them; the tape reads the rest of its history again (getTrades). Without this, every watched
 * market's tape filled to TAPE for as long as the session ran, whether anything showed it or not.
 */
export const TAPE_UNSHOWN = 20;
/**
 * Markets with a tape kept: the most recently traded this many (the watch streams at most 100).
 * A market that falls out keeps its ladder volume (useLadderVolume) and reads its history again.
 */
export const MAX_TAPE_MARKETS = 200;

/** How many panels show each market's tape (useTapeShown). */
const shownTapes = new Map<string, number>();

/**
 * Keeps `ticker`'s tape at TAPE trades until the returned release is called (once per panel;
 * releases are counted, and a second call of the same release does nothing). When the last panel
 * lets go, the market's tape is cut to TAPE_UNSHOWN at once.
 */
export function showTape(ticker: string): () => void {
  shownTapes.set(ticker, (shownTapes.get(ticker) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (shownTapes.get(ticker) ?? 1) - 1;
    if (n > 0) {
      shownTapes.set(ticker, n);
      return;
    }
    shownTapes.delete(ticker);
    const s = marketStore.getState();
    const list = s.trades[ticker];
    if (list && list.length > TAPE_UNSHOWN) marketStore.setState({ trades: { ...s.trades, [ticker]: list.slice(0, TAPE_UNSHOWN) } });
  };
}

/** A panel that shows `ticker`'s trades keeps its whole tape while it is mounted on it. */
export function useTapeShown(ticker: string | null | undefined): void {
  useEffect(() => (ticker ? showTape(ticker) : undefined), [ticker]);
}

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
    const cap = shownTapes.has(t.ticker) ? TAPE : TAPE_UNSHOWN;
    trades[t.ticker] = list.length > cap ? list.slice(0, cap) : list;
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
