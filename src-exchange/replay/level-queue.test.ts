import { describe, expect, it } from 'vitest';
import { readSegs, setReplaySize } from './level-queue';

const queue = [
  { orderId: 'r1', userId: 'maker', remaining: 300 },
  { orderId: 'r2', userId: 'maker', remaining: 100 },
  { orderId: 't1', userId: 'trader', remaining: 500 },
  { orderId: 'r3', userId: 'maker', remaining: 200 },
];

describe('a trader level queued in memory', () => {
  it('reads a level as runs of the replay and others, first in line first', () => {
    expect(readSegs(queue, 'maker')).toEqual([
      { replay: true, size: 400, orders: [{ id: 'r1', left: 300 }, { id: 'r2', left: 100 }] },
      { replay: false, size: 500, orders: [] },
      { replay: true, size: 200, orders: [{ id: 'r3', left: 200 }] },
    ]);
  });

  it('queues new size behind everyone', () => {
    const segs = readSegs(queue.slice(0, 3), 'maker');
    setReplaySize(segs, 450);
    expect(segs.map((s) => [s.replay, s.size])).toEqual([[true, 400], [false, 500], [true, 50]]);
    setReplaySize(segs, 470);
    expect(segs.map((s) => [s.replay, s.size])).toEqual([[true, 400], [false, 500], [true, 70]]);
  });

  it('takes a decrease from ahead of and behind the trader pro rata, the rest behind', () => {
    const segs = readSegs(queue, 'maker');
    // 600 held, 400 of it ahead: a cut of 300 takes floor(300 * 400 / 600) = 200 ahead, 100 behind
    setReplaySize(segs, 300);
    expect(segs.map((s) => s.size)).toEqual([200, 500, 100]);
    // the trader's size never changes here; a cut to nothing empties both runs
    setReplaySize(segs, 0);
    expect(segs.map((s) => s.size)).toEqual([0, 500, 0]);
  });

  it('with the trader first in line, every cut is behind it', () => {
    const segs = readSegs(queue.slice(2), 'maker');
    setReplaySize(segs, 50);
    expect(segs.map((s) => s.size)).toEqual([500, 50]);
  });
});
