// Live books, kept outside React state: main pushes at most one change per market per frame, only
// the levels that changed (src-shared/ipc/book-stream.ts), and the ladder paints from here in
// requestAnimationFrame. `version` bumps on every batch; `changed` names the markets whose view
// that batch changed, so a ladder repaints only when its own market did. Books of markets no panel
// uses are capped (MAX_OFFSCREEN_BOOKS, least recently updated go first).
import { createStore } from 'zustand/vanilla';
import type { BookView } from '../../src-shared/ipc/contract';
import { BookPushes, BookReplica, type BookPush } from '../../src-shared/ipc/book-stream';
import { privateStore } from './private';
import { isLiveLocal, useTools } from './tools';
import { useTrading } from './trading';

export interface BooksState {
  byTicker: Map<string, BookView>;
  version: number;
  /** the markets whose view the last batch changed (null: any may have) */
  changed?: ReadonlySet<string> | null;
}

export const booksStore = createStore<BooksState>()(() => ({ byTicker: new Map(), version: 0 }));

let replica = new BookReplica();

/**
 * Books kept of markets no panel uses, at most: beyond this many the ones updated longest ago are
 * dropped (a session that views market after market no longer keeps a book for each). Never
 * dropped, whatever their number: the markets on screen (the selected one, every link group's and
 * pinned panel's: ladders, event ladders, heatmaps, charts, the ticket), the watchlist's, those
 * with a resting order or a position (the ladder's and the Positions panel's marks), and those an
 * alert not silenced or a live local order watches (main streams them, at most 50: so they never
 * churn). A dropped market that streams again starts from a full view (its next delta is a gap
 * and asks main).
 */
export const MAX_OFFSCREEN_BOOKS = 64;

/** Every market held, least recently updated first (a Map iterates in insertion order). */
let touched = new Map<string, true>();

/** The markets whose books the panels read (see MAX_OFFSCREEN_BOOKS). */
export function booksInUse(): Set<string> {
  const { ticker, groups, pins, watchlist } = useTrading.getState();
  const keep = new Set<string>(watchlist);
  if (ticker) keep.add(ticker);
  for (const t of Object.values(groups)) if (t) keep.add(t);
  for (const t of Object.values(pins)) keep.add(t);
  const { orders, positions } = privateStore.getState();
  for (const o of Object.values(orders)) if (o.status === 'resting') keep.add(o.ticker);
  for (const p of Object.values(positions)) keep.add(p.ticker);
  const { alerts, local } = useTools.getState();
  for (const a of alerts?.alerts ?? []) if (a.state !== 'silenced' && 'ticker' in a.condition && a.condition.ticker) keep.add(a.condition.ticker);
  for (const o of local?.orders ?? []) if (isLiveLocal(o.state)) keep.add(o.ticker);
  return keep;
}

/** Drops the least recently updated books of markets not in use past MAX_OFFSCREEN_BOOKS. */
function evict(): void {
  if (replica.views.size <= MAX_OFFSCREEN_BOOKS) return;
  const keep = booksInUse();
  let over = -MAX_OFFSCREEN_BOOKS;
  for (const t of replica.views.keys()) if (!keep.has(t)) over++;
  if (over <= 0) return;
  const drop: string[] = [];
  for (const t of touched.keys()) {
    if (drop.length >= over) break;
    if (!keep.has(t) && replica.views.has(t)) drop.push(t);
  }
  replica.forget(drop);
  for (const t of drop) touched.delete(t);
}

function publish(changed: readonly string[]): void {
  if (!changed.length) return;
  const before = touched.size;
  for (const t of changed) {
    touched.delete(t);
    if (replica.views.has(t)) touched.set(t, true);
  }
  // only a market new to the store can take it past the cap
  if (touched.size > before) evict();
  const { version } = booksStore.getState();
  booksStore.setState({ byTicker: replica.views, version: version + 1, changed: new Set(changed) });
}

/** The store was reset from outside (tests): start over from what it holds. */
function adoptStore(): void {
  if (booksStore.getState().byTicker === replica.views) return;
  replica = new BookReplica();
  touched = new Map();
  for (const [t, v] of booksStore.getState().byTicker) {
    replica.views.set(t, v);
    touched.set(t, true);
  }
}

/** Full views (a seeded or test book): they replace what is held. */
export function applyBooks(views: BookView[]): void {
  if (!views.length) return;
  adoptStore();
  replica.push(views.map((v) => ({ ticker: v.ticker, seq: Math.max(1, v.version), full: true, stale: v.stale, yesBids: v.yesBids, yesAsks: v.yesAsks })));
  publish(views.map((v) => v.ticker));
}

/** Asks main for full views of these books (the `bookSnapshots` call). */
export type AskSnapshots = (tickers: string[]) => Promise<BookPush[]>;

let asking: Promise<void> = Promise.resolve();

/**
 * The `books` stream's pushes: parsed (unknown fields pass), applied in seq order; a gap asks
 * main for a snapshot of those markets through `ask`, and their deltas wait for the answer.
 * Resolves when any snapshot asked for has been applied.
 */
export function applyBookPushes(payload: unknown, ask: AskSnapshots): Promise<void> {
  const parsed = BookPushes.safeParse(payload);
  if (!parsed.success) return Promise.resolve();
  adoptStore();
  const r = replica.push(parsed.data);
  publish(r.changed);
  if (r.ask.length) asking = askFor(r.ask, ask);
  return asking;
}

async function askFor(tickers: string[], ask: AskSnapshots, tries = 3): Promise<void> {
  const r0 = replica;
  let views: BookPush[];
  try {
    const raw = await ask(tickers);
    const parsed = BookPushes.safeParse(raw);
    views = parsed.success ? parsed.data : [];
  } catch {
    if (r0 === replica) r0.giveUp(tickers);
    return;
  }
  if (r0 !== replica) return;
  const r = replica.answer(tickers, views);
  publish(r.changed);
  if (r.ask.length && tries > 1) await askFor(r.ask, ask, tries - 1);
  else if (r.ask.length) replica.giveUp(r.ask);
}

/** After the bridge reconnects (main may have restarted): every book needs a full view again. */
export function forgetBookSeqs(): void {
  replica.forgetSeqs();
}

export function bookOf(ticker: string | null | undefined): BookView | undefined {
  return ticker ? booksStore.getState().byTicker.get(ticker) : undefined;
}

/** Best YES bid and ask in ticks (null when a side is empty). */
export function insideOf(book: BookView | undefined): { bid: number | null; ask: number | null } {
  return { bid: book?.yesBids[0] ?? null, ask: book?.yesAsks[0] ?? null };
}
