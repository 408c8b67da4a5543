// The journal directory's single-writer lock, tied to the live process that holds it.
//
// LOCK holds {"pid", "identity", "acquired_at"}: identity is the holder's start identity
// (process-identity.ts: boot id + start time on Linux, ps start time on macOS, process start
// ticks on Windows). A start refuses the directory only while that very process still runs.
// A LOCK left by a killed process is taken over at once: its PID is gone, or is a zombie
// nobody reaped yet, or now belongs to an unrelated process with another start identity.
// (An OS-held lock would need a native addon: fs-ext and friends must be built per Node
// and per Electron ABI, and the exchange runs inside Electron's utility process.)
import { randomBytes } from 'node:crypto';
import { link, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { JournalError } from './errors';
import { ownIdentity, probeProcess, sameProcess } from './process-identity';

export const LOCK_NAME = 'LOCK';

export interface LockContent {
  pid: number;
  identity: string | null;
  acquired_at?: string;
}

export interface DirLock {
  release(keepFile?: boolean): Promise<void>;
}

/** Reads a LOCK's text; the pre-identity format (a bare pid line) reads with identity null. */
export function parseLock(text: string): LockContent | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), identity: null };
  try {
    const v = JSON.parse(trimmed) as Partial<LockContent>;
    if (typeof v.pid !== 'number' || !Number.isSafeInteger(v.pid) || v.pid <= 0) return null;
    return {
      pid: v.pid,
      identity: typeof v.identity === 'string' ? v.identity : null,
      ...(typeof v.acquired_at === 'string' ? { acquired_at: v.acquired_at } : {}),
    };
  } catch {
    return null;
  }
}

export type LockVerdict = { held: true; by: LockContent } | { held: false; why: string };

/** Is the process named in this LOCK the one that wrote it, and still running? */
export function judgeLock(lock: LockContent | null): LockVerdict {
  if (!lock) return { held: false, why: 'unreadable lock file' };
  // Same PID as ours but not held in this process (checked before): our PID was reused.
  if (lock.pid === process.pid) return { held: false, why: 'written by an earlier process with this PID' };
  const probe = probeProcess(lock.pid);
  if (probe.state === 'gone') return { held: false, why: `process ${lock.pid} has exited` };
  if (lock.identity && probe.identity && !sameProcess(lock.identity, probe.identity)) {
    return { held: false, why: `PID ${lock.pid} now belongs to another process` };
  }
  return { held: true, by: lock };
}

const heldInProcess = new Set<string>();
const suffix = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

/** Creates LOCK with its content in one step (hard link of a written file): never seen half-written. */
async function tryCreate(lockPath: string, content: string): Promise<boolean> {
  const staged = `${lockPath}.new-${suffix()}`;
  await writeFile(staged, content, { flag: 'wx' });
  try {
    await link(staged, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    // a file system without hard links: exclusive create, then write
    try {
      await writeFile(lockPath, content, { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    await rm(staged, { force: true });
  }
}

/**
 * Moves a stale LOCK aside, but only if it is still the one judged stale: if another starter
 * replaced it in between, theirs is put back and the caller looks again.
 */
async function removeStale(lockPath: string, staleText: string): Promise<void> {
  const aside = `${lockPath}.stale-${suffix()}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) await link(aside, lockPath).catch(() => undefined);
  await rm(aside, { force: true });
}

function lockedMessage(dir: string, lockPath: string, by: LockContent): string {
  const since = by.acquired_at ? ` since ${by.acquired_at}` : '';
  return (
    `journal ${dir} is locked by running process ${by.pid}${since}: another exchange is using this data dir. ` +
    `Stop it, or start with another --data-dir` +
    (by.identity ? '' : ` (if process ${by.pid} is not an exchange, delete ${lockPath})`)
  );
}

/** Take the directory for this process, or throw JournalError LOCKED naming the holder. */
export async function acquireLock(dir: string): Promise<DirLock> {
  const key = await realpath(dir);
  if (heldInProcess.has(key)) throw new JournalError('LOCKED', `journal ${dir} is already open in this process`);
  heldInProcess.add(key);
  const lockPath = path.join(dir, LOCK_NAME);
  const mine = JSON.stringify({ pid: process.pid, identity: ownIdentity(), acquired_at: new Date().toISOString() } satisfies LockContent) + '\n';
  try {
    for (let attempt = 0; ; attempt++) {
      if (await tryCreate(lockPath, mine)) break;
      let text: string;
      try {
        text = await readFile(lockPath, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
        throw err;
      }
      const verdict = judgeLock(parseLock(text));
      if (verdict.held) throw new JournalError('LOCKED', lockedMessage(dir, lockPath, verdict.by));
      if (attempt >= 8) throw new JournalError('LOCKED', `journal ${dir}: could not take over the stale ${lockPath} (other starters keep racing for it)`);
      await removeStale(lockPath, text);
    }
  } catch (err) {
    heldInProcess.delete(key);
    throw err;
  }
  let released = false;
  return {
    async release(keepFile = false) {
      if (released) return;
      released = true;
      heldInProcess.delete(key);
      if (keepFile) return;
      // never delete a LOCK that is no longer ours (someone removed ours by hand and started)
      const now = await readFile(lockPath, 'utf8').catch(() => null);
      if (now === mine) await rm(lockPath, { force: true });
    },
  };
}
