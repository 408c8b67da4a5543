// When the exchange's values changed, from its own ticker stream: REST gives the values at two
// reads around a sample, the stream says whether a value moved (and came back) in between, so a
// screen that showed the in-between value is not called wrong.
import WebSocket from 'ws';
import { signedUpgradeHeaders } from '../../test-support/exchange/ws-client';

type Field = 'bid' | 'ask' | 'last';

export class TickerTimeline {
  private last = new Map<string, Record<Field, string>>();
  private changes = new Map<string, number[]>();
  private levelChanges = new Map<string, number[]>();
  private booksWatched = new Map<string, number>();
  private nextId = 2;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const f = JSON.parse(data.toString()) as { type?: string; msg?: Record<string, unknown> };
      if (f.type === 'orderbook_delta' && f.msg) {
        // a level moved: [ticker, side, price ticks] at this moment
        const key = `${String(f.msg.market_ticker)}|${String(f.msg.side)}|${Math.round(Number(f.msg.price_dollars) * 10_000)}`;
        const list = this.levelChanges.get(key) ?? [];
        list.push(Date.now());
        if (list.length > 64) list.splice(0, list.length - 64);
        this.levelChanges.set(key, list);
        return;
      }
      if (f.type !== 'ticker' || !f.msg) return;
      const t = String(f.msg.market_ticker);
      const now: Record<Field, string> = { bid: String(f.msg.yes_bid_dollars), ask: String(f.msg.yes_ask_dollars), last: String(f.msg.price_dollars) };
      const before = this.last.get(t);
      this.last.set(t, now);
      const at = Date.now();
      for (const k of ['bid', 'ask', 'last'] as const) {
        if (before?.[k] === now[k]) continue;
        const key = `${t}|${k}`;
        const list = this.changes.get(key) ?? [];
        list.push(at);
        if (list.length > 64) list.splice(0, list.length - 64);
        this.changes.set(key, list);
      }
    });
  }

  static async open(wsUrl: string, key: { keyId: string; privateKeyPem: string }): Promise<TickerTimeline> {
    const ws = new WebSocket(wsUrl, { headers: signedUpgradeHeaders(key.keyId, key.privateKeyPem), perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels: ['ticker'] } }));
    return new TickerTimeline(ws);
  }

  /** What the exchange's ticker stream said last for this market's field (for the report). */
  lastValue(ticker: string, field: Field): string | undefined {
    return this.last.get(ticker)?.[field];
  }

  /** Whether this market's field changed between two moments (stream receipt times, with margin). */
  movedBetween(ticker: string, field: Field, from: number, to: number): boolean {
    return (this.changes.get(`${ticker}|${field}`) ?? []).some((t) => t >= from - 50 && t <= to + 50);
  }

  /** Follows these markets' book levels from now on (the ladders' markets). */
  watchBooks(tickers: readonly string[]): void {
    const add = [...new Set(tickers)].filter((t) => !this.booksWatched.has(t));
    if (!add.length) return;
    for (const t of add) this.booksWatched.set(t, Date.now());
    this.ws.send(JSON.stringify({ id: this.nextId++, cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: add } }));
  }

  /**
   * Whether any level of this book side between two prices (ticks, inclusive) moved between two
   * moments; undefined while the market's levels are not followed.
   */
  bookMovedBetween(ticker: string, side: 'yes' | 'no', lo: number, hi: number, from: number, to: number): boolean | undefined {
    // followed since before this window (with time for the subscription to take)
    const since = this.booksWatched.get(ticker);
    if (since === undefined || from < since + 500) return undefined;
    for (let p = lo; p <= hi; p++) {
      if ((this.levelChanges.get(`${ticker}|${side}|${p}`) ?? []).some((t) => t >= from - 50 && t <= to + 50)) return true;
    }
    return false;
  }

  close(): void {
    this.ws.terminate();
  }
}
