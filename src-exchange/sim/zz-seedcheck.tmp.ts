import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startExchange } from '../server';
const dir = mkdtempSync(path.join(tmpdir(), 'seedcheck-'));
const t0 = Date.now();
const ex = await startExchange({ dataDir: dir, sim: false, rateLimits: false, seed: 7, port: 0 });
console.log('start ms', Date.now() - t0);
const e = ex.svc.node.core.engine;
console.log('markets', e.listMarkets().length, 'trades', e.getTrades().length);
const st: Record<string, number> = {};
for (const m of e.listMarkets()) st[m.status] = (st[m.status] ?? 0) + 1;
console.log(st);
for (const p of ['/markets?limit=3', '/series', '/events?limit=2&with_nested_markets=true', '/historical/cutoff', '/historical/markets?limit=2', '/markets/trades?limit=2', '/historical/trades?limit=2', '/exchange/schedule', '/structured_targets?page_size=2', '/multivariate_event_collections', '/events/multivariate']) {
  const t = Date.now();
  const r = await fetch(ex.baseUrl + p);
  const txt = await r.text();
  console.log(p, r.status, Date.now() - t, 'ms', txt.slice(0, 400));
}
await ex.close();
