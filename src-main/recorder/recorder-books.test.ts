// Every recorded market starts with its book (issue 38 item 1): a market main already streams
// sends no snapshot when a recording starts, so the recorder writes its own (`book` rows, from
// main's books) at the start, when a market is first seen mid-flow, and at intervals.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { StreamRead } from '../../src-shared/wire/stream';
import { Recorder, type BookSource } from './recorder';
import type { RowBatch } from './batch';

const dirs: string[] = [];
const recorders: Recorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Main's books as a test holds them: market -> side -> tick -> centi. */
class Books implements BookSource {
  readonly m = new Map<string, [Map<number, number>, Map<number, number>]>();
  set(market: string, side: 0 | 1, tick: number, centi: number): void {
    let b = this.m.get(market);
    if (!b) this.m.set(market, (b = [new Map(), new Map()]));
    if (centi === 0) b[side].delete(tick);
    else b[side].set(tick, centi);
  }
  markets(): Iterable<string> {
    return [...this.m.keys()];
  }
  levels(market: string) {
    const b = this.m.get(market);
    if (!b) return undefined;
    const flat = (s: Map<number, number>) => [...s.entries()].sort((x, y) => y[0] - x[0]).flat();
    return { yes: flat(b[0]), no: flat(b[1]) };
  }
  text(market: string): string[] {
    const b = this.m.get(market)!;
    return [...[0, 1].flatMap((side) => [...b[side as 0 | 1].entries()].map(([p, q]) => `${side} ${p} ${q}`))].sort();
  }
}

/** The book each market has after the rows, folded as a replay does (snapshot/book clear, level set, delta add). */
function fold(rows: RowBatch, upTo = rows.n.length): Map<string, string[]> {
  const books = new Map<string, Map<string, number>>();
  for (let i = 0; i < upTo; i++) {
    const k = rows.kind[i]!;
    const mk = rows.market[i]!;
    if (k === 'snapshot' || k === 'book') books.set(mk, new Map());
    if (k !== 'level' && k !== 'delta') continue;
    const b = books.get(mk) ?? new Map<string, number>();
    books.set(mk, b);
    const key = `${rows.side[i] === 'no' ? 1 : 0} ${Math.round(Number(rows.price[i]) * 10_000)}`;
    const centi = Math.round(Number(rows.size[i]) * 100);
    const now = k === 'level' ? centi : Math.max(0, (b.get(key) ?? 0) + centi);
    if (now === 0) b.delete(key);
    else b.set(key, now);
  }
  const out = new Map<string, string[]>();
  for (const [mk, b] of books) out.set(mk, [...b.entries()].map(([k, q]) => `${k} ${q}`).sort());
  return out;
}

const delta = (t: string, seq: number, side: 'yes' | 'no', price: string, d: string) =>
  ({ type: 'orderbook_delta', sid: 1, seq, msg: { market_ticker: t, side, price_dollars: price, delta_fp: d } }) as unknown as StreamRead;

async function until(cond: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 2000 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await cond()).toBe(true);
}

/** A recorder in a fresh directory over a test's books (removed after the test). */
async function recorderOverBooks(snapshotEveryMs: number): Promise<{ rec: Recorder; books: Books }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rec-books-'));
  dirs.push(dir);
  const rec = new Recorder({ dir, flushMs: 50, snapshotEveryMs });
  recorders.push(rec);
  const books = new Books();
  rec.bookSource = books;
  return { rec, books };
}

test('a recording starts every market with its book: at the start, at first sight, and at intervals', async () => {
  // a book every 100 ms (not 25, with a flush every 20 ms: under the stress run's busy loops the
  // store thread's commits fell behind those rows and each read waited behind them, 24-30 s)
  const { rec, books } = await recorderOverBooks(100);
  // main streams A before the recording starts (its snapshot is long gone)
  books.set('A', 0, 5000, 1000);
  books.set('A', 0, 4900, 300);
  books.set('A', 1, 4700, 250);
  const meta = await rec.start({ name: 'books' });
  // main applies each message to its book before the recorder sees it
  books.set('A', 0, 5000, 900);
  rec.onMessage(delta('A', 7, 'yes', '0.5000', '-1.00'));
  // B appears mid-flow, already streamed (its first message is a delta)
  books.set('B', 1, 3000, 500);
  books.set('B', 1, 3100, 700);
  rec.onMessage(delta('B', 8, 'no', '0.3100', '7.00'));
  books.set('B', 1, 3000, 0);
  rec.onMessage(delta('B', 9, 'no', '0.3000', '-5.00'));
  rec.flush();
  await until(async () => (await rec.read(meta.id, 0, 1_000)).size.includes('-5.00'));
  const first = await rec.read(meta.id, 0, 1_000);
  // A's book is the first thing recorded, B's before its first delta
  expect(first.kind.slice(0, 4)).toEqual(['book', 'level', 'level', 'level']);
  expect(first.market.slice(0, 4)).toEqual(['A', 'A', 'A', 'A']);
  const folded = fold(first, 9);
  expect(folded.get('A')).toEqual(books.text('A'));
  expect(folded.get('B')).toEqual(books.text('B'));
  // at intervals: the book again, as it stands
  books.set('A', 0, 4800, 1200);
  await until(async () => {
    const rows = await rec.read(meta.id, 0, 10_000);
    return rows.kind.filter((k, i) => k === 'book' && rows.market[i] === 'A').length >= 2 && fold(rows).get('A')!.includes('0 4800 1200');
  });
  await rec.stop();
  const all = await rec.read(meta.id, 0, 10_000);
  expect(fold(all).get('A')).toEqual(books.text('A'));
  expect(fold(all).get('B')).toEqual(books.text('B'));
  expect((await rec.list())[0]!.stats?.markets).toEqual(['A', 'B']);
});

test('a recording ends every market with its book at the stop: a quiet one still runs from its start to its stop', async () => {
  // no interval snapshots: only the opening book, and nothing moves while it records
  const { rec, books } = await recorderOverBooks(0);
  books.set('A', 0, 5000, 1000);
  books.set('A', 1, 4700, 250);
  const meta = await rec.start({ name: 'quiet' });
  await until(async () => (await rec.read(meta.id, 0, 100)).n.length === 3);
  const opened = (await rec.read(meta.id, 0, 100)).ts[0]!;
  await until(() => Date.now() * 1000 > opened + 2_000);
  await rec.stop();
  const rows = await rec.read(meta.id, 0, 100);
  expect(rows.kind).toEqual(['book', 'level', 'level', 'book', 'level', 'level']);
  // the closing book is stamped at the stop, after the opening one: the recording has a length
  expect(rows.ts[3]).toBeGreaterThan(opened);
  expect(fold(rows).get('A')).toEqual(books.text('A'));
  expect((await rec.list())[0]!.stats).toMatchObject({ firstUs: opened, lastUs: rows.ts[3] });
});
