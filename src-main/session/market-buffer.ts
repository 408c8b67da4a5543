// Public market data other than books between two pushes to the page: the latest ticker per
// market, every trade and lifecycle event in order, the latest value per index and per Pyth
// underlying. `take` hands over what gathered (nothing when nothing did) and starts afresh.
import type { IndexValueView, MarketUpdate, PythValueView, TickerView, TradeView } from '../../src-shared/ipc/contract';

const empty = (): MarketUpdate => ({ tickers: [], trades: [], lifecycle: [], indices: [], pyth: [] });

export class MarketBuffer {
  private update = empty();
  /** the latest per market within a push (every market streams its ticker) */
  private readonly tickers = new Map<string, TickerView>();
  private dirty = false;

  ticker(v: TickerView): void {
    this.tickers.set(v.ticker, v);
    this.dirty = true;
  }

  trade(v: TradeView): void {
    this.update.trades.push(v);
    this.dirty = true;
  }

  lifecycle(l: MarketUpdate['lifecycle'][number]): void {
    this.update.lifecycle.push(l);
    this.dirty = true;
  }

  index(v: IndexValueView): void {
    this.update.indices = this.update.indices.filter((x) => x.index_id !== v.index_id);
    this.update.indices.push(v);
    this.dirty = true;
  }

  pyth(v: PythValueView): void {
    this.update.pyth = [...(this.update.pyth ?? []).filter((x) => x.underlying_ticker !== v.underlying_ticker), v];
    this.dirty = true;
  }

  /** What gathered since the last take, or null when nothing did. */
  take(): MarketUpdate | null {
    if (!this.dirty) return null;
    const out = this.update;
    out.tickers = [...this.tickers.values()];
    this.tickers.clear();
    this.update = empty();
    this.dirty = false;
    return out;
  }
}
