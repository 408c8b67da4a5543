// The strategy sandbox refuses every way out and every abuse of its bounds, each with a clear
// error, and otherwise runs the strategy's handlers with the host api.
import { describe, expect, it } from 'vitest';
import { Sandbox, StrategyFault, type HostApi } from './sandbox';
import { threadCpuMs } from './thread-cpu';

const api = { log: (...a: unknown[]) => void logs.push(a.map(String).join(' ')), echo: (x: unknown) => ({ got: x }) };
let logs: string[] = [];

async function fault(code: string, handler = 'onBook', host: HostApi = api): Promise<StrategyFault> {
  let sb: Sandbox | null = null;
  try {
    sb = await Sandbox.load(code, host, { cpuMs: 50, memoryBytes: 8 * 1024 * 1024 });
    sb.call(handler, {});
  } catch (e) {
    expect(e).toBeInstanceOf(StrategyFault);
    return e as StrategyFault;
  } finally {
    sb?.dispose();
  }
  throw new Error('no fault');
}

describe('the strategy sandbox', () => {
  it('runs handlers with the host api, data in and out', async () => {
    logs = [];
    const sb = await Sandbox.load('module.exports = { onBook: function (e) { var r = api.echo({ n: e.n + 1 }); api.log("book", r.got.n); } };', api);
    expect(sb.handlers).toEqual(['onBook']);
    sb.call('onBook', { n: 41 });
    sb.call('onTrade', {}); // no such handler: nothing
    expect(logs).toEqual(['book 42']);
    sb.dispose();
  });

  it.each([
    ['process', 'module.exports = { onBook: function () { process.exit(1); } };', /'process' is not defined/],
    ['require', 'module.exports = { onBook: function () { require("fs").readFileSync("/etc/passwd"); } };', /'require' is not defined/],
    ['fetch', 'module.exports = { onBook: function () { fetch("http://127.0.0.1/"); } };', /'fetch' is not defined/],
    ['setTimeout', 'module.exports = { onBook: function () { setTimeout(function () {}, 0); } };', /'setTimeout' is not defined/],
    ['setInterval', 'module.exports = { onBook: function () { setInterval(function () {}, 0); } };', /'setInterval' is not defined/],
    ['globalThis.constructor escape', 'module.exports = { onBook: function () { var F = (function () {}).constructor; F("return process")().exit(); } };', /'process' is not defined/],
  ])('refuses %s', async (_name, code, re) => {
    const f = await fault(code);
    expect(f.kind).toBe('error');
    expect(f.message).toMatch(/in onBook/);
    expect(f.message).toMatch(re);
  });

  it('refuses import: static at load, dynamic never resolves to anything (no module loader, no job queue run)', async () => {
    expect((await fault('import fs from "fs"; module.exports = {};')).kind).toBe('load');
    logs = [];
    const sb = await Sandbox.load('module.exports = { onBook: function () { import("fs").then(function (m) { api.log("got", typeof m.readFileSync); }, function (e) { api.log("refused"); }); api.log("asked"); } };', api);
    sb.call('onBook', {});
    sb.call('onBook', {});
    expect(logs).toEqual(['asked', 'asked']);
    sb.dispose();
  });

  it('stops an endless loop at its CPU budget, while loading or in a handler', async () => {
    const f = await fault('module.exports = { onBook: function () { for (;;) {} } };');
    expect(f.kind).toBe('cpu');
    expect(f.message).toMatch(/CPU budget of 50 ms in onBook/);
    expect((await fault('while (true) {}')).kind).toBe('cpu');
  });

  // a thread kept off the CPU (here it sleeps in a host call, as a thread descheduled on a busy
  // machine would wait) has not used its budget: only the time it ran counts, up to a wall ceiling
  const sleep = (ms: unknown) => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
  const spinFor = 'function (ms) { var end = Date.now() + ms; while (Date.now() < end) {} }';
  it('counts the CPU time a call had, not the wall time it waited (where the OS says it)', async () => {
    if (threadCpuMs() === null) {
      expect(process.platform).not.toBe('linux'); // Linux always says it; elsewhere the budget is wall time
      return;
    }
    const sb = await Sandbox.load(`var spin = ${spinFor}; module.exports = { onBook: function (e) { spin(10); api.sleep(e.ms); spin(10); } };`, { sleep }, { cpuMs: 50 });
    sb.call('onBook', { ms: 150 }); // 170 ms of wall time, about 20 ms of CPU: within the budget
    sb.dispose();
    // a call that keeps the CPU after the same wait is stopped at its budget
    const f = await fault(`module.exports = { onBook: function () { api.sleep(150); for (;;) {} } };`, 'onBook', { sleep });
    expect(f.message).toMatch(/CPU budget of 50 ms in onBook/);
    // and waiting past 10 times the budget in wall time is stopped, however little CPU it had.
    // After the wait it runs a loop of a fixed count: QuickJS asks the budget every 10,000 or so
    // backward jumps, and 50,000 turns (a few ms of CPU) reach it; a loop of 40 ms of wall time
    // made only a few thousand turns on a busy machine's share of a core and never asked.
    const waits = await Sandbox.load(`module.exports = { onBook: function () { api.sleep(1100); for (var i = 0; i < 50000; i++) {} } };`, { sleep }, { cpuMs: 100 });
    expect(() => waits.call('onBook', {})).toThrow(/CPU budget of 100 ms in onBook/);
    waits.dispose();
  });

  it('reads the thread\'s CPU time where the OS says it, and it grows only while the thread runs', () => {
    const a = threadCpuMs();
    if (a === null) {
      expect(process.platform).not.toBe('linux');
      return;
    }
    sleep(100);
    const b = threadCpuMs()!;
    expect(b - a).toBeLessThan(50); // 100 ms asleep: next to nothing
    // running, it grows (however many other threads share the cores: spin until it has grown by
    // 30 ms, or give up after 20 s of wall time)
    const end = performance.now() + 20_000;
    while (threadCpuMs()! - b < 30 && performance.now() < end) {
      // spin
    }
    expect(threadCpuMs()! - b).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ['a huge buffer', 'new ArrayBuffer(1e9)'],
    ['a huge string', '"x".repeat(1e9)'],
    ['a huge array', 'new Array(1e8).fill(0)'],
  ])('stops %s at its memory limit', async (_name, expr) => {
    const f = await fault(`module.exports = { onBook: function () { ${expr}; } };`);
    expect(f.kind).toBe('memory');
    expect(f.message).toMatch(/memory limit of 8 MiB in onBook/);
  });

  it('stops a growing allocation at one of its bounds', async () => {
    const f = await fault('module.exports = { onBook: function () { var a = []; for (;;) a.push({ x: a.length }); } };');
    expect(['memory', 'cpu']).toContain(f.kind);
  });

  it('stops runaway recursion', async () => {
    const f = await fault('function r() { return r() + 1; } module.exports = { onBook: function () { r(); } };');
    expect(f.kind).toBe('memory');
    expect(f.message).toMatch(/stack/);
  });

  it('reports an error thrown by the strategy with its message', async () => {
    const f = await fault('module.exports = { onBook: function () { throw new Error("my bug"); } };');
    expect(f.message).toBe('the strategy failed in onBook: Error: my bug');
  });
});
