// Shared helpers for benchmarks: run a body several times, report medians, compare peers, and
// hand named figures to run.ts for bench/results.json. BENCH_QUICK=1 (npm run bench -- --quick)
// runs fewer repetitions and smaller streams: the same code paths, figures less settled.
// BENCH_SMOKE=1 (`npm test`'s bench stage, `bench/run.ts --smoke`) is quick mode cut further
// where a bench spends its time waiting for samples: every path still runs and every figure is
// still written (the stage fails without them), but the values judge nothing.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright';
import { dieWithParent } from './procs';

// every bench dies with the runner that started it (and kills what it started): see ./procs
dieWithParent();

export const SMOKE = process.env.BENCH_SMOKE === '1';
export const QUICK = SMOKE || process.env.BENCH_QUICK === '1';

/** A size or repetition count, smaller in quick mode (and, where given, smaller still in a smoke run). */
export const scaled = (full: number, quick: number, smoke = quick): number => (SMOKE ? smoke : QUICK ? quick : full);

const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Number(n.toPrecision(4)));

/**
 * One figure of bench/results.json: its value and unit, the peer's value measured in the same
 * run (null when there is none) and the ratio the target is stated in (null when none).
 */
export function figure(name: string, value: number, unit: string, peer: number | null = null, ratio: number | null = null): void {
  const line = { name, value: round(value), unit, peer: peer === null ? null : round(peer), ratio: ratio === null ? null : round(ratio) };
  console.log(`  figure ${name} = ${line.value} ${unit}${ratio !== null ? ` (ratio ${line.ratio})` : ''}`);
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(line)}\n`);
}
export interface Sample {
  name: string;
  /** operations per second for each repetition */
  opsPerSec: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

/** Time `body` (which performs `ops` operations) `reps` times after `warmup` runs. */
export function measure(name: string, ops: number, body: () => void, reps = scaled(7, 3), warmup = scaled(2, 1)): Sample {
  for (let i = 0; i < warmup; i++) body();
  const opsPerSec: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = process.hrtime.bigint();
    body();
    const ns = Number(process.hrtime.bigint() - t0);
    opsPerSec.push((ops * 1e9) / ns);
  }
  return { name, opsPerSec };
}

export function fmtRate(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M/s`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k/s`;
  return `${n.toFixed(0)} /s`;
}

/** Print one line per sample (median and spread) and the ratio of the first to each peer. */
export function report(title: string, samples: Sample[], target?: { minOpsPerSec?: number; minRatio?: number }): boolean {
  console.log(`\n## ${title}`);
  const [ours, ...peers] = samples;
  if (!ours) return false;
  let ok = true;
  for (const s of samples) {
    const m = median(s.opsPerSec);
    const lo = Math.min(...s.opsPerSec);
    const hi = Math.max(...s.opsPerSec);
    console.log(`  ${s.name.padEnd(40)} median ${fmtRate(m).padStart(12)}  (min ${fmtRate(lo)}, max ${fmtRate(hi)}, n=${s.opsPerSec.length})`);
  }
  const oursMedian = median(ours.opsPerSec);
  for (const p of peers) {
    const ratio = oursMedian / median(p.opsPerSec);
    const pass = target?.minRatio === undefined || ratio >= target.minRatio;
    ok &&= pass;
    console.log(`  ratio ${ours.name} / ${p.name}: ${ratio.toFixed(2)}x${target?.minRatio ? ` (target >= ${target.minRatio}x: ${pass ? 'met' : 'MISSED'})` : ''}`);
  }
  if (target?.minOpsPerSec !== undefined) {
    const pass = oursMedian >= target.minOpsPerSec;
    ok &&= pass;
    console.log(`  target >= ${fmtRate(target.minOpsPerSec)}: ${pass ? 'met' : 'MISSED'}`);
  }
  return ok;
}

/** A process's resident memory in bytes (Linux /proc; 0 when it is gone). */
export function rssBytes(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** A process's direct children (Linux /proc; none when it is gone). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A page's heap snapshot, after a GC, written whole to `file` (through a CDP session of the page). */
export async function writePageHeapSnapshot(cdp: CDPSession, file: string): Promise<void> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  writeFileSync(file, chunks.join(''));
  console.log(`  heap snapshot written to ${file}`);
}
