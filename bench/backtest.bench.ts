// Backtest throughput: the example market maker (in its QuickJS sandbox) over a seeded synthetic
// recording of 20 markets at full speed, every decision through the queue model. No target in
// the issue; reported as `backtest_events_per_s` with the replay alone (the same rows, no
// strategy) as the peer, so the ratio is the strategy's share of the time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeTape } from '../src-exchange/replay/tape';
import { ReplayBooks } from '../src-exchange/replay/queue';
import { syntheticRows } from '../src-exchange/replay/synthetic';
import { runBacktest } from '../src-main/strategies/backtest';
import { figure, median, scaled } from './lib';

const here = path.dirname(fileURLToPath(import.meta.url));
const code = readFileSync(path.join(here, '../src-main/strategies/examples/market-maker.js'), 'utf8');
const tape = decodeTape(syntheticRows({ markets: 20, rows: scaled(500_000, 100_000), seed: 28, rowsPerSecond: 50_000 }));

const ours: number[] = [];
const peer: number[] = [];
let fills = 0;
let orders = 0;
for (let i = 0; i < scaled(3, 1); i++) {
  const r = await runBacktest({ tape, code, params: { ticker: 'SYN-3', size: '1', maxPosition: 10 } });
  ours.push(r.eventsPerSec);
  fills = r.fills.length;
  orders = r.orders.length;
  const books = new ReplayBooks(tape);
  const t0 = performance.now();
  books.run(tape.length);
  peer.push(tape.length / ((performance.now() - t0) / 1000));
}
const v = median(ours);
const p = median(peer);
console.log(`\n## backtest of the example market maker over ${tape.length.toLocaleString()} rows, 20 markets`);
console.log(`  backtest (sandboxed strategy)  ${Math.round(v).toLocaleString()} events/s  (${orders.toLocaleString()} orders, ${fills.toLocaleString()} fills; n=${ours.length})`);
console.log(`  replay alone                   ${Math.round(p).toLocaleString()} events/s`);
figure('backtest_events_per_s', v, 'events/s', p, v / p);
process.exit(0);
