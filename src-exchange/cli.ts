// `npm run exchange -- --port <n|0> --data-dir <dir> [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--sim-market-minutes <n>] [--sim-pause-minutes <n>] [--snapshot-every <commands>] [--no-rate-limits] [--replay <recording.duckdb> [--speed <1..1000|max>] [--play]]`
// Starts the embedded exchange on 127.0.0.1 and prints `exchange listening on http://127.0.0.1:<port>`.
import path from 'node:path';
import { SIM_OPTIONS, parseCliArgs, type CliValues } from '../src-shared/cli-args';
import { startExchange } from './server';
import { JournalError } from './journal/errors';
import type { Speed } from './replay/player';
import { lifecycleOfMinutes } from './sim/lifecycle';

function fail(message: string): never {
  console.error(`exchange: ${message}`);
  console.error('usage: npm run exchange -- --port <n|0> --data-dir <dir> [--seed <n>] [--no-sim] [--sim-rate <commands/s>] [--sim-market-minutes <n>] [--sim-pause-minutes <n>] [--snapshot-every <commands>] [--no-rate-limits] [--replay <recording.duckdb> [--speed <1..1000|max>] [--play]]');
  process.exit(2);
}

// A parent that started us with an IPC channel (the terminal) takes us with it when it dies,
// also while we are still starting: the listener is there before the slow part.
let stopOnDisconnect: ((why: string) => void) | null = null;
if (process.connected) process.on('disconnect', () => (stopOnDisconnect ? stopOnDisconnect('parent gone') : process.exit(0)));

const OPTIONS = {
  port: { type: 'int', min: 0, max: 65535, default: 0 },
  'data-dir': { type: 'string', default: '.data/exchange' },
  seed: { type: 'int', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, default: 1 },
  ...SIM_OPTIONS,
  'snapshot-every': { type: 'int', min: 100, max: Number.MAX_SAFE_INTEGER, what: 'journaled commands' },
  'no-rate-limits': { type: 'boolean' },
  replay: { type: 'string' },
  speed: { type: 'string' },
  play: { type: 'boolean' },
} as const;

async function main(): Promise<void> {
  let values: CliValues<typeof OPTIONS>;
  try {
    values = parseCliArgs(process.argv.slice(2), OPTIONS);
  } catch (e) {
    fail((e as Error).message);
  }
  const { port, seed, 'sim-rate': simRate, 'sim-market-minutes': marketMinutes, 'sim-pause-minutes': pauseMinutes, 'snapshot-every': snapshotEvery } = values;
  const dataDir = path.resolve(values['data-dir']);
  const simOptions = { ...(simRate !== undefined ? { ratePerSecond: simRate } : {}), ...(marketMinutes !== undefined ? lifecycleOfMinutes(marketMinutes) : {}), ...(pauseMinutes !== undefined ? { pauseEveryMs: pauseMinutes * 60_000 } : {}) };

  let speed: Speed | undefined;
  if (values.speed !== undefined) {
    speed = values.speed === 'max' ? 'max' : Number(values.speed);
    if (speed !== 'max' && !(Number.isFinite(speed) && speed >= 1 && speed <= 1000)) fail(`--speed must be 1 to 1000 or max, got ${String(values.speed)}`);
  }
  if ((speed !== undefined || values.play) && values.replay === undefined) fail('--speed and --play need --replay <recording>');
  // DuckDB is loaded only to read a recording (not on every start)
  const replayFile = values.replay;
  const tape = replayFile === undefined ? undefined : await import('./replay/read').then(({ readRecording }) => readRecording(path.resolve(replayFile))).catch((e: unknown) => fail(`--replay: ${(e as Error).message}`));

  const ex = await startExchange({
    dataDir,
    port,
    seed,
    sim: !values['no-sim'],
    rateLimits: !values['no-rate-limits'],
    ...(Object.keys(simOptions).length ? { simOptions } : {}),
    ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
    ...(tape ? { replay: { tape, ...(speed !== undefined ? { speed } : {}), play: values.play } } : {}),
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
