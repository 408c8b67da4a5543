// Journal: durable appends per second from 64 concurrent producers with group commit,
// against the naive one-write-one-fdatasync-per-record journal, in the same run and on
// the same disk. Also append-to-durable latency (p50/p99) and the CPU cost of framing.
// Targets: >= 20,000 durable appends/s with 64 producers, p99 < 10 ms. Exit 2 if missed.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Journal, type JournalOptions } from '../src-exchange/journal/journal';
import { encodeFrame } from '../src-exchange/journal/frame';
import { figure, measure, median, percentile, report, scaled, type Sample } from './lib';

const PRODUCERS = 64;
const TARGET_RATE = 20_000;
const TARGET_P99_MS = 10;

// A command shaped like what the engine journals.
const command = (i: number) => ({
  type: 'create_order',
  account: `acct-${i % 50}`,
  ticker: 'KXHIGHNY-25DEC31-T45',
  side: i % 2 ? 'yes' : 'no',
  action: 'buy',
  priceTicks: 1 + (i % 99),
  countCenti: 100 * (1 + (i % 10)),
  clientOrderId: `c-${i}-6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9`,
  tif: 'gtc',
});

interface Run {
  sample: Sample;
  latenciesMs: number[];
  appends: number;
  fsyncs: number;
}

async function run(name: string, options: JournalOptions, opsPerRep: number, reps: number, warmup = 1): Promise<Run> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-bench-'));
  try {
    const { journal } = await Journal.open(dir, options);
    const sample: Sample = { name, opsPerSec: [] };
    const latenciesMs: number[] = [];
    let i = 0;
    for (let rep = 0; rep < warmup + reps; rep++) {
      const measured = rep >= warmup;
      let remaining = opsPerRep;
      const producer = async (): Promise<void> => {
        while (remaining > 0) {
          remaining--;
          const t0 = process.hrtime.bigint();
          await journal.append(command(i++));
          if (measured) latenciesMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      };
      const t0 = process.hrtime.bigint();
      await Promise.all(Array.from({ length: PRODUCERS }, producer));
      const ns = Number(process.hrtime.bigint() - t0);
      if (measured) sample.opsPerSec.push((opsPerRep * 1e9) / ns);
    }
    const { appends, fsyncs } = journal.stats;
    await journal.close();
    return { sample, latenciesMs, appends, fsyncs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function printLatency(r: Run): void {
  const p50 = percentile(r.latenciesMs, 50);
  const p99 = percentile(r.latenciesMs, 99);
  const max = r.latenciesMs.reduce((a, b) => Math.max(a, b), 0);
  console.log(
    `  ${r.sample.name.padEnd(40)} append->durable p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${max.toFixed(2)} ms; ` +
      `${(r.appends / r.fsyncs).toFixed(1)} appends per fdatasync`,
  );
}

const grouped = await run(`group commit, ${PRODUCERS} producers`, {}, scaled(40_000, 40_000, 8_000), scaled(5, 5, 2));
const naive = await run(`fsync per record, ${PRODUCERS} producers`, { maxBatchRecords: 1 }, scaled(4_000, 4_000, 800), scaled(5, 5, 2));

let ok = report('Journal: durable appends/s (write + fdatasync before ack)', [grouped.sample, naive.sample], {
  minOpsPerSec: TARGET_RATE,
});
console.log('\n## Journal: append-to-durable latency');
printLatency(grouped);
printLatency(naive);
const p99 = percentile(grouped.latenciesMs, 99);
const p50Ratio = percentile(naive.latenciesMs, 50) / percentile(grouped.latenciesMs, 50);
console.log(`  p50 latency ratio fsync-per-record / group commit: ${p50Ratio.toFixed(2)}x`);
const p99Met = p99 < TARGET_P99_MS;
console.log(`  target p99 < ${TARGET_P99_MS} ms with ${PRODUCERS} producers: ${p99.toFixed(3)} ms, ${p99Met ? 'met' : 'MISSED'}`);
figure('journal_durable_appends_per_s', median(grouped.sample.opsPerSec), 'appends/s', median(naive.sample.opsPerSec), median(grouped.sample.opsPerSec) / median(naive.sample.opsPerSec));
figure('journal_append_p99_ms', p99, 'ms');
ok &&= p99Met;

// CPU cost of a record before any I/O: JSON + frame + CRC32, against JSON alone.
const N = 50_000;
const cmds = Array.from({ length: N }, (_, k) => command(k));
let sink = 0;
const framing = measure('JSON.stringify + frame + CRC32', N, () => {
  for (let k = 0; k < N; k++) sink += encodeFrame(k + 1, JSON.stringify(cmds[k])).length;
});
const jsonOnly = measure('JSON.stringify only', N, () => {
  for (let k = 0; k < N; k++) sink += JSON.stringify(cmds[k]).length;
});
report('Journal: record encoding (CPU only)', [framing, jsonOnly]);
if (sink === 0) console.log('');
console.log(
  `\n  summary: group commit ${median(grouped.sample.opsPerSec).toFixed(0)} appends/s vs ${median(naive.sample.opsPerSec).toFixed(0)} appends/s ` +
    `fsync-per-record (${(median(grouped.sample.opsPerSec) / median(naive.sample.opsPerSec)).toFixed(1)}x)`,
);
process.exit(ok ? 0 : 2);
