// The journal lock refuses a directory only while its holder really runs: a zombie PID, a PID
// handed to an unrelated process, or our own PID left over from an earlier life never block.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from './journal';
import { acquireLock, parseLock } from './lock';
import { parseProcStat, probeProcess, sameProcess } from './process-identity';
import { tempDir } from './test-util';

let dir: string;
let cleanup: () => Promise<void>;
const children: ChildProcess[] = [];
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live process unrelated to the journal. */
async function unrelatedProcess(): Promise<number> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c.pid!;
}

/**
 * A PID that is a zombie: `sh` starts a short `sleep` in the background and then becomes a long
 * `sleep` (exec), which never waits for children, so the short one exits and stays unreaped.
 * The child outlives the exec (0.3 s) so the shell can never reap it first, even on a loaded machine.
 */
async function zombiePid(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  for (let i = 0; i < 250 && probeProcess(pid).state !== 'gone'; i++) await sleep(20);
  return pid;
}

const lockPath = () => path.join(dir, 'LOCK');

describe('process identity', () => {
  it('reads state and start time after the last parenthesis of /proc/<pid>/stat', () => {
    const stat = '4242 (we (ird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10';
    expect(parseProcStat(stat)).toEqual({ state: 'S', startTicks: '987654' });
    expect(parseProcStat('garbage')).toBeNull();
  });

  it('compares start identities exactly, Windows start times within 5 s', () => {
    expect(sameProcess('linux:b:100', 'linux:b:100')).toBe(true);
    expect(sameProcess('linux:b:100', 'linux:b:101')).toBe(false);
    expect(sameProcess('win:1700000000000', 'win:1700000004000')).toBe(true);
    expect(sameProcess('win:1700000000000', 'win:1700000060000')).toBe(false);
  });

  it('tells a zombie (still signalable) from a running process', async () => {
    const zombie = await zombiePid();
    expect(() => process.kill(zombie, 0)).not.toThrow(); // the PID still answers signals...
    expect(probeProcess(zombie)).toEqual({ state: 'gone' }); // ...but nobody is there
    const live = await unrelatedProcess();
    const probe = probeProcess(live);
    expect(probe.state).toBe('running');
    expect(probe.state === 'running' && probe.identity).toBeTruthy();
  });
});

describe('journal lock', () => {
  it('writes the holder pid and start identity, and removes LOCK on close', async () => {
    const { journal } = await Journal.open(dir);
    const lock = parseLock(await readFile(lockPath(), 'utf8'));
    expect(lock?.pid).toBe(process.pid);
    expect(lock?.identity).toBe((probeProcess(process.pid) as { identity: string }).identity);
    await journal.close();
    expect(await readdir(dir)).not.toContain('LOCK');
  });

  it('takes over at once a lock whose process is a zombie', async () => {
    const zombie = await zombiePid();
    await writeFile(lockPath(), JSON.stringify({ pid: zombie, identity: 'linux:whatever:1' }));
    const { journal } = await Journal.open(dir);
    expect(parseLock(await readFile(lockPath(), 'utf8'))?.pid).toBe(process.pid);
    await journal.close();
  });

  it('takes over a lock whose PID now belongs to an unrelated live process (reused PID)', async () => {
    const pid = await unrelatedProcess();
    // the same number, recorded by a holder that started at another time (before a reboot)
    await writeFile(lockPath(), JSON.stringify({ pid, identity: 'linux:boot-before-reboot:12345' }));
    const { journal } = await Journal.open(dir);
    await journal.close();
  });

  it('takes over a lock that names our own PID (an earlier life of this PID)', async () => {
    await writeFile(lockPath(), JSON.stringify({ pid: process.pid, identity: 'old' }));
    const { journal } = await Journal.open(dir);
    await journal.close();
  });

  it('refuses while the recorded holder runs, naming its pid and the way out', async () => {
    const pid = await unrelatedProcess();
    const probe = probeProcess(pid);
    if (probe.state !== 'running') throw new Error('the holder should be running');
    await writeFile(lockPath(), JSON.stringify({ pid, identity: probe.identity, acquired_at: '2030-01-01T00:00:00.000Z' }));
    const err = await Journal.open(dir).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'LOCKED' });
    expect(String((err as Error).message)).toMatch(new RegExp(`locked by running process ${pid} since 2030-01-01.*another exchange is using this data dir`));
    // the refused start changed nothing: the holder's lock is intact
    expect(parseLock(await readFile(lockPath(), 'utf8'))).toMatchObject({ pid, identity: probe.identity });
  });

  it('reads the older bare-pid lock: refused while that pid runs, taken over once it is gone', async () => {
    const pid = await unrelatedProcess();
    await writeFile(lockPath(), `${pid}\n`);
    await expect(Journal.open(dir)).rejects.toThrow(/locked by running process .*delete/);
    await writeFile(lockPath(), `${await zombiePid()}\n`);
    const { journal } = await Journal.open(dir);
    await journal.close();
  });

  it('never deletes a LOCK that another process wrote after ours was removed by hand', async () => {
    const lock = await acquireLock(dir);
    const foreign = JSON.stringify({ pid: 1, identity: 'x' });
    await writeFile(lockPath(), foreign);
    await lock.release();
    expect(await readFile(lockPath(), 'utf8')).toBe(foreign);
  });

});
