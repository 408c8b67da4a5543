// Book views cross to the page as the levels changed since the last push (issue 39): main's
// BookViews (over the real BookMachine, fed stream messages) and BookReplica, the applier the
// renderer's books store runs (src-renderer/stores/books.ts), with every push going through JSON
// and the stream's zod schema as on the wire. A gap in a market's seq makes the page ask for a
// snapshot and end equal to main's book; for any sequence of book changes the deltas rebuild
// exactly the full view.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BookMachine } from '../src-main/market/books';
import { NO, YES } from '../src-main/market/book';
import { BookViews } from '../src-main/session/book-views';
import { BOOK_DEPTH, BookPushes, BookReplica, type BookPush } from '../src-shared/ipc/book-stream';
import type { StreamMessage } from '../src-shared/wire/stream';

const dollars = (ticks: number) => (ticks / 10_000).toFixed(4);
const count = (centi: number) => (centi / 100).toFixed(2);

/** One market's exchange book, fed to a BookMachine as the stream would. */
class Feed {
  readonly machine = new BookMachine();
  readonly views = new BookViews(this.machine);
  private seq = 1;
  constructor(readonly tickers: string[]) {
    this.machine.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
    for (const t of tickers) this.snapshot(t, [[4500, 1000]], [[4000, 500]]);
  }
  snapshot(t: string, yes: [number, number][], no: [number, number][]): void {
    const msg: StreamMessage = {
      type: 'orderbook_snapshot',
      sid: 1,
      seq: this.seq++,
      msg: { market_ticker: t, yes_dollars_fp: yes.map(([p, c]) => [dollars(p), count(c)]), no_dollars_fp: no.map(([p, c]) => [dollars(p), count(c)]) },
    };
    this.machine.handle(msg);
  }
  /** Sets a level to `centi` by the delta the exchange would send. */
  set(t: string, side: 'yes' | 'no', ticks: number, centi: number): void {
    const b = this.machine.book(t)!;
    const d = centi - b.bidSize(side === 'yes' ? YES : NO, ticks);
    if (d === 0) return;
    this.machine.handle({ type: 'orderbook_delta', sid: 1, seq: this.seq++, msg: { market_ticker: t, price_dollars: dollars(ticks), delta_fp: count(d), side, ts: '2026-01-01T00:00:00Z' } });
  }
  /** What main pushes at its next frame, as the page receives it (JSON). */
  flush(): BookPush[] {
    return BookPushes.parse(JSON.parse(JSON.stringify(this.views.pushes(this.machine.takeDirty()))));
  }
  /** Main's full view now. */
  full(t: string) {
    const b = this.machine.book(t)!;
    const top = b.top(BOOK_DEPTH);
    return { stale: b.stale, yesBids: Array.from(top.yesBids), yesAsks: Array.from(top.yesAsks) };
  }
}

const shownIn = (page: BookReplica) => (t: string) => {
  const v = page.views.get(t);
  return v && { stale: v.stale, yesBids: v.yesBids, yesAsks: v.yesAsks };
};

describe('book views as changed levels, main to the page', () => {
  it('a delta after a lost push is a gap: the page asks for a snapshot and then shows main’s book', () => {
    const feed = new Feed(['KXA', 'KXB']);
    const page = new BookReplica();
    const shown = shownIn(page);
    expect(page.push(feed.flush()).ask).toEqual([]);
    expect(shown('KXA')).toEqual(feed.full('KXA'));

    feed.set('KXA', 'yes', 4600, 200);
    feed.set('KXB', 'no', 3900, 700);
    feed.flush(); // lost on the way: the page never sees seq 2
    feed.set('KXA', 'yes', 4500, 0);
    feed.set('KXA', 'no', 3000, 100);
    feed.set('KXB', 'yes', 4400, 300);
    const next = feed.flush();
    expect(next.every((p) => !p.full && p.seq === 3)).toBe(true);
    // only the changed levels cross: KXA's 4500 bid (gone) and its new NO bid at 0.30 (ask 0.70)
    expect(next.find((p) => p.ticker === 'KXA')).toMatchObject({ yesBids: [4500, 0], yesAsks: [7000, 100] });
    const r = page.push(next);
    expect(r.ask).toEqual(['KXA', 'KXB']);
    // a delta that comes while the snapshot is asked for waits for it
    feed.set('KXB', 'yes', 4300, 50);
    expect(page.push(feed.flush()).ask).toEqual([]);
    // main answers bookSnapshots with what it last pushed, under that push's seq
    const answer = BookPushes.parse(JSON.parse(JSON.stringify(feed.views.snapshots(r.ask))));
    expect(page.answer(r.ask, answer).ask).toEqual([]);
    expect(shown('KXA')).toEqual(feed.full('KXA'));
    expect(shown('KXB')).toEqual(feed.full('KXB'));

    // and the stream goes on from the snapshot's seq
    feed.set('KXA', 'yes', 4700, 900);
    expect(page.push(feed.flush()).ask).toEqual([]);
    expect(shown('KXA')).toEqual(feed.full('KXA'));
  });

  it('a session that ends says its books are gone: the page drops them, a snapshot asked for before is not applied when it comes, and the next push of one is full', () => {
    const feed = new Feed(['KXA', 'KXB']);
    const page = new BookReplica();
    page.push(feed.flush());
    // KXB has a gap: its snapshot is asked for, and is still on its way when the session ends
    feed.set('KXB', 'yes', 4600, 200);
    feed.flush(); // lost
    feed.set('KXB', 'yes', 4400, 300);
    expect(page.push(feed.flush()).ask).toEqual(['KXB']);
    const inFlight = BookPushes.parse(JSON.parse(JSON.stringify(feed.views.snapshots(['KXB']))));
    const gone = BookPushes.parse(JSON.parse(JSON.stringify(feed.views.gone())));
    expect(gone).toEqual([expect.objectContaining({ ticker: 'KXA', gone: true }), expect.objectContaining({ ticker: 'KXB', gone: true })]);
    expect(page.push(gone).changed.sort()).toEqual(['KXA', 'KXB']);
    expect([...page.views.keys()]).toEqual([]);
    // the late answer to KXB's snapshot does not bring it back
    expect(page.answer(['KXB'], inFlight).changed).toEqual([]);
    expect(page.views.has('KXB')).toBe(false);
    // a gone market the page never held changes nothing
    expect(page.push([{ ticker: 'KXZ', seq: 1, gone: true }]).changed).toEqual([]);
    // the views kept nothing: the next push of a market (a new session's) is full, and shows it
    feed.set('KXA', 'yes', 4700, 900);
    const next = feed.flush();
    expect(next).toEqual([expect.objectContaining({ ticker: 'KXA', full: true, seq: 1 })]);
    page.push(next);
    expect(shownIn(page)('KXA')).toEqual(feed.full('KXA'));
  });

  it('a push that says nothing changed is not sent; a page that subscribes gets full views; unknown fields pass', () => {
    const feed = new Feed(['KXA']);
    const page = new BookReplica();
    page.push(feed.flush());
    feed.set('KXA', 'yes', 4500, 1000); // the same size: no delta from the exchange
    expect(feed.flush()).toEqual([]);
    // a second page joins: the watch pushes the full view, in the stream's seq
    const late = new BookReplica();
    const sub = BookPushes.parse(JSON.parse(JSON.stringify(feed.views.snapshots(['KXA'], true))));
    expect(sub[0]).toMatchObject({ full: true, seq: 2 });
    page.push(sub);
    late.push(sub);
    feed.set('KXA', 'yes', 4500, 1200);
    const [p] = feed.flush();
    const parsed = BookPushes.parse([{ ...p, futureField: 1 }]);
    expect(parsed[0]).toHaveProperty('futureField', 1);
    for (const r of [page, late]) {
      expect(r.push(parsed).ask).toEqual([]);
      expect(shownIn(r)('KXA')).toEqual(feed.full('KXA'));
    }
  });

  it('for any sequence of book changes, the deltas rebuild exactly the full view', () => {
    const TICKERS = ['KXA', 'KXB'];
    // 40 prices a side, so the 25-level view loses and gains levels at its far end
    const price = fc.integer({ min: 1, max: 40 }).map((i) => i * 100);
    const op = fc.oneof(
      { weight: 12, arbitrary: fc.record({ k: fc.constant('set' as const), t: fc.constantFrom(...TICKERS), side: fc.constantFrom('yes' as const, 'no' as const), p: price, c: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000 })) }) },
      { weight: 4, arbitrary: fc.record({ k: fc.constant('flush' as const) }) },
      {
        weight: 1,
        arbitrary: fc.record({
          k: fc.constant('snapshot' as const),
          t: fc.constantFrom(...TICKERS),
          yes: fc.uniqueArray(fc.tuple(price, fc.integer({ min: 1, max: 9_999 })), { selector: (x) => x[0], maxLength: 35 }),
          no: fc.uniqueArray(fc.tuple(price, fc.integer({ min: 1, max: 9_999 })), { selector: (x) => x[0], maxLength: 35 }),
        }),
      },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const feed = new Feed(TICKERS);
        const page = new BookReplica();
        const check = () => {
          const r = page.push(feed.flush());
          expect(r.ask).toEqual([]);
          for (const t of TICKERS) {
            const v = page.views.get(t)!;
            expect({ stale: v.stale, yesBids: v.yesBids, yesAsks: v.yesAsks }).toEqual(feed.full(t));
          }
        };
        check();
        for (const o of ops) {
          if (o.k === 'set') feed.set(o.t, o.side, o.p, o.c);
          else if (o.k === 'snapshot') feed.snapshot(o.t, o.yes, o.no);
          else check();
        }
        check();
      }),
      { numRuns: 100 },
    );
  });
});
