// Main's services on a real embedded exchange (a child process with the lively simulation), and
// their door as a test calls it: `call` answers as the door does, `value` throws a refusal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTerminal, type RunningTerminal } from '../../src-main/app/terminal';
import { FileKeyBox } from '../../src-main/vault/secret-box';
import { until } from './wait';
import { entryArgs } from '../entry';

export type DoorResult = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };

export interface SimTerminal {
  terminal: RunningTerminal;
  dataDir: string;
  call(method: string, ...args: unknown[]): Promise<DoorResult>;
  value<T>(method: string, ...args: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the terminal on a fresh data directory and waits until its stream is live. */
export async function startSimTerminal(prefix: string, seed: number): Promise<SimTerminal> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: () => {},
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed, sim: true },
  });
  const call = (method: string, ...args: unknown[]) => terminal.door(method, args) as Promise<DoorResult>;
  const value = async <T,>(method: string, ...args: unknown[]): Promise<T> => {
    const r = await call(method, ...args);
    if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
    return r.value as T;
  };
  await until('the stream is live', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live', 30_000);
  return {
    terminal,
    dataDir,
    call,
    value,
    stop: async () => {
      await terminal.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
