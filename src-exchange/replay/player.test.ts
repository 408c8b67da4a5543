// Replay determinism: the same recording, with the same orders placed at the same rows, fills
// the same whatever the speed, and seeking back rebuilds the same books.
import { describe, expect, it } from 'vitest';
import { ReplayPlayer } from './player';
import { ReplayBooks, type ReplayFill } from './queue';
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
});
