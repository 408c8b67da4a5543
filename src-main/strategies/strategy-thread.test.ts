// A strategy's thread, through the messages main sends it: the budget of CPU per second stops a
// strategy that keeps the CPU (however its events are spread over a busy machine's seconds), and
// leaves one that stays within it running.
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, type FromWorker, type ToWorker } from './protocol';
import { spawnStrategyThread } from './thread';

let worker: Worker | null = null;
afterEach(async () => {
  await worker?.terminate();
  worker = null;
});

/** Starts `code` with a budget of `cpuPerSecondMs`, sends `events` timer events, and gives every answer. */
async function run(code: string, cpuPerSecondMs: number, events: number): Promise<FromWorker[]> {
  const w = (worker = spawnStrategyThread(96));
  const answers: FromWorker[] = [];
  const done = new Promise<void>((resolve, reject) => {
    w.on('error', reject);
    w.on('message', (m: FromWorker) => {
      answers.push(m);
      if (m.type === 'started') for (let seq = 1; seq <= events; seq++) w.postMessage({ type: 'event', seq, event: { kind: 'timer', now: Date.now() } } satisfies ToWorker);
      if (m.type === 'done' && m.seq === events) resolve();
    });
  });
  w.postMessage({ type: 'start', code, params: {}, now: Date.now(), budget: { ...DEFAULT_BUDGET, cpuPerSecondMs } } satisfies ToWorker);
  await done;
  return answers;
}

const spinning = (ms: number) => `module.exports = { onTimer: function () { var end = Date.now() + ${ms}; while (Date.now() < end) {} } };`;
const faultOf = (answers: FromWorker[]) => answers.map((a) => ('fault' in a ? a.fault : null)).find((f) => f !== null) ?? null;

describe("a strategy's thread", () => {
  it('stops a strategy past its CPU per second, and says so', async () => {
    // 30 events of 40 ms each against a budget of 20 ms a second: some second holds more than
    // 20 ms of the thread's CPU even with the cores shared (the budget counts the thread's CPU
    // time, not the wall time it waited). With a budget of 100 ms, a stress run (busy loops on
    // every core beside vitest) once gave the thread under a tenth of a core in every second.
    const answers = await run(spinning(40), 20, 30);
    expect(faultOf(answers)).toBe('the strategy ran past its CPU budget of 20 ms per second and was stopped');
    // and every event is still answered (main's watchdog never waits on a stopped strategy)
    expect(answers.filter((a) => a.type === 'done')).toHaveLength(30);
  }, 60_000);

  it('leaves a strategy within its CPU per second running', async () => {
    const answers = await run(spinning(2), 500, 20);
    expect(faultOf(answers)).toBeNull();
    expect(answers[0]!.type).toBe('started');
  }, 60_000);
});
