// The `books` stream: main pushes, per market, only the levels that changed since its last push
// (a price with its new count; count 0: the level left the view), numbered by a per-market `seq`.
// A full view (`full: true`) goes out when main first shows a market, when the page subscribes
// (watchMarkets), and in answer to `bookSnapshots` when the page saw a gap (a delta whose seq is
// not the next). `gone: true` says main holds the market's book no more (its session ended: a key
// or profile switch), so the page drops the view rather than show a book nobody keeps live.
// Levels are exact integers: price ticks of 0.0001 $ and centi-contracts.
// `BookReplica` is the one applier of these pushes (the renderer's books store, the chaos world).
import { z } from 'zod';

/** levels a side in main's book views (and so in the renderer's books and the heatmap's history) */
export const BOOK_DEPTH = 25;

/** One market's book, compact: [priceTicks, countCenti, priceTicks, countCenti, ...], best first. */
export interface BookView {
  ticker: string;
  stale: boolean;
  yesBids: number[];
  yesAsks: number[];
  /** the seq of the last push applied: it changes whenever the view does */
  version: number;
}

/** Flat [priceTicks, countCenti, ...]; in a delta a count of 0 means the level is gone. */
const FlatLevels = z
  .array(z.number().int().nonnegative())
  .max(400)
  .refine((a) => a.length % 2 === 0, 'levels come in [price, count] pairs');

/** One market's push. Unknown fields pass through (a newer main may add some). */
export const BookPush = z
  .object({
    ticker: z.string().min(1).max(200),
    /** per market, +1 on every push; a full view answered to `bookSnapshots` carries the seq of the last push */
    seq: z.number().int().positive(),
    /** true: yesBids/yesAsks are the whole view (best first); absent: only the changed levels */
    full: z.literal(true).optional(),
    /** on a delta, present only when it changed */
    stale: z.boolean().optional(),
    /** main holds this market's book no more (the session that held it ended): the view is dropped, and its next push is full */
    gone: z.literal(true).optional(),
    yesBids: FlatLevels.optional(),
    yesAsks: FlatLevels.optional(),
  })
  .passthrough();
export type BookPush = z.infer<typeof BookPush>;
export const BookPushes = z.array(BookPush);

/** The levels of `next` that differ from `prev` (flat, best first): changed or new with their count, gone with 0. */
export function diffLevels(prev: readonly number[], next: readonly number[]): number[] {
  const before = new Map<number, number>();
  for (let i = 0; i < prev.length; i += 2) before.set(prev[i]!, prev[i + 1]!);
  const out: number[] = [];
  for (let i = 0; i < next.length; i += 2) {
    const p = next[i]!;
    const c = next[i + 1]!;
    if (before.get(p) !== c) out.push(p, c);
    before.delete(p);
  }
  for (const p of before.keys()) out.push(p, 0);
  return out;
}

/** `prev` with `changes` applied, best first: bids by price descending, asks ascending. */
export function applyLevels(prev: readonly number[], changes: readonly number[] | undefined, side: 'bids' | 'asks'): number[] {
  if (!changes || changes.length === 0) return prev as number[];
  const levels = new Map<number, number>();
  for (let i = 0; i < prev.length; i += 2) levels.set(prev[i]!, prev[i + 1]!);
  for (let i = 0; i < changes.length; i += 2) {
    if (changes[i + 1] === 0) levels.delete(changes[i]!);
    else levels.set(changes[i]!, changes[i + 1]!);
  }
  const prices = [...levels.keys()].sort(side === 'bids' ? (a, b) => b - a : (a, b) => a - b);
  const out = new Array<number>(prices.length * 2);
  prices.forEach((p, j) => {
    out[2 * j] = p;
    out[2 * j + 1] = levels.get(p)!;
  });
  return out;
}

/** A full push of a view. */
export function fullPush(ticker: string, seq: number, stale: boolean, yesBids: number[], yesAsks: number[]): BookPush {
  return { ticker, seq, full: true, stale, yesBids, yesAsks };
}

/** Deltas kept per market while its snapshot is asked for (more: the oldest go, and the next gap asks again). */
export const MAX_BUFFERED_DELTAS = 256;

/**
 * The books as main pushed them, rebuilt from the stream: full views replace, deltas apply in seq
 * order, and a delta that is not the next (or comes before any full view) is a gap: the market is
 * asked for a snapshot, and its deltas wait until the answer comes.
 */
export class BookReplica {
  readonly views = new Map<string, BookView>();
  /** seq of the view held, per market; absent: no base to apply a delta to */
  private readonly base = new Map<string, number>();
  /** markets whose snapshot was asked for: the deltas that came meanwhile */
  private readonly waiting = new Map<string, BookPush[]>();

  /** Pushes off the stream. `changed`: markets whose view changed; `ask`: markets that now need a snapshot. */
  push(items: readonly BookPush[]): { changed: string[]; ask: string[] } {
    const changed: string[] = [];
    const ask: string[] = [];
    for (const it of items) {
      const t = it.ticker;
      if (it.gone) {
        // whatever came before, and any snapshot asked for: no longer main's book
        if (this.views.has(t) || this.waiting.has(t)) changed.push(t);
        this.forget([t]);
        continue;
      }
      if (it.full) {
        // a full view in the stream is in order with its deltas: it always applies
        this.setFull(it);
        changed.push(t);
        if (this.waiting.has(t)) this.drain(t, ask);
        continue;
      }
      const queued = this.waiting.get(t);
      if (queued) {
        if (queued.length >= MAX_BUFFERED_DELTAS) queued.shift();
        queued.push(it);
        continue;
      }
      const at = this.base.get(t);
      if (at !== undefined && it.seq <= at) continue; // already in the view held
      if (at === undefined || it.seq !== at + 1) {
        this.waiting.set(t, [it]);
        ask.push(t);
        continue;
      }
      this.applyDelta(it);
      changed.push(t);
    }
    return { changed, ask };
  }

  /**
   * The answer to a snapshot asked for `asked`: each full view applies unless the view held is
   * newer, then the deltas that waited. `ask`: markets still with a gap (to ask again).
   */
  answer(asked: readonly string[], views: readonly BookPush[]): { changed: string[]; ask: string[] } {
    const changed: string[] = [];
    const ask: string[] = [];
    const got = new Map(views.filter((v) => v.full).map((v) => [v.ticker, v]));
    for (const t of asked) {
      if (!this.waiting.has(t)) continue;
      const v = got.get(t);
      const at = this.base.get(t);
      if (v && (at === undefined || v.seq >= at)) this.setFull(v);
      changed.push(t);
      if (this.base.has(t)) this.drain(t, ask);
      else this.waiting.delete(t); // main shows no such book: its first push will be full
    }
    return { changed, ask };
  }

  /** The asked-for snapshot will not come (the call failed): the next delta asks again. */
  giveUp(asked: readonly string[]): void {
    for (const t of asked) this.waiting.delete(t);
  }

  /** Drops these markets' views (a cap on what is held): a later delta of one is a gap and asks for a full view. */
  forget(tickers: Iterable<string>): void {
    for (const t of tickers) {
      this.views.delete(t);
      this.base.delete(t);
      this.waiting.delete(t);
    }
  }

  /** After a reconnect main's seqs may start over: every market needs a full view again (the views stay shown). */
  forgetSeqs(): void {
    this.base.clear();
    this.waiting.clear();
  }

  private setFull(it: BookPush): void {
    this.views.set(it.ticker, { ticker: it.ticker, stale: it.stale ?? false, yesBids: it.yesBids ?? [], yesAsks: it.yesAsks ?? [], version: it.seq });
    this.base.set(it.ticker, it.seq);
  }

  private applyDelta(it: BookPush): void {
    const v = this.views.get(it.ticker)!;
    this.views.set(it.ticker, {
      ticker: it.ticker,
      stale: it.stale ?? v.stale,
      yesBids: applyLevels(v.yesBids, it.yesBids, 'bids'),
      yesAsks: applyLevels(v.yesAsks, it.yesAsks, 'asks'),
      version: it.seq,
    });
    this.base.set(it.ticker, it.seq);
  }

  /** Applies the deltas that waited for `t` in seq order; a hole among them asks again. */
  private drain(t: string, ask: string[]): void {
    const queued = (this.waiting.get(t) ?? []).sort((a, b) => a.seq - b.seq);
    this.waiting.delete(t);
    for (let i = 0; i < queued.length; i++) {
      const it = queued[i]!;
      const at = this.base.get(t)!;
      if (it.seq <= at) continue;
      if (it.seq !== at + 1) {
        this.waiting.set(t, queued.slice(i));
        ask.push(t);
        return;
      }
      this.applyDelta(it);
    }
  }
}
