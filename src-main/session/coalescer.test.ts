// Paint within a frame: the first change after a quiet frame goes out at once; changes within a
// frame of a flush go out together at the frame's end; never more than one flush per frame.
import { afterEach, describe, expect, it } from 'vitest';
import { FrameCoalescer } from './coalescer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const turn = () => new Promise((r) => setImmediate(r));
let c: FrameCoalescer | null = null;
afterEach(() => c?.stop());

describe('FrameCoalescer', () => {
  it('sends a change after a quiet frame at once, with everything from the same turn', async () => {
    const flushes: number[] = [];
    // a frame of a minute: a send that waited for a frame would not come within the two turns
    // below (no fixed hold, and nothing here times the machine)
    c = new FrameCoalescer(() => flushes.push(performance.now()), 60_000);
    c.poke();
    c.poke();
    c.poke();
    expect(flushes).toHaveLength(0); // not inside the caller's own stack
    await turn();
    await turn();
    expect(flushes).toHaveLength(1);
  });

  it('holds changes within a frame of a flush until that frame ends, then sends them together', async () => {
    const flushes: number[] = [];
    c = new FrameCoalescer(() => flushes.push(performance.now()), 40);
    c.poke();
    await turn();
    await turn();
    expect(flushes).toHaveLength(1);
    c.poke();
    await sleep(5);
    c.poke();
    expect(flushes).toHaveLength(1);
    await sleep(60);
    expect(flushes).toHaveLength(2);
    expect(flushes[1]! - flushes[0]!).toBeGreaterThanOrEqual(39);
  });

  it('uses the clock it is given: a poke a full frame after the last flush is immediate again', async () => {
    let now = 1000;
    let flushed = 0;
    c = new FrameCoalescer(() => flushed++, 16, () => now);
    c.poke();
    await turn();
    expect(flushed).toBe(1);
    now += 16;
    c.poke();
    await turn();
    expect(flushed).toBe(2);
  });

  it('sends nothing after stop', async () => {
    let flushed = 0;
    c = new FrameCoalescer(() => flushed++, 16);
    c.poke();
    c.stop();
    c.poke();
    await sleep(30);
    expect(flushed).toBe(0);
  });

  it('flushNow sends what is pending at once, in the calling stack, and cancels the pending flush', async () => {
    let flushes = 0;
    c = new FrameCoalescer(() => flushes++, 40);
    c.poke();
    c.flushNow();
    expect(flushes).toBe(1);
    await turn();
    await sleep(60);
    expect(flushes).toBe(1);
  });
});
