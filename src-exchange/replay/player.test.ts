// Replay determinism: the same recording, with the same orders placed at the same rows, fills
// the same whatever the speed, and seeking back rebuilds the same books.
import { describe, expect, it } from 'vitest';
import { ReplayPlayer } from './player';
import { ReplayBooks, ReplayCursor, type ReplayFill } from './queue';
import { decodeTape, type Tape } from './tape';
import { syntheticRows } from './synthetic';

function runAt(tape: Tape, speed: number | 'max', wallStepMs: number): ReplayFill[] {
  const fills: ReplayFill[] = [];
  // orders placed when the replay reaches given rows: a join at the best bid every 2,000 rows
  const player = new ReplayPlayer(tape, {
    newBooks: (t) => {
      const b = new ReplayBooks(t);
      b.onFill = (f) => fills.push(f);
      return b;
    },
  });
  player.setSpeed(speed);
  let nextOrderRow = 1000;
  for (let guard = 0; guard < 1e7 && !player.state().done; guard++) {
    // step at most up to the next order row, so the order sees the same book at every speed
    const before = player.books.cursor;
    if (before >= nextOrderRow) {
      const m = (before / 1000) % tape.markets.length;
      const best = player.books.best(m, 0);
      if (best > 0) player.books.place(m, 0, best, 500);
      nextOrderRow += 2000;
    }
    player.stopRow = nextOrderRow;
    player.step(wallStepMs);
  }
  return fills;
}

describe('replay', () => {
  const tape = decodeTape(syntheticRows({ markets: 4, rows: 40_000, seed: 7, rowsPerSecond: 2000 }));

  it('gives the same fills at 1x, 10x, 1000x and as fast as possible', () => {
    const fast = runAt(tape, 'max', 0);
    expect(fast.length).toBeGreaterThan(10);
    expect(runAt(tape, 1000, 7)).toEqual(fast);
    expect(runAt(tape, 10, 33)).toEqual(fast);
    expect(runAt(tape, 1, 1000)).toEqual(fast);
  });

  it('seeking back rebuilds the same books', () => {
    const p = new ReplayPlayer(tape);
    p.setSpeed('max');
    const mid = tape.tsUs[20_000]!;
    p.seek(mid);
    const snapshot = [0, 1, 2, 3].map((m) => [p.books.best(m, 0), p.books.best(m, 1), p.books.level(m, 0, p.books.best(m, 0))]);
    p.seek(tape.tsUs[39_000]!);
    p.seek(mid);
    expect([0, 1, 2, 3].map((m) => [p.books.best(m, 0), p.books.best(m, 1), p.books.level(m, 0, p.books.best(m, 0))])).toEqual(snapshot);
    expect(() => p.setSpeed(5000)).toThrow(/1x to 1000x/);
  });

  it("paces the same on a cursor (books run only when asked: the exchange replay's player) as on the books: row, time, end and levels at every step and seek", () => {
    const books = new ReplayPlayer(tape, { chunk: 3_001 });
    const cursor = new ReplayPlayer(tape, { chunk: 3_001, newBooks: (t) => new ReplayCursor(t) });
    const both = (f: (p: ReplayPlayer) => unknown) => [f(books), f(cursor)] as const;
    const states: unknown[] = [];
    const check = () => {
      const [a, b] = both((p) => p.state());
      expect(b).toEqual(a);
      expect(cursor.books.nowUs).toBe(books.books.nowUs);
      for (let m = 0; m < tape.markets.length; m++) {
        for (const side of [0, 1]) {
          const best = books.books.best(m, side);
          expect(cursor.books.best(m, side)).toBe(best);
          expect(cursor.books.level(m, side, best)).toBe(books.books.level(m, side, best));
        }
      }
      states.push(a);
    };
    // paced steps, max steps up to a stop row, paced again, seeks forward (between rows, past the end) and back
    const paced = (speeds: readonly number[]) => {
      for (const speed of speeds) {
        both((p) => p.setSpeed(speed));
        for (let i = 0; i < 5; i++) {
          both((p) => p.step(37 + i));
          check();
        }
      }
    };
    paced([1, 10]);
    both((p) => (p.stopRow = 20_500));
    both((p) => p.setSpeed('max'));
    for (let i = 0; i < 8; i++) {
      both((p) => p.step(0));
      check();
    }
    both((p) => (p.stopRow = Infinity));
    paced([100, 1000]);
    for (const ts of [tape.tsUs[25_000]! + 1, tape.tsUs[3_000]!, tape.tsUs[0]! - 5, tape.tsUs[39_999]! + 1_000_000, tape.tsUs[10_000]!]) {
      both((p) => p.seek(ts));
      check();
    }
    both((p) => p.setSpeed('max'));
    while (!books.state().done) {
      both((p) => p.step(0));
      check();
    }
    expect(new Set(states.map((s) => JSON.stringify(s))).size).toBeGreaterThan(20);
    expect(() => cursor.books.place(0, 0, 5_000, 100)).toThrow(/cursor/);
  });
});
