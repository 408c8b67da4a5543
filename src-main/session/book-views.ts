// The books main holds, as the page and the risk gate read them: a compact view of the best
// BOOK_DEPTH levels a side with a version per market (bumped on every view), and the inside
// market in dollars.
import type { BookMachine } from '../market/books';
import type { BookView } from '../../src-shared/ipc/contract';
import { Decimal, ticksToDollars } from '../../src-shared/money';
import type { BookTop } from '../risk/gate';

export const BOOK_DEPTH = 25;

export class BookViews {
  private readonly versions = new Map<string, number>();

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

  /** The inside market of a book main holds, for the risk gate; undefined when none is held. */
  top(ticker: string): BookTop | undefined {
    const b = this.books.book(ticker);
    if (!b) return undefined;
    const bid = b.bestYesBid;
    const ask = b.bestYesAsk;
    return { stale: b.stale, yesBid: bid < 0 ? null : new Decimal(ticksToDollars(bid)), yesAsk: ask < 0 ? null : new Decimal(ticksToDollars(ask)) };
  }
}
