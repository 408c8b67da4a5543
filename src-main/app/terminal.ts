// Composition of the terminal's main side, shared by the Electron shell and the web host: the
// embedded exchange (a child process), the services, and the door. The shell supplies how
// to run the exchange, how to seal secrets, and where view streams go.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { launchExchange, stripImportedKeys, type EmbeddedExchange, type LaunchOptions } from '../embedded/launch';
import { TerminalServices, type ServicesOptions } from './services';
import { createDoor, toTerminalError } from '../ipc/door';
import type { SecretBox } from '../vault/secret-box';
import type { StreamName, StreamPayloads } from '../../src-shared/ipc/contract';

export interface TerminalOptions {
  dataDir: string;
  box: SecretBox;
  shell: 'electron' | 'web';
  /** how to run src-exchange/cli; omit to run without the embedded exchange */
  exchange?: Pick<LaunchOptions, 'command' | 'args' | 'env' | 'spawnChild'> & { seed?: number; sim?: boolean; simRate?: number; simMarketMinutes?: number };
  emit: <S extends StreamName>(stream: S, payload: StreamPayloads[S]) => void;
  log?: (m: string) => void;
  sessionOptions?: ServicesOptions['sessionOptions'];
  confirmInMain?: ServicesOptions['confirmInMain'];
  confirmRisk?: ServicesOptions['confirmRisk'];
}

export interface RunningTerminal {
  services: TerminalServices;
  door: ReturnType<typeof createDoor>;
  exchange: EmbeddedExchange | null;
  stop(): Promise<void>;
}

/**
 * The data directory holds sealed keys, the vault key of the web host, profiles and the audit
 * journal: only its owner may enter it (0700, tightened if it already existed looser).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export async function startTerminal(opts: TerminalOptions): Promise<RunningTerminal> {
  ensurePrivateDir(opts.dataDir);
  const exchange = opts.exchange
    ? await launchExchange({
        ...opts.exchange,
        dataDir: path.join(opts.dataDir, 'exchange'),
        ...(opts.exchange.seed !== undefined ? { seed: opts.exchange.seed } : {}),
        ...(opts.exchange.sim !== undefined ? { sim: opts.exchange.sim } : {}),
        ...(opts.exchange.simRate !== undefined ? { simRate: opts.exchange.simRate } : {}),
        ...(opts.exchange.simMarketMinutes !== undefined ? { simMarketMinutes: opts.exchange.simMarketMinutes } : {}),
        ...(opts.log ? { log: opts.log } : {}),
      })
    : null;
  const services = new TerminalServices({
    dataDir: opts.dataDir,
    box: opts.box,
    shell: opts.shell,
    emit: opts.emit,
    ...(exchange ? { embedded: { baseUrl: exchange.baseUrl, wsUrl: exchange.wsUrl, accounts: exchange.accounts, ...(exchange.fix ? { fix: exchange.fix } : {}) } } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.sessionOptions ? { sessionOptions: opts.sessionOptions } : {}),
    ...(opts.confirmInMain ? { confirmInMain: opts.confirmInMain } : {}),
    ...(opts.confirmRisk ? { confirmRisk: opts.confirmRisk } : {}),
    describeError: toTerminalError,
  });
  // the vault now holds the provisioned keys: the exchange's file keeps no plaintext copy
  if (exchange) stripImportedKeys(path.join(opts.dataDir, 'exchange'), (id) => services.profiles.holdsProvisionedKey(id));
  await services.start();
  const door = createDoor(services.methods, opts.log);
  return {
    services,
    door,
    exchange,
    async stop() {
      await services.stop();
      await exchange?.stop();
    },
  };
}
