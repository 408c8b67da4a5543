// `npm run start:web -- [--port <n|0>] [--data-dir <dir>] [--open] [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--sim-market-minutes <n>] [--sim-pause-minutes <n>] [--passphrase | --passphrase-file <file>]`
// Starts the embedded exchange and the same main services, serves the built renderer, and prints
// `terminal at http://127.0.0.1:<port>/?token=<token>`.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIM_OPTIONS, parseCliArgs, simSettingsOf, type CliValues } from '../../src-shared/cli-args';
import type { RunningTerminal } from '../app/terminal';
import type { RunningHost } from './server';
import { ensurePrivateDir } from '../base/private-dir';
import { launchEmbedded, type EmbeddedExchange } from '../embedded/launch';
import { FileKeyBox, vaultBox } from '../vault/secret-box';
import { askPassphrase, passphraseFromFile } from './passphrase';
import { writeLauncher } from './launcher';
import { ConsoleConfirm } from './console-confirm';
import { listenRemembering } from './port-memory';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// Run from the bundle (out/host/cli.js, scripts/build-host.mjs): its exchange bundle sits beside
// it; from the source (tsx), the exchange's source runs under tsx too.
const exchangeBundle = path.join(here, 'exchange.js');
const exchangeArgs = import.meta.url.endsWith('.js') && existsSync(exchangeBundle) ? [exchangeBundle] : ['--import', 'tsx', path.join(root, 'src-exchange', 'cli.ts')];

function fail(msg: string): never {
  console.error(`start:web: ${msg}`);
  console.error('usage: npm run start:web -- [--port <n|0>] [--data-dir <dir>] [--open] [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--sim-market-minutes <n>] [--sim-pause-minutes <n>] [--passphrase | --passphrase-file <file>]');
  process.exit(2);
}

// A parent that started us with an IPC channel (a bench, a test fixture) takes us with it when it
// dies however it dies (SIGKILL included), also while we are still starting; our exchange child
// follows through its own channel.
let stopOnDisconnect: (() => void) | null = null;
if (process.connected) process.on('disconnect', () => (stopOnDisconnect ? stopOnDisconnect() : process.exit(0)));

const OPTIONS = {
  // no --port: the last start's on this data directory (the page's storage is kept by its origin)
  port: { type: 'int', min: 0, max: 65535 },
  'data-dir': { type: 'string', default: path.join(root, '.data', 'terminal') },
  open: { type: 'boolean' },
  seed: { type: 'int', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, default: 1 },
  ...SIM_OPTIONS,
  passphrase: { type: 'boolean' },
  'passphrase-file': { type: 'string' },
  'static-dir': { type: 'string', default: path.join(root, 'out', 'renderer') },
} as const;
type Options = CliValues<typeof OPTIONS>;

function parseOptions(): Options & { staticDir: string; dataDir: string } {
  let values: Options;
  try {
    values = parseCliArgs(process.argv.slice(2), OPTIONS);
  } catch (e) {
    fail((e as Error).message);
  }
  const staticDir = path.resolve(values['static-dir']);
  if (!existsSync(path.join(staticDir, 'index.html'))) fail(`${staticDir}/index.html is missing: build the renderer first (npm run start:web builds it)`);
  if (values.passphrase && values['passphrase-file'] !== undefined) fail('give --passphrase or --passphrase-file, not both');
  return { ...values, staticDir, dataDir: path.resolve(values['data-dir']) };
}

/** The vault's box: sealed with the passphrase from --passphrase-file or asked on the console (--passphrase), or none. */
async function openBox(values: Options, dataDir: string): Promise<ReturnType<typeof vaultBox>> {
  try {
    const passphrase =
      values['passphrase-file'] !== undefined
        ? passphraseFromFile(path.resolve(values['passphrase-file']))
        : values.passphrase
          ? await askPassphrase('vault passphrase: ')
          : undefined;
    return vaultBox(new FileKeyBox(dataDir), dataDir, passphrase);
  } catch (e) {
    fail((e as Error).message);
  }
}

/**
 * The embedded exchange is the slowest part of a start, so it is started first, before this
 * process loads the rest of the terminal (the services and the host's server, imported below
 * once it runs): the two overlap instead of one after the other.
 */
function startExchange(o: ReturnType<typeof parseOptions>): Promise<EmbeddedExchange> {
  ensurePrivateDir(o.dataDir);
  const launched = launchEmbedded(o.dataDir, { command: process.execPath, args: exchangeArgs, seed: o.seed, ...simSettingsOf(o) }, (m) => console.log(m));
  launched.catch(() => undefined); // reported where the terminal awaits it
  return launched;
}

// The page loads while the embedded exchange starts: the host listens at once with a door that
// holds each call until the services are up.
async function serve(o: ReturnType<typeof parseOptions>, box: Awaited<ReturnType<typeof openBox>>, launched: Promise<EmbeddedExchange>): Promise<{ host: RunningHost; terminal: RunningTerminal }> {
  const [{ startTerminal }, { startHost }] = await Promise.all([import('../app/terminal'), import('./server')]);
  let host: RunningHost | null = null;
  const terminalReady = startTerminal({
    dataDir: o.dataDir,
    box,
    shell: 'web',
    launched,
    // the page is the whole UI: loosening a limit or releasing the kill switch also needs the
    // code this console prints (a compromised page alone cannot do either)
    confirmRisk: new ConsoleConfirm((line) => console.log(line)).ask,
    // Views before the page connects have no audience; the UI asks getAppState on connect.
    emit: (stream, payload) => host?.broadcast(stream, payload),
    log: (m) => console.log(m),
  });
  terminalReady.catch(() => undefined); // reported where it is awaited below
  const door: RunningTerminal['door'] = async (method, args) => {
    let t: RunningTerminal;
    try {
      t = await terminalReady;
    } catch (e) {
      return { ok: false, error: { kind: 'state', message: `the terminal did not start: ${(e as Error).message}` } };
    }
    return t.door(method, args);
  };
  const hostLog = (m: string) => console.log(`[host] ${m}`);
  host = await listenRemembering(o.dataDir, o.port, (port) => startHost({ port, staticDir: o.staticDir, door, log: hostLog }), hostLog);
  console.log(`terminal at ${host.url}`);
  const terminal = await terminalReady;
  console.log('terminal ready');
  return { host, terminal };
}

function openBrowser(dataDir: string, url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'start' : 'xdg-open';
  const noBrowser = (why: string) => console.log(`could not open a browser (${why}); open the URL above`);
  // The browser is handed a file only this user can read that forwards to the tokened URL, so
  // the token never appears in a command line other users can list; the file goes once read.
  const launcher = writeLauncher(dataDir, url);
  spawn(opener, [launcher], { detached: true, stdio: 'ignore' })
    .on('error', (e) => noBrowser(`${opener}: ${e.message}`))
    .on('exit', (code) => {
      if (code) noBrowser(`${opener} exited with ${code}`);
    })
    .unref();
}

async function main(): Promise<void> {
  const o = parseOptions();
  const box = await openBox(o, o.dataDir);
  const { host, terminal } = await serve(o, box, startExchange(o));
  if (o.open) openBrowser(o.dataDir, host.url);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close();
    await terminal.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  stopOnDisconnect = () => {
    setTimeout(() => process.exit(1), 60_000).unref();
    void stop();
  };
}

main().catch((e: unknown) => {
  console.error(`start:web: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
