// Choosing a market for tests that rest bids of a few cents.
import { dollarsToTicks } from '../../src-shared/money';

interface Listed {
  ticker: string;
  yes_bid_dollars?: string;
}

/** The listed market bid highest: bids of a few cents rest there instead of trading (the simulation may offer the first one listed at 2 cents). */
export function highestBid<M extends Listed>(markets: readonly M[]): M {
  const bid = (m: Listed): number => dollarsToTicks(m.yes_bid_dollars ?? '0');
  return markets.reduce((best, m) => (bid(m) > bid(best) ? m : best));
}
