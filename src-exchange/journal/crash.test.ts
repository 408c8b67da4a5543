// kill -9 in the middle of a burst of appends: nothing acknowledged may be lost.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRecord, makeRecord, type CrashRecord, type CrashState } from './crash-model';
import { Journal } from './journal';
import { segmentFiles, snapshotFiles, tempDir } from './test-util';

const here = path.dirname(fileURLToPath(import.meta.url));
const childScript = path.join(here, 'crash-child.ts');

interface Ack {
  seq: number;
  p: number;
  n: number;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** Run the child until it has acknowledged `ackTarget` appends (plus a little jitter), then SIGKILL it. */
async function runAndKill(args: string[], ackTarget: number): Promise<{ acks: Ack[]; readySeq: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, dir, ...args], {
    cwd: path.resolve(here, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  let readySeq = -1;
  let stderr = '';
  let partial = '';
  let killed = false;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [kind, a, b, c] = line.split(' ');
      if (kind === 'ready') readySeq = Number(a);
      else if (kind === 'ack') acks.push({ seq: Number(a), p: Number(b), n: Number(c) });
    }
    if (!killed && acks.length >= ackTarget) {
      killed = true;
      setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 5));
    }
  });
  const { code, signal } = await exited;
  expect(stderr).toBe('');
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return { acks, readySeq };
}

/** Recover in this process and check every acknowledged record against the replayed state. */
async function verify(allAcks: Ack[]): Promise<number> {
  const { journal, snapshot, records } = await Journal.open<CrashRecord, CrashState>(dir);
  const snapSeq = snapshot?.seq ?? 0;
  const state: CrashState = snapshot ? structuredClone(snapshot.state) : { applied: {} };
  const bySeq = new Map<number, CrashRecord>();
  records.forEach((r, i) => {
    expect(r.seq).toBe(snapSeq + 1 + i);
    applyRecord(state, r.record); // throws on a gap or a damaged body
    bySeq.set(r.seq, r.record);
  });
  expect(journal.lastSeq).toBe(snapSeq + records.length);
  for (const ack of allAcks) {
    expect(ack.seq).toBeLessThanOrEqual(journal.lastSeq);
    if (ack.seq > snapSeq) expect(bySeq.get(ack.seq)).toEqual(makeRecord(ack.p, ack.n));
    expect(state.applied[ack.p] ?? 0).toBeGreaterThanOrEqual(ack.n);
  }
  const lastSeq = journal.lastSeq;
  await journal.close();
  return lastSeq;
}

// 300 s: only a hang guard; each test SIGKILLs child processes over and over (tsx-compiled), slow on a busy machine
describe('Journal under kill -9', { timeout: 300_000 }, () => {
  it('keeps every acknowledged append across repeated SIGKILLs', async () => {
    const allAcks: Ack[] = [];
    let lastSeq = 0;
    for (let round = 0; round < 3; round++) {
      const { acks, readySeq } = await runAndKill(['16'], 3000);
      expect(readySeq).toBe(lastSeq);
      expect(acks.length).toBeGreaterThanOrEqual(3000);
      allAcks.push(...acks);
      lastSeq = await verify(allAcks);
      expect(lastSeq).toBeGreaterThanOrEqual(Math.max(...acks.map((a) => a.seq)));
    }
    expect(new Set(allAcks.map((a) => a.seq)).size).toBe(allAcks.length);
  });

  it('keeps every acknowledged append with snapshots and segment rollover in the burst', async () => {
    const allAcks: Ack[] = [];
    let lastSeq = 0;
    for (let round = 0; round < 3; round++) {
      const { acks, readySeq } = await runAndKill(['32', '700', String(16 * 1024)], 4000);
      expect(readySeq).toBe(lastSeq);
      allAcks.push(...acks);
      lastSeq = await verify(allAcks);
    }
    expect((await snapshotFiles(dir)).length).toBeGreaterThan(0);
    expect((await segmentFiles(dir)).length).toBeGreaterThan(1);
  });
});
