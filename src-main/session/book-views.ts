// The books main holds, as the page and the risk gate read them: a compact view of the best
// BOOK_DEPTH levels a side, and the inside market in dollars. The page gets them as pushes of
// the levels changed since the last push, numbered per market (src-shared/ipc/book-stream.ts):
// main keeps what it last pushed of each market, to diff against and to answer a snapshot.
import type { BookMachine } from '../market/books';
import type { BookView } from '../../src-shared/ipc/contract';
import { BOOK_DEPTH, diffLevels, fullPush, type BookPush } from '../../src-shared/ipc/book-stream';
import { Decimal, ticksToDollars } from '../../src-shared/money';
import type { BookTop } from '../risk/gate';

interface Pushed {
  seq: number;
  stale: boolean;
  yesBids: number[];
  yesAsks: number[];
}

export class BookViews {
  private readonly versions = new Map<string, number>();
  /** what the page was last pushed of each market, and its seq */
  private readonly pushed = new Map<string, Pushed>();

  constructor(private readonly books: BookMachine) {}

  /** Book view of one market (compact, best first). */
  view(ticker: string): BookView | undefined {
    const b = this.books.book(ticker);
    if (!b) return undefined;
    const top = b.top(BOOK_DEPTH);
    const version = (this.versions.get(ticker) ?? 0) + 1;
    this.versions.set(ticker, version);
    return { ticker, stale: b.stale, yesBids: Array.from(top.yesBids), yesAsks: Array.from(top.yesAsks), version };
  }

  /** The views of these markets' books, leaving out any not held. */
  views(tickers: readonly string[]): BookView[] {
    const out: BookView[] = [];
    for (const t of tickers) {
      const v = this.view(t);
      if (v) out.push(v);
    }
    return out;
  }

  /**
   * The pushes for these markets: only the levels changed since each one's last push (a market
   * never pushed goes out full); a market with nothing changed, or not held, is left out.
   */
  pushes(tickers: readonly string[]): BookPush[] {
    const out: BookPush[] = [];
    for (const t of tickers) {
      const b = this.books.book(t);
      if (!b) continue;
      const top = b.top(BOOK_DEPTH);
      const next: Pushed = { seq: 0, stale: b.stale, yesBids: Array.from(top.yesBids), yesAsks: Array.from(top.yesAsks) };
      const last = this.pushed.get(t);
      if (!last) {
        next.seq = 1;
        out.push(fullPush(t, next.seq, next.stale, next.yesBids, next.yesAsks));
        this.pushed.set(t, next);
        continue;
      }
      const bids = diffLevels(last.yesBids, next.yesBids);
      const asks = diffLevels(last.yesAsks, next.yesAsks);
      if (!bids.length && !asks.length && next.stale === last.stale) continue;
      next.seq = last.seq + 1;
      const d: BookPush = { ticker: t, seq: next.seq };
      if (next.stale !== last.stale) d.stale = next.stale;
      if (bids.length) d.yesBids = bids;
      if (asks.length) d.yesAsks = asks;
      out.push(d);
      this.pushed.set(t, next);
    }
    return out;
  }

  /**
   * Full views of what was last pushed of these markets, each under its seq: the answer to a page
   * that saw a gap. With `push`, each is a push of its own (seq + 1), for a page that subscribes.
   * Markets never pushed are left out (their first push is full).
   */
  snapshots(tickers: readonly string[], push = false): BookPush[] {
    const out: BookPush[] = [];
    for (const t of tickers) {
      const last = this.pushed.get(t);
      if (!last) continue;
      if (push) last.seq++;
      out.push(fullPush(t, last.seq, last.stale, last.yesBids, last.yesAsks));
    }
    return out;
  }

  /**
   * Every market ever pushed, as gone (the session that held them ends): the page drops those
   * views, and this keeps none, so a market pushed again goes out full.
   */
  gone(): BookPush[] {
    const out: BookPush[] = [...this.pushed].map(([ticker, last]) => ({ ticker, seq: last.seq + 1, gone: true }));
    this.pushed.clear();
    return out;
  }

  /** The inside market of a book main holds, for the risk gate; undefined when none is held. */
  top(ticker: string): BookTop | undefined {
    const b = this.books.book(ticker);
    if (!b) return undefined;
    const bid = b.bestYesBid;
    const ask = b.bestYesAsk;
    return { stale: b.stale, yesBid: bid < 0 ? null : new Decimal(ticksToDollars(bid)), yesAsk: ask < 0 ? null : new Decimal(ticksToDollars(ask)) };
  }
}
