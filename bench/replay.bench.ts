// Replay throughput: a recording's rows through the replayed books with the trader's orders in
// them (the queue model matching on every trade and cancel at their prices), as fast as
// possible. Target: >= 1,000,000 events/s (`replay_events_per_s`). Peer in the same run: a plain
// replay that applies the same rows as decimal strings to a Map per market, with no orders.
import { decodeTape } from '../src-exchange/replay/tape';
import { ReplayBooks } from '../src-exchange/replay/queue';
import { syntheticRows } from '../src-exchange/replay/synthetic';
import { figure, median, scaled } from './lib';

const ROWS = scaled(2_000_000, 400_000);
const MARKETS = 20;
const rows = syntheticRows({ markets: MARKETS, rows: ROWS, seed: 28, rowsPerSecond: 50_000 });
const t0 = performance.now();
const tape = decodeTape(rows);
const decodeMs = performance.now() - t0;

function ours(): { perSec: number; fills: number } {
  const books = new ReplayBooks(tape);
  let fills = 0;
  // ten resting orders per market at the inside, replaced when they fill: matching stays busy
  books.onFill = () => fills++;
  books.run(MARKETS * 11);
  const keep = () => {
    for (let m = 0; m < MARKETS; m++) {
      const best = books.best(m, 0);
      if (best > 0) for (let k = 0; k < 10; k++) books.place(m, k % 2, k % 2 ? 10_000 - best - 100 : best - 100 * (k % 3), 100);
    }
  };
  keep();
  const start = performance.now();
  const CHUNK = 100_000;
  while (books.cursor < tape.length) {
    books.run(books.cursor + CHUNK);
    if (books.openOrders().length < MARKETS * 5) keep();
  }
  return { perSec: (tape.length - MARKETS * 11) / ((performance.now() - start) / 1000), fills };
}

function plain(): number {
  const books = new Map<string, Map<string, number>>();
  const start = performance.now();
  for (let i = 0; i < rows.n; i++) {
    const k = rows.kind[i];
    if (k !== 'delta' && k !== 'level') continue;
    const m = rows.market[i]!;
    let b = books.get(m);
    if (!b) books.set(m, (b = new Map()));
    const key = `${rows.side[i]}:${rows.price[i]}`;
    b.set(key, (b.get(key) ?? 0) + Number(rows.size[i]));
  }
  return rows.n / ((performance.now() - start) / 1000);
}

const oursRuns: { perSec: number; fills: number }[] = [];
const plainRuns: number[] = [];
for (let i = 0; i < scaled(5, 3); i++) {
  oursRuns.push(ours());
  plainRuns.push(plain());
}
const perSec = median(oursRuns.map((r) => r.perSec));
const peer = median(plainRuns);
const spanS = (tape.tsUs[tape.length - 1]! - tape.tsUs[0]!) / 1e6;
console.log(`\n## replay of ${tape.length.toLocaleString()} rows over ${MARKETS} markets (${spanS.toFixed(0)} s recorded at 50,000 rows/s), decoded in ${decodeMs.toFixed(0)} ms`);
console.log(`  ours (queue model, ${oursRuns[0]!.fills.toLocaleString()} fills)   ${Math.round(perSec).toLocaleString()} events/s  = ${(perSec / 50_000).toFixed(0)}x the recorded pace (n=${oursRuns.length})`);
console.log(`  plain Map replay, no orders      ${Math.round(peer).toLocaleString()} events/s`);
figure('replay_queue_events_per_s', perSec, 'events/s', peer, perSec / peer);
console.log(`  target >= 1,000,000 events/s: ${perSec >= 1_000_000 ? 'met' : 'MISSED'}`);
process.exit(perSec >= 1_000_000 ? 0 : 2);
