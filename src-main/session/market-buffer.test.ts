import { describe, expect, it } from 'vitest';
import type { TickerView, TradeView } from '../../src-shared/ipc/contract';
import { MarketBuffer } from './market-buffer';

const ticker = (t: string, bid: string): TickerView => ({ ticker: t, yes_bid_dollars: bid, ts: 1 });
const trade = (id: string): TradeView => ({ trade_id: id, ticker: 'KX', yes_price_dollars: '0.5000', no_price_dollars: '0.5000', count_fp: '1.00', taker_side: 'yes', ts: 1 });
const index = (id: string, data: string) => ({ index_id: id, data, avg_60s_data: { value: data } }) as never;

describe('market data between two pushes', () => {
  it('hands over nothing when nothing came', () => {
    expect(new MarketBuffer().take()).toBeNull();
  });

  it('keeps the latest ticker per market, every trade and lifecycle event in order, then starts afresh', () => {
    const b = new MarketBuffer();
    b.ticker(ticker('A', '0.1000'));
    b.trade(trade('t1'));
    b.ticker(ticker('B', '0.2000'));
    b.ticker(ticker('A', '0.1100'));
    b.trade(trade('t2'));
    b.lifecycle({ ticker: 'A', event_type: 'closed', ts: 3 });
    const u = b.take()!;
    expect(u.tickers).toEqual([ticker('A', '0.1100'), ticker('B', '0.2000')]);
    expect(u.trades.map((t) => t.trade_id)).toEqual(['t1', 't2']);
    expect(u.lifecycle).toEqual([{ ticker: 'A', event_type: 'closed', ts: 3 }]);
    expect(b.take()).toBeNull();
    b.trade(trade('t3'));
    expect(b.take()).toEqual({ tickers: [], trades: [trade('t3')], lifecycle: [], indices: [], pyth: [] });
  });

  it('keeps the latest value per index and per Pyth underlying', () => {
    const b = new MarketBuffer();
    b.index(index('BRTI', '1'));
    b.index(index('ETHUSD', '2'));
    b.index(index('BRTI', '3'));
    b.pyth({ underlying_ticker: 'BTC', value_usd: '1', source_ts_ms: 1, received_at: 1 });
    b.pyth({ underlying_ticker: 'BTC', value_usd: '2', source_ts_ms: 2, received_at: 2 });
    const u = b.take()!;
    expect(u.indices.map((x) => [x.index_id, x.data])).toEqual([
      ['ETHUSD', '2'],
      ['BRTI', '3'],
    ]);
    expect(u.pyth).toEqual([{ underlying_ticker: 'BTC', value_usd: '2', source_ts_ms: 2, received_at: 2 }]);
  });
});
