// waitForOutput: a child that prints the awaited line is waited for however long it takes; one
// that exits first fails the wait at once, naming what was awaited and quoting what it printed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { waitForOutput } from './child';

const node = (code: string) => spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });

describe('waitForOutput', () => {
  it('resolves with the match once the child prints it, on stdout or stderr', async () => {
    const child = node(`setTimeout(() => console.error('listening on http://127.0.0.1:4321'), 300); setTimeout(() => {}, 2000)`);
    const m = await waitForOutput(child, /listening on (\S+)/, 'the listening line');
    expect(m[1]).toBe('http://127.0.0.1:4321');
    child.kill('SIGKILL');
  });

  it('fails as soon as the child exits before printing it, with its exit code and output', async () => {
    const child = node(`console.log('starting'); console.error('Error: the data dir is locked'); process.exit(3)`);
    const err = await waitForOutput(child, /listening on/, 'the exchange listening').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/exited \(code 3\) before the exchange listening/);
    expect((err as Error).message).toContain('Error: the data dir is locked');
    expect((err as Error).message).toContain('starting');
  });

  it('a child killed by a signal names the signal', async () => {
    const child = node(`setInterval(() => {}, 1000)`);
    const waiting = waitForOutput(child, /never/, 'a line that never comes').catch((e: Error) => e);
    child.kill('SIGKILL');
    expect(((await waiting) as Error).message).toMatch(/exited \(SIGKILL\) before a line that never comes/);
  });

  it('resolves when the line came with the last output before a clean exit', async () => {
    const child = node(`console.log('terminal ready'); process.exit(0)`);
    expect((await waitForOutput(child, /terminal ready/, 'terminal ready'))[0]).toBe('terminal ready');
  });
});
