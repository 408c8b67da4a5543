// What the tools (alerts and local orders) know of a market's price: the last trade, and the best
// bid and ask from the session's book (or the ticker channel, or the market's REST row, where no
// book streamed yet), and the market's price steps. One per ToolsService; its quotes are
// forgotten when the profile changes.
import { Decimal } from '../../src-shared/money';
import { stepAt, type PriceRange } from '../../src-shared/price-ranges';
import type { TickerView, TradeView } from '../../src-shared/ipc/contract';
import type { Quote } from '../conditional/engine';
import type { ActiveSession } from './profiles-service';

type Session = ActiveSession['session'];

const D = (s: string) => new Decimal(s);

export class ToolQuotes {
  private readonly quotes = new Map<string, Quote>();
  private readonly ticks = new Map<string, PriceRange[]>();

  /** `session`: the active session's, if any (its book tops are read on every quote) */
  constructor(private readonly session: () => Session | undefined) {}

  clear(): void {
    this.quotes.clear();
  }

  quote(ticker: string): Quote {
    let q = this.quotes.get(ticker);
    if (!q) {
      q = { last: null, bid: null, ask: null };
      this.quotes.set(ticker, q);
    }
    const top = this.session()?.bookTop(ticker);
    if (top && !top.stale) {
      q.bid = top.yesBid;
      q.ask = top.yesAsk;
    }
    return q;
  }

  /** A trade sets the last price. */
  trade(t: TradeView): Quote {
    const q = this.quote(t.ticker);
    q.last = D(t.yes_price_dollars);
    return q;
  }

  /** The ticker channel fills in what no book or trade has told us yet. */
  ticker(t: TickerView): Quote {
    const q = this.quote(t.ticker);
    if (!this.session()?.bookTop(t.ticker)) {
      if (t.yes_bid_dollars) q.bid = D(t.yes_bid_dollars);
      if (t.yes_ask_dollars) q.ask = D(t.yes_ask_dollars);
    }
    if (q.last === null && t.price_dollars && D(t.price_dollars).gt(0)) q.last = D(t.price_dollars);
    return q;
  }

  /** The market's step at a price (its price_ranges, read once per market). */
  async tickAt(s: Session, ticker: string, price: Decimal): Promise<Decimal> {
    let ranges = this.ticks.get(ticker);
    if (!ranges) {
      const m = await s.client.getMarket({ params: { ticker } });
      ranges = (m.market.price_ranges ?? []) as PriceRange[];
      this.ticks.set(ticker, ranges);
    }
    return stepAt(price, ranges);
  }

  /**
   * The market's quote before a local order is judged against it (the caller has it streamed):
   * its book waited for (up to 2 s), and what the market's REST row says where nothing streamed yet.
   */
  async fresh(s: Session, ticker: string): Promise<Quote> {
    for (let i = 0; i < 40 && !s.bookTop(ticker); i++) await new Promise((r) => setTimeout(r, 50));
    const q = this.quote(ticker);
    const m = (await s.client.getMarket({ params: { ticker } }).catch(() => null))?.market as Record<string, unknown> | undefined;
    const dec = (v: unknown) => (typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v) && D(v).gt(0) ? D(v) : null);
    if (m) {
      this.ticks.set(ticker, (m.price_ranges ?? []) as PriceRange[]);
      q.last ??= dec(m.last_price_dollars);
      if (!s.bookTop(ticker)) {
        q.bid ??= dec(m.yes_bid_dollars);
        q.ask ??= dec(m.yes_ask_dollars);
      }
    }
    return q;
  }
}
