// The books as the stream has published them. The node applies a command before it is journaled
// and publishes its events only once durable, so the engine's live book can be ahead of the
// events subscribers have seen. A snapshot taken from the engine could then count a change twice
// (once in the snapshot, again in its delta). Snapshots come from this mirror instead: it is
// built only from published `book` events (after a baseline taken at attach time, when nothing is
// in flight), so snapshot + the deltas that follow it is exactly the book.
import type { Engine } from '../engine/engine';
import type { BookEvent, OutcomeSide } from '../engine/types';

interface MirrorBook {
  /** price ticks -> count centi, on each side's own leg */
  yes: Map<number, number>;
  no: Map<number, number>;
}

export interface Top {
  /** best YES bid (ticks) and its size, 0/0 when empty */
  yesBid: number;
  yesBidSize: number;
  /** best NO bid (ticks) and its size, 0/0 when empty */
  noBid: number;
  noBidSize: number;
}

export class BookMirror {
  private readonly books = new Map<string, MirrorBook>();

  /** Baseline: every market's current book. Call when no command is between apply and publish. */
  static fromEngine(engine: Engine): BookMirror {
    const m = new BookMirror();
    for (const market of engine.listMarkets()) {
      const view = engine.getBook(market.ticker);
      if (!view) continue;
      const b = m.bookOf(market.ticker);
      for (const [p, c] of view.yes) b.yes.set(p, c);
      for (const [p, c] of view.no) b.no.set(p, c);
    }
    return m;
  }

  private bookOf(ticker: string): MirrorBook {
    let b = this.books.get(ticker);
    if (!b) {
      b = { yes: new Map(), no: new Map() };
      this.books.set(ticker, b);
    }
    return b;
  }

  apply(e: BookEvent): void {
    const side = this.bookOf(e.ticker)[e.side];
    const next = (side.get(e.price) ?? 0) + e.delta;
    if (next === 0) side.delete(e.price);
    else side.set(e.price, next);
  }

  /** Bids of one side, best (highest) first: [price ticks, count centi]. */
  levels(ticker: string, side: OutcomeSide): Array<[number, number]> {
    const b = this.books.get(ticker);
    if (!b) return [];
    const out: Array<[number, number]> = [];
    for (const [p, c] of b[side]) if (c > 0) out.push([p, c]);
    out.sort((x, y) => y[0] - x[0]);
    return out;
  }

  top(ticker: string): Top {
    const b = this.books.get(ticker);
    const t: Top = { yesBid: 0, yesBidSize: 0, noBid: 0, noBidSize: 0 };
    if (!b) return t;
    for (const [p, c] of b.yes) if (c > 0 && p > t.yesBid) [t.yesBid, t.yesBidSize] = [p, c];
    for (const [p, c] of b.no) if (c > 0 && p > t.noBid) [t.noBid, t.noBidSize] = [p, c];
    return t;
  }
}
