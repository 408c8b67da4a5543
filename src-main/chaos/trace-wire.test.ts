// The storm's wire trace (src-main/chaos/run.ts traceWire): a request that got no answer is listed
// with when undici created it, when its headers went out and on which connection; answered ones
// are not. A real HTTP server on 127.0.0.1, port 0, that never answers one path.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { listenOverflows, traceWire } from './run';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

let server: Server | null = null;
let proxy: FaultProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  server = null;
});

it('lists the request that got no answer, sent on which connection, and not the answered one', async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/silent')) return; // never answered
    res.end('ok');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const wire = traceWire(port);
  expect(await (await fetch(`http://127.0.0.1:${port}/fine`)).text()).toBe('ok');
  const lost = await fetch(`http://127.0.0.1:${port}/silent?x=1`, { signal: AbortSignal.timeout(300) }).then(
    () => 'answered',
    (e: Error) => e.name,
  );
  expect(lost).toBe('TimeoutError');
  const unanswered = wire.stop();
  expect(unanswered).toHaveLength(1);
  expect(unanswered[0]).toMatch(/^undici: GET \/silent created at \+\d+ ms, headers sent at \+\d+ ms on local port \d+ \(that connection (made at \+\d+ ms|made before the storm)\), no answer, error: /);
});

it("through the fault proxy, also says what the proxy saw of that connection: accepted, sent on, nothing back", async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/silent')) return; // never answered
    res.end('ok');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  proxy = await startFaultProxy({ upstreamPort: (server.address() as AddressInfo).port, seed: 1, faults: null });
  const wire = traceWire(proxy.port, (p) => proxy!.traceOf(p));
  expect(await (await fetch(`${proxy.url}/fine`)).text()).toBe('ok');
  const lost = await fetch(`${proxy.url}/silent`, { signal: AbortSignal.timeout(300) }).then(
    () => 'answered',
    (e: Error) => e.name,
  );
  expect(lost).toBe('TimeoutError');
  const unanswered = wire.stop();
  expect(unanswered).toHaveLength(1);
  // the request's bytes went on to the server whole; no answer came back to the proxy
  const m = /the proxy: accepted at \+\d+ ms, its leg to the exchange connected \+\d+ ms and closed (never|\+\d+ ms), request bytes in\/out (\d+)\/(\d+), answer bytes in\/out 0\/0, client side closed (never|\+\d+ ms)$/.exec(unanswered[0]!);
  expect(m, unanswered[0]).not.toBeNull();
  expect(Number(m![2])).toBeGreaterThan(0);
  expect(m![3]).toBe(m![2]);
});

it("counts the handshakes a full accept queue held back (the kernel's ListenOverflows), where the kernel says", async () => {
  const before = listenOverflows();
  if (process.platform !== 'linux') {
    expect(before).toBeNull();
    return;
  }
  expect(before).toEqual(expect.any(Number));
  // a listener whose queue holds 2 and that accepts nothing for 3 s (its loop blocked), and 8 connections to it
  const child = spawn(process.execPath, ['-e', "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{console.log(s.address().port);Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,3000);process.exit(0)})"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  const sockets = Array.from({ length: 8 }, () => connect({ host: '127.0.0.1', port }).on('error', () => {}));
  try {
    await expect.poll(() => listenOverflows()! - before!, { timeout: 2_500 }).toBeGreaterThan(0);
  } finally {
    for (const s of sockets) s.destroy();
    child.kill();
  }
});
