// Waiting on a child process (an exchange or host CLI started by a test) without a clock: how
// long a start takes measures the machine, not the code. A wait ends when the child prints what
// is awaited, or at once, with everything it printed, when it exits first; a child that hangs is
// caught by the test's own timeout (the hang guard), with a progress line every 30 s meanwhile.
import type { ChildProcess } from 'node:child_process';

const PROGRESS_EVERY_MS = 30_000;

/** The text a child printed on stdout and stderr so far, collected from the moment this is called. */
export function collectOutput(proc: ChildProcess): { text(): string } {
  let text = '';
  const onData = (d: Buffer | string) => (text += d.toString());
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  return { text: () => text };
}

/**
 * Resolves with the match once the child's stdout or stderr (everything since this call) matches
 * `re`; rejects as soon as the child exits before that, naming `what` and quoting its output.
 */
export function waitForOutput(proc: ChildProcess, re: RegExp, what: string): Promise<RegExpExecArray> {
  const out = collectOutput(proc);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const progress = setInterval(() => console.error(`[test] still waiting for ${what} after ${Math.round((Date.now() - started) / 1000)} s`), PROGRESS_EVERY_MS);
    progress.unref();
    const done = (): void => {
      clearInterval(progress);
      proc.stdout?.off('data', check);
      proc.stderr?.off('data', check);
      proc.off('exit', onExit);
    };
    const check = (): void => {
      const m = re.exec(out.text());
      if (m) {
        done();
        resolve(m);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      // its last output may still be in the pipes: read it (on 'close', or shortly) before judging
      const judge = (): void => {
        check();
        done();
        reject(new Error(`the child exited (${signal ?? `code ${code}`}) before ${what}; it printed:\n${out.text()}`));
      };
      const late = setTimeout(judge, 250);
      proc.once('close', () => {
        clearTimeout(late);
        judge();
      });
    };
    // registered after collectOutput's listeners, so each chunk is in the text before it is checked
    proc.stdout?.on('data', check);
    proc.stderr?.on('data', check);
    if (proc.exitCode !== null || proc.signalCode !== null) onExit(proc.exitCode, proc.signalCode);
    else proc.once('exit', onExit);
  });
}
