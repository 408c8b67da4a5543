// Live books, kept outside React state: main pushes at most one view per market per frame and
// the ladder paints from here in requestAnimationFrame. `version` bumps on every batch so a
// painter can tell whether anything changed since its last frame.
import { createStore } from 'zustand/vanilla';
import type { BookView } from '../../src-shared/ipc/contract';

export interface BooksState {
  byTicker: Map<string, BookView>;
  version: number;
}

export const booksStore = createStore<BooksState>()(() => ({ byTicker: new Map(), version: 0 }));

export function applyBooks(views: BookView[]): void {
  if (!views.length) return;
  const { byTicker, version } = booksStore.getState();
  for (const v of views) byTicker.set(v.ticker, v);
  booksStore.setState({ byTicker, version: version + 1 });
}

export function bookOf(ticker: string | null | undefined): BookView | undefined {
  return ticker ? booksStore.getState().byTicker.get(ticker) : undefined;
}

/** Best YES bid and ask in ticks (null when a side is empty). */
export function insideOf(book: BookView | undefined): { bid: number | null; ask: number | null } {
  return { bid: book?.yesBids[0] ?? null, ask: book?.yesAsks[0] ?? null };
}
