// `npm test`'s runner (scripts/test-all.mjs) on fake stages (TEST_ALL_FAKE): every stage runs even
// after one fails, the summary names each, the last line is the totals, the exit status says if
// any failed, and no process outlives it: each fake stage leaves a grandchild running, after a
// failing stage, a passing one, and a Ctrl-C (SIGINT) in the middle of one. Waits on conditions only.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = mkdtempSync(path.join(tmpdir(), 'test-all-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // the report of a fake stage its runner was SIGKILLed in the middle of
  const results = path.join(root, 'test-results');
  for (const f of readdirSync(results)) if (/^fake-\d+-.+\.json$/.test(f)) rmSync(path.join(results, f), { force: true });
});
let n = 0;
const pidFiles: string[] = [];
// what a failed assertion leaves running is still stopped here
afterEach(() => {
  for (const pid of pidFiles.splice(0).flatMap(pidsIn)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Alive and not a zombie (a zombie has exited; only its parent has yet to read its status). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits for `check` without a deadline of its own (the test's timeout ends a hang). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 50));
}

const pidsIn = (file: string): number[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number) : [];

function runFake(stages: string, onStart?: (pidsFile: string, pid: number) => Promise<void>) {
  const pidsFile = path.join(dir, `pids-${n++}`);
  pidFiles.push(pidsFile);
  const child = spawn(process.execPath, ['scripts/test-all.mjs'], {
    cwd: root,
    env: { ...process.env, TEST_ALL_FAKE: stages, TEST_ALL_FAKE_PIDS: pidsFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void onStart?.(pidsFile, child.pid!);
  return exited.then(async (code) => {
    const pids = pidsIn(pidsFile);
    // SIGKILL was sent to every one before the runner exited; the kernel finishes it at once
    await until(() => pids.every((p) => !alive(p)));
    // the directories the stages left in their temporary directory
    const left = existsSync(`${pidsFile}.tmp`) ? readFileSync(`${pidsFile}.tmp`, 'utf8').split('\n').filter(Boolean) : [];
    return { code, out, lines: out.trimEnd().split('\n'), pids, left };
  });
}

describe('npm test runner (scripts/test-all.mjs)', () => {
  it('runs every stage after one fails, prints each in the summary, exits 1, totals last, and leaves no process behind', async () => {
    const r = await runFake('first:fail,second:pass');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^first\s+FAILED \(exit 1\)\s+\d+\.\ds$/m);
    expect(r.out).toMatch(/^second\s+ok\s+\d+\.\ds$/m);
    expect(r.out).toMatch(/20 slowest tests:\n\s+0\.0s {2}fake\.test\.ts > (fail|pass)\n/);
    // the failed test and its error come last before the totals, so a log cut to its tail says why
    expect(r.out).toMatch(/1 failed test\(s\)[^\n]*\n {2}✗ fake\.test\.ts > fail\n {6}AssertionError: expected 1 to be 2\n {10}at fake\.test\.ts:3:5\n\nnpm test FAILED/);
    expect(r.lines.at(-1)).toBe('1 passed, 1 failed, 0 skipped');
    expect(r.pids.length).toBe(4); // two stages, each with its grandchild
    expect(r.out).toMatch(/left 1 process\(es\) running, killed/);
    // each stage had its own temporary directory, not the machine's, and what it left there is gone
    expect(r.left.length).toBe(2);
    for (const d of r.left) {
      expect(path.dirname(path.dirname(d))).toBe(tmpdir());
      expect(path.basename(path.dirname(d))).toMatch(/^npm-test-/);
      expect(existsSync(d), d).toBe(false);
    }
  });

  it("lists a failed e2e test with what the page said at failure (the fixture's lines), not its other output", async () => {
    const r = await runFake('e2e:pwfail');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /1 failed test\(s\)[^\n]*\n {2}✗ e2e: fake\.spec\.ts > pwfail \[p\]\n {6}Error: expected 1, received 0\n {6}e2e: the page at failure: focus on body\n {6}e2e: toasts and alerts the page showed \(newest last\):\n {6}e2e: {3}1\.5 s {2}Refused by your risk limits\n\nnpm test FAILED/,
    );
  });

  it('exits 0 when every stage passed', async () => {
    const r = await runFake('one:pass,two:pass');
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toBe('2 passed, 0 failed, 0 skipped');
  });

  it('on Ctrl-C (SIGINT) stops the running stage and its grandchild, starts no further stage, still prints the summary, exits 1', async () => {
    const r = await runFake('stuck:hang,after:pass', async (pidsFile, pid) => {
      await until(() => pidsIn(pidsFile).length === 2);
      process.kill(pid, 'SIGINT');
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^stuck\s+FAILED \(exit SIGINT\)/m);
    expect(r.out).toMatch(/^after\s+not run \(SIGINT\)/m);
    expect(r.out).not.toContain('fake stage: pass');
    expect(r.lines.at(-1)).toBe('1 passed, 0 failed, 0 skipped');
    expect(r.pids.length).toBe(2);
  });

  it('runs stages side by side (as typecheck, lint and the unit stage run): one failing, each in the summary in order, and no process left', async () => {
    const r = await runFake('early:fail+beside:pass,later:pass');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^early\s+FAILED \(exit 1\)\s+\d+\.\ds\nbeside\s+ok\s+\d+\.\ds\nlater\s+ok\s+\d+\.\ds$/m);
    // each one's output is printed whole when it ends
    expect(r.out).toMatch(/--- early's output:\nfake stage: fail\n=== early: FAILED/);
    expect(r.out).toMatch(/--- beside's output:\nfake stage: pass\n=== beside: ok/);
    expect(r.lines.at(-1)).toBe('2 passed, 1 failed, 0 skipped');
    expect(r.pids.length).toBe(6);
  });

  it('on Ctrl-C (SIGINT) while two stages run side by side, stops both and their grandchildren, starts no further stage', async () => {
    const r = await runFake('one:hang+two:hang,after:pass', async (pidsFile, pid) => {
      // both are running at once (and each its grandchild): only side by side can that happen
      await until(() => pidsIn(pidsFile).length === 4);
      process.kill(pid, 'SIGINT');
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^one\s+FAILED \(exit SIGINT\)/m);
    expect(r.out).toMatch(/^two\s+FAILED \(exit SIGINT\)/m);
    expect(r.out).toMatch(/^after\s+not run \(SIGINT\)/m);
    expect(r.out).not.toContain('fake stage: pass');
    expect(r.pids.length).toBe(4);
  });

  it('SIGKILLed itself (no handler runs), its running stage and that stage\'s grandchild still go', async () => {
    const r = await runFake('stuck:hang,after:pass', async (pidsFile, pid) => {
      await until(() => pidsIn(pidsFile).length === 2);
      process.kill(pid, 'SIGKILL');
    });
    expect(r.code).toBe(null);
    expect(r.pids.length).toBe(2);
    // the watchdog removes the stage's temporary directory with its group
    expect(r.left.length).toBe(1);
    await until(() => !existsSync(r.left[0]!));
  });
});
