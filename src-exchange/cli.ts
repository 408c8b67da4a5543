// `npm run exchange -- --port <n|0> --data-dir <dir> [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--snapshot-every <commands>] [--no-rate-limits] [--replay <recording.duckdb> [--speed <1..1000|max>] [--play]]`
// Starts the embedded exchange on 127.0.0.1 and prints `exchange listening on http://127.0.0.1:<port>`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startExchange } from './server';
import { JournalError } from './journal/errors';
import { readRecording } from './replay/read';
import type { Speed } from './replay/player';

function fail(message: string): never {
  console.error(`exchange: ${message}`);
  console.error('usage: npm run exchange -- --port <n|0> --data-dir <dir> [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--snapshot-every <commands>] [--no-rate-limits] [--replay <recording.duckdb> [--speed <1..1000|max>] [--play]]');
  process.exit(2);
}

// A parent that started us with an IPC channel (the terminal) takes us with it when it dies,
// also while we are still starting: the listener is there before the slow part.
let stopOnDisconnect: ((why: string) => void) | null = null;
if (process.connected) process.on('disconnect', () => (stopOnDisconnect ? stopOnDisconnect('parent gone') : process.exit(0)));

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        'data-dir': { type: 'string', default: '.data/exchange' },
        seed: { type: 'string', default: '1' },
        'no-sim': { type: 'boolean', default: false },
        'sim-rate': { type: 'string' },
        'snapshot-every': { type: 'string' },
        'no-rate-limits': { type: 'boolean', default: false },
        replay: { type: 'string' },
        speed: { type: 'string' },
        play: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got ${String(values.port)}`);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed)) fail(`--seed must be an integer, got ${String(values.seed)}`);
  const dataDir = path.resolve(String(values['data-dir']));
  const simRate = values['sim-rate'] === undefined ? undefined : Number(values['sim-rate']);
  if (simRate !== undefined && !(Number.isInteger(simRate) && simRate >= 0 && simRate <= 20_000)) fail(`--sim-rate must be a whole number of commands per second from 0 to 20000, got ${String(values['sim-rate'])}`);

  const snapshotEvery = values['snapshot-every'] === undefined ? undefined : Number(values['snapshot-every']);
  if (snapshotEvery !== undefined && !(Number.isSafeInteger(snapshotEvery) && snapshotEvery >= 100)) fail(`--snapshot-every must be a whole number of journaled commands, at least 100, got ${String(values['snapshot-every'])}`);

  let speed: Speed | undefined;
  if (values.speed !== undefined) {
    speed = values.speed === 'max' ? 'max' : Number(values.speed);
    if (speed !== 'max' && !(Number.isFinite(speed) && speed >= 1 && speed <= 1000)) fail(`--speed must be 1 to 1000 or max, got ${String(values.speed)}`);
  }
  if ((speed !== undefined || values.play) && values.replay === undefined) fail('--speed and --play need --replay <recording>');
  const tape = values.replay === undefined ? undefined : await readRecording(path.resolve(String(values.replay))).catch((e: unknown) => fail(`--replay: ${(e as Error).message}`));

  const ex = await startExchange({
    dataDir,
    port,
    seed,
    sim: !values['no-sim'],
    rateLimits: !values['no-rate-limits'],
    ...(simRate !== undefined ? { simOptions: { ratePerSecond: simRate } } : {}),
    ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
    ...(tape ? { replay: { tape, ...(speed !== undefined ? { speed } : {}), play: values.play === true } } : {}),
  });
  console.log(`exchange listening on http://127.0.0.1:${ex.port}`);
  console.log(`exchange FIX on 127.0.0.1:${ex.fixPort} (FIXT.1.1: KalshiNR, KalshiRT, KalshiDC, KalshiMD, KalshiPT, KalshiRFQ)`);
  console.log(`exchange FIX over TLS on 127.0.0.1:${ex.fixTlsPort} (certificate ${ex.fixTlsCertPath})`);
  console.log(`credentials in ${path.join(dataDir, 'credentials.json')}`);
  if (ex.replay) {
    const st = ex.replay.state();
    console.log(`exchange replaying ${st.rows.toLocaleString()} rows over ${ex.replay.tape.markets.length} markets (${st.skippedMarkets.length} not open here, skipped); control at http://127.0.0.1:${ex.port}/admin/replay`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`exchange: ${signal}, closing`);
    await ex.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  stopOnDisconnect = (why) => {
    // nobody waits for an orphan's orderly close: it gets a minute, then goes
    setTimeout(() => process.exit(1), 60_000).unref();
    void stop(why);
  };
}

main().catch((e: unknown) => {
  // The data dir held by another live exchange is an expected refusal, not a crash: say it plainly.
  if (e instanceof JournalError && e.code === 'LOCKED') {
    console.error(`exchange: cannot start: ${e.message}`);
    process.exit(1);
  }
  console.error(`exchange: failed to start: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
