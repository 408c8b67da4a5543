// Composition of the terminal's main side, shared by the Electron shell and the web host: the
// embedded exchange (a child process), the services, and the door. The shell supplies how
// to run the exchange, how to seal secrets, and where view streams go.
import path from 'node:path';
import { launchEmbedded, type EmbeddedExchange, type EmbeddedOptions } from '../embedded/launch';
import { stripImportedKeys } from '../embedded/credentials-file';
import { ensurePrivateDir } from '../base/private-dir';
import { TerminalServices, type ServicesOptions } from './services';
import { createDoor, toTerminalError } from '../ipc/door';
import type { SecretBox } from '../vault/secret-box';
import type { StreamName, StreamPayloads } from '../../src-shared/ipc/contract';

export interface TerminalOptions {
  dataDir: string;
  box: SecretBox;
  shell: 'electron' | 'web';
  /** how to run src-exchange/cli; omit to run without the embedded exchange */
  exchange?: EmbeddedOptions;
  /**
   * The embedded exchange, already starting (launchEmbedded on the same data directory): the web
   * host starts it before it loads the rest of the terminal, so the two overlap. Replaces `exchange`.
   */
  launched?: Promise<EmbeddedExchange>;
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

export async function startTerminal(opts: TerminalOptions): Promise<RunningTerminal> {
  ensurePrivateDir(opts.dataDir);
  const exchange = opts.launched ? await opts.launched : opts.exchange ? await launchEmbedded(opts.dataDir, opts.exchange, opts.log) : null;
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
