// The storm's wire trace (src-main/chaos/run.ts traceWire): a request that got no answer is listed
// with when undici created it, when its headers went out and on which connection; answered ones
// are not. A real HTTP server on 127.0.0.1, port 0, that never answers one path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { traceWire } from './run';

let server: Server | null = null;
afterEach(async () => {
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
