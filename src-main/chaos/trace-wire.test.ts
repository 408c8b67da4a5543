// The storm's wire trace (src-main/chaos/run.ts traceWire): a request that got no answer is listed
// with when undici created it, when its headers went out and on which connection; answered ones
// are not. A real HTTP server on 127.0.0.1, port 0, that never answers one path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { traceWire } from './run';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

let server: Server | null = null;
let proxy: FaultProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
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
