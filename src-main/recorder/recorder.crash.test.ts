// kill -9 while recording: every batch the store had reported committed is in the file, the
// file opens afterwards (DuckDB replays its WAL), and the rows are whole (no gap in `n`).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

test('a recorder killed with SIGKILL keeps every committed batch and its file opens', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'rec-crash-'));
  dirs.push(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'crash-child.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let id = '';
  let committed = 0;
  let commits = 0;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const m = /^committed (\S+) (\d+) (\d+)$/.exec(line);
        if (!m) continue;
        id = m[1]!;
        committed = Number(m[2]);
        commits++;
        // several commits in, with rows still arriving: kill it mid-flow
        if (commits === 8) {
          child.kill('SIGKILL');
          resolve();
        }
      }
    });
    child.on('exit', () => reject(new Error('child exited before it was killed')));
  });
  expect(await exited).toBe('SIGKILL');
  expect(committed).toBeGreaterThan(0);
  expect((await readdir(dir)).some((f) => f === `${id}.duckdb`)).toBe(true);

  const inst = await DuckDBInstance.create(path.join(dir, `${id}.duckdb`));
  const conn = await inst.connect();
  try {
    const r = (await conn.runAndReadAll('SELECT count(*)::BIGINT AS c, min(n)::BIGINT AS lo, max(n)::BIGINT AS hi, count(DISTINCT n)::BIGINT AS d FROM events')).getRowObjectsJS()[0]!;
    const c = Number(r.c as bigint);
    expect(c).toBeGreaterThanOrEqual(committed);
    expect(Number(r.lo as bigint)).toBe(0);
    expect(Number(r.hi as bigint)).toBe(c - 1);
    expect(Number(r.d as bigint)).toBe(c);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}, 60_000);
