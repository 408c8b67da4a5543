// A strategy live (or on paper: the embedded exchange is a profile like any other) on the
// active session. Every order goes through TradingService.placeOrder, the one entry the ticket
// and the ladder use, so the risk gate, the kill switch and the audit journal see it; cancels
// through cancelOrder. The session's stream feeds it: books once per frame for the markets it
// watches, trades, and its own fills and order states.
import type { TradingPort as TradingService } from '../session/active-session';
import type { ActiveSession } from '../session/active-session';
import type { TradeView } from '../../src-shared/ipc/contract';
import { centiFrom, StrategyRunner, ticksFrom, type StrategyOrder, type Venue } from './runner';

const dollars = (ticks: number) => (ticks / 10_000).toFixed(4);
const contracts = (centi: number) => (centi / 100).toFixed(2);

export class LiveVenue implements Venue {
  runner!: StrategyRunner;
  /** exchange order id -> the strategy's order */
  readonly byExchangeId = new Map<string, StrategyOrder>();
  private readonly exchangeIdOf = new Map<string, string>();

  constructor(
    private readonly trading: TradingService,
    private readonly log: (m: string) => void,
  ) {}

  place(o: StrategyOrder): void {
    this.trading
      .placeOrder({ ticker: o.ticker, side: o.side, price: dollars(o.price), count: contracts(o.count), origin: 'api' })
      .then((ack) => {
        this.byExchangeId.set(ack.order_id, o);
        this.exchangeIdOf.set(o.id, ack.order_id);
        if (Number(ack.remaining_count) > 0) this.runner.orderUpdate(o.id, 'resting');
      })
      .catch((e: unknown) => this.runner.orderUpdate(o.id, 'refused', (e as Error).message));
  }

  cancel(o: StrategyOrder): void {
    const id = this.exchangeIdOf.get(o.id);
    if (!id) return;
    this.trading
      .cancelOrder({ order_id: id, ticker: o.ticker, origin: 'api' })
      .then(() => this.runner.orderUpdate(o.id, 'canceled'))
      .catch((e: unknown) => this.log(`[strategy] cancel of ${o.id} failed: ${(e as Error).message}`));
  }

  /** A fill from the private stream: the strategy's if the order is. */
  onFill(f: Record<string, unknown>): void {
    const o = this.byExchangeId.get(String(f.order_id ?? ''));
    if (!o) return;
    const yes = ticksFrom(String(f.yes_price_dollars ?? ''));
    const count = centiFrom(String(f.count_fp ?? ''));
    const fee = f.fee_cost === undefined || f.fee_cost === null ? 0 : Math.round(Number(f.fee_cost) * 1e6);
    this.runner.setTime(Date.now());
    this.runner.fill({ orderId: o.id, ticker: o.ticker, side: o.side, price: yes, count, maker: f.is_taker === false, fee, ts: Date.now() });
  }

  onBooks(session: ActiveSession['session'], tickers: string[]): void {
    const w = this.runner.watched;
    for (const t of tickers) {
      if (w && !w.has(t)) continue;
      const b = session.books.book(t);
      if (!b) continue;
      const bid = b.bestYesBid;
      const ask = b.bestYesAsk;
      const top = { ticker: t, bid: bid > 0 ? bid : null, ask: ask > 0 ? ask : null, bidSize: bid > 0 ? b.bidSize(0, bid) : 0, askSize: ask > 0 ? b.yesAskSize(ask) : 0 };
      const last = this.runner.top(t);
      if (last && last.bid === top.bid && last.ask === top.ask && last.bidSize === top.bidSize && last.askSize === top.askSize) continue;
      this.runner.setTime(Date.now());
      this.runner.book(top);
    }
  }

  onTrade(t: TradeView): void {
    this.runner.setTime(Date.now());
    this.runner.trade({ ticker: t.ticker, price: ticksFrom(t.yes_price_dollars), count: centiFrom(t.count_fp), takerSide: t.taker_side === 'no' ? 'no' : 'yes' });
  }
}
