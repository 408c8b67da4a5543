// Market data (KalshiMD, docs.kalshi.com/fix/market-data; the spec's "market data" gateway):
// MarketDataRequest (V: 263 = 0 snapshot, 1 snapshot plus updates, 2 cancel; 146/55 the market
// tickers, none on 263=2 = cancel all) answered per symbol with MarketDataSnapshotFullRefresh (W)
// and then MarketDataIncrementalRefresh (X) as the book changes; a request naming a market the
// exchange does not list is refused whole with MarketDataRequestReject (Y: 281=0 unknown symbol,
// 58 Text) and changes no subscription.
// Levels are on the YES leg: 269=0 Bid = a YES bid at its price, 269=1 Offer = a NO bid shown at
// its YES price (1 - NO price). Sizes are contract counts (2 decimals). In X each entry carries
// the level's new size; 271=0 (with 279=2 Delete) means the level is gone.
// SecurityStatus (f) per market: after each W, the market's trading status now (325
// UnsolicitedIndicator=N), and on a subscription, each change of it (325=Y): 55 Symbol, 326
// SecurityTradingStatus as FIX 5.0 SP2 defines it (17 ready to trade: open; 2 trading halt: paused;
// 18 not available for trading: not yet open, closed, determined, settled), 58 the status' name.
import type { ExchangeEvent } from '../state/domain';
import type { BookView, MarketStatus } from '../engine/types';
import { centiToCount } from '../engine/units';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionApp, SessionLink } from './link';
import { writePrice, type Fields } from './orders';

/** SecurityTradingStatus (326) of a market status. */
export function tradingStatus(status: MarketStatus): number {
  return status === 'open' ? 17 : status === 'paused' ? 2 : 18;
}

type Levels = Map<string, { type: '0' | '1'; ticks: number; centi: number }>;

function levelsOf(book: BookView): Levels {
  const out: Levels = new Map();
  for (const [ticks, centi] of book.yes) out.set(`0:${ticks}`, { type: '0', ticks, centi });
  for (const [noTicks, centi] of book.no) out.set(`1:${10_000 - noTicks}`, { type: '1', ticks: 10_000 - noTicks, centi });
  return out;
}

export class MarketDataApp implements SessionApp {
  /** subscribed tickers -> the levels last sent, and the request id to echo */
  private readonly subs = new Map<string, { reqId: string | undefined; levels: Levels; status?: MarketStatus }>();

  constructor(private readonly link: SessionLink) {}

  private book(ticker: string): BookView | undefined {
    return this.link.svc.node.core.engine.getBook(ticker);
  }

  onMessage(m: FixMessage): boolean {
    if (m.msgType !== 'V') return false;
    const reqId = m.get(262);
    const type = m.get(263);
    const symbols = m.fields.filter(([tag]) => tag === 55).map(([, v]) => v);
    const reject = (reason: number, text: string) =>
      this.link.send('Y', [...(reqId !== undefined ? ([[262, reqId]] as Fields) : []), [281, reason], [58, text]]);
    if (type !== '0' && type !== '1' && type !== '2') {
      reject(99, 'SubscriptionRequestType (263) must be 0, 1 or 2');
      return true;
    }
    if (type === '2') {
      for (const s of symbols.length ? symbols : [...this.subs.keys()]) this.subs.delete(s);
      return true;
    }
    if (symbols.length === 0) {
      reject(99, 'NoRelatedSym (146) with at least one Symbol (55) is required');
      return true;
    }
    const unknown = symbols.filter((s) => this.book(s) === undefined);
    if (unknown.length) {
      reject(0, `unknown symbol ${unknown.join(', ')}`);
      return true;
    }
    for (const s of symbols) {
      const levels = levelsOf(this.book(s)!);
      this.snapshot(s, reqId, levels);
      const status = this.link.svc.node.core.engine.getMarket(s)?.status;
      if (status) this.securityStatus(s, reqId, status, false);
      if (type === '1') this.subs.set(s, { reqId, levels, ...(status ? { status } : {}) });
    }
    return true;
  }

  private snapshot(ticker: string, reqId: string | undefined, levels: Levels): void {
    const sorted = [...levels.values()].sort((a, b) => (a.type !== b.type ? (a.type === '0' ? -1 : 1) : a.type === '0' ? b.ticks - a.ticks : a.ticks - b.ticks));
    const body: Fields = [...(reqId !== undefined ? ([[262, reqId]] as Fields) : []), [55, ticker], [268, sorted.length]];
    for (const l of sorted) body.push([269, l.type], [270, writePrice(l.ticks, this.link.trader.useDollars)], [271, centiToCount(l.centi)]);
    this.link.send('W', body);
  }

  private securityStatus(ticker: string, reqId: string | undefined, status: MarketStatus, unsolicited: boolean): void {
    this.link.send('f', [...(reqId !== undefined ? ([[324, reqId]] as Fields) : []), [55, ticker], [325, unsolicited ? 'Y' : 'N'], [326, tradingStatus(status)], [58, status]]);
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    const touched = new Set<string>();
    for (const e of events) {
      if (e.type === 'book' && this.subs.has(e.ticker)) touched.add(e.ticker);
      if (e.type !== 'market') continue;
      const sub = this.subs.get(e.market.ticker);
      if (!sub || sub.status === e.market.status) continue;
      sub.status = e.market.status;
      this.securityStatus(e.market.ticker, sub.reqId, e.market.status, true);
    }
    for (const ticker of touched) {
      const sub = this.subs.get(ticker)!;
      const book = this.book(ticker);
      if (!book) continue;
      const now = levelsOf(book);
      const entries: Fields = [];
      let n = 0;
      const entry = (action: string, l: { type: string; ticks: number }, centi: number) => {
        n++;
        entries.push([279, action], [269, l.type], [55, ticker], [270, writePrice(l.ticks, this.link.trader.useDollars)], [271, centiToCount(centi)]);
      };
      for (const [k, was] of sub.levels) if (!now.has(k)) entry('2', was, 0);
      for (const [k, l] of now) {
        const was = sub.levels.get(k);
        if (!was) entry('0', l, l.centi);
        else if (was.centi !== l.centi) entry('1', l, l.centi);
      }
      sub.levels = now;
      if (n) this.link.send('X', [...(sub.reqId !== undefined ? ([[262, sub.reqId]] as Fields) : []), [268, n], ...entries]);
    }
  }
}
