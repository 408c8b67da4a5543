// Main's event loop under a 50,000 deltas/s feed across 20 markets: the real stream connection,
// frame ingest (parse, validate, apply) and coalesced book views (at most one push per market
// every PUSH_INTERVAL_MS, as the session does), with the feed in
// another process. Target: event-loop lag p99 < 5 ms. Peer in the same run: a naive pipeline
// (full zod union parse per frame, Map-based book, a view per delta).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { StreamConnection } from '../src-main/stream/connection';
import { BookMachine } from '../src-main/market/books';
import { FrameIngest } from '../src-main/market/frame';
import { FrameCoalescer, PUSH_INTERVAL_MS } from '../src-main/session/coalescer';
import { parseStreamFrame } from '../src-shared/wire/stream';
import { figure, median, scaled } from './lib';
import { dieWithParent, stopChild } from './procs';
import { spawnFeed } from './spawn-host';

dieWithParent();

const RATE = 50_000;
const MARKETS = 20;
const SECONDS = scaled(10, 4);

interface RunResult {
  frames: number;
  p50: number;
  p99: number;
  max: number;
  views: number;
}

async function run(pipeline: 'ours' | 'naive'): Promise<RunResult> {
  // the feed is owned and has an IPC channel: it goes with this process however it ends
  const { child, port } = await spawnFeed({ FEED_RATE: String(RATE), FEED_MARKETS: String(MARKETS), FEED_SECONDS: String(SECONDS + 1) });

  let frames = 0;
  let views = 0;
  const machine = new BookMachine();
  const ingest = new FrameIngest(machine);
  const coalescer = new FrameCoalescer(() => {
    for (const t of machine.takeDirty()) {
      const b = machine.book(t);
      if (b) {
        b.top(25);
        views++;
      }
    }
  }, PUSH_INTERVAL_MS);
  const naiveBooks = new Map<string, Map<string, number>>();
  const onData =
    pipeline === 'ours'
      ? (text: string) => {
          frames++;
          const r = ingest.ingest(text);
          if (r.touched) coalescer.poke();
        }
      : (text: string) => {
          frames++;
          const r = parseStreamFrame(text);
          if (!r.ok || r.msg.type !== 'orderbook_delta') return;
          const m = r.msg.msg;
          const book = naiveBooks.get(m.market_ticker) ?? new Map<string, number>();
          naiveBooks.set(m.market_ticker, book);
          const key = `${m.side}:${m.price_dollars}`;
          book.set(key, (book.get(key) ?? 0) + Number(m.delta_fp));
          // a view per delta: sort levels and copy them, as an uncoalesced push would
          [...book.entries()].sort((a, b) => (a[0] < b[0] ? 1 : -1)).slice(0, 25);
          views++;
        };

  const conn = new StreamConnection({ url: `ws://127.0.0.1:${port}`, onData, silenceMs: 60_000, pingMs: 60_000 });
  await conn.want('orderbook_delta', Array.from({ length: MARKETS }, (_, i) => `BENCH-${i}`));
  conn.start();
  // let the feed ramp, then measure
  await new Promise((r) => setTimeout(r, 1000));
  const h = monitorEventLoopDelay({ resolution: 1 });
  const f0 = frames;
  h.enable();
  await new Promise((r) => setTimeout(r, (SECONDS - 2) * 1000));
  h.disable();
  const got = frames - f0;
  await conn.stop();
  coalescer.stop();
  await stopChild(child);
  return { frames: got / (SECONDS - 2), p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6, views };
}

const ours: RunResult[] = [];
const naive: RunResult[] = [];
for (let i = 0; i < scaled(3, 1); i++) {
  ours.push(await run('ours'));
  naive.push(await run('naive'));
}
const show = (name: string, rs: RunResult[]) =>
  console.log(
    `  ${name.padEnd(36)} frames ${Math.round(median(rs.map((r) => r.frames))).toLocaleString()}/s  lag p50 ${median(rs.map((r) => r.p50)).toFixed(2)} ms  p99 ${median(rs.map((r) => r.p99)).toFixed(2)} ms  max ${median(rs.map((r) => r.max)).toFixed(1)} ms  (n=${rs.length})`,
  );
console.log(`\n## main event loop under a ${RATE.toLocaleString()} deltas/s feed across ${MARKETS} markets`);
show('ours (ingest + coalesced views)', ours);
show('naive (zod union + Map book + view/delta)', naive);
const p99 = median(ours.map((r) => r.p99));
const ratio = median(naive.map((r) => r.p99)) / p99;
console.log(`  ratio naive p99 / ours p99: ${ratio.toFixed(2)}x`);
figure('event_loop_lag_p99_ms', p99, 'ms', median(naive.map((r) => r.p99)), ratio);
const kept = median(ours.map((r) => r.frames)) >= RATE * 0.95;
console.log(`  target lag p99 < 5 ms: ${p99 < 5 ? 'met' : 'MISSED'}; kept up with the feed (>= 95%): ${kept ? 'yes' : 'NO'}`);
process.exit(p99 < 5 && kept ? 0 : 2);
