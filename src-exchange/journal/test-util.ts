// Helpers for the journal tests: a fresh directory per test, and the files in it.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.startsWith('segment-')).sort();
}

export async function snapshotFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.startsWith('snapshot-')).sort();
}
